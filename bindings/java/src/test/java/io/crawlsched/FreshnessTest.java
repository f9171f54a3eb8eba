package io.crawlsched;

import static io.crawlsched.Checks.fails;
import static io.crawlsched.Checks.near;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FreshnessTest {
    /**
     * Deterministic crawl time E[X] = 1 and proportional weights: f_i = mu_i / mu
     * and the lower bound mu - 1/E[X] + e^{-mu E[X]}/E[X] (Theorem 3.4).
     */
    @Test
    void deterministicAccess() {
        double[] mu = {0.1, 0.15, 0.2, 0.3};
        double total = 0.75;
        Dist x = Dist.deterministic(1);
        try (FreshnessModel m = FreshnessModel.create(x, mu, null)) {
            x.close(); // the model keeps its own copy
            assertEquals(4, m.len());
            double[] h = m.h();
            for (int i = 0; i < mu.length; i++) {
                near("h", h[i], Math.exp(-mu[i]), 1e-15);
            }
            double[] freq = m.optimalFrequencies();
            for (int i = 0; i < mu.length; i++) {
                near("f", freq[i], mu[i] / total, 1e-12);
            }
            double lb = m.lowerBound();
            near("lower bound", lb, total - 1 + Math.exp(-total), 1e-12);
            near("cost at optimum", m.cost(freq), lb, 1e-12);
            double[] r = m.obsolescenceBound(freq);
            for (int i = 0; i < mu.length; i++) {
                near("r_i", r[i], 1 - (1 - Math.exp(-total)) / total, 1e-12);
            }
            // Randomized policy: f_i proportional to 1/h_i - 1 (Theorem 4.1).
            double[] rf = m.randomizedOptimalFrequencies();
            double s = 0;
            for (double u : mu) {
                s += Math.exp(u) - 1;
            }
            for (int i = 0; i < mu.length; i++) {
                near("randomized f", rf[i], (Math.exp(mu[i]) - 1) / s, 1e-10);
            }
            double rc = m.randomizedOptimalCost();
            near("randomized cost", m.randomizedCost(rf), rc, 1e-12);
            assertTrue(rc >= lb);
            // Eq. (18) and Corollary 5.1.
            double phi = (1 + Math.sqrt(5)) / 2;
            double q = total;
            near("golden bound", m.goldenRatioBound(),
                    q - 1 + (1 - 1 / phi) * Math.exp(-phi * q / Math.sqrt(5)) + Math.exp(-phi * phi * q / Math.sqrt(5)) / phi, 1e-12);
            near("H(0)", Freshness.boundRatio(0), 2 * phi * phi / 5, 1e-12);

            // Each page once per cycle of 4: r_i = 1 - (1 - e^{-4 mu_i})/(4 mu_i).
            int[] rr = {0, 1, 2, 3};
            double want = 0;
            double[] wantR = new double[4];
            for (int i = 0; i < 4; i++) {
                wantR[i] = 1 - (1 - Math.exp(-4 * mu[i])) / (4 * mu[i]);
                want += mu[i] * wantR[i];
            }
            near("cyclic cost", m.cyclicCost(rr), want, 1e-12);
            double[] cr = m.cyclicObsolescence(rr);
            for (int i = 0; i < 4; i++) {
                near("cyclic r_i", cr[i], wantR[i], 1e-12);
            }
            FreshnessModel.Estimate sim = m.simulateCyclic(rr, 20000, 3);
            assertTrue(sim.stdError() > 0 && Math.abs(sim.value() - want) <= 5 * sim.stdError(), sim + " vs " + want);

            fails("freq length", Status.INVALID_ARGUMENT, () -> m.cost(new double[] {0.5, 0.5}));
            fails("freq sum", Status.INVALID_ARGUMENT, () -> m.randomizedCost(new double[] {0.5, 0.5, 0.5, 0.5}));
            fails("freq empty", Status.INVALID_ARGUMENT, () -> m.obsolescenceBound(new double[0]));
            fails("page index", Status.INVALID_ARGUMENT, () -> m.cyclicCost(new int[] {0, 9}));
            fails("empty seq", Status.INVALID_ARGUMENT, () -> m.cyclicObsolescence(new int[0]));
            fails("zero cycles", Status.INVALID_ARGUMENT, () -> m.simulateCyclic(rr, 0, 1));
        }
        fails("closed access dist", Status.NULL_ARGUMENT, () -> FreshnessModel.create(x, mu, null));
        try (Dist y = Dist.exponential(1)) {
            fails("NaN rate", Status.INVALID_ARGUMENT, () -> FreshnessModel.create(y, new double[] {0.1, Double.NaN}, null));
            fails("weights length", Status.INVALID_ARGUMENT, () -> FreshnessModel.create(y, mu, new double[] {1}));
            FreshnessModel wm = FreshnessModel.create(y, mu, new double[] {1, 1, 1, 1});
            fails("golden bound, weights", Status.INVALID_ARGUMENT, wm::goldenRatioBound);
            wm.close();
            fails("closed model", Status.NULL_ARGUMENT, wm::h);
            fails("closed model", Status.NULL_ARGUMENT, wm::lowerBound);
            fails("closed model", Status.NULL_ARGUMENT, wm::len);
        }
    }

    /** The golden-ratio example of the C tests: N = 4, counts per cycle, Fibonacci lengths. */
    @Test
    void cycles() {
        assertArrayEquals(new long[] {4, 2, 2}, Freshness.integerCounts(new double[] {0.5, 0.25, 0.25}, 8, false));
        assertEquals(13, Freshness.fibonacciAtLeast(10));
        for (int[] seq : new int[][] {Freshness.goldenRatioSequence(new long[] {4, 2, 2}),
                Freshness.roundRobinSequence(new long[] {4, 2, 2})}) {
            int[] got = new int[3];
            for (int p : seq) {
                got[p]++;
            }
            assertEquals(8, seq.length);
            assertArrayEquals(new int[] {4, 2, 2}, got);
        }
        fails("H(NaN)", Status.INVALID_ARGUMENT, () -> Freshness.boundRatio(Double.NaN));
        fails("counts inf", Status.INVALID_ARGUMENT, () -> Freshness.integerCounts(new double[] {0.5, Double.POSITIVE_INFINITY}, 8, false));
        fails("empty counts", Status.INVALID_ARGUMENT, () -> Freshness.goldenRatioSequence(new long[0]));
        fails("zero counts", Status.INVALID_ARGUMENT, () -> Freshness.roundRobinSequence(new long[] {0, 0}));
        assertThrowsAny(() -> Freshness.fibonacciAtLeast(-1L)); // 2^64 - 1 as unsigned
    }

    private static void assertThrowsAny(org.junit.jupiter.api.function.Executable e) {
        org.junit.jupiter.api.Assertions.assertThrows(CrawlschedException.class, e);
    }

    @Test
    void estimator() {
        try (Estimator est = Estimator.create()) {
            fails("no data", Status.NOT_FOUND, est::estimate);
            for (int k = 0; k < 100; k++) {
                est.observe(2, k % 4 == 0);
            }
            // Censored Poisson MLE with equal intervals: -ln(1 - changed/visits)/interval.
            near("estimate", est.estimate(), -Math.log(1 - 0.25) / 2, 1e-10);
            assertEquals(100, est.observations());
            fails("NaN interval", Status.INVALID_ARGUMENT, () -> est.observe(Double.NaN, true));
        }
        Estimator p = Estimator.withPrior(0.5, 10);
        near("prior mode", p.estimate(), 0.5, 1e-12);
        p.close();
        fails("closed estimator", Status.NULL_ARGUMENT, () -> p.observe(1, true));
        fails("closed estimator", Status.NULL_ARGUMENT, p::observations);
        fails("negative prior", Status.INVALID_ARGUMENT, () -> Estimator.withPrior(-1, 10));
    }

    /** Two shards driven by MultiplierSearch give the single call's plan to 1e-12 relative. */
    @Test
    void shardsReproduceTheSingleCall() {
        double[] mu = {0.01, 0.1, 0.5, 1, 2, 5, 9};
        double[] w = {0.2, 3, 1, 0.5, 8, 1, 0.1};
        try (Dist x = Dist.exponential(2.0);
                FreshnessModel all = FreshnessModel.create(x, mu, w);
                FreshnessModel left = FreshnessModel.create(x, java.util.Arrays.copyOfRange(mu, 0, 3), java.util.Arrays.copyOfRange(w, 0, 3));
                FreshnessModel right = FreshnessModel.create(x, java.util.Arrays.copyOfRange(mu, 3, 7), java.util.Arrays.copyOfRange(w, 3, 7));
                FreshnessShard a = FreshnessShard.create(left);
                FreshnessShard b = FreshnessShard.create(right)) {
            double[] single = all.optimalFrequencies();
            double[] sa = a.summary(), sb = b.summary();
            try (FreshnessShard.MultiplierSearch search = FreshnessShard.MultiplierSearch.create(
                    sa[0] + sb[0], Math.min(sa[1], sb[1]), Math.max(sa[2], sb[2]))) {
                double[] step = search.next();
                for (int it = 0; it < 100 && step[0] == 0; it++) {
                    search.update(a.sumAt(step[1]).plus(b.sumAt(step[1])));
                    step = search.next();
                }
                assertEquals(1.0, step[0]);
                double[] fa = a.frequenciesAt(step[1]), fb = b.frequenciesAt(step[1]);
                for (int i = 0; i < 7; i++) {
                    double f = i < 3 ? fa[i] : fb[i - 3];
                    assertEquals(single[i], f, 0.0, "page " + i);
                }
                fails("sum < 0", Status.INVALID_ARGUMENT, () -> search.update(new FreshnessShard.Sums(-1, 0, 0, 0)));
                FreshnessShard.Sums full = new FreshnessShard.Sums(0, 0, -1L, 5).plus(new FreshnessShard.Sums(0, 0, 0, -1L));
                assertEquals(-1L, full.exactHi());
                assertEquals(-1L, full.exactLo());
                FreshnessShard.Sums carried = new FreshnessShard.Sums(0, 0, 1, -1L).plus(new FreshnessShard.Sums(0, 0, 0, 1));
                assertEquals(2L, carried.exactHi());
                assertEquals(0L, carried.exactLo());
            }
        }
    }
}
