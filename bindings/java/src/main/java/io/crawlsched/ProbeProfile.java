package io.crawlsched;

import io.crawlsched.nativeapi.NativeApi;

/**
 * Update intensity lambda(t) and importance a(t) over a horizon [0, T]
 * ({@code crawlsched_probe_profile_t}; Eckstein, Gal, Reiner). Immutable:
 * shareable between threads.
 */
public final class ProbeProfile extends NativeHandle {
    /** A probing policy of §5.2. */
    public enum Policy {
        /** Probe once the expected cost since the last probe reaches a level (> 0). */
        THRESHOLD(NativeApi.PROBE_POLICY_THRESHOLD),
        /** Probe once an update since the last probe has a probability (in (0, 1)). */
        FIRST_ARRIVAL(NativeApi.PROBE_POLICY_FIRST_ARRIVAL);

        final int code;

        Policy(int code) {
            this.code = code;
        }
    }

    /**
     * A step function: values[k] on [breaks[k], breaks[k+1]), breaks has
     * values.length + 1 entries from 0, repeating with period
     * breaks[values.length] if periodic.
     */
    public record PiecewiseConstant(double[] breaks, double[] values, boolean periodic) {}

    ProbeProfile(long p) {
        super(p, Lib.API::crawlsched_probe_profile_free);
    }

    interface New {
        int run(long[] out, byte[] err);
    }

    private static ProbeProfile create(New f) {
        long[] out = new long[1];
        Lib.call(e -> f.run(out, e));
        return new ProbeProfile(out[0]);
    }

    /** A profile from lambda(t) and a(t) over [0, horizon]. */
    public static ProbeProfile create(PiecewiseConstant lambda, PiecewiseConstant a, double horizon) {
        Lib.sameLength("lambda.breaks", lambda.breaks().length, lambda.values().length + 1);
        Lib.sameLength("a.breaks", a.breaks().length, a.values().length + 1);
        return create((o, e) -> Lib.API.crawlsched_probe_profile_new(
                lambda.breaks(), lambda.values(), lambda.values().length, Lib.flag(lambda.periodic()),
                a.breaks(), a.values(), a.values().length, Lib.flag(a.periodic()), horizon, o, e));
    }

    /** The paper's DBWorld profile (Table 2, days) with importance ratio in weekday work hours. */
    public static ProbeProfile dbworld(double ratio, double horizonDays) {
        return create((o, e) -> Lib.API.crawlsched_probe_profile_dbworld(ratio, horizonDays, o, e));
    }

    /** The paper's MicroNet profile (Table 3). */
    public static ProbeProfile micronet(double ratio, double horizonDays) {
        return create((o, e) -> Lib.API.crawlsched_probe_profile_micronet(ratio, horizonDays, o, e));
    }

    /** C(s, f) of eq. (5), 0 <= s <= f <= T. */
    public double intervalCost(double s, double f) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_probe_interval_cost(h, s, f, out, e));
        return out[0];
    }

    /** The expected cost (eq. 6) of probing at probes (sorted, the last = T). */
    public double expectedCost(double[] probes) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_probe_expected_cost(h, probes, probes.length, out, e));
        return out[0];
    }

    /** The realized cost (eqs. 3, 4) of probes on an observed trace of update times. */
    public double realizedCost(double[] probes, double[] updates) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_probe_realized_cost(h, probes, probes.length, updates, updates.length, out, e));
        return out[0];
    }

    /** n probes at iT/n. */
    public double[] uniform(int n) {
        double[] out = new double[Lib.arrayLen(n, "n")];
        call((h, e) -> Lib.API.crawlsched_probe_uniform(h, n, out, out.length, e));
        return out;
    }

    /** The threshold or first-arrival schedule for parameter (the last probe is T). */
    public double[] policySchedule(Policy policy, double parameter) {
        int p = Lib.nonNull(policy, "policy").code;
        double[][] r = new double[1][];
        call((h, e0) -> {
            r[0] = Lib.varDoubles(0, (o, cap, len, e) -> Lib.API.crawlsched_probe_policy_schedule(h, p, parameter, o, cap, len, e));
            return NativeApi.OK;
        });
        return r[0];
    }

    /** A policy schedule with exactly n probes and the parameter found by bisection. */
    public record Budgeted(double[] probes, double parameter) {}

    public Budgeted policyWithBudget(Policy policy, int n) {
        int p = Lib.nonNull(policy, "policy").code;
        double[] out = new double[Lib.arrayLen(n, "n")];
        double[] par = new double[1];
        call((h, e) -> Lib.API.crawlsched_probe_policy_with_budget(h, p, n, par, out, out.length, e));
        return new Budgeted(out, par[0]);
    }

    /** Algorithm 10's parameters (the paper: mu0 0.5, muMin 1/512, rho 0.5, a small iota > 0). */
    public record ImproveParams(double delta, double mu0, double muMin, double rho, double iota) {}

    /** Improved probes and the number of moves made. */
    public record Improved(double[] probes, long moves) {}

    /** Algorithm 10: greedy moves that never increase the cost. */
    public Improved improve(double[] probes, ImproveParams q) {
        double[] out = new double[probes.length];
        long[] moves = new long[1];
        call((h, e) -> Lib.API.crawlsched_probe_improve(h, probes, probes.length, q.delta(), q.mu0(), q.muMin(), q.rho(), q.iota(),
                out, out.length, moves, e));
        return new Improved(out, moves[0]);
    }

    /**
     * Maximum-likelihood intensity per piece of breaks (breaks.length - 1
     * pieces) from sorted update times over [0, window]; smoothing >= 0.
     */
    public static double[] estimateIntensity(double[] times, double window, double[] breaks, boolean periodic, double smoothing) {
        if (breaks.length < 1) {
            Lib.sameLength("breaks", breaks.length, 2);
        }
        double[] out = new double[breaks.length - 1];
        Lib.call(e -> Lib.API.crawlsched_probe_estimate_intensity(times, times.length, window, breaks, out.length,
                Lib.flag(periodic), smoothing, out, out.length, e));
        return out;
    }
}
