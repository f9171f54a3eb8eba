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

    /**
     * The most bytes an estimator state takes ({@link #state()},
     * {@link Scheduler#pageState(long)}); a page with fewer than 2^35 visits
     * takes at most 878.
     */
    public static final int STATE_MAX_BYTES = io.crawlsched.nativeapi.NativeApi.ESTIMATOR_STATE_MAX_BYTES;

    /**
     * The estimator's state (its visits, bucketed, and its prior) in the
     * versioned format of docs/c-api.md, at most {@link #STATE_MAX_BYTES}
     * bytes: what a crawler keeps in a page's metadata instead of its visit
     * history. {@link #fromState(byte[])} restores it exactly.
     */
    public byte[] state() {
        byte[] buf = new byte[STATE_MAX_BYTES];
        long[] len = new long[1];
        call((h, e) -> Lib.API.crawlsched_estimator_export_state(h, buf, buf.length, len, e));
        return java.util.Arrays.copyOf(buf, (int) len[0]);
    }

    /** {@link #state()} as unpadded base64url text (at most 1514 characters), for string-only metadata. */
    public String stateText() {
        return StateText.encode(state());
    }

    /**
     * The estimator of a saved {@link #state()} (of any binding, run or
     * process): the same estimate, bit for bit, and the same results for
     * every later visit. Bytes that are not a state throw INVALID_ARGUMENT
     * naming the bad field.
     */
    public static Estimator fromState(byte[] state) {
        Lib.nonNull(state, "state");
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_estimator_new_from_state(state, state.length, out, e));
        return new Estimator(out[0]);
    }

    /** {@link #fromState(byte[])} of {@link #stateText()}'s text. */
    public static Estimator fromStateText(String text) {
        return fromState(StateText.decode(text));
    }
}
