package app;

import io.crawlsched.Crawlsched;
import io.crawlsched.Dist;
import io.crawlsched.FreshnessModel;

/** Plans recrawl frequencies; Theorem 3.4 with a deterministic crawl time gives f proportional to the rates. */
public final class Plan {
    public static void main(String[] args) {
        double[] rates = {1.0, 2.0, 5.0};
        try (Dist x = Dist.deterministic(0.1); FreshnessModel m = FreshnessModel.create(x, rates, null)) {
            double[] f = m.optimalFrequencies();
            for (int i = 0; i < rates.length; i++) {
                if (Math.abs(f[i] - rates[i] / 8.0) > 1e-12) {
                    throw new AssertionError("f[" + i + "] = " + f[i] + ", expected " + rates[i] / 8.0);
                }
            }
            System.out.println("java jar: crawlsched " + Crawlsched.version() + ", plan " + java.util.Arrays.toString(f));
        }
    }
}
