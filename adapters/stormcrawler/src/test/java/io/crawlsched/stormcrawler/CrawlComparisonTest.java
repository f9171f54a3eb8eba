package io.crawlsched.stormcrawler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.digitalpebble.stormcrawler.Constants;
import com.digitalpebble.stormcrawler.bolt.JSoupParserBolt;
import com.digitalpebble.stormcrawler.bolt.SimpleFetcherBolt;
import com.digitalpebble.stormcrawler.indexing.DummyIndexer;
import com.digitalpebble.stormcrawler.persistence.AdaptiveScheduler;
import com.digitalpebble.stormcrawler.persistence.DefaultScheduler;
import com.digitalpebble.stormcrawler.persistence.Scheduler;
import com.digitalpebble.stormcrawler.util.ConfUtils;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.storm.Config;
import org.apache.storm.DaemonConfig;
import org.apache.storm.LocalCluster;
import org.apache.storm.generated.StormTopology;
import org.apache.storm.topology.TopologyBuilder;
import org.apache.storm.tuple.Fields;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.yaml.snakeyaml.Yaml;

/**
 * StormCrawler with crawlsched's scheduler against StormCrawler's
 * DefaultScheduler (and AdaptiveScheduler, reported only) on the shared test
 * site: 60 pages with Poisson change rates log-uniform in [0.001, 10] per
 * second, the same fetch budget (20 per wall second) for 60 s, three seeds,
 * all nine crawls at once, each a Storm topology in one in-process
 * LocalCluster against its own site process (the crawls of a seed see the
 * same change realisation). DefaultScheduler's interval is the one that
 * spends the budget: 60 pages / 20 per second = 3 s, i.e. 3 minutes of
 * schedule time, which runs 60 times faster than the wall clock
 * (StormCrawler's intervals are whole minutes; {@link StatusStore} converts).
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

    @SuppressWarnings("try") // LocalCluster.close() may throw InterruptedException: the test fails then
    private void run(Map<String, TestSite> sites) throws Exception {
        long origin = System.currentTimeMillis();
        Map<String, StatusStore> stores = new HashMap<>();
        Map<String, JsonNode> truth = new HashMap<>();
        Map<String, JsonNode> stats = new HashMap<>();
        long t0 = System.nanoTime();
        // Storm's even scheduler: each topology in one worker (the resource-aware default splits them).
        try (LocalCluster cluster = new LocalCluster.Builder().withSupervisors(1)
                .withPortsPerSupervisor(SEEDS.length * KINDS.length)
                .withDaemonConf(DaemonConfig.STORM_SCHEDULER, org.apache.storm.scheduler.DefaultScheduler.class.getName()).build()) {
            for (int seed : SEEDS) {
                for (String kind : KINDS) {
                    String k = kind + seed;
                    truth.put(k, sites.get(k).get("/__truth"));
                    List<String> urls = new ArrayList<>();
                    truth.get(k).get("urls").forEach(u -> urls.add(u.asText()));
                    Config conf = conf(kind, origin);
                    LongSupplier clock = kind.equals("crawlsched")
                            ? () -> ScaledClockScheduler.scaled(origin, SCALE) : System::currentTimeMillis;
                    stores.put(k, StatusStore.create(k, urls, clock, SCALE, SECONDS));
                    cluster.submitTopology(k, conf, topology(k));
                }
            }
            awaitAll(stores.values(), StatusStore::ready, 60, "topologies did not start");
            for (String k : stores.keySet()) {
                sites.get(k).get("/__reset");
            }
            long start = System.nanoTime() + 200_000_000L;
            stores.values().forEach(s -> s.start(start));
            awaitAll(stores.values(), StatusStore::done, SECONDS + 30, "crawls did not finish");
            for (String k : stores.keySet()) {
                stats.put(k, sites.get(k).get("/__stats?windows=" + WINDOWS));
            }
            System.out.printf(Locale.ROOT, "cluster up and topologies running in %.1f s%n", (start - t0) / 1e9);
        } finally {
            stores.keySet().forEach(StatusStore::remove);
        }
        report(stores, stats, truth);
    }

    /** One crawler's topology: its store's spout, StormCrawler's fetcher, parser and indexer, its store's status updater. */
    private static StormTopology topology(String storeName) {
        TopologyBuilder b = new TopologyBuilder();
        b.setSpout("spout", new StoreSpout(storeName, BUDGET));
        b.setBolt("fetch", new SimpleFetcherBolt()).shuffleGrouping("spout");
        b.setBolt("parse", new JSoupParserBolt()).localOrShuffleGrouping("fetch");
        b.setBolt("index", new DummyIndexer()).localOrShuffleGrouping("parse");
        b.setBolt("status", new StoreStatusUpdater(storeName))
                .fieldsGrouping("fetch", Constants.StatusStreamName, new Fields("url"))
                .fieldsGrouping("parse", Constants.StatusStreamName, new Fields("url"))
                .fieldsGrouping("index", Constants.StatusStreamName, new Fields("url"));
        return b.createTopology();
    }

    /** StormCrawler's defaults (crawler-default.yaml), then the comparison's settings, the same for every crawler. */
    @SuppressWarnings("unchecked")
    private static Config conf(String kind, long origin) throws Exception {
        Config conf = new Config();
        conf.setNumWorkers(1);
        try (InputStream in = SimpleFetcherBolt.class.getResourceAsStream("/crawler-default.yaml")) {
            conf.putAll(ConfUtils.extractConfigElement(new Yaml().load(in)));
        }
        conf.put("http.agent.name", "crawlsched-test");
        conf.put("http.protocol.implementation", "com.digitalpebble.stormcrawler.protocol.okhttp.HttpProtocol");
        // No delay after a fetch: the spout paces fetch starts at the budget. With one URL in flight, each
        // fetch starts between its emission and the next one's, so at most budget + 1 start in any second
        // however late a fetch starts (a queue behind a slow fetch would be a burst).
        conf.put("fetcher.server.delay", 0.0);
        conf.setMaxSpoutPending(1);
        conf.put("parser.emitOutlinks", false);
        // Idle executors sleep 1 ms at once (Storm's default first spins 1000 times: CPU the 2 cores lack).
        conf.put(Config.TOPOLOGY_BOLT_WAIT_PROGRESSIVE_LEVEL2_COUNT, 0);
        conf.put("parsefilters.config.file", "parsefilters.json");
        conf.put("metadata.persist", List.of(PageState.KEY, "signature", "protocol.etag",
                AdaptiveScheduler.FETCH_INTERVAL_KEY, AdaptiveScheduler.SIGNATURE_MODIFIED_KEY));
        conf.put(Constants.defaultFetchIntervalParamName, (int) Math.round(PAGES / BUDGET * SCALE / 60));
        switch (kind) {
            case "crawlsched" -> {
                conf.put(Scheduler.schedulerClassParamName, ScaledClockScheduler.class.getName());
                conf.put(CrawlschedScheduler.BUDGET, BUDGET / SCALE);
                conf.put(CrawlschedScheduler.INTERVAL_MAX, 20);
                conf.put(ScaledClockScheduler.ORIGIN, origin);
                conf.put(ScaledClockScheduler.SCALE, SCALE);
            }
            case "default" -> conf.put(Scheduler.schedulerClassParamName, DefaultScheduler.class.getName());
            default -> {
                conf.put(Scheduler.schedulerClassParamName, AdaptiveScheduler.class.getName());
                conf.put(AdaptiveScheduler.INTERVAL_MIN, 1);
                conf.put(AdaptiveScheduler.INTERVAL_MAX, 20);
            }
        }
        return conf;
    }

    private static void awaitAll(Collection<StatusStore> stores, Predicate<StatusStore> test, double seconds,
            String message) throws InterruptedException {
        long deadline = System.nanoTime() + Math.round(seconds * 1e9);
        while (!stores.stream().allMatch(test)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError(message);
            }
            Thread.sleep(50);
        }
    }

    /** Prints the table, then asserts budget, paired gain over windows and learnt rates. */
    private void report(Map<String, StatusStore> stores, Map<String, JsonNode> stats, Map<String, JsonNode> truth) {
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
            rateErrors(stores.get("crawlsched" + seed), truth.get("crawlsched" + seed), errEstimate, errGuess);
        }
        for (String k : stats.keySet()) {
            JsonNode s = stats.get(k);
            assertTrue(s.get("fetches").asInt() <= BUDGET * SECONDS + 1, k + ": over the budget");
            // Fetch starts are >= 1/BUDGET apart; arrivals at the site jitter by a few ms.
            assertTrue(s.get("hosts").elements().next().get("max_in_one_second").asInt() <= BUDGET + 2, k + ": a burst");
            assertEquals(0, stores.get(k).errors(), k + ": fetch errors");
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
    private static void rateErrors(StatusStore store, JsonNode truth, List<Double> est, List<Double> guess) {
        double guessRate = SCALE / (PAGES / BUDGET * SCALE); // one change per fetchInterval.default, per wall second
        JsonNode urls = truth.get("urls");
        for (int i = 0; i < urls.size(); i++) {
            double trueRate = truth.get("rates").get(i).asDouble();
            PageState s = PageState.decode(store.metadata(urls.get(i).asText()).getFirstValue(PageState.KEY));
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
