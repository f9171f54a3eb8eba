package io.crawlsched.nutch;

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
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.nutch.crawl.AdaptiveFetchSchedule;
import org.apache.nutch.crawl.CrawlDatum;
import org.apache.nutch.crawl.CrawlDb;
import org.apache.nutch.crawl.DefaultFetchSchedule;
import org.apache.nutch.crawl.Generator;
import org.apache.nutch.fetcher.Fetcher;
import org.junit.jupiter.api.Test;

/**
 * crawlsched's FetchSchedule against Nutch's DefaultFetchSchedule (the fixed
 * interval that spends the same budget: round robin) and
 * AdaptiveFetchSchedule through Nutch 1.22's own jobs in Hadoop local mode
 * (Injector, then cycles of Generator, Fetcher, PlanTool for crawlsched, and
 * CrawlDb update), each crawler on its own copy of the test site (same seed:
 * the same change realisation), all three at once. The site referees.
 */
class RealNutchComparisonTest {
    static final int PAGES = 150;
    static final double RATE_MAX = 0.4; // per second; the site's minimum is 0.001
    static final int TOP_N = 75; // fetches per cycle: round robin revisits every 2 cycles
    static final double PERIOD = 4.5; // seconds per generate cycle (its jobs take about 3 s)
    static final double SECONDS = Double.parseDouble(System.getProperty("nutch.compare.seconds", "240"));
    static final int SEED = Integer.getInteger("nutch.compare.seed", 7);
    static final int WINDOWS = 20;
    /** The gain is measured over the second half, once the estimators have seen about 13 fetches a page. */
    static final int FIRST_MEASURED = WINDOWS / 2;
    static final String[] KINDS = {"crawlsched", "default", "adaptive"};

    static final class Run {
        final String kind;
        final int offset;
        final TestSite site;
        final Path dir;
        int cycles;
        JsonNode stats;
        double[] rateErrors; // crawlsched: median |ln(estimate/true)| and |ln(guess/true)| over the pages

        Run(String kind, int offset) throws Exception {
            this.kind = kind;
            this.offset = offset;
            site = new TestSite(PAGES, SEED, RATE_MAX);
            dir = Files.createTempDirectory("nutch-" + kind);
        }
    }

    @Test
    void beatsNutchDefaultThroughNutchsJobs() throws Exception {
        List<Run> runs = new ArrayList<>();
        try {
            for (int k = 0; k < KINDS.length; k++) {
                runs.add(new Run(KINDS[k], k));
            }
            crawlAll(runs);
        } finally {
            for (Run r : runs) {
                r.site.close();
                FileSystem.getLocal(new Configuration()).delete(RealNutchCycleTest.hpath(r.dir, ""), true);
            }
        }
        report(runs);
    }

