package io.crawlsched;

import static io.crawlsched.Checks.fails;
import static io.crawlsched.Checks.near;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.crawlsched.ProbeProfile.PiecewiseConstant;
import org.junit.jupiter.api.Test;

class ProbeTest {
    /** Best split of units grid cells of width w into n parts when C(s, f) = (f - s)^2. */
    static double splitCost(int units, int n, double w) {
        int q = units / n;
        int r = units % n;
        double hi = (q + 1) * w;
        double lo = q * w;
        return r * hi * hi + (n - r) * lo * lo;
    }

    /** lambda = 2, a = 1 on [0, 4]: C(s, f) = (f - s)^2. */
    static ProbeProfile flat() {
        return ProbeProfile.create(new PiecewiseConstant(new double[] {0, 1}, new double[] {2}, true),
                new PiecewiseConstant(new double[] {0, 1}, new double[] {1}, true), 4);
    }

    @Test
    void profile() {
        ProbeProfile flat = flat();
        near("C(1, 3)", flat.intervalCost(1, 3), 4, 1e-12);
        double[] uni = flat.uniform(4);
        near("uniform[0]", uni[0], 1, 1e-15);
        near("uniform[3]", uni[3], 4, 0);
        near("expected", flat.expectedCost(uni), 4, 1e-12);
        near("realized", flat.realizedCost(new double[] {2, 4}, new double[] {0.5, 3}), (2 - 0.5) + (4 - 3), 1e-12);
        double[] est = ProbeProfile.estimateIntensity(new double[] {0.1, 0.2, 0.3, 0.6}, 1, new double[] {0, 0.5, 1}, false, 0);
        near("MLE 0", est[0], 6, 1e-12);
        near("MLE 1", est[1], 2, 1e-12);
        // Threshold level 0.81: a probe every 0.9, then T (size queried first).
        double[] sch = flat.policySchedule(ProbeProfile.Policy.THRESHOLD, 0.81);
        assertEquals(5, sch.length);
        near("threshold probe", sch[3], 3.6, 1e-9);
        near("last probe", sch[4], 4, 0);
        double[] fa = flat.policySchedule(ProbeProfile.Policy.FIRST_ARRIVAL, 1 - Math.exp(-0.6));
        assertEquals(14, fa.length);
        near("first arrival probe", fa[0], 0.3, 1e-9);
        ProbeProfile.Budgeted b4 = flat.policyWithBudget(ProbeProfile.Policy.THRESHOLD, 4);
        assertTrue(b4.probes().length == 4 && b4.parameter() >= 1 - 1e-9 && b4.parameter() < 16.0 / 9, b4.toString());
        near("budget probe", b4.probes()[0], Math.sqrt(b4.parameter()), 1e-9);
        ProbeProfile.Improved imp = flat.improve(new double[] {1, 4}, new ProbeProfile.ImproveParams(0, 0.5, 1.0 / 512, 0.5, 1e-12));
        assertTrue(Math.abs(imp.probes()[0] - 2) <= 0.02 && imp.moves() > 0, imp.toString());

        fails("s > f", Status.INVALID_ARGUMENT, () -> flat.intervalCost(3, 1));
        fails("NaN", Status.INVALID_ARGUMENT, () -> flat.intervalCost(Double.NaN, 1));
        fails("unsorted", Status.INVALID_ARGUMENT, () -> flat.expectedCost(new double[] {2, 1, 4}));
        fails("unsorted updates", Status.INVALID_ARGUMENT, () -> flat.realizedCost(new double[] {2, 4}, new double[] {3, 0.5}));
        fails("unsorted times", Status.INVALID_ARGUMENT,
                () -> ProbeProfile.estimateIntensity(new double[] {0.1, 0.3, 0.2}, 1, new double[] {0, 1}, false, 0));
        fails("no breaks", Status.INVALID_ARGUMENT, () -> ProbeProfile.estimateIntensity(new double[0], 1, new double[0], false, 0));
        fails("uniform 0", Status.INVALID_ARGUMENT, () -> flat.uniform(0));
        fails("probability 1.5", Status.INVALID_ARGUMENT, () -> flat.policySchedule(ProbeProfile.Policy.FIRST_ARRIVAL, 1.5));
        fails("iota 0", Status.INVALID_ARGUMENT,
                () -> flat.improve(new double[] {1, 4}, new ProbeProfile.ImproveParams(0, 0.5, 1.0 / 512, 0.5, 0)));
        fails("negative intensity", Status.INVALID_ARGUMENT,
                () -> ProbeProfile.create(new PiecewiseConstant(new double[] {0, 1}, new double[] {-1}, true),
                        new PiecewiseConstant(new double[] {0, 1}, new double[] {1}, true), 4));
        fails("breaks length", Status.INVALID_ARGUMENT,
                () -> ProbeProfile.create(new PiecewiseConstant(new double[] {0}, new double[] {1}, false),
                        new PiecewiseConstant(new double[] {0}, new double[0], false), 4));
        fails("ratio 0", Status.INVALID_ARGUMENT, () -> ProbeProfile.dbworld(0, 28));
        fails("negative horizon", Status.INVALID_ARGUMENT, () -> ProbeProfile.micronet(3, -1));
        fails("budget with no room", Status.INVALID_ARGUMENT, () -> flat.policyWithBudget(ProbeProfile.Policy.THRESHOLD, 0));
        flat.close();
        fails("closed profile", Status.NULL_ARGUMENT, () -> flat.uniform(4));
    }

