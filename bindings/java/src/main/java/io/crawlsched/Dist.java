package io.crawlsched;

/**
 * A probability distribution of a non-negative time ({@code crawlsched_dist_t}),
 * e.g. the time one crawl takes. Immutable: one instance may be used from
 * any number of threads at once.
 */
public final class Dist extends NativeHandle {
    private Dist(long p) {
        super(p, Lib.API::crawlsched_dist_free);
    }

    interface New {
        int run(long[] out, byte[] err);
    }

    static Dist create(New f) {
        long[] out = new long[1];
        Lib.call(e -> f.run(out, e));
        return new Dist(out[0]);
    }

    /** X = value (>= 0) with probability one. */
    public static Dist deterministic(double value) {
        return create((o, e) -> Lib.API.crawlsched_dist_deterministic_new(value, o, e));
    }

    /** Exponential with rate > 0 (mean 1/rate). */
    public static Dist exponential(double rate) {
        return create((o, e) -> Lib.API.crawlsched_dist_exponential_new(rate, o, e));
    }

    /** Erlang: the sum of k >= 1 exponentials of rate > 0. */
    public static Dist erlang(int k, double rate) {
        return create((o, e) -> Lib.API.crawlsched_dist_erlang_new(k, rate, o, e));
    }

    /** Gamma with shape > 0 and rate > 0 (mean shape/rate). */
    public static Dist gamma(double shape, double rate) {
        return create((o, e) -> Lib.API.crawlsched_dist_gamma_new(shape, rate, o, e));
    }

    /** Hyperexponential: rate rates[i] with probability probs[i] (summing to 1). */
    public static Dist hyperexponential(double[] probs, double[] rates) {
        Lib.sameLength("rates", rates.length, probs.length);
        return create((o, e) -> Lib.API.crawlsched_dist_hyperexponential_new(probs, rates, probs.length, o, e));
    }

    /** Phase-type PH(alpha, S): S is the n x n sub-generator, row-major, n = alpha.length. */
    public static Dist phaseType(double[] alpha, double[] s) {
        return create((o, e) -> Lib.API.crawlsched_dist_phase_type_new(alpha, alpha.length, s, s.length, o, e));
    }

    /** Coxian: phase i has rate rates[i] and continues with probability cont[i] (n - 1 entries). */
    public static Dist coxian(double[] rates, double[] cont) {
        return create((o, e) -> Lib.API.crawlsched_dist_coxian_new(rates, rates.length, cont, cont.length, o, e));
    }

    /** The empirical distribution of n >= 1 samples (finite, >= 0), each equally likely. */
    public static Dist empirical(double[] samples) {
        return create((o, e) -> Lib.API.crawlsched_dist_empirical_new(samples, samples.length, o, e));
    }

    /** Acyclic phase-type of order 2 with moments m1, m2, m3 (INFEASIBLE outside the ACPH(2) region). */
    public static Dist fitAph2(double m1, double m2, double m3) {
        return create((o, e) -> Lib.API.crawlsched_dist_fit_aph2_new(m1, m2, m3, o, e));
    }

    /** Two-phase hyperexponential with moments m1, m2, m3 (the threshold paper's page-size fit). */
    public static Dist fitH2(double m1, double m2, double m3) {
        return create((o, e) -> Lib.API.crawlsched_dist_fit_h2_new(m1, m2, m3, o, e));
    }

    /** E[X]. */
    public double mean() {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_dist_mean(h, out, e));
        return out[0];
    }

    /** Var[X]. */
    public double variance() {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_dist_variance(h, out, e));
        return out[0];
    }

    /** E[X^k], k >= 1 (NUMERICAL if it overflows). */
    public double moment(int k) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_dist_moment(h, k, out, e));
        return out[0];
    }

    /** The Laplace transform E[exp(-s X)], s >= 0. */
    public double laplace(double s) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_dist_laplace(h, s, out, e));
        return out[0];
    }

    /** P(X <= x). */
    public double cdf(double x) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_dist_cdf(h, x, out, e));
        return out[0];
    }

    /** n independent draws from a generator seeded by seed (same seed, same draws everywhere). */
    public double[] sample(long seed, int n) {
        double[] out = new double[Lib.arrayLen(n, "n")];
        call((h, e) -> Lib.API.crawlsched_dist_sample(h, seed, out, out.length, e));
        return out;
    }
}