    private static void crawlAll(List<Run> runs) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(runs.size());
        ExecutorService pool = Executors.newFixedThreadPool(runs.size());
        List<Future<?>> done = new ArrayList<>();
        for (Run r : runs) {
            done.add(pool.submit(() -> {
                barrier.await();
                crawl(r);
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
    }

    /**
     * The crawler's configuration: the budget is TOP_N per PERIOD;
     * round robin's interval spends exactly it; Adaptive's shortest interval
     * is one cycle. The rest makes a local-mode cycle cheap: the job client
     * polls every 20 ms (not 1 s), small sort buffers, and the Fetcher
     * computes the MD5 signature itself (fetcher.signature) so no parse job
     * is needed for updatedb's change detection.
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
        c.setBoolean("fetcher.signature", true);
        c.setBoolean("fetcher.store.content", false);
        c.setInt("fetcher.threads.fetch", 4);
        c.setInt("fetcher.threads.per.queue", 4);
        return c;
    }

    /**
     * Inject, then one generate cycle every PERIOD seconds for SECONDS.
     * Crawler k starts k/3 of a cycle after the first (Generator names
     * segments under a JVM-wide lock with a 1 s sleep), right after resetting
     * its site, so each sees the change realisation from its own start.
     */
    private static void crawl(Run r) throws Exception {
        Configuration c = conf(r.kind, r.dir);
        org.apache.hadoop.fs.Path db = RealNutchCycleTest.hpath(r.dir, "crawldb");
        org.apache.hadoop.fs.Path segments = RealNutchCycleTest.hpath(r.dir, "segments");
        Thread.sleep(Math.round(r.offset * PERIOD * 1000 / KINDS.length));
        r.site.get("/__reset");
        long t0 = System.nanoTime();
        RealNutchCycleTest.inject(c, r.site, r.dir, db);
        int late = 0;
        while ((System.nanoTime() - t0) / 1e9 + PERIOD <= SECONDS) {
            double end = (System.nanoTime() - t0) / 1e9 + PERIOD;
            org.apache.hadoop.fs.Path[] seg = new Generator(c).generate(db, segments, 1, TOP_N,
                    System.currentTimeMillis() + Math.round(PERIOD * 1000));
            if (seg != null) {
                new Fetcher(c).fetch(seg[0], 4);
                if (r.kind.equals("crawlsched")) {
                    new PlanTool() {{ setConf(c); }}.run(new String[] {db.toString()});
                }
                new CrawlDb(c).update(db, seg, false, false);
            }
            r.cycles++;
            long sleep = Math.round((end - (System.nanoTime() - t0) / 1e9) * 1000);
            if (sleep > 0) {
                Thread.sleep(sleep);
            } else {
                late++;
            }
        }
        r.stats = r.site.get("/__stats?windows=" + WINDOWS);
        System.out.printf("%s: %d cycles in %.1f s, %d over %.1f s%n", r.kind, r.cycles,
                (System.nanoTime() - t0) / 1e9, late, PERIOD);
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
        int n = 0;
        FileSystem fs = db.getFileSystem(c);
        for (FileStatus part : fs.globStatus(new org.apache.hadoop.fs.Path(db, "current/part-*/data"))) {
            try (SequenceFile.Reader in = new SequenceFile.Reader(c, SequenceFile.Reader.file(part.getPath()))) {
                Text url = new Text();
                CrawlDatum d = new CrawlDatum();
                while (in.next(url, d)) {
                    double t = rates.get(url.toString());
                    est[n] = Math.abs(Math.log(s.rate(d) / t));
                    initial[n] = Math.abs(Math.log(guess / t));
                    n++;
                }
            }
        }
        assertTrue(n == PAGES, "every page in the CrawlDb");
        return new double[] {median(est), median(initial)};
    }

    private static void report(List<Run> runs) {
        for (Run r : runs) {
            System.out.printf("%-10s freshness %.4f (second half %.4f), fetches %d (budget %d)%n", r.kind,
                    r.stats.get("freshness").asDouble(), measured(r), r.stats.get("fetches").asLong(),
                    (long) TOP_N * r.cycles);
            assertTrue(r.stats.get("fetches").asLong() <= (long) TOP_N * r.cycles, r.kind + " kept the budget");
        }
        double[] whole = gain(runs.get(0), runs.get(1), 0);
        System.out.printf("crawlsched - default over the whole crawl: %.4f +- %.4f (%d paired windows)%n", whole[0],
                whole[1], WINDOWS);
        double[] overDefault = gain(runs.get(0), runs.get(1), FIRST_MEASURED);
        double[] overAdaptive = gain(runs.get(0), runs.get(2), FIRST_MEASURED);
        System.out.printf("crawlsched - default: %.4f +- %.4f, crawlsched - adaptive: %.4f +- %.4f "
                + "(standard errors over %d paired windows of the second half)%n", overDefault[0], overDefault[1],
                overAdaptive[0], overAdaptive[1], WINDOWS - FIRST_MEASURED);
        assertTrue(overDefault[0] > 2 * overDefault[1],
                "crawlsched's freshness gain over the default exceeds twice its standard error");
        double[] e = runs.get(0).rateErrors;
        System.out.printf("rates: median |ln(estimate/true)| %.3f, initial guess %.3f%n", e[0], e[1]);
        assertTrue(e[0] < 0.5 * e[1], "estimates approach the true rates");
    }

    /** Mean freshness over the measured windows (equal lengths). */
    private static double measured(Run r) {
        double sum = 0;
        for (int w = FIRST_MEASURED; w < WINDOWS; w++) {
            sum += r.stats.get("windows").get(w).get("freshness").asDouble();
        }
        return sum / (WINDOWS - FIRST_MEASURED);
    }

    /** {mean, standard error} of a's window freshness minus b's over the windows from {@code first}. */
    private static double[] gain(Run a, Run b, int first) {
        int n = WINDOWS - first;
        double[] g = new double[n];
        for (int w = 0; w < n; w++) {
            g[w] = a.stats.get("windows").get(first + w).get("freshness").asDouble()
                    - b.stats.get("windows").get(first + w).get("freshness").asDouble();
        }
        double mean = Arrays.stream(g).average().orElse(0);
        double var = Arrays.stream(g).map(x -> (x - mean) * (x - mean)).sum() / (n - 1);
        return new double[] {mean, Math.sqrt(var / n)};
    }

    private static double median(double[] xs) {
        double[] a = xs.clone();
        Arrays.sort(a);
        return a[a.length / 2];
    }
}
