package io.crawlsched;

import static io.crawlsched.Checks.fails;
import static io.crawlsched.Checks.near;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class MdpTest {
    /**
     * State 0: stay (cost 1) or go to 1 (cost 0.5); state 1: go to 0 (cost 0)
     * or stay (cost 2). The optimum alternates: gain 0.25, h(1) - h(0) = -0.25;
     * discounted with beta: v0 = 0.5/(1 - beta^2), v1 = beta v0.
     */
    static Mdp twoState() {
        try (MdpBuilder b = MdpBuilder.create(2)) {
            double[] one = {1};
            assertEquals(0, b.addAction(1, new int[] {0}, one, 0));
            b.addAction(0, new int[] {0}, one, 1);
            assertEquals(1, b.addAction(0, new int[] {1}, one, 0.5));
            b.addAction(1, new int[] {1}, one, 2);
            return b.build();
        }
    }

    @Test
    void twoStateModel() {
        try (Mdp m = twoState()) {
            assertEquals(new Mdp.Size(2, 4, 4), m.size());
            for (MdpSolver.Method method : MdpSolver.Method.values()) {
                try (MdpSolver s = MdpSolver.create(method)) {
                    s.run(m);
                    MdpSolver.Gain g = s.gain();
                    near(method + " gain", g.gain(), 0.25, 1e-9);
                    assertTrue(g.lo() <= 0.25 + 1e-12 && g.hi() >= 0.25 - 1e-12, g.toString());
                    assertArrayEquals(new int[] {1, 0}, s.policy());
                    double[] h = s.values();
                    near("bias", h[1] - h[0], -0.25, 1e-8);
                    MdpSolver.Stats st = s.stats();
                    assertTrue(st.converged() && st.recurrentClasses() == 1 && st.iterations() >= 1, st.toString());
                    double tau = s.tau();
                    if (method == MdpSolver.Method.POLICY_ITERATION) {
                        assertEquals(1.0, tau);
                    } else {
                        assertTrue(tau > 0 && tau <= 1, "tau " + tau);
                    }
                }
            }
            try (MdpSolver s = MdpSolver.create(MdpSolver.Method.POLICY_ITERATION)) {
                fails("gain before run", Status.NOT_FOUND, s::gain);
                s.setCriterion(MdpSolver.Criterion.DISCOUNTED, 0.5, 0);
                s.setLimits(1e-10, 1000, MdpSolver.Stopping.SPAN);
                s.run(m);
                double[] v = s.values();
                near("v0", v[0], 0.5 / 0.75, 1e-12);
                near("v1", v[1], 0.25 / 0.75, 1e-12);
                fails("NaN tolerance", Status.INVALID_ARGUMENT, () -> s.setLimits(Double.NaN, 10, MdpSolver.Stopping.SPAN));
                fails("discount 1", Status.INVALID_ARGUMENT, () -> s.setCriterion(MdpSolver.Criterion.DISCOUNTED, 1, 0));
                Mdp m2 = twoState();
                m2.close();
                fails("closed mdp", Status.NULL_ARGUMENT, () -> s.run(m2));
                fails("closed mdp size", Status.NULL_ARGUMENT, m2::size);
            }
            // The iteration limit: NOT_CONVERGED, the best answer so far stays readable.
            try (MdpSolver s = MdpSolver.create(MdpSolver.Method.VALUE_ITERATION)) {
                s.setLimits(1e-300, 1, MdpSolver.Stopping.SPAN);
                s.setCriterion(MdpSolver.Criterion.AVERAGE, 0, 0.5);
                fails("not converged", Status.NOT_CONVERGED, () -> s.run(m));
                assertEquals(2, s.policy().length);
                assertTrue(!s.stats().converged());
                assertEquals(0.5, s.tau()); // the tau set, reported even when not converged
            }
        }
    }

    @Test
    void builderErrors() {
        fails("no states", Status.INVALID_ARGUMENT, () -> MdpBuilder.create(0));
        MdpBuilder b = MdpBuilder.create(2);
        fails("length mismatch", Status.INVALID_ARGUMENT, () -> b.addAction(0, new int[] {0, 1}, new double[] {0.5}, 0));
        fails("infinite cost", Status.INVALID_ARGUMENT, () -> b.addAction(0, new int[] {0, 1}, new double[] {0.5, 0.5}, Double.POSITIVE_INFINITY));
        fails("bad target", Status.INVALID_ARGUMENT, () -> b.addAction(0, new int[] {0, 5}, new double[] {0.5, 0.5}, 0));
        fails("state without action", Status.INVALID_ARGUMENT, b::build);
        b.close();
        fails("closed builder", Status.NULL_ARGUMENT, b::build);
    }
}
