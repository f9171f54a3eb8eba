package io.crawlsched;

import static io.crawlsched.Checks.fails;
import static io.crawlsched.Checks.near;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class SchedulerTest {
    static Scheduler scheduler(Scheduler.Mode mode, double... rates) {
        try (Dist d = Dist.deterministic(1)) {
            Scheduler s = Scheduler.create(d, mode);
            for (int i = 0; i < rates.length; i++) {
                s.addPage(i + 1, rates[i]);
            }
            return s;
        }
    }

    /** Deterministic crawls, proportional weights: shares f_i = mu_i / mu, and next() follows them. */
    @Test
    void sharesFollowTheOptimum() {
        double[] rates = {0.1, 0.2, 0.3, 0.4};
        for (Scheduler.Mode mode : Scheduler.Mode.values()) {
            Scheduler s = scheduler(mode, rates);
            assertEquals(4, s.len());
            for (int i = 0; i < rates.length; i++) {
                near("frequency", s.frequency(i + 1), rates[i], 1e-9);
                near("change rate", s.changeRate(i + 1), rates[i], 1e-12);
            }
            java.util.SortedMap<Long, Double> all = s.frequencies();
            assertEquals(rates.length, all.size());
            for (int i = 0; i < rates.length; i++) {
                near("frequencies", all.get((long) (i + 1)), rates[i], 1e-9);
            }
            Map<Long, Integer> count = new HashMap<>();
            int n = 10000;
            for (int k = 0; k < n / 2; k++) {
                count.merge(s.next(), 1, Integer::sum);
            }
            for (long id : s.nextBatch(n / 2)) {
                count.merge(id, 1, Integer::sum);
            }
            // Stride follows the shares closely; golden-ratio cycles (34 slots) round them.
            double tol = mode == Scheduler.Mode.STRIDE ? 0.002 : 1.0 / 34;
            for (int i = 0; i < rates.length; i++) {
                near(mode + " share of page " + (i + 1), count.get((long) i + 1) / (double) n, rates[i], tol);
            }
            s.addWeightedPage(99, 0.5, 2);
            s.setChangeRate(99, 0.25);
            near("set rate", s.changeRate(99), 0.25, 1e-12);
            s.observe(99, 1, true);
            s.removePage(99);

            fails("duplicate", Status.INVALID_ARGUMENT, () -> s.addPage(1, 0.1));
            fails("NaN rate", Status.INVALID_ARGUMENT, () -> s.addPage(7, Double.NaN));
            fails("bad weight", Status.INVALID_ARGUMENT, () -> s.addWeightedPage(7, 0.1, -1));
            fails("remove unknown", Status.NOT_FOUND, () -> s.removePage(99));
            fails("set unknown", Status.NOT_FOUND, () -> s.setChangeRate(99, 1));
            fails("observe bad interval", Status.INVALID_ARGUMENT, () -> s.observe(1, -1, false));
            fails("frequency unknown", Status.NOT_FOUND, () -> s.frequency(12345));
            fails("rate unknown", Status.NOT_FOUND, () -> s.changeRate(12345));
            s.close();
            fails("closed next", Status.NULL_ARGUMENT, s::next);
            fails("closed batch", Status.NULL_ARGUMENT, () -> s.nextBatch(3));
            fails("closed len", Status.NULL_ARGUMENT, s::len);
        }
        try (Scheduler empty = scheduler(Scheduler.Mode.STRIDE)) {
            fails("empty next", Status.NOT_FOUND, empty::next);
            fails("empty batch", Status.NOT_FOUND, () -> empty.nextBatch(3));
        }
        fails("null dist", Status.NULL_ARGUMENT, () -> Scheduler.create(null, Scheduler.Mode.STRIDE));
    }

    /** addPages gives the same frequencies and picks as one-by-one adds; a refused batch adds nothing. */
    @Test
    void addPagesEqualsOneByOneAdds() {
        long[] ids = {40, 10, 30, 20, 60, 50};
        double[] rates = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
        double[] weights = {1, 2, 1, 2, 1, 2};
        for (Scheduler.Mode mode : Scheduler.Mode.values()) {
            try (Scheduler one = scheduler(mode); Scheduler batch = scheduler(mode)) {
                for (int i = 0; i < 3; i++) {
                    one.addPage(ids[i], rates[i]);
                }
                for (int i = 3; i < 6; i++) {
                    one.addWeightedPage(ids[i], rates[i], weights[i]);
                }
                batch.addPages(java.util.Arrays.copyOf(ids, 3), java.util.Arrays.copyOf(rates, 3), null);
                fails("id already scheduled", Status.INVALID_ARGUMENT,
                        () -> batch.addPages(new long[] {7, 40}, new double[] {0.1, 0.1}, null));
                CrawlschedException nan = fails("NaN rate", Status.INVALID_ARGUMENT,
                        () -> batch.addPages(new long[] {7, 8}, new double[] {0.1, Double.NaN}, null));
                assertTrue(nan.getMessage().contains("change_rates[1]"), nan.getMessage());
                fails("repeated id", Status.INVALID_ARGUMENT,
                        () -> batch.addPages(new long[] {7, 7}, new double[] {0.1, 0.2}, null));
                fails("short rates", Status.INVALID_ARGUMENT,
                        () -> batch.addPages(new long[] {7, 8}, new double[] {0.1}, null));
                batch.addPages(new long[0], new double[0], null);
                assertEquals(3, batch.len());
                batch.addPages(java.util.Arrays.copyOfRange(ids, 3, 6), java.util.Arrays.copyOfRange(rates, 3, 6),
                        java.util.Arrays.copyOfRange(weights, 3, 6));
                assertEquals(one.frequencies(), batch.frequencies());
                org.junit.jupiter.api.Assertions.assertArrayEquals(one.nextBatch(1000), batch.nextBatch(1000));
            }
        }
    }

    /**
     * Many threads share one scheduler; each provokes its own error (its
     * page id in the message) and must get its own message back, while
     * others succeed in between: the message travels in each call's own
     * error struct, never in thread-local state. Virtual threads are not
     * in Java 17, so platform threads.
     */
    @Test
    void errorsAcrossThreads() throws InterruptedException {
        try (Scheduler s = scheduler(Scheduler.Mode.GOLDEN_RATIO, 0.1, 0.2, 0.3)) {
            ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
            ExecutorService pool = Executors.newFixedThreadPool(16);
            for (int g = 0; g < 64; g++) {
                int gg = g;
                pool.execute(() -> {
                    for (int k = 0; k < 200; k++) {
                        long id = 1_000_000L + gg * 1000L + k;
                        s.next();
                        try {
                            s.removePage(id);
                            problems.add("remove " + id + " succeeded");
                        } catch (CrawlschedException e) {
                            if (e.status() != Status.NOT_FOUND || !e.detail().contains(Long.toString(id))) {
                                problems.add("remove " + id + ": " + e.getMessage());
                            }
                        }
                    }
                });
            }
            pool.shutdown();
            assertTrue(pool.awaitTermination(5, TimeUnit.MINUTES));
            assertTrue(problems.isEmpty(), problems.toString());
        }
    }
}
