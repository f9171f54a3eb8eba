package io.crawlsched;

import io.crawlsched.nativeapi.NativeApi;

/**
 * Solver settings and the result of its last run
 * ({@code crawlsched_mdp_solver_t}; Talim et al.). Mutable; the library
 * serialises calls.
 */
public final class MdpSolver extends NativeHandle {
    /** The solution method. */
    public enum Method {
        RELATIVE_VALUE_ITERATION(NativeApi.MDP_RELATIVE_VALUE_ITERATION),
        VALUE_ITERATION(NativeApi.MDP_VALUE_ITERATION),
        GAUSS_SEIDEL(NativeApi.MDP_GAUSS_SEIDEL),
        POLICY_ITERATION(NativeApi.MDP_POLICY_ITERATION);

        final int code;

        Method(int code) {
            this.code = code;
        }
    }

    /** Long-run average cost or expected discounted cost. */
    public enum Criterion {
        AVERAGE(NativeApi.MDP_AVERAGE),
        DISCOUNTED(NativeApi.MDP_DISCOUNTED);

        final int code;

        Criterion(int code) {
            this.code = code;
        }
    }

    /** Stopping rule: certificate span, or the paper's relative change of h. */
    public enum Stopping {
        SPAN(NativeApi.MDP_STOP_SPAN),
        RELATIVE_CHANGE(NativeApi.MDP_STOP_RELATIVE_CHANGE);

        final int code;

        Stopping(int code) {
            this.code = code;
        }
    }

    private MdpSolver(long p) {
        super(p, Lib.API::crawlsched_mdp_solver_free);
    }

    /** A solver with the defaults (average cost, tolerance 1e-9, 100000 iterations, span stopping). */
    public static MdpSolver create(Method method) {
        int m = Lib.nonNull(method, "method").code;
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_mdp_solver_new(m, out, e));
        return new MdpSolver(out[0]);
    }

    /** Tolerance (> 0), iteration limit (>= 1) and stopping rule. */
    public void setLimits(double tolerance, long maxIterations, Stopping stopping) {
        int s = Lib.nonNull(stopping, "stopping").code;
        call((h, e) -> Lib.API.crawlsched_mdp_solver_set_limits(h, tolerance, maxIterations, s, e));
    }

    /** Criterion, discount in [0, 1) (discounted only) and aperiodicity tau in (0, 1] or 0 (automatic). */
    public void setCriterion(Criterion criterion, double discount, double tau) {
        int c = Lib.nonNull(criterion, "criterion").code;
        call((h, e) -> Lib.API.crawlsched_mdp_solver_set_criterion(h, c, discount, tau, e));
    }

    /**
     * Attaches a control (null: detach) to later runs: its memory cap,
     * iteration cap and cancel flag apply to {@link #run}.
     */
    public void setControl(Control control) {
        long c = Control.addressOf(control);
        try {
            call((h, e) -> Lib.API.crawlsched_mdp_solver_set_control(h, c, e));
        } finally {
            Control.keep(control);
        }
    }

    /** Number of states of the last run's MDP (NOT_FOUND before a run). */
    public long size() {
        long[] out = new long[1];
        call((h, e) -> Lib.API.crawlsched_mdp_solver_size(h, out, e));
        return out[0];
    }

    /**
     * Solves mdp. Throws with {@link Status#NOT_CONVERGED} if the iteration
     * limit was reached, {@link Status#CANCELLED} if the attached control was
     * cancelled; in both cases the best answer so far stays readable.
     */
    public void run(Mdp mdp) {
        long m = ptrOf(mdp, "mdp");
        byte[] e = Lib.err();
        int st;
        try {
            st = Lib.API.crawlsched_mdp_solver_run(ptr(), m, e);
        } finally {
            java.lang.ref.Reference.reachabilityFence(this);
            java.lang.ref.Reference.reachabilityFence(mdp);
        }
        Lib.check(st, e);
    }

    /** The last run's gain and its certificate [lo, hi] (discounted: gain 0, bounds on v* - values). */
    public record Gain(double gain, double lo, double hi) {}

    public Gain gain() {
        double[] g = new double[1];
        double[] lo = new double[1];
        double[] hi = new double[1];
        call((h, e) -> Lib.API.crawlsched_mdp_solver_gain(h, g, lo, hi, e));
        return new Gain(g[0], lo[0], hi[0]);
    }

    /** The last run's iterations, convergence and recurrent classes of its policy (1 = unichain). */
    public record Stats(long iterations, boolean converged, long recurrentClasses) {}

    public Stats stats() {
        long[] it = new long[1];
        int[] conv = new int[1];
        long[] rc = new long[1];
        call((h, e) -> Lib.API.crawlsched_mdp_solver_stats(h, it, conv, rc, e));
        return new Stats(it[0], conv[0] != 0, rc[0]);
    }

    /**
     * The aperiodicity transform tau the last run used: the one set with
     * {@code setCriterion}, or the automatic choice; 1 when the run used none
     * (policy iteration's exact evaluation, the discounted criterion).
     */
    public double tau() {
        double[] t = new double[1];
        call((h, e) -> Lib.API.crawlsched_mdp_solver_tau(h, t, e));
        return t[0];
    }

    /** The last run's action index per state. */
    public int[] policy() {
        int[] out = new int[Lib.arrayLen(size(), "states")];
        call((h, e) -> Lib.API.crawlsched_mdp_solver_policy(h, out, out.length, e));
        return out;
    }

    /** The last run's bias (average cost, 0 at the reference state) or values (discounted). */
    public double[] values() {
        double[] out = new double[Lib.arrayLen(size(), "states")];
        call((h, e) -> Lib.API.crawlsched_mdp_solver_values(h, out, out.length, e));
        return out;
    }
}
