package io.crawlsched;

import static io.crawlsched.Checks.fails;
import static io.crawlsched.Checks.near;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RobotsTest {
    /** Eq. (9) with mu = 1. */
    static double staticCost(double rho, double gamma, int k) {
        return (1 - rho) * (gamma + Math.pow(rho, k + 1)) / (1 - Math.pow(rho, k + 1));
    }

    @Test
    void tables1And2() {
        // Table 1, lambda = 0.1, K = 5, gamma = 0.4: C_d = 0.15239, N_min = 1, N-bar = 6.5.
        try (Robots r = Robots.solve(7, 5, 0.1, 1, 0.4)) {
            assertEquals(7, r.robots());
            assertEquals(5, r.buffer());
            Robots.Cost c = r.cost();
            near("C_d", c.cost(), 0.15239, 1e-4);
            near("C_d = gamma P_starv + loss", c.cost(), 0.4 * c.starvation() + c.lossRate(), 1e-12);
            Robots.Counts n = r.counts();
            assertTrue(n.min() == 1 && Math.abs(n.mean() - 6.5) <= 0.1 && n.max() >= 0 && n.max() < 7, n.toString());
            Robots.SwitchingCurve f0 = r.switchingCurve(0);
            Robots.SwitchingCurve f1 = r.switchingCurve(1);
            assertTrue(f0.isCurve() && f0.curve().length == 8 && f0.curve()[0] >= 1, f0.toString());
            double[] pi = r.stationary();
            double total = 0;
            double empty = 0;
            for (int rr = 0; rr < 8; rr++) {
                for (int q = 0; q < 6; q++) {
                    for (int s = 0; s < 3; s++) {
                        total += pi[(rr * 6 + q) * 3 + s];
                        if (q == 0) {
                            empty += pi[(rr * 6 + q) * 3 + s];
                        }
                    }
                }
            }
            near("sum pi", total, 1, 1e-12);
            near("P(empty)", empty, c.starvation(), 1e-12);
            near("optimal curve cost", r.evaluateCurve(f0.curve(), f1.curve()), c.cost(), 1e-12);
            for (int m = 1; m <= 7; m++) {
                near("static " + m, r.evaluateStatic(m), staticCost(0.1 * m, 0.4, 5), 1e-12);
            }
            fails("short curve", Status.INVALID_ARGUMENT,
                    () -> r.evaluateCurve(Arrays.copyOf(f0.curve(), 3), Arrays.copyOf(f1.curve(), 3)));
            fails("curve lengths", Status.INVALID_ARGUMENT, () -> r.evaluateCurve(f0.curve(), Arrays.copyOf(f1.curve(), 3)));
            fails("too many robots", Status.INVALID_ARGUMENT, () -> r.evaluateStatic(8));
            fails("bad event", Status.INVALID_ARGUMENT, () -> r.switchingCurve(2));
        }
        near("C_s", Robots.staticCost(0.7, 0.4, 5, 1), staticCost(0.7, 0.4, 5), 1e-13);
        near("C_s(rho=1)", Robots.staticCost(1, 1.13, 15, 1), 2.13 / 16, 1e-14);
        Robots.StaticPlan ns = Robots.optimalStatic(0.1, 1, 0.4, 5);
        near("optimal static", ns.cost(), staticCost(0.1 * ns.robots(), 0.4, 5), 1e-12);
        for (int m = 1; m <= 20; m++) {
            // m = 10 is rho = 1, where eq. (9) is 0/0 (its limit is checked above)
            double cm = m == 10 ? Robots.staticCost(1, 0.4, 5, 1) : staticCost(0.1 * m, 0.4, 5);
            assertTrue(cm >= ns.cost() - 1e-12, "static with " + m + " robots beats Proposition 3");
        }
        // Table 2: N free, C_d = 0.11097, N_min 2, N_max 12.
        Robots u = Robots.solveUnlimited(5, 0.1, 1, 0.4);
        near("Table 2 C_d", u.cost().cost(), 0.11097, 1e-4);
        assertEquals(2, u.counts().min());
        assertEquals(12, u.counts().max());
        u.close();
        fails("closed robots", Status.NULL_ARGUMENT, u::cost);
        fails("closed robots", Status.NULL_ARGUMENT, u::stationary);

        fails("NaN lambda", Status.INVALID_ARGUMENT, () -> Robots.solve(7, 5, Double.NaN, 1, 0.4));
        fails("K = 0", Status.INVALID_ARGUMENT, () -> Robots.solveUnlimited(0, 0.1, 1, 0.4));
        fails("negative load", Status.INVALID_ARGUMENT, () -> Robots.staticCost(-1, 0.4, 5, 1));
        fails("mu = 0", Status.INVALID_ARGUMENT, () -> Robots.optimalStatic(0.1, 0, 0.4, 5));
    }
}
