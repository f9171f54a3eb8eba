package io.crawlsched.nutch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.nutch.crawl.AdaptiveFetchSchedule;
import org.apache.nutch.crawl.CrawlDb;
import org.apache.nutch.crawl.DefaultFetchSchedule;
import org.apache.nutch.crawl.Generator;
import org.apache.nutch.fetcher.Fetcher;
import org.junit.jupiter.api.Test;

/**
 * crawlsched's FetchSchedule against Nutch's DefaultFetchSchedule (the fixed
 * interval that spends the same budget: round robin) through Nutch 1.22's own
 * jobs in Hadoop local mode: Injector, then cycles of Generator, Fetcher,
 * PlanTool (crawlsched only) and CrawlDb update, each crawler on its own copy
 * of the test site (same seed: the same change realisation). The crawlers run
 * in lockstep: both sites are reset at the same instant and every cycle
 * starts for both at once (a barrier), so both get the same cycles of topN
 * fetches whatever the machine's load, and both fetch lists are fetched at
 * the same time (a second barrier). The site referees, cycle by cycle
 * over the same site-time spans for both.
 */
class RealNutchComparisonTest {
    static final int PAGES = Integer.getInteger("nutch.compare.pages", 1200);
    static final double RATE_MAX = 0.4; // per second; the site's minimum is 0.001
    static final int TOP_N = PAGES / 2; // fetches per cycle: round robin revisits every 2 cycles
    static final double PERIOD = Double.parseDouble(System.getProperty("nutch.compare.period", "5"));
    static final double SECONDS = Double.parseDouble(System.getProperty("nutch.compare.seconds", "240"));
    static final int SEED = Integer.getInteger("nutch.compare.seed", 7);
    /** The paired windows of the standard error are this many whole cycles. */
    static final int CYCLES_PER_WINDOW = Integer.getInteger("nutch.compare.window.cycles", 4);
    static final boolean LOCKSTEP = !Boolean.getBoolean("nutch.compare.free");
    static final String[] KINDS = Boolean.getBoolean("nutch.compare.adaptive")
            ? new String[] {"crawlsched", "default", "adaptive"} : new String[] {"crawlsched", "default"};

    static final class Run {
        final String kind;
        final TestSite site;
        final Path dir;
        int cycles;
        int late; // cycles that started more than 50 ms after their planned start
        long generateMs, fetchMs, planMs, updateMs;
        double[] rateErrors; // crawlsched: median |ln(estimate/true)| and |ln(guess/true)| over the pages

        Run(String kind) throws Exception {
            this.kind = kind;
            site = new TestSite(PAGES, SEED, RATE_MAX);
            dir = Files.createTempDirectory("nutch-" + kind);
        }
    }

    /** Shared by the crawler threads: the reset instant and each cycle's start, decided at the barrier. */
    static final class Clock {
        long reset; // System.nanoTime() when the sites were reset
        long nextStart;
        boolean go = true;
        int cycle;
        final List<Double> starts = new ArrayList<>(); // site time of each cycle's start, then the end
    }

    @Test
    void beatsNutchDefaultThroughNutchsJobs() throws Exception {
        long wall0 = System.nanoTime();
        List<Run> runs = new ArrayList<>();
        try {
            for (String kind : KINDS) {
                runs.add(new Run(kind));
            }
            List<Double> starts = crawlAll(runs);
            report(runs, starts, (System.nanoTime() - wall0) / 1e9);
        } finally {
            for (Run r : runs) {
                r.site.close();
                FileSystem.getLocal(new Configuration()).delete(RealNutchCycleTest.hpath(r.dir, ""), true);
            }
        }
    }

