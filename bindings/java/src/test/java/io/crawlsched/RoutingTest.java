package io.crawlsched;

import static io.crawlsched.Checks.fails;
import static io.crawlsched.Checks.near;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RoutingTest {
    /** Eq. (6), two servers, Poisson(1), losses: sum of rho_m^gap / n, rho_m = 1/(1 + mu_m). */
    static double twoServerEq6(int[] seq, double[] mu) {
        int n = seq.length;
        double total = 0;
        for (int m = 0; m < 2; m++) {
            double rho = 1 / (1 + mu[m]);
            int first = -1;
            int last = -1;
            for (int i = 0; i < n; i++) {
                if (seq[i] != m) {
                    continue;
                }
                if (last >= 0) {
                    total += Math.pow(rho, i - last);
                } else {
                    first = i;
                }
                last = i;
            }
            if (last >= 0) {
                total += Math.pow(rho, first + n - last);
            }
        }
        return total / n;
    }

    /** g(n, mu2) of Figure 1: period (1, 2, ..., 2) of length n. */
    static double gFig1(int n, double mu2) {
        double b = 1 / (1 + mu2);
        return (Math.pow(0.5, n) + b * b + (n - 2) * b) / n;
    }

    @Test
    void arrivalsAndServers() {
        try (Arrivals pois = Arrivals.poisson(1);
                Arrivals mmpp = Arrivals.mmpp(new double[] {-0.1, 0.1, 0.3, -0.3}, new double[] {0.5, 3.5})) {
            Arrivals erl = Arrivals.map(2, new double[] {-1.6, 1.6, 0, -1.6}, new double[] {0, 0, 1.6, 0});
            near("poisson rate", pois.rate(), 1, 1e-15);
            near("mmpp rate", mmpp.rate(), 0.75 * 0.5 + 0.25 * 3.5, 1e-13);
            near("erlang rate", erl.rate(), 0.8, 1e-13);
            // Lemma 5.2.
            near("poisson transform", pois.transform(3, 4), Math.pow(0.25, 4), 1e-15);
            near("erlang transform", erl.transform(1.3, 5), Math.pow(1.6 / 2.9, 10), 1e-13);

            double[] mu = {1, 3};
            try (Servers s2 = Servers.create(pois, mu, null, Servers.Objective.LOSSES);
                    Servers s3 = Servers.create(mmpp, new double[] {0.5, 1, 2}, new double[] {1, 2, 0.5}, Servers.Objective.LOSSES)) {
                erl.close(); // server sets keep copies
                assertEquals(3, s3.len());
                near("immediate", s2.immediateCost(1, 3), Math.pow(0.25, 3), 1e-15);
                Servers.Cost c = s2.cost(new int[] {0, 1, 1});
                near("cost per packet", c.perPacket(), gFig1(3, 3), 1e-15);
                near("cost per unit time", c.perUnitTime(), gFig1(3, 3), 1e-15);

                // Figure 1 at mu2 = 3: the optimal period is (1, 2, 2).
                Servers.Plan ex = s2.optimizeExhaustive(1, 8);
                assertEquals(3, ex.period().length);
                assertEquals(2 + 3 + 4 + 6 + 8 + 14 + 20 + 36, ex.evaluations());
                near("exhaustive cost", ex.cost(), gFig1(3, 3), 1e-15);
                near("exhaustive eq6", twoServerEq6(ex.period(), mu), ex.cost(), 1e-15);
                near("local cost", s2.optimizeLocal(1, 12).cost(), gFig1(3, 3), 1e-15);
                // Theorem 4.2's neighbourhood vs brute force over all 2^7 periods.
                double brute = Double.POSITIVE_INFINITY;
                for (int code = 0; code < 128; code++) {
                    int[] sq = new int[7];
                    for (int i = 0; i < 7; i++) {
                        sq[i] = (code >> i) & 1;
                    }
                    brute = Math.min(brute, twoServerEq6(sq, mu));
                }
                Servers.Plan mm = s2.localSearchMultimodular(new int[7]);
                near("multimodular", mm.cost(), brute, 1e-14);
                near("multimodular eq6", twoServerEq6(mm.period(), mu), brute, 1e-14);
                // Three servers: periods come back through the size query.
                near("local = exhaustive (3 servers)", s3.optimizeLocal(1, 6).cost(), s3.optimizeExhaustive(1, 6).cost(), 1e-12);

                int[] per5 = {0, 2, 1, 2, 1};
                Servers.Cost exact = s3.cost(per5);
                Servers.Simulation sim = s3.simulate(per5, 20000, 42);
                assertTrue(Math.abs(sim.perPacket() - exact.perPacket()) <= 4 * sim.stdError()
                        && Math.abs(sim.perUnitTime() - exact.perUnitTime()) <= 0.05 * exact.perUnitTime(), sim + " vs " + exact);

                fails("unknown server", Status.NOT_FOUND, () -> s2.immediateCost(2, 1));
                fails("empty period", Status.INVALID_ARGUMENT, () -> s2.cost(new int[0]));
                fails("enumeration too large", Status.TOO_LARGE, () -> s2.optimizeExhaustive(1, 40));
                fails("min > max", Status.INVALID_ARGUMENT, () -> s2.optimizeLocal(3, 2));
                fails("multimodular too long", Status.TOO_LARGE, () -> s2.localSearchMultimodular(new int[21]));
                fails("zero periods", Status.INVALID_ARGUMENT, () -> s3.simulate(per5, 0, 1));
            }
            fails("negative mu", Status.INVALID_ARGUMENT, () -> pois.transform(-1, 1));
            fails("NaN service rate", Status.INVALID_ARGUMENT, () -> Servers.create(pois, new double[] {1, Double.NaN}, null, Servers.Objective.LOSSES));
            fails("weights length", Status.INVALID_ARGUMENT, () -> Servers.create(pois, new double[] {1, 2}, new double[] {1}, Servers.Objective.ROBOT));
            fails("closed arrivals", Status.NULL_ARGUMENT, erl::rate);
            fails("closed arrivals", Status.NULL_ARGUMENT, () -> Servers.create(erl, new double[] {1}, null, Servers.Objective.LOSSES));
        }
        fails("NaN rate", Status.INVALID_ARGUMENT, () -> Arrivals.poisson(Double.NaN));
        fails("not a generator", Status.INVALID_ARGUMENT, () -> Arrivals.mmpp(new double[] {-0.1, 0.2, 0.3, -0.3}, new double[] {0.5, 3.5}));
        fails("MAP length", Status.INVALID_ARGUMENT, () -> Arrivals.map(2, new double[] {-1.6, 1.6, 0, -1.6}, new double[] {0, 0, 1}));
    }

    @Test
    void figure1AndRouter() {
        int[] bal = Routing.balancedSequence(new long[] {3, 5});
        int[] cnt = new int[2];
        for (int s : bal) {
            cnt[s]++;
        }
        assertEquals(8, bal.length);
        assertEquals(3, cnt[0]);
        near("g(5, 2)", Routing.twoServerCost(5, 2), gFig1(5, 2), 1e-15);
        near("switch point 2", Routing.switchPoint(2), 1 + Math.sqrt(2), 1e-9);
        for (int n = 3; n <= 5; n++) {
            double b = 1 - Math.sqrt(1 - (n + 2) / Math.pow(2, n + 1));
            near("switch point " + n, Routing.switchPoint(n), 1 / b - 1, 1e-9);
        }
        fails("zero counts", Status.INVALID_ARGUMENT, () -> Routing.balancedSequence(new long[] {0, 0}));
        fails("n = 1", Status.INVALID_ARGUMENT, () -> Routing.twoServerCost(1, 2));
        fails("n = 60", Status.INVALID_ARGUMENT, () -> Routing.switchPoint(60));

        int[] per = {0, 1, 1, 2};
        Router r = Router.create(per, 3);
        for (int i = 0; i < 6; i++) {
            assertEquals(per[i % 4], r.next());
        }
        int[] batch = r.nextBatch(7);
        for (int i = 0; i < 7; i++) {
            assertEquals(per[(6 + i) % 4], batch[i]);
        }
        fails("server out of range", Status.INVALID_ARGUMENT, () -> Router.create(new int[] {0, 3}, 3));
        fails("empty router", Status.INVALID_ARGUMENT, () -> Router.create(new int[0], 3));
        r.close();
        fails("closed router", Status.NULL_ARGUMENT, r::next);
        fails("closed router batch", Status.NULL_ARGUMENT, () -> r.nextBatch(batch));
    }
}
