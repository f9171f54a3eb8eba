package io.crawlsched;

/**
 * The optimal dynamic robot policy of one model and its measures
 * ({@code crawlsched_robots_t}; Talim, Liu, Nain, Coffman). Immutable:
 * shareable between threads.
 */
public final class Robots extends NativeHandle {
    private final long n;
    private final long k;

    private Robots(long p) {
        super(p, Lib.API::crawlsched_robots_free);
        long[] nn = new long[1];
        long[] kk = new long[1];
        call((h, e) -> Lib.API.crawlsched_robots_size(h, nn, kk, e));
        this.n = nn[0];
        this.k = kk[0];
    }

    /** {@link #solve(long, long, double, double, double, Control)} without a control. */
    public static Robots solve(long n, long k, double lambda, double mu, double gamma) {
        return solve(n, k, lambda, mu, gamma, null);
    }

    /**
     * Solves the model exactly: n robots, buffer k, per-robot rate lambda,
     * service rate mu, starvation weight gamma, under a control (null:
     * none): memory cap, iteration cap, cancel from another thread.
     */
    public static Robots solve(long n, long k, double lambda, double mu, double gamma, Control control) {
        long[] out = new long[1];
        long c = Control.addressOf(control);
        Lib.call(e -> Lib.API.crawlsched_robots_solve(n, k, lambda, mu, gamma, c, out, e), control);
        return new Robots(out[0]);
    }

    /** {@link #solveUnlimited(long, double, double, double, Control)} without a control. */
    public static Robots solveUnlimited(long k, double lambda, double mu, double gamma) {
        return solveUnlimited(k, lambda, mu, gamma, null);
    }

    /**
     * As {@link #solve} with as many robots as the optimum wants (Table 2),
     * under a control (null: none): every N of the doubling search is
     * solved as by {@link #solve(long, long, double, double, double, Control)}.
     */
    public static Robots solveUnlimited(long k, double lambda, double mu, double gamma, Control control) {
        long[] out = new long[1];
        long c = Control.addressOf(control);
        Lib.call(e -> Lib.API.crawlsched_robots_solve_unlimited(k, lambda, mu, gamma, c, out, e), control);
        return new Robots(out[0]);
    }

    /** The model's N (robots). */
    public long robots() {
        return n;
    }

    /** The model's K (buffer). */
    public long buffer() {
        return k;
    }

    /** Optimal cost C_d (eq. 5), starvation probability, loss rate. */
    public record Cost(double cost, double starvation, double lossRate) {}

    public Cost cost() {
        double[] c = new double[1];
        double[] s = new double[1];
        double[] l = new double[1];
        call((h, e) -> Lib.API.crawlsched_robots_cost(h, c, s, l, e));
        return new Cost(c[0], s[0], l[0]);
    }

    /** Robots used: N_min, N-bar, N_max (-1 if never), as in Tables 1 and 2. */
    public record Counts(long min, double mean, long max) {}

    public Counts counts() {
        long[] mn = new long[1];
        double[] mean = new double[1];
        long[] mx = new long[1];
        call((h, e) -> Lib.API.crawlsched_robots_counts(h, mn, mean, mx, e));
        return new Counts(mn[0], mean[0], mx[0]);
    }

    /** f_s(r), r = 0..N, and whether the optimal policy has exactly this form. */
    public record SwitchingCurve(long[] curve, boolean isCurve) {}

    /** The switching curve for events of type s (0 departure, 1 arrival). */
    public SwitchingCurve switchingCurve(int s) {
        long[] out = new long[Lib.arrayLen(n + 1, "N + 1")];
        int[] is = new int[1];
        call((h, e) -> Lib.API.crawlsched_robots_switching_curve(h, s, out, out.length, is, e));
        return new SwitchingCurve(out, is[0] != 0);
    }

    /** The optimal action (1 activate, 0 not) at event (q, r, s), index (r*(K+1) + q)*2 + s. */
    public byte[] actions() {
        byte[] out = new byte[Lib.arrayLen(2 * (k + 1) * (n + 1), "2(K+1)(N+1)")];
        call((h, e) -> Lib.API.crawlsched_robots_actions(h, out, out.length, e));
        return out;
    }

    /** The solver's certificate: the optimal cost lies in [lo, hi]; policy-iteration steps. */
    public record Certificate(double lo, double hi, long iterations) {}

    public Certificate certificate() {
        double[] lo = new double[1];
        double[] hi = new double[1];
        long[] it = new long[1];
        call((h, e) -> Lib.API.crawlsched_robots_certificate(h, lo, hi, it, e));
        return new Certificate(lo[0], hi[0], it[0]);
    }

    /** Stationary probability of state (q, r, s) at index (r*(K+1) + q)*3 + s. */
    public double[] stationary() {
        double[] out = new double[Lib.arrayLen(3 * (k + 1) * (n + 1), "3(K+1)(N+1)")];
        call((h, e) -> Lib.API.crawlsched_robots_stationary(h, out, out.length, e));
        return out;
    }

    /** Exact cost of the switching-curve policy (f0, f1), N + 1 entries each. */
    public double evaluateCurve(long[] f0, long[] f1) {
        Lib.sameLength("f1", f1.length, f0.length);
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_robots_evaluate_curve(h, f0, f1, f0.length, out, e));
        return out[0];
    }

    /** Exact cost of keeping n robots active (C_s(n lambda / mu), eq. 9). */
    public double evaluateStatic(long robots) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_robots_evaluate_static(h, robots, out, e));
        return out[0];
    }

    /** C_s(rho, gamma, K) of eq. (9). */
    public static double staticCost(double rho, double gamma, long k, double mu) {
        double[] out = new double[1];
        Lib.call(e -> Lib.API.crawlsched_robots_static_cost(rho, gamma, k, mu, out, e));
        return out[0];
    }

    /** Proposition 3's best static number of robots N_s and its cost C_s. */
    public record StaticPlan(long robots, double cost) {}

    public static StaticPlan optimalStatic(double lambda, double mu, double gamma, long k) {
        long[] n = new long[1];
        double[] c = new double[1];
        Lib.call(e -> Lib.API.crawlsched_robots_optimal_static(lambda, mu, gamma, k, n, c, e));
        return new StaticPlan(n[0], c[0]);
    }
}