    /**
     * Runs the crawls; returns the site times (seconds since the reset) at which the cycles started, and
     * last the time at which they had all ended.
     */
    private static List<Double> crawlAll(List<Run> runs) throws Exception {
        Clock clock = new Clock();
        CyclicBarrier start = new CyclicBarrier(runs.size(), () -> {
            try {
                for (Run r : runs) {
                    r.site.get("/__reset");
                }
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
            clock.reset = System.nanoTime();
        });
        CyclicBarrier cycle = new CyclicBarrier(runs.size(), () -> {
            long now = System.nanoTime();
            long planned = clock.reset + Math.round(clock.cycle * PERIOD * 1e9);
            clock.nextStart = Math.max(now, planned);
            clock.go = (clock.nextStart - clock.reset) / 1e9 + PERIOD <= SECONDS;
            clock.starts.add((clock.go ? clock.nextStart - clock.reset : now - clock.reset) / 1e9);
            clock.cycle++;
        });
        CyclicBarrier fetch = new CyclicBarrier(runs.size());
        ExecutorService pool = Executors.newFixedThreadPool(runs.size());
        List<Future<?>> done = new ArrayList<>();
        for (Run r : runs) {
            done.add(pool.submit(() -> {
                crawl(r, clock, start, LOCKSTEP ? cycle : null, LOCKSTEP ? fetch : null);
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        if (!LOCKSTEP) { // free-running: cycles of PERIOD, as planned
            for (int k = 0; k <= runs.get(0).cycles; k++) {
                clock.starts.add(k * PERIOD);
            }
        }
        return clock.starts;
    }

    /**
     * The crawler's configuration: the budget is TOP_N per PERIOD;
     * round robin's interval spends exactly it; Adaptive's shortest interval
     * is one cycle. The rest makes a local-mode cycle cheap: the job client
     * polls every 20 ms (not 1 s), small sort buffers, the Fetcher computes
     * the MD5 signature itself (fetcher.signature) so no parse job is needed
     * for updatedb's change detection, and the fetch list fits in the
     * Fetcher's queues (its feeder sleeps 1 s whenever they are full).
     */
    static Configuration conf(String kind, Path dir) throws Exception {
        Configuration c = RealNutchCycleTest.conf(dir);
        double budget = TOP_N / PERIOD;
        int roundRobin = (int) Math.round(PAGES / budget);
        c.setInt("db.fetch.interval.default", roundRobin);
        c.set(CrawlschedFetchSchedule.BUDGET, Double.toString(budget));
        c.set(CrawlschedFetchSchedule.MAX_INTERVAL, Double.toString(4.0 * roundRobin));
        c.set("db.fetch.schedule.adaptive.min_interval", Double.toString(PERIOD));
        c.set("db.fetch.schedule.class", kind.equals("crawlsched") ? CrawlschedFetchSchedule.class.getName()
                : kind.equals("default") ? DefaultFetchSchedule.class.getName()
                : AdaptiveFetchSchedule.class.getName());
        c.setInt("mapreduce.client.progressmonitor.pollinterval", 20);
        c.setInt("mapreduce.client.completion.pollinterval", 20);
        c.setInt("mapreduce.task.io.sort.mb", 4);
        c.setBoolean("fetcher.signature", true);
        c.setBoolean("fetcher.store.content", false);
        c.setInt("fetcher.threads.fetch", 4);
        c.setInt("fetcher.threads.per.queue", 4);
        c.setInt("fetcher.queue.depth.multiplier", TOP_N);
        return c;
    }

    /**
     * Inject, then cycles of generate, fetch, (plan,) updatedb, each starting when the clock says. In
     * lockstep the fetches start together too ({@code fetch}): Generator names segments under a JVM-wide
     * lock with a 1 s sleep, so one crawler's generate takes a second longer than the other's, in random
     * order; without this barrier its fetch burst would come a second later in the cycle, which moved a
     * cycle's measured gain by about ±0.03.
     */
    private static void crawl(Run r, Clock clock, CyclicBarrier start, CyclicBarrier cycle, CyclicBarrier fetch)
            throws Exception {
        Configuration c = conf(r.kind, r.dir);
        org.apache.hadoop.fs.Path db = RealNutchCycleTest.hpath(r.dir, "crawldb");
        org.apache.hadoop.fs.Path segments = RealNutchCycleTest.hpath(r.dir, "segments");
        start.await();
        RealNutchCycleTest.inject(c, r.site, r.dir, db);
        for (int k = 0;; k++) {
            long planned = clock.reset + Math.round(k * PERIOD * 1e9);
            long next;
            if (cycle != null) {
                cycle.await();
                if (!clock.go) {
                    break;
                }
                next = clock.nextStart;
            } else {
                next = Math.max(System.nanoTime(), planned);
                if ((next - clock.reset) / 1e9 + PERIOD > SECONDS) {
                    break;
                }
            }
            if (k > 0 && next > planned + 50_000_000L) {
                r.late++;
            }
            long sleep = (next - System.nanoTime()) / 1_000_000;
            if (sleep > 0) {
                Thread.sleep(sleep);
            }
            long t = System.nanoTime();
            org.apache.hadoop.fs.Path[] seg = new Generator(c).generate(db, segments, 1, TOP_N,
                    System.currentTimeMillis() + Math.round(PERIOD * 1000));
            r.generateMs += (System.nanoTime() - t) / 1_000_000;
            if (fetch != null) {
                fetch.await();
            }
            if (seg != null) {
                t = System.nanoTime();
                new Fetcher(c).fetch(seg[0], 4);
                r.fetchMs += (System.nanoTime() - t) / 1_000_000;
                if (r.kind.equals("crawlsched")) {
                    t = System.nanoTime();
                    new PlanTool() {{ setConf(c); }}.run(new String[] {db.toString()});
                    r.planMs += (System.nanoTime() - t) / 1_000_000;
                }
                t = System.nanoTime();
                new CrawlDb(c).update(db, seg, false, false);
                r.updateMs += (System.nanoTime() - t) / 1_000_000;
            }
            r.cycles++;
        }
        if (r.kind.equals("crawlsched")) {
            r.rateErrors = rateErrors(c, db, r.site.get("/__truth"), TOP_N / PERIOD / PAGES);
        }
    }

    /** Medians over the CrawlDb's pages of |ln(estimate/true)| and of |ln(guess/true)|. */
    private static double[] rateErrors(Configuration c, org.apache.hadoop.fs.Path db, JsonNode truth, double guess)
            throws Exception {
        Map<String, Double> rates = new HashMap<>();
        for (int i = 0; i < truth.get("urls").size(); i++) {
            rates.put(truth.get("urls").get(i).asText(), truth.get("rates").get(i).asDouble());
        }
        CrawlschedFetchSchedule s = new CrawlschedFetchSchedule();
        s.setConf(c);
        double[] est = new double[PAGES];
        double[] initial = new double[PAGES];
        int[] k = {0};
        int n = RealNutchCycleTest.eachDatum(c, db, (url, d) -> {
            double t = rates.get(url.toString());
            est[k[0]] = Math.abs(Math.log(s.rate(d) / t));
            initial[k[0]] = Math.abs(Math.log(guess / t));
            k[0]++;
        });
        assertEquals(PAGES, n, "every page in the CrawlDb");
        return new double[] {median(est), median(initial)};
    }

    /**
     * The site measures each crawler's freshness cycle by cycle (whole cycles, so a window holds the
     * same fetch bursts for both crawlers) over the second half of the cycles (the first half is learning
     * from the initial guess); the gain's standard error is over paired windows of CYCLES_PER_WINDOW
     * cycles.
     */
    private static void report(List<Run> runs, List<Double> starts, double wall) throws Exception {
        int cycles = starts.size() - 1; // the last entry is the end of the last cycle
        int first = cycles / 2;
        double a = starts.get(first), end = starts.get(cycles);
        System.out.printf("RealNutchComparisonTest: %d pages, seed %d, topN %d per %.1f s cycle, %s, %d cycles in "
                + "%.1f s (measured: cycles %d-%d, %.1f-%.1f s), test %.1f s%n", PAGES, SEED, TOP_N, PERIOD,
                LOCKSTEP ? "lockstep" : "free-running", cycles, end, first, cycles - 1, a, end, wall);
        List<double[]> perCycle = new ArrayList<>(); // per crawler: freshness in each measured cycle
        for (Run r : runs) {
            JsonNode all = r.site.get("/__stats");
            JsonNode half = r.site.get(String.format("/__stats?start=%f&end=%f", a, end));
            double[] f = new double[cycles - first];
            for (int k = first; k < cycles; k++) {
                f[k - first] = r.site.get(String.format("/__stats?start=%f&end=%f", starts.get(k), starts.get(k + 1)))
                        .get("freshness").asDouble();
            }
            perCycle.add(f);
            System.out.printf("  %-10s freshness %.4f (second half %.4f), fetches %d (budget %d), cycles %d "
                    + "(%d late), per cycle: generate %d ms, fetch %d ms, plan %d ms, updatedb %d ms%n", r.kind,
                    all.get("freshness").asDouble(), half.get("freshness").asDouble(),
                    all.get("fetches").asLong(), (long) TOP_N * r.cycles, r.cycles, r.late,
                    r.generateMs / r.cycles, r.fetchMs / r.cycles, r.planMs / r.cycles, r.updateMs / r.cycles);
            assertTrue(all.get("fetches").asLong() <= (long) TOP_N * r.cycles, r.kind + " kept the budget");
        }
        double[] len = new double[cycles - first];
        for (int c = 0; c < len.length; c++) {
            len[c] = starts.get(first + c + 1) - starts.get(first + c);
        }
        double[] gain = null;
        for (int k = 1; k < runs.size(); k++) {
            double[] g = new double[cycles - first];
            for (int c = 0; c < g.length; c++) {
                g[c] = perCycle.get(0)[c] - perCycle.get(k)[c];
            }
            StringBuilder diag = new StringBuilder();
            for (int per = 1; per <= 8; per *= 2) {
                double[] ms = meanSe(batches(g, len, per));
                diag.append(String.format(" windows of %d cycles %.4f +- %.4f;", per, ms[0], ms[1]));
            }
            System.out.printf("  crawlsched - %s:%s lag-1 autocorrelation of the cycles' gains %.2f; cycles %s%n",
                    runs.get(k).kind, diag, lag1(g),
                    Arrays.toString(Arrays.stream(g).map(x -> Math.round(x * 1e4) / 1e4).toArray()));
            if (k == 1) {
                gain = meanSe(batches(g, len, CYCLES_PER_WINDOW));
            }
        }
        assertEquals(runs.get(0).cycles, runs.get(1).cycles, "the same number of cycles");
        System.out.printf("  GAIN crawlsched - default: %.4f +- %.4f (%.1f standard errors, %d windows of %d "
                + "cycles)%n", gain[0], gain[1], gain[0] / gain[1], (cycles - first) / CYCLES_PER_WINDOW,
                CYCLES_PER_WINDOW);
        double[] e = runs.get(0).rateErrors;
        System.out.printf("  rates: median |ln(estimate/true)| %.3f, initial guess %.3f%n", e[0], e[1]);
        assertTrue(gain[0] > 2 * gain[1],
                "crawlsched's freshness gain over the default exceeds twice its standard error");
        assertTrue(e[0] < 0.5 * e[1], "estimates approach the true rates");
    }

    /** Time-weighted means of consecutive windows of {@code per} cycles (a last, shorter one is dropped). */
    private static double[] batches(double[] g, double[] len, int per) {
        int n = g.length / per;
        double[] out = new double[n];
        for (int i = 0; i < n; i++) {
            double sum = 0, t = 0;
            for (int j = i * per; j < (i + 1) * per; j++) {
                sum += g[j] * len[j];
                t += len[j];
            }
            out[i] = sum / t;
        }
        return out;
    }

    /** {mean, standard error of the mean}. */
    private static double[] meanSe(double[] g) {
        double mean = Arrays.stream(g).average().orElse(0);
        double var = Arrays.stream(g).map(x -> (x - mean) * (x - mean)).sum() / (g.length - 1);
        return new double[] {mean, Math.sqrt(var / g.length)};
    }

    private static double lag1(double[] g) {
        double mean = Arrays.stream(g).average().orElse(0);
        double num = 0, den = 0;
        for (int i = 0; i < g.length; i++) {
            den += (g[i] - mean) * (g[i] - mean);
            if (i > 0) {
                num += (g[i] - mean) * (g[i - 1] - mean);
            }
        }
        return num / den;
    }

    private static double median(double[] xs) {
        double[] a = xs.clone();
        Arrays.sort(a);
        return a[a.length / 2];
    }
}
