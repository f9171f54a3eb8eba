package io.crawlsched;

import io.crawlsched.nativeapi.NativeApi;

/**
 * M exponential servers fed by one arrival process, with an objective
 * ({@code crawlsched_routing_servers_t}). Immutable: shareable between
 * threads.
 */
public final class Servers extends NativeHandle {
    /** What a routing costs. */
    public enum Objective {
        /** Expected weighted packets lost per packet (paper §5). */
        LOSSES(NativeApi.ROUTING_LOSSES),
        /** Robot scheduling (§6, Remark 6.1): weighted stale time of pages. */
        ROBOT(NativeApi.ROUTING_ROBOT);

        final int code;

        Objective(int code) {
            this.code = code;
        }
    }

    private Servers(long p) {
        super(p, Lib.API::crawlsched_routing_servers_free);
    }

    /** Service rates > 0, weights > 0 (null: all 1); arrivals is copied. */
    public static Servers create(Arrivals arrivals, double[] rates, double[] weights, Objective objective) {
        if (weights != null) {
            Lib.sameLength("weights", weights.length, rates.length);
        }
        long a = ptrOf(arrivals, "arrivals");
        int o = Lib.nonNull(objective, "objective").code;
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_routing_servers_new(a, rates, weights, rates.length, o, out, e), arrivals);
        return new Servers(out[0]);
    }

    /** The number of servers M. */
    public int len() {
        long[] out = new long[1];
        call((h, e) -> Lib.API.crawlsched_routing_servers_len(h, out, e));
        return (int) out[0];
    }

    /** f_m(k): the cost of routing to server m when k >= 1 arrivals passed since its last packet. */
    public double immediateCost(int server, int k) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_routing_immediate_cost(h, server, k, out, e));
        return out[0];
    }

    /** The exact cost of a period per packet and per unit time (eq. 6). */
    public record Cost(double perPacket, double perUnitTime) {}

    public Cost cost(int[] seq) {
        double[] a = new double[1];
        double[] b = new double[1];
        call((h, e) -> Lib.API.crawlsched_routing_cost(h, seq, seq.length, a, b, e));
        return new Cost(a[0], b[0]);
    }

    /** An optimised period, its cost per packet and the number of evaluations. */
    public record Plan(int[] period, double cost, long evaluations) {}

    private interface Opt {
        int run(int[] out, long cap, long[] len, double[] cost, long[] evaluations, byte[] err);
    }

    private static Plan optimize(int guess, Opt f) {
        double[] cost = new double[1];
        long[] ev = new long[1];
        int[] period = Lib.varInts(guess, (o, cap, len, e) -> f.run(o, cap, len, cost, ev, e));
        return new Plan(period, cost[0], ev[0]);
    }

    private static int guessPeriod(long maxPeriod) {
        return maxPeriod < 0 || maxPeriod > (1 << 20) ? 0 : (int) maxPeriod;
    }

    /** {@link #optimizeExhaustive(long, long, Control)} without a control. */
    public Plan optimizeExhaustive(long minPeriod, long maxPeriod) {
        return optimizeExhaustive(minPeriod, maxPeriod, null);
    }

    /** {@link #optimizeLocal(long, long, Control)} without a control. */
    public Plan optimizeLocal(long minPeriod, long maxPeriod) {
        return optimizeLocal(minPeriod, maxPeriod, null);
    }

    /** {@link #localSearchMultimodular(int[], Control)} without a control. */
    public Plan localSearchMultimodular(int[] seq) {
        return localSearchMultimodular(seq, null);
    }

    /**
     * The exact optimal period over lengths minPeriod..=maxPeriod
     * (enumeration), under a control (null: none): its iteration cap counts
     * sequences evaluated
     * ({@link Status#NOT_CONVERGED}), cancelling gives {@link Status#CANCELLED};
     * no plan either way.
     */
    public Plan optimizeExhaustive(long minPeriod, long maxPeriod, Control control) {
        long h = ptr();
        long ctl = Control.addressOf(control);
        try {
            return optimize(guessPeriod(maxPeriod), (o, cap, len, c, ev, e) ->
                    Lib.API.crawlsched_routing_optimize_exhaustive(h, minPeriod, maxPeriod, ctl, o, cap, len, c, ev, e));
        } finally {
            java.lang.ref.Reference.reachabilityFence(this);
            Control.keep(control);
        }
    }

    /**
     * Local search from the balanced sequence of each length (a heuristic in
     * general), under a control (null: none): its iteration cap counts
     * neighbourhood scans of all periods together.
     */
    public Plan optimizeLocal(long minPeriod, long maxPeriod, Control control) {
        long h = ptr();
        long ctl = Control.addressOf(control);
        try {
            return optimize(guessPeriod(maxPeriod), (o, cap, len, c, ev, e) ->
                    Lib.API.crawlsched_routing_optimize_local(h, minPeriod, maxPeriod, ctl, o, cap, len, c, ev, e));
        } finally {
            java.lang.ref.Reference.reachabilityFence(this);
            Control.keep(control);
        }
    }

    /**
     * The full Theorem 4.2 neighbourhood search from seq (M = 2, len <= 20),
     * under a control (null: none) as {@link #optimizeLocal(long, long, Control)}.
     */
    public Plan localSearchMultimodular(int[] seq, Control control) {
        long h = ptr();
        long ctl = Control.addressOf(control);
        try {
            return optimize(seq.length, (o, cap, len, c, ev, e) ->
                    Lib.API.crawlsched_routing_local_search_multimodular(h, seq, seq.length, ctl, o, cap, len, c, ev, e));
        } finally {
            java.lang.ref.Reference.reachabilityFence(this);
            Control.keep(control);
        }
    }

    /** A Monte Carlo estimate of a period's cost. */
    public record Simulation(double perPacket, double stdError, double perUnitTime) {}

    /** {@link #simulate(int[], long, long, Control)} without a control. */
    public Simulation simulate(int[] seq, long periods, long seed) {
        return simulate(seq, periods, seed, null);
    }

    /** Runs {@code periods} repetitions of seq, seeded, under a control (null: none): cancelling stops the run. */
    public Simulation simulate(int[] seq, long periods, long seed, Control control) {
        double[] a = new double[1];
        double[] b = new double[1];
        double[] c = new double[1];
        long ctl = Control.addressOf(control);
        try {
            call((h, e) -> Lib.API.crawlsched_routing_simulate(h, seq, seq.length, periods, seed, ctl, a, b, c, e));
        } finally {
            Control.keep(control);
        }
        return new Simulation(a[0], b[0], c[0]);
    }
}
