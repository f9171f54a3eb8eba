package io.crawlsched.nutch;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.nutch.crawl.AdaptiveFetchSchedule;
import org.apache.nutch.crawl.DefaultFetchSchedule;
import org.apache.nutch.crawl.FetchSchedule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * crawlsched's FetchSchedule against Nutch's DefaultFetchSchedule (the
 * fixed interval that spends the same budget: round robin) and
 * AdaptiveFetchSchedule, each driven by {@link FetchLoop} on its own copy of
 * the test site (same seed: the same change realisation), all at once.
 * Not in test.sh since {@link RealNutchComparisonTest} makes the comparison
 * through Nutch's own jobs; kept as an opt-in measurement (finer cycles, a
 * cold start, AdaptiveFetchSchedule): {@code mvn test
 * -Dtest=CrawlComparisonTest -Dcrawl.seconds=60}.
 */
@EnabledIfSystemProperty(named = "crawl.seconds", matches = "\\d+(\\.\\d+)?")
class CrawlComparisonTest {
    static final int PAGES = 60;
    static final double RATE_MAX = 10;
    static final double BUDGET = 20; // fetches per wall second
    static final double SPEED = 100; // Nutch seconds per wall second
    static final double SECONDS = Double.parseDouble(System.getProperty("crawl.seconds", "60"));
    static final double CYCLE = 0.5; // wall seconds per generate cycle
    static final int WINDOWS = 12;
    static final int[] SEEDS = {7, 8};
    static final String[] KINDS = {"crawlsched", "default", "adaptive"};

    static Configuration conf(String kind) {
        Configuration c = new Configuration(false);
        double budget = BUDGET / SPEED; // per Nutch second
        int roundRobin = (int) Math.round(PAGES / budget);
        c.setInt("db.fetch.interval.default", roundRobin);
        c.setInt("db.fetch.interval.max", 90 * FetchSchedule.SECONDS_PER_DAY);
        if (kind.equals("crawlsched")) {
            c.set(CrawlschedFetchSchedule.BUDGET, Double.toString(budget));
            c.set(CrawlschedFetchSchedule.MAX_INTERVAL, Double.toString(10.0 * roundRobin));
        } else if (kind.equals("adaptive")) {
            c.set("db.fetch.schedule.adaptive.min_interval", Double.toString(1 / budget));
        }
        return c;
    }

    static FetchSchedule schedule(String kind) {
        switch (kind) {
            case "crawlsched": return new CrawlschedFetchSchedule();
            case "default": return new DefaultFetchSchedule();
            default: return new AdaptiveFetchSchedule();
        }
    }

    static final class Run {
        String kind;
        int seed;
        FetchLoop loop;
        JsonNode stats;
        JsonNode truth;
    }

    @Test
    void beatsNutchDefaultOnTheSameBudget() throws Exception {
        List<TestSite> sites = new ArrayList<>();
        List<Run> runs = new ArrayList<>();
        try {
            for (int seed : SEEDS) {
                for (String kind : KINDS) {
                    Run r = new Run();
                    r.kind = kind;
                    r.seed = seed;
                    r.loop = new FetchLoop(schedule(kind), conf(kind), SPEED, BUDGET, CYCLE);
                    sites.add(new TestSite(PAGES, seed, RATE_MAX));
                    runs.add(r);
                }
            }
            crawlAll(sites, runs);
        } finally {
            sites.forEach(TestSite::close);
        }
        report(runs);
    }

    private static void crawlAll(List<TestSite> sites, List<Run> runs) throws Exception {
        CyclicBarrier barrier = new CyclicBarrier(runs.size());
        ExecutorService pool = Executors.newFixedThreadPool(runs.size());
        List<Future<?>> done = new ArrayList<>();
        for (int i = 0; i < runs.size(); i++) {
            Run r = runs.get(i);
            TestSite site = sites.get(i);
            done.add(pool.submit(() -> {
                r.truth = site.get("/__truth");
                List<String> urls = new ArrayList<>();
                r.truth.get("urls").forEach(u -> urls.add(u.asText()));
                barrier.await();
                site.get("/__reset");
                r.loop.start();
                r.loop.inject(urls);
                r.loop.run(SECONDS);
                r.stats = site.get("/__stats?windows=" + WINDOWS);
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
    }

    private static void report(List<Run> runs) {
        List<Double> gains = new ArrayList<>();
        for (Run r : runs) {
            JsonNode h = r.stats.get("hosts").elements().next();
            System.out.printf("seed %d %-10s freshness %.4f fetches %d (site: %d, max in one second %d)%n", r.seed,
                    r.kind, r.stats.get("freshness").asDouble(), r.loop.fetches, r.stats.get("fetches").asLong(),
                    h.get("max_in_one_second").asInt());
            assertTrue(r.stats.get("fetches").asLong() <= Math.round(BUDGET * SECONDS) + 1, "budget kept");
            assertTrue(h.get("max_in_one_second").asInt() <= BUDGET + 2, "no burst above the budget");
        }
        for (int seed : SEEDS) {
            Run cs = find(runs, seed, "crawlsched");
            Run def = find(runs, seed, "default");
            for (int w = 0; w < WINDOWS; w++) {
                gains.add(cs.stats.get("windows").get(w).get("freshness").asDouble()
                        - def.stats.get("windows").get(w).get("freshness").asDouble());
            }
        }
        double mean = gains.stream().mapToDouble(x -> x).average().orElse(0);
        double var = gains.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / (gains.size() - 1);
        double se = Math.sqrt(var / gains.size());
        System.out.printf("crawlsched - default: %.4f +- %.4f (standard error over %d paired windows)%n", mean, se,
                gains.size());
        assertTrue(mean > 2 * se, "crawlsched's freshness gain exceeds twice its standard error");
        assertRatesLearnt(runs);
    }

    /** Median |ln(estimate/true)| over the crawlsched runs' pages, against the initial guess's. */
    private static void assertRatesLearnt(List<Run> runs) {
        List<Double> est = new ArrayList<>();
        List<Double> guess = new ArrayList<>();
        double initial = BUDGET / PAGES; // per wall second: one change per round-robin sweep
        for (Run r : runs) {
            if (!r.kind.equals("crawlsched")) {
                continue;
            }
            CrawlschedFetchSchedule s = (CrawlschedFetchSchedule) r.loop.schedule;
            JsonNode urls = r.truth.get("urls");
            for (int i = 0; i < urls.size(); i++) {
                double truth = r.truth.get("rates").get(i).asDouble();
                double e = s.rate(r.loop.db.get(urls.get(i).asText())) * SPEED;
                est.add(Math.abs(Math.log(e / truth)));
                guess.add(Math.abs(Math.log(initial / truth)));
            }
        }
        double me = median(est);
        double mg = median(guess);
        System.out.printf("rates: median |ln(estimate/true)| %.3f, initial guess %.3f%n", me, mg);
        assertTrue(me < 0.5 * mg, "estimates approach the true rates");
    }

    private static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(x -> x).toArray();
        Arrays.sort(a);
        return a[a.length / 2];
    }

    private static Run find(List<Run> runs, int seed, String kind) {
        return runs.stream().filter(r -> r.seed == seed && r.kind.equals(kind)).findFirst().orElseThrow();
    }
}
