package io.crawlsched.stormcrawler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.digitalpebble.stormcrawler.Constants;
import com.digitalpebble.stormcrawler.parse.filter.MD5SignatureParseFilter;
import com.digitalpebble.stormcrawler.persistence.AdaptiveScheduler;
import com.digitalpebble.stormcrawler.persistence.DefaultScheduler;
import com.digitalpebble.stormcrawler.persistence.Scheduler;
import com.digitalpebble.stormcrawler.protocol.okhttp.HttpProtocol;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import org.apache.storm.Config;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * StormCrawler with crawlsched's scheduler against StormCrawler's
 * DefaultScheduler (and AdaptiveScheduler, reported only) on the shared test
 * site: 60 pages with Poisson change rates log-uniform in [0.001, 10] per
 * second, the same fetch budget (20 per wall second) for 60 s, three seeds,
 * all nine crawls at once, each against its own site process (the crawls of
 * a seed see the same change realisation). DefaultScheduler's interval is
 * the one that spends the budget: 60 pages / 20 per second = 3 s, i.e. 3
 * minutes of schedule time, which runs 60 times faster than the wall clock
 * (StormCrawler's intervals are whole minutes).
 */
class CrawlComparisonTest {
    static final int PAGES = 60;
    static final double BUDGET = 20; // fetches per wall second
    static final double SECONDS = 60;
    static final double SCALE = 60; // schedule seconds per wall second
    static final int WINDOWS = 12;
    static final int[] SEEDS = {7, 8, 9};
    static final String[] KINDS = {"crawlsched", "default", "adaptive"};

    @Test
    @Timeout(170)
    void crawlschedKeepsTheBudgetAndBeatsDefaultScheduler() throws Exception {
        Map<String, TestSite> sites = new HashMap<>();
        try {
            for (int seed : SEEDS) {
                for (String kind : KINDS) {
                    sites.put(kind + seed, TestSite.start("--pages", "" + PAGES, "--seed", "" + seed,
                            "--time-scale", "1", "--rate-min", "0.001", "--rate-max", "10"));
                }
            }
            run(sites);
        } finally {
            sites.values().forEach(TestSite::close);
        }
    }

    private void run(Map<String, TestSite> sites) throws Exception {
        long origin = System.currentTimeMillis();
        Map<String, MiniCrawl> crawls = new HashMap<>();
        Map<String, JsonNode> truth = new HashMap<>();
        for (int seed : SEEDS) {
            for (String kind : KINDS) {
                TestSite site = sites.get(kind + seed);
                truth.put(kind + seed, site.get("/__truth"));
                List<String> urls = new ArrayList<>();
                truth.get(kind + seed).get("urls").forEach(u -> urls.add(u.asText()));
                crawls.put(kind + seed, crawl(kind, origin, urls));
            }
        }
        List<Thread> threads = new ArrayList<>();
        for (String k : crawls.keySet()) {
            sites.get(k).get("/__reset");
            threads.add(new Thread(crawls.get(k), k));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
        for (MiniCrawl c : crawls.values()) {
            if (c.failure != null) {
                throw new AssertionError("crawl failed", c.failure);
            }
        }
        Map<String, JsonNode> stats = new HashMap<>();
        for (String k : crawls.keySet()) {
            stats.put(k, sites.get(k).get("/__stats?windows=" + WINDOWS));
        }
        report(crawls, stats, truth);
    }

    private MiniCrawl crawl(String kind, long origin, List<String> urls) throws Exception {
        Config conf = new Config();
        conf.put("http.agent.name", "crawlsched-test");
        conf.put(Constants.defaultFetchIntervalParamName, (int) Math.round(PAGES / BUDGET * SCALE / 60));
        LongSupplier now = System::currentTimeMillis;
        switch (kind) {
            case "crawlsched" -> {
                conf.put(Scheduler.schedulerClassParamName, ScaledClockScheduler.class.getName());
                conf.put(CrawlschedScheduler.BUDGET, BUDGET / SCALE);
                conf.put(CrawlschedScheduler.INTERVAL_MAX, 20);
                conf.put(ScaledClockScheduler.ORIGIN, origin);
                conf.put(ScaledClockScheduler.SCALE, SCALE);
                now = () -> ScaledClockScheduler.scaled(origin, SCALE);
            }
            case "default" -> conf.put(Scheduler.schedulerClassParamName, DefaultScheduler.class.getName());
            default -> {
                conf.put(Scheduler.schedulerClassParamName, AdaptiveScheduler.class.getName());
                conf.put(AdaptiveScheduler.INTERVAL_MIN, 1);
                conf.put(AdaptiveScheduler.INTERVAL_MAX, 20);
            }
        }
        HttpProtocol protocol = new HttpProtocol();
        protocol.configure(conf);
        MD5SignatureParseFilter signature = new MD5SignatureParseFilter();
        signature.configure(conf, new ObjectMapper().readTree("{\"keyNameCopy\": \"signatureOld\"}"));
        return new MiniCrawl(Scheduler.getInstance(conf), now, protocol, signature, urls, BUDGET, SCALE, SECONDS);
    }

    /** Prints the table, then asserts budget, paired gain over windows and learnt rates. */
    private void report(Map<String, MiniCrawl> crawls, Map<String, JsonNode> stats, Map<String, JsonNode> truth) {
        List<Double> gains = new ArrayList<>();
        List<Double> errEstimate = new ArrayList<>();
        List<Double> errGuess = new ArrayList<>();
        System.out.println("seed kind        freshness fetches 304s maxPerSecond");
        for (int seed : SEEDS) {
            for (String kind : KINDS) {
                JsonNode s = stats.get(kind + seed);
                JsonNode host = s.get("hosts").elements().next();
                System.out.printf(Locale.ROOT, "%4d %-11s %.4f %7d %4d %3d%n", seed, kind, s.get("freshness").asDouble(),
                        s.get("fetches").asInt(), s.get("not_modified").asInt(), host.get("max_in_one_second").asInt());
            }
            JsonNode a = stats.get("crawlsched" + seed).get("windows");
            JsonNode b = stats.get("default" + seed).get("windows");
            for (int w = 0; w < WINDOWS; w++) {
                gains.add(a.get(w).get("freshness").asDouble() - b.get(w).get("freshness").asDouble());
            }
            assertTrue(stats.get("crawlsched" + seed).get("fetches").asInt() >= 0.9 * BUDGET * SECONDS,
                    "crawlsched left the budget unused");
            rateErrors(crawls.get("crawlsched" + seed), truth.get("crawlsched" + seed), errEstimate, errGuess);
        }
        for (String k : stats.keySet()) {
            JsonNode s = stats.get(k);
            assertTrue(s.get("fetches").asInt() <= BUDGET * SECONDS + 1, k + ": over the budget");
            // Fetch starts are >= 1/BUDGET apart; arrivals at the site jitter by a few ms.
            assertTrue(s.get("hosts").elements().next().get("max_in_one_second").asInt() <= BUDGET + 2, k + ": a burst");
            assertEquals(0, crawls.get(k).errors, k + ": fetch errors");
        }
        double mean = gains.stream().mapToDouble(x -> x).average().orElseThrow();
        double var = gains.stream().mapToDouble(x -> (x - mean) * (x - mean)).sum() / (gains.size() - 1);
        double se = Math.sqrt(var / gains.size());
        double medEst = median(errEstimate);
        double medGuess = median(errGuess);
        System.out.printf(Locale.ROOT, "gain %.4f +- %.4f (standard error over %d paired windows)%n", mean, se, gains.size());
        System.out.printf(Locale.ROOT, "rates: median |ln(estimate/true)| %.3f, initial guess %.3f%n", medEst, medGuess);
        assertTrue(mean > 2 * se, "crawlsched's gain is not above twice its standard error");
        assertTrue(medEst < 0.5 * medGuess, "the learnt rates are not closer to the truth than the guess");
    }

    /** |ln(estimate/true)| per page, and the same for the initial guess (per wall second = per site second). */
    private static void rateErrors(MiniCrawl c, JsonNode truth, List<Double> est, List<Double> guess) {
        double guessRate = SCALE / (PAGES / BUDGET * SCALE); // one change per fetchInterval.default, per wall second
        JsonNode urls = truth.get("urls");
        for (int i = 0; i < urls.size(); i++) {
            double trueRate = truth.get("rates").get(i).asDouble();
            PageState s = PageState.decode(c.store.get(urls.get(i).asText()).getFirstValue(PageState.KEY));
            est.add(Math.abs(Math.log(s.rate() * SCALE / trueRate)));
            guess.add(Math.abs(Math.log(guessRate / trueRate)));
        }
    }

    private static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(x -> x).toArray();
        Arrays.sort(a);
        return a[a.length / 2];
    }
}
