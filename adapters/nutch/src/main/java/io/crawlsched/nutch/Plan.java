package io.crawlsched.nutch;

import io.crawlsched.Dist;
import io.crawlsched.FreshnessModel;
import io.crawlsched.FreshnessShard;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;

/**
 * The crawl's plan, reduced to what each page's interval needs: the
 * Lagrange multiplier ln(lambda) of the budget (Theorem 3.4: at the optimum
 * every page's frequency is a function of its own rate, weight and this one
 * number) and the median rate estimate (the guess for pages discovered
 * later). {@link #compute} finds it from all pages' rates once per generate
 * cycle; {@link #applyTo} puts it in the configuration the FetchSchedule
 * reads ({@value #LN_MULTIPLIER}, {@value #MEDIAN_RATE}).
 */
public final class Plan {
    public static final String LN_MULTIPLIER = "crawlsched.plan.ln_multiplier";
    public static final String MEDIAN_RATE = "crawlsched.plan.median_rate";
    /** Rates below this (per second) are planned as this: the model needs positive rates. */
    static final double MIN_RATE = 1e-12;

    public final double lnMultiplier;
    public final double medianRate;

    public Plan(double lnMultiplier, double medianRate) {
        this.lnMultiplier = lnMultiplier;
        this.medianRate = medianRate;
    }

    /**
     * The plan for pages with these change rates (per second) and weights
     * under a budget of {@code budget} fetches per second, each fetch taking
     * 1/budget seconds of the crawler's time.
     */
    public static Plan compute(double[] rates, double[] weights, double budget) {
        double[] r = new double[rates.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = Math.max(rates[i], MIN_RATE);
        }
        double ln;
        try (Dist access = Dist.deterministic(1.0 / budget);
             FreshnessModel m = FreshnessModel.create(access, r, weights);
             FreshnessShard shard = FreshnessShard.create(m)) {
            double[] s = shard.summary();
            try (FreshnessShard.MultiplierSearch search = FreshnessShard.MultiplierSearch.create(s[0], s[1], s[2])) {
                double[] next = search.next();
                while (next[0] == 0) {
                    search.update(shard.sumAt(next[1]));
                    next = search.next();
                }
                ln = next[1];
            }
        }
        double[] sorted = r.clone();
        Arrays.sort(sorted);
        return new Plan(ln, sorted[sorted.length / 2]);
    }

    /**
     * One page's share of the fetches (its frequency at the plan's
     * multiplier, Theorem 3.4); 0 = the optimum never visits it.
     */
    public double frequency(double rate, double weight, double budget) {
        try (Dist access = Dist.deterministic(1.0 / budget);
             FreshnessModel m = FreshnessModel.create(access, new double[] {Math.max(rate, MIN_RATE)},
                     new double[] {weight});
             FreshnessShard shard = FreshnessShard.create(m)) {
            return shard.frequenciesAt(lnMultiplier)[0];
        }
    }

    public void applyTo(Configuration conf) {
        conf.set(LN_MULTIPLIER, Double.toString(lnMultiplier));
        conf.set(MEDIAN_RATE, Double.toString(medianRate));
    }

    /** The plan in {@code conf}, or null when none has been computed yet. */
    public static Plan from(Configuration conf) {
        String ln = conf.get(LN_MULTIPLIER);
        if (ln == null) {
            return null;
        }
        return new Plan(Double.parseDouble(ln), conf.getDouble(MEDIAN_RATE, Double.NaN));
    }
}
