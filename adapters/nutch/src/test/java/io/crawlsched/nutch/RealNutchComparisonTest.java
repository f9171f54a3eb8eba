package io.crawlsched.nutch;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
import org.apache.nutch.parse.ParseSegment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A measurement, not part of test.sh (Nutch's local-mode jobs take about 8 s
 * a cycle): the three schedules through Nutch's own jobs (as in
 * {@link RealNutchCycleTest}), at once, each on its own copy of the site.
 * {@code mvn test -Dtest=RealNutchComparisonTest -Dnutch.compare.seconds=600}.
 */
@EnabledIfSystemProperty(named = "nutch.compare.seconds", matches = "\\d+")
class RealNutchComparisonTest {
    static final int PAGES = 30;
    static final double RATE_MAX = 0.3;
    static final int TOP_N = 10;
    static final double PERIOD = Double.parseDouble(System.getProperty("nutch.compare.period", "15"));
    static final int WINDOWS = 10;
    static final String[] KINDS = {"crawlsched", "default", "adaptive"};

    @Test
    void threeSchedulesThroughNutchsJobs() throws Exception {
        double seconds = Double.parseDouble(System.getProperty("nutch.compare.seconds"));
        int seed = Integer.getInteger("nutch.compare.seed", 7);
        List<TestSite> sites = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        List<JsonNode> stats = new ArrayList<>();
        try {
            for (String kind : KINDS) {
                sites.add(new TestSite(PAGES, seed, RATE_MAX));
                dirs.add(Files.createTempDirectory("nutch-" + kind));
            }
            CyclicBarrier barrier = new CyclicBarrier(KINDS.length);
            ExecutorService pool = Executors.newFixedThreadPool(KINDS.length);
            List<Future<JsonNode>> done = new ArrayList<>();
            for (int k = 0; k < KINDS.length; k++) {
                String kind = KINDS[k];
                TestSite site = sites.get(k);
                Path dir = dirs.get(k);
                done.add(pool.submit(() -> crawl(kind, site, dir, seconds, barrier)));
            }
            for (Future<JsonNode> f : done) {
                stats.add(f.get());
            }
            pool.shutdown();
        } finally {
            sites.forEach(TestSite::close);
            for (Path d : dirs) {
                FileSystem.getLocal(new Configuration()).delete(RealNutchCycleTest.hpath(d, ""), true);
            }
        }
        report(stats);
    }

    private static JsonNode crawl(String kind, TestSite site, Path dir, double seconds, CyclicBarrier barrier)
            throws Exception {
        Configuration c = RealNutchCycleTest.conf(dir);
        double budget = TOP_N / PERIOD;
        int roundRobin = (int) Math.round(PAGES / budget);
        c.setInt("db.fetch.interval.default", roundRobin);
        c.set(CrawlschedFetchSchedule.BUDGET, Double.toString(budget));
        c.set(CrawlschedFetchSchedule.MAX_INTERVAL, Double.toString(10.0 * roundRobin));
        c.set("db.fetch.schedule.adaptive.min_interval", Double.toString(PERIOD));
        c.set("db.fetch.schedule.class", kind.equals("crawlsched") ? CrawlschedFetchSchedule.class.getName()
                : kind.equals("default") ? DefaultFetchSchedule.class.getName()
                : AdaptiveFetchSchedule.class.getName());
        c.setInt("fetcher.threads.fetch", 1);
        org.apache.hadoop.fs.Path db = RealNutchCycleTest.hpath(dir, "crawldb");
        org.apache.hadoop.fs.Path segments = RealNutchCycleTest.hpath(dir, "segments");
        barrier.await();
        site.get("/__reset");
        long t0 = System.nanoTime();
        RealNutchCycleTest.inject(c, site, dir, db);
        int cycles = 0;
        while ((System.nanoTime() - t0) / 1e9 + PERIOD <= seconds) {
            double end = (System.nanoTime() - t0) / 1e9 + PERIOD;
            org.apache.hadoop.fs.Path[] seg = new Generator(c).generate(db, segments, 1, TOP_N,
                    System.currentTimeMillis() + Math.round(PERIOD * 1000));
            if (seg != null) {
                new Fetcher(c).fetch(seg[0], 1);
                new ParseSegment(c).parse(seg[0]);
                if (kind.equals("crawlsched")) {
                    new PlanTool() {{ setConf(c); }}.run(new String[] {db.toString()});
                }
                new CrawlDb(c).update(db, seg, false, false);
            }
            cycles++;
            long sleep = Math.round((end - (System.nanoTime() - t0) / 1e9) * 1000);
            System.out.printf("%s cycle %d: %s, %d ms to spare%n", kind, cycles, seg == null ? "nothing due" : "fetched",
                    sleep);
            if (sleep > 0) {
                Thread.sleep(sleep);
            }
        }
        return site.get("/__stats?windows=" + WINDOWS);
    }

    private static void report(List<JsonNode> stats) {
        for (int k = 0; k < KINDS.length; k++) {
            System.out.printf("%-10s freshness %.4f fetches %d%n", KINDS[k], stats.get(k).get("freshness").asDouble(),
                    stats.get(k).get("fetches").asLong());
        }
        for (int k = 1; k < KINDS.length; k++) {
            double[] g = new double[WINDOWS];
            for (int w = 0; w < WINDOWS; w++) {
                g[w] = stats.get(0).get("windows").get(w).get("freshness").asDouble()
                        - stats.get(k).get("windows").get(w).get("freshness").asDouble();
            }
            double mean = java.util.Arrays.stream(g).average().orElse(0);
            double var = java.util.Arrays.stream(g).map(x -> (x - mean) * (x - mean)).sum() / (WINDOWS - 1);
            System.out.printf("crawlsched - %s: %.4f +- %.4f (%d paired windows)%n", KINDS[k], mean,
                    Math.sqrt(var / WINDOWS), WINDOWS);
        }
    }
}
