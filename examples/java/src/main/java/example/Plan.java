package example;

import io.crawlsched.Arrivals;
import io.crawlsched.Crawlsched;
import io.crawlsched.Dist;
import io.crawlsched.Freshness;
import io.crawlsched.FreshnessModel;
import io.crawlsched.ProbePlanner;
import io.crawlsched.ProbeProfile;
import io.crawlsched.Robots;
import io.crawlsched.Scheduler;
import io.crawlsched.Servers;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A crawl plan computed with crawlsched from Java: recrawl frequencies and a
 * golden-ratio cycle for a few pages, a live scheduler, the number of robots
 * to run, a routing period and a probe schedule. The same plan as
 * examples/go/main.go, printed in the same format.
 *
 * <pre>
 * cargo build --release --lib
 * (cd bindings/java &amp;&amp; mvn -q install) &amp;&amp; cd examples/java &amp;&amp; mvn -q compile exec:java
 * </pre>
 */
public final class Plan {
    private Plan() {}

    public static void main(String[] args) {
        p("crawlsched %s (ABI %d)\n", Crawlsched.version(), Crawlsched.libraryAbiVersion());

        // 1. Recrawl frequencies: 6 pages with change rates per hour, a crawl
        // taking 1/4 hour on average (exponential).
        double[] rates = {2.0, 1.0, 0.5, 0.25, 0.1, 0.05};
        try (Dist access = Dist.exponential(4);
                FreshnessModel model = FreshnessModel.create(access, rates, null)) {
            double[] freq = model.optimalFrequencies();
            double lb = model.lowerBound();
            p("\nOptimal recrawl plan (Theorem 3.4):\n");
            for (int i = 0; i < freq.length; i++) {
                p("  page %d  change rate %5.2f/h  share of crawls %6.2f%%\n", i, rates[i], 100 * freq[i]);
            }
            p("  missed changes per hour >= %.4f\n", lb);

            long[] counts = Freshness.integerCounts(freq, 34, true);
            int[] cycle = Freshness.goldenRatioSequence(counts);
            double cost = model.cyclicCost(cycle);
            p("  golden-ratio cycle of %d crawls %s\n  its exact cost %.4f (%.2f%% above the bound)\n",
                    cycle.length, list(cycle), cost, 100 * (cost / lb - 1));

            // 2. The same pages in a streaming scheduler, as a crawler would use it.
            try (Scheduler sched = Scheduler.create(access, Scheduler.Mode.GOLDEN_RATIO)) {
                for (int i = 0; i < rates.length; i++) {
                    sched.addPage(1000 + i, rates[i]);
                }
                p("\nScheduler: next 12 crawls %s\n", list(sched.nextBatch(12)));
            }
        }

        // 3. How many robots: 5 waiting places, 0.1 pages per robot, gamma 0.4 (Table 2).
        try (Robots robots = Robots.solveUnlimited(5, 0.1, 1, 0.4)) {
            Robots.Cost c = robots.cost();
            Robots.Counts n = robots.counts();
            p("\nRobots: optimal cost %.5f (starvation %.4f, loss rate %.5f), robots min %d mean %.1f max %d\n",
                    c.cost(), c.starvation(), c.lossRate(), n.min(), n.mean(), n.max());
        }

        // 4. Routing requests to two fetchers of rates 1 and 3 (Figure 1).
        try (Arrivals arr = Arrivals.poisson(1);
                Servers servers = Servers.create(arr, new double[] {1, 3}, null, Servers.Objective.LOSSES)) {
            Servers.Plan plan = servers.optimizeExhaustive(1, 8);
            p("\nRouting: optimal period %s, %.5f packets lost per packet\n", list(plan.period()), plan.cost());
        }

        // 5. Probing a DBWorld-like source 14 times in 4 weeks, hourly grid.
        try (ProbeProfile db = ProbeProfile.dbworld(3, 28);
                ProbePlanner planner = ProbePlanner.create(db, 672, 0)) {
            ProbePlanner.Plan probes = planner.plan(14, ProbePlanner.Method.LAGRANGIAN);
            double uc = db.expectedCost(db.uniform(14));
            p("\nProbing: 14 probes cost %.4f (uniform %.4f); days %s\n", probes.cost(), uc, list(probes.probes(), "%.2f"));
        }
    }

    private static final Pattern SPEC = Pattern.compile("%[-#+ 0,(]*\\d*(?:\\.(\\d+))?([a-zA-Z%])");

    /**
     * printf as C and Go round: '.' decimals whatever the locale, and %.Nf
     * rounding the double's exact value half to even (Java's Formatter
     * rounds half up, so 14.625 would print 14.63 instead of 14.62).
     */
    private static void p(String format, Object... args) {
        System.out.print(sprintf(format, args));
    }

    private static String sprintf(String format, Object... args) {
        Matcher m = SPEC.matcher(format);
        for (int a = 0; m.find();) {
            if (m.group(2).equals("%") || m.group(2).equals("n")) {
                continue;
            }
            if (m.group(2).equals("f") && m.group(1) != null && args[a] instanceof Double d) {
                args[a] = new BigDecimal(d).setScale(Integer.parseInt(m.group(1)), RoundingMode.HALF_EVEN);
            }
            a++;
        }
        return String.format(Locale.ROOT, format, args);
    }

    /** A list as Go's %v prints a slice: [a b c]. */
    private static String list(int[] xs) {
        StringJoiner j = new StringJoiner(" ", "[", "]");
        for (int x : xs) {
            j.add(Integer.toUnsignedString(x));
        }
        return j.toString();
    }

    private static String list(long[] xs) {
        StringJoiner j = new StringJoiner(" ", "[", "]");
        for (long x : xs) {
            j.add(Long.toUnsignedString(x));
        }
        return j.toString();
    }

    private static String list(double[] xs, String format) {
        StringJoiner j = new StringJoiner(" ", "[", "]");
        for (double x : xs) {
            j.add(sprintf(format, x));
        }
        return j.toString();
    }
}