    @Test
    void planner() {
        try (ProbeProfile flat = flat(); ProbePlanner pl = ProbePlanner.create(flat, 8, 0)) {
            for (int n = 1; n <= 8; n++) {
                for (ProbePlanner.Method m : ProbePlanner.Method.values()) {
                    ProbePlanner.Plan plan = pl.plan(n, m);
                    near(m + " plan cost", plan.cost(), splitCost(8, n, 0.5), 1e-12);
                    near("last probe", plan.probes()[n - 1], 4, 0);
                }
            }
            double[] all = pl.allCosts(8);
            for (int n = 1; n <= 8; n++) {
                near("all costs", all[n - 1], splitCost(8, n, 0.5), 1e-12);
            }
            // Spacing 1.5: 3 probes do not fit in T = 4.
            pl.setConstraints(1.5, new double[0], new double[0]);
            fails("spacing", Status.INFEASIBLE, () -> pl.plan(3, ProbePlanner.Method.LAGRANGIAN));
            // Window [0.9, 1.1]: 2 probes at 1 and 4 cost 1 + 9.
            pl.setConstraints(0, new double[] {0.9}, new double[] {1.1});
            ProbePlanner.Plan w = pl.plan(2, ProbePlanner.Method.LAGRANGIAN);
            near("window probe", w.probes()[0], 1, 1e-12);
            near("window cost", w.cost(), 10, 1e-12);
            fails("window lengths", Status.INVALID_ARGUMENT, () -> pl.setConstraints(0, new double[] {0.9}, new double[0]));
            fails("NaN spacing", Status.INVALID_ARGUMENT, () -> pl.setConstraints(Double.NaN, new double[0], new double[0]));
            pl.setConstraints(0, new double[0], new double[0]);
            fails("n > N", Status.INVALID_ARGUMENT, () -> pl.plan(9, ProbePlanner.Method.LAGRANGIAN));
            fails("max_n > N", Status.INVALID_ARGUMENT, () -> pl.allCosts(9));
            fails("grid 0", Status.INVALID_ARGUMENT, () -> ProbePlanner.create(flat, 0, 0));
            fails("huge grid", Status.TOO_LARGE, () -> ProbePlanner.create(flat, -1L, 0));
        }
        // The paper's DBWorld check values: ratio 3, delta 0, 28 days, hourly grid.
        try (ProbeProfile db = ProbeProfile.dbworld(3, 28); ProbeProfile mn = ProbeProfile.micronet(3, 28);
                ProbePlanner dp = ProbePlanner.create(db, 672, 0)) {
            int[] ns = {4, 8, 14, 28, 56};
            double[] opt = {611.7427, 301.0284, 168.9081, 80.5915, 40.7283};
            double[] unif = {696.0875, 342.4025, 199.6175, 107.9125, 50.5125};
            for (int k = 0; k < ns.length; k++) {
                near("DBWorld optimal " + ns[k], dp.plan(ns[k], ProbePlanner.Method.LAGRANGIAN).cost(), opt[k], 5e-5);
                near("DBWorld uniform " + ns[k], db.expectedCost(db.uniform(ns[k])), unif[k], 5e-5);
            }
            // Re-plan on MicroNet: the planner's cost is the profile's expected cost.
            dp.setProfile(mn);
            ProbePlanner.Plan s = dp.plan(14, ProbePlanner.Method.LAGRANGIAN);
            near("MicroNet plan", mn.expectedCost(s.probes()), s.cost(), 1e-12);
            fails("null profile", Status.NULL_ARGUMENT, () -> dp.setProfile(null));
            dp.close();
            fails("closed planner", Status.NULL_ARGUMENT, () -> dp.plan(4, ProbePlanner.Method.LAGRANGIAN));
            fails("closed planner", Status.NULL_ARGUMENT, () -> dp.allCosts(4));
        }
    }
}
