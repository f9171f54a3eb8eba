package io.crawlsched;

/**
 * Estimates one page's change rate from visits that only tell whether it
 * changed ({@code crawlsched_estimator_t}). Mutable; the library serialises
 * calls, so threads may share one instance.
 */
public final class Estimator extends NativeHandle {
    private Estimator(long p) {
        super(p, Lib.API::crawlsched_estimator_free);
    }

    /** An estimator without prior knowledge. */
    public static Estimator create() {
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_estimator_new(out, e));
        return new Estimator(out[0]);
    }

    /** An estimator with a prior guess worth weightTime time units of observation. */
    public static Estimator withPrior(double rateGuess, double weightTime) {
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_estimator_new_with_prior(rateGuess, weightTime, out, e));
        return new Estimator(out[0]);
    }

    /** Records a visit interval > 0 time units after the previous one. */
    public void observe(double interval, boolean changed) {
        call((h, e) -> Lib.API.crawlsched_estimator_observe(h, interval, Lib.flag(changed), e));
    }

    /** The current estimate (NOT_FOUND while there is no information). */
    public double estimate() {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_estimator_estimate(h, out, e));
        return out[0];
    }

    /** The number of visits recorded. */
    public long observations() {
        long[] out = new long[1];
        call((h, e) -> Lib.API.crawlsched_estimator_observations(h, out, e));
        return out[0];
    }
}
