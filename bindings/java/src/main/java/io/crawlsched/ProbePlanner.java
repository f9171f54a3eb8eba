package io.crawlsched;

import io.crawlsched.nativeapi.NativeApi;

/**
 * Plans optimal probe schedules on N candidate times
 * ({@code crawlsched_probe_planner_t}). Mutable; the library serialises
 * calls, so threads may share one instance.
 */
public final class ProbePlanner extends NativeHandle {
    /** The algorithm; all give the same optimal cost. */
    public enum Method {
        /** The paper's O(nN^2) dynamic program (Algorithm 1). */
        REFERENCE(NativeApi.PROBE_METHOD_REFERENCE),
        /** Monge divide and conquer per layer, O(nN log N). */
        DIVIDE_CONQUER(NativeApi.PROBE_METHOD_DIVIDE_CONQUER),
        /** Convex hull trick per layer, O(nN). */
        HULL(NativeApi.PROBE_METHOD_HULL),
        /** Lagrangian relaxation over n (the default choice). */
        LAGRANGIAN(NativeApi.PROBE_METHOD_LAGRANGIAN);

        final int code;

        Method(int code) {
            this.code = code;
        }
    }

    private ProbePlanner(long p) {
        super(p, Lib.API::crawlsched_probe_planner_free);
    }

    /** grid evenly spaced candidates over [0, T] of profile (copied), spacing delta >= 0. */
    public static ProbePlanner create(ProbeProfile profile, long grid, double delta) {
        long pp = ptrOf(profile, "profile");
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_probe_planner_new(pp, grid, delta, out, e), profile);
        return new ProbePlanner(out[0]);
    }

    /** Replaces the profile (copied), keeping grid, spacing and windows. */
    public void setProfile(ProbeProfile profile) {
        long pp = ptrOf(profile, "profile");
        call((h, e) -> Lib.API.crawlsched_probe_planner_set_profile(h, pp, e), profile);
    }

    /** Minimum spacing delta >= 0 and allowed windows [starts[k], ends[k]] (none: all times). */
    public void setConstraints(double delta, double[] starts, double[] ends) {
        Lib.sameLength("ends", ends.length, starts.length);
        call((h, e) -> Lib.API.crawlsched_probe_planner_set_constraints(h, delta, starts, ends, starts.length, e));
    }

    /**
     * Attaches a control (null: detach) to later {@link #plan} and
     * {@link #allCosts} calls, kept across profile and constraint changes:
     * its memory cap covers the DP tables, its iteration cap the passes over
     * the grid (one per DP layer or Lagrangian multiplier;
     * {@link Status#NOT_CONVERGED}), and cancelling it stops a running plan
     * with {@link Status#CANCELLED} and no result.
     */
    public void setControl(Control control) {
        long c = Control.addressOf(control);
        try {
            call((h, e) -> Lib.API.crawlsched_probe_planner_set_control(h, c, e));
        } finally {
            Control.keep(control);
        }
    }

    /** An optimal schedule of exactly n probes and its expected cost. */
    public record Plan(double[] probes, double cost) {}

    public Plan plan(int n, Method method) {
        int m = Lib.nonNull(method, "method").code;
        double[] out = new double[Lib.arrayLen(n, "n")];
        double[] cost = new double[1];
        call((h, e) -> Lib.API.crawlsched_probe_planner_plan(h, n, m, out, out.length, cost, e));
        return new Plan(out, cost[0]);
    }

    /** The optimal expected cost for every budget n = 1..maxN. */
    public double[] allCosts(int maxN) {
        double[] out = new double[Lib.arrayLen(maxN, "maxN")];
        call((h, e) -> Lib.API.crawlsched_probe_planner_all_costs(h, maxN, out, out.length, e));
        return out;
    }
}
