package io.crawlsched;

import static io.crawlsched.Checks.fails;
import static io.crawlsched.Checks.near;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** Limits and cancellation, the MDP solver's size, robots actions and certificate, threshold response time. */
class LimitsTest {
    /** n states, two actions each: value iteration never reaches a span of 1e-300. */
    static Mdp randomMdp(int n) {
        Random rng = new Random(1);
        try (MdpBuilder b = MdpBuilder.create(n)) {
            for (int s = 0; s < n; s++) {
                for (int a = 0; a < 2; a++) {
                    double w0 = 0.2 + rng.nextDouble(), w1 = rng.nextDouble(), w2 = rng.nextDouble();
                    double sum = w0 + w1 + w2;
                    double[] p = {w0 / sum, w1 / sum, 1 - w0 / sum - w1 / sum};
                    int[] next = {(s + 1) % n, rng.nextInt(n), rng.nextInt(n)};
                    b.addAction(s, next, p, 10 * rng.nextDouble());
                }
            }
            return b.build();
        }
    }

    @Test
    void cancelALongSolveFromAnotherThread() throws Exception {
        try (Mdp m = randomMdp(5000); Control c = Control.create();
                MdpSolver s = MdpSolver.create(MdpSolver.Method.VALUE_ITERATION)) {
            fails("size before a run", Status.NOT_FOUND, s::size);
            s.setLimits(1e-300, 1L << 40, MdpSolver.Stopping.SPAN);
            s.setControl(c);
            Thread t = new Thread(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                c.cancel();
            });
            t.start();
            fails("run", Status.CANCELLED, () -> s.run(m));
            t.join();
            MdpSolver.Stats st = s.stats();
            assertTrue(!st.converged() && st.iterations() > 0, st.toString());
            MdpSolver.Gain g = s.gain();
            assertTrue(g.lo() <= g.gain() && g.gain() <= g.hi(), g.toString());
            assertEquals(5000, s.size());
            assertEquals(5000, s.values().length);
            assertTrue(c.isCancelled());
            c.reset();
            assertFalse(c.isCancelled());
            c.setMaxIterations(3);
            fails("run with an iteration cap", Status.NOT_CONVERGED, () -> s.run(m));
            assertEquals(3, s.stats().iterations());
            c.setMemoryLimit(44 * 5000 - 1);
            CrawlschedException e = fails("run over the memory cap", Status.TOO_LARGE, () -> s.run(m));
            assertTrue(e.detail().contains("5000 states"), e.detail());
            s.setControl(null);
            s.setLimits(1e-6, 100000, MdpSolver.Stopping.SPAN);
            s.run(m);
            assertTrue(s.stats().converged());
        }
    }

    @Test
    void controlOnRobotsAndThresholdSearch() {
        try (Control c = Control.create(); Robots plain = Robots.solve(7, 5, 0.1, 1, 0.4);
                Robots r = Robots.solve(7, 5, 0.1, 1, 0.4, c)) {
            assertEquals(plain.cost().cost(), r.cost().cost());
            c.cancel();
            fails("robots cancelled", Status.CANCELLED, () -> Robots.solve(7, 5, 0.1, 1, 0.4, c));
            try (Bmap p1 = Bmap.poisson(0.5); Bmap p2 = Bmap.poisson(1); Dist sv = Dist.exponential(2);
                    ThresholdModel m = ThresholdModel.create(new Bmap[] {p1, p2}, sv, null, 10)) {
                double[] w = {3, 1, 0.2, 0.5, 2};
                int[] modes = {2, 1};
                fails("optimize cancelled", Status.CANCELLED, () -> m.optimize(modes, w, 1000, c));
                c.reset();
                ThresholdModel.Plan got = m.optimize(modes, w, 1000, c);
                ThresholdModel.Plan want = m.optimize(modes, w, 1000);
                assertEquals(want.cost(), got.cost());
                assertEquals(11, got.evaluated());
                assertArrayEquals(want.thresholds(), got.thresholds());
                c.setMaxIterations(5);
                fails("optimize over the iteration cap", Status.TOO_LARGE, () -> m.optimize(modes, w, 1000, c));
                c.setMaxIterations(0);
                // The evaluations: the control's memory cap, then its cancel flag.
                int[] th = {3};
                assertArrayEquals(m.measures(modes, th), m.measures(modes, th, c));
                c.setMemoryLimit(1000);
                fails("measures over the memory cap", Status.TOO_LARGE, () -> m.measures(modes, th, c));
                fails("response time over the memory cap", Status.TOO_LARGE, () -> m.responseTime(modes, th, c));
                c.setMemoryLimit(0);
                c.cancel();
                fails("level distribution cancelled", Status.CANCELLED, () -> m.levelDistribution(modes, th, c));
                fails("cost cancelled", Status.CANCELLED, () -> m.cost(modes, th, w, c));
                fails("response cdf cancelled", Status.CANCELLED, () -> m.responseCdf(modes, th, new double[] {1}, false, c));
            }
        }
    }

    @Test
    void defaultMemoryLimitRefusesBigModels() {
        long initial = Control.defaultMemoryLimit();
        try {
            Control.setDefaultMemoryLimit(64L << 20);
            assertEquals(64L << 20, Control.defaultMemoryLimit());
            CrawlschedException e = fails("4e9-state MDP", Status.TOO_LARGE, () -> MdpBuilder.create(4_000_000_000L));
            assertTrue(e.detail().contains("4000000000 states"), e.detail());
            fails("huge robots model", Status.TOO_LARGE, () -> Robots.solve(1000, 10000, 0.001, 1, 1));
        } finally {
            Control.setDefaultMemoryLimit(initial);
        }
        assertEquals(initial, Control.defaultMemoryLimit());
    }

    @Test
    void closedControlIsRefused() {
        Control c = Control.create();
        c.close();
        c.close();
        fails("cancel", Status.NULL_ARGUMENT, c::cancel);
        fails("reset", Status.NULL_ARGUMENT, c::reset);
        fails("isCancelled", Status.NULL_ARGUMENT, c::isCancelled);
    }

    @Test
    void robotsActionsAreTheSwitchingCurveAndCertified() {
        try (Robots r = Robots.solve(7, 5, 0.1, 1, 0.4)) {
            long[][] f = {r.switchingCurve(0).curve(), r.switchingCurve(1).curve()};
            byte[] acts = r.actions();
            assertEquals(2 * 6 * 8, acts.length);
            for (int rr = 0; rr < 8; rr++) {
                for (int q = 0; q < 6; q++) {
                    for (int s = 0; s < 2; s++) {
                        if ((s == 0 && q == 0) || (s == 1 && rr == 0)) {
                            continue; // excluded states
                        }
                        int want = q <= f[s][rr] ? 1 : 0;
                        assertEquals(want, acts[(rr * 6 + q) * 2 + s], "q=" + q + " r=" + rr + " s=" + s);
                    }
                }
            }
            double cost = r.cost().cost();
            near("C_d", cost, 0.15239, 1e-4);
            Robots.Certificate cert = r.certificate();
            assertTrue(cert.lo() <= cost + 1e-15 && cost <= cert.hi() + 1e-15 && cert.hi() - cert.lo() <= 1e-9
                    && cert.iterations() >= 1, cert.toString());
        }
    }

    @Test
    void responseTimeOfMm1kIsAnErlangMixture() {
        // Poisson 0.8, exponential service 1, buffer 5: an admitted page
        // finding n pages stays Erlang(n + 1, 1).
        try (Bmap p = Bmap.poisson(0.8); Dist sv = Dist.exponential(1);
                ThresholdModel m = ThresholdModel.create(new Bmap[] {p}, sv, null, 5)) {
            double[] pi = new double[7];
            double sum = 0;
            for (int n = 0; n < 7; n++) {
                pi[n] = Math.pow(0.8, n);
                sum += pi[n];
            }
            double mean = 0;
            for (int n = 0; n < 7; n++) {
                pi[n] /= sum;
            }
            for (int n = 0; n < 6; n++) {
                mean += pi[n] / (1 - pi[6]) * (n + 1);
            }
            int[] one = {1};
            int[] none = {};
            ThresholdModel.ResponseTime rt = m.responseTime(one, none);
            near("mean", rt.mean(), mean, 1e-12);
            near("served probability", rt.servedProbability(), 1, 1e-13);
            near("mean served", rt.meanServed(), mean, 1e-12);
            double[] times = {0.5, 2, 5};
            double[] cdf = m.responseCdf(one, none, times, false);
            for (int k = 0; k < times.length; k++) {
                double x = times[k];
                double exact = 0;
                for (int n = 0; n < 6; n++) {
                    double term = Math.exp(-x);
                    double tail = term;
                    for (int j = 1; j <= n; j++) {
                        term *= x / j;
                        tail += term;
                    }
                    exact += pi[n] / (1 - pi[6]) * (1 - tail);
                }
                near("sojourn cdf", cdf[k], exact, 1e-12);
            }
            fails("negative time", Status.INVALID_ARGUMENT, () -> m.responseCdf(one, none, new double[] {-1}, true));
        }
    }

    /** Probe planner, routing searches and simulation, unlimited robots under a control. */
    @Test
    void controlOnPlannerRoutingAndUnlimitedRobots() throws Exception {
        try (Control c = Control.create(); ProbeProfile db = ProbeProfile.dbworld(3, 28);
                ProbePlanner pl = ProbePlanner.create(db, 672, 0); ProbePlanner big = ProbePlanner.create(db, 20000, 0)) {
            double want = pl.plan(28, ProbePlanner.Method.HULL).cost();
            pl.setControl(c);
            double got = pl.plan(28, ProbePlanner.Method.HULL).cost();
            assertEquals(want, got);
            near("DBWorld n = 28 (paper notes)", got, 80.5915, 5e-5);
            c.setMaxIterations(27); // one pass per DP layer
            fails("plan with 27 passes", Status.NOT_CONVERGED, () -> pl.plan(28, ProbePlanner.Method.HULL));
            c.setMaxIterations(0);
            // The reference DP over 20,000 candidates (~2e10 interval costs) only ends by a cancel.
            big.setControl(c);
            Thread t = new Thread(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                c.cancel();
            });
            t.start();
            fails("long reference plan", Status.CANCELLED, () -> big.plan(100, ProbePlanner.Method.REFERENCE));
            t.join();
            c.reset();
        }
        try (Control c = Control.create(); Arrivals a = Arrivals.poisson(1);
                Servers s = Servers.create(a, new double[] {1, 0.7, 0.4}, null, Servers.Objective.LOSSES);
                Servers two = Servers.create(a, new double[] {1, 0.4}, null, Servers.Objective.LOSSES)) {
            Servers.Plan ex = s.optimizeExhaustive(1, 8);
            Servers.Plan ex2 = s.optimizeExhaustive(1, 8, c);
            assertArrayEquals(ex.period(), ex2.period());
            assertEquals(ex.evaluations(), ex2.evaluations());
            c.setMaxIterations(ex.evaluations() - 1);
            fails("exhaustive one short", Status.NOT_CONVERGED, () -> s.optimizeExhaustive(1, 8, c));
            c.setMaxIterations(0);
            assertEquals(s.optimizeLocal(1, 8).cost(), s.optimizeLocal(1, 8, null).cost());
            int[] start = {0, 0, 0, 0, 0, 1};
            assertEquals(two.localSearchMultimodular(start).cost(), two.localSearchMultimodular(start, c).cost());
            assertEquals(s.simulate(ex.period(), 1000, 5), s.simulate(ex.period(), 1000, 5, c));
            try (Robots r = Robots.solveUnlimited(5, 0.1, 1, 0.4, c)) {
                near("Table 2 C_d", r.cost().cost(), 0.11097, 1e-4);
            }
            c.cancel();
            fails("unlimited robots", Status.CANCELLED, () -> Robots.solveUnlimited(5, 0.1, 1, 0.4, c));
            fails("local search", Status.CANCELLED, () -> s.optimizeLocal(1, 8, c));
            fails("simulation", Status.CANCELLED, () -> s.simulate(ex.period(), 1000, 5, c));
        }
    }

    /** A freshness simulation of 10^10 cycles is cancelled from another thread. */
    @Test
    void controlCancelsAFreshnessSimulation() throws Exception {
        try (Control c = Control.create(); Dist d = Dist.exponential(2);
                FreshnessModel m = FreshnessModel.create(d, new double[] {0.05, 0.2, 0.4}, null)) {
            int[] seq = {2, 1, 2, 0, 2, 1};
            assertEquals(m.simulateCyclic(seq, 100, 7), m.simulateCyclic(seq, 100, 7, c));
            Thread t = new Thread(() -> {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                c.cancel();
            });
            t.start();
            fails("long simulation", Status.CANCELLED, () -> m.simulateCyclic(seq, 10_000_000_000L, 7, c));
            t.join();
        }
    }
}
