package io.crawlsched;

import io.crawlsched.nativeapi.NativeApi;

/**
 * A batch Markovian arrival process (D0, D1, ..., Dk)
 * ({@code crawlsched_bmap_t}). Immutable: shareable between threads.
 */
public final class Bmap extends NativeHandle {
    /** How {@link #compose} builds the process of several robots. */
    public enum Compose {
        /** Independent copies of the process (Kronecker sum). */
        INDEPENDENT(NativeApi.BMAP_COMPOSE_INDEPENDENT),
        /** The process is common to all robots; batches kept with probability prob. */
        THINNING(NativeApi.BMAP_COMPOSE_THINNING),
        /** r active robots run the process r times faster. */
        SCALED(NativeApi.BMAP_COMPOSE_SCALED);

        final int code;

        Compose(int code) {
            this.code = code;
        }
    }

    private Bmap(long p) {
        super(p, Lib.API::crawlsched_bmap_free);
    }

    interface New {
        int run(long[] out, byte[] err);
    }

    private static Bmap create(New f) {
        long[] out = new long[1];
        Lib.call(e -> f.run(out, e));
        return new Bmap(out[0]);
    }

    /** A BMAP of order n from the matrices D0, D1, ..., Dk, each n x n row-major, one after another. */
    public static Bmap of(int n, double[] matrices) {
        return create((o, e) -> Lib.API.crawlsched_bmap_new(n, matrices, matrices.length, o, e));
    }

    /** A Poisson process of rate > 0 as a BMAP of order 1. */
    public static Bmap poisson(double rate) {
        return create((o, e) -> Lib.API.crawlsched_bmap_poisson_new(rate, o, e));
    }

    /** A BMAP fitted to the time between batches (mean, variance, lag-1 correlation) and the mean batch size. */
    public static Bmap fit(double mean, double variance, double lag1, double batchMean, int maxBatch) {
        return create((o, e) -> Lib.API.crawlsched_bmap_fit_new(mean, variance, lag1, batchMean, maxBatch, o, e));
    }

    /** The process with {@code active} of {@code total} robots active (prob: THINNING only). */
    public Bmap compose(Compose how, int active, int total, double prob) {
        int c = Lib.nonNull(how, "how").code;
        long[] out = new long[1];
        call((h, e) -> Lib.API.crawlsched_bmap_compose_new(h, c, active, total, prob, out, e));
        return new Bmap(out[0]);
    }

    /** The number of phases. */
    public int order() {
        long[] out = new long[1];
        call((h, e) -> Lib.API.crawlsched_bmap_order(h, out, e));
        return (int) out[0];
    }

    /** Mean pages per unit time. */
    public double fundamentalRate() {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_bmap_fundamental_rate(h, out, e));
        return out[0];
    }

    /** E[T^k], k >= 1, of the stationary time between batches. */
    public double interarrivalMoment(int k) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_bmap_interarrival_moment(h, k, out, e));
        return out[0];
    }

    /** Lag-k correlation of successive times between batches. */
    public double lagCorrelation(int k) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_bmap_lag_correlation(h, k, out, e));
        return out[0];
    }
}
