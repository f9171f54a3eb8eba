package io.crawlsched;

import io.crawlsched.nativeapi.NativeApi;
import java.lang.ref.Reference;

/**
 * The threshold model ({@code crawlsched_threshold_model_t}; Avrachenkov et
 * al.): arrival processes per number of active robots, PH service, PH
 * obsolescence, a buffer. Immutable: shareable between threads.
 *
 * <p>Policies are given by modes r_1 &gt; ... &gt; r_J and thresholds
 * t_1 &lt;= ... &lt;= t_{J-1}.
 */
public final class ThresholdModel extends NativeHandle {
    /** Indices into {@link #measures}. */
    public static final int MEASURE_FUNDAMENTAL_RATE = NativeApi.THRESHOLD_MEASURE_FUNDAMENTAL_RATE;
    public static final int MEASURE_LOSS = NativeApi.THRESHOLD_MEASURE_LOSS;
    public static final int MEASURE_OBSOLESCENCE = NativeApi.THRESHOLD_MEASURE_OBSOLESCENCE;
    public static final int MEASURE_SUCCESS = NativeApi.THRESHOLD_MEASURE_SUCCESS;
    public static final int MEASURE_STARVATION = NativeApi.THRESHOLD_MEASURE_STARVATION;
    public static final int MEASURE_THROUGHPUT = NativeApi.THRESHOLD_MEASURE_THROUGHPUT;
    public static final int MEASURE_MEAN_PAGES = NativeApi.THRESHOLD_MEASURE_MEAN_PAGES;
    public static final int MEASURE_MEAN_QUEUE = NativeApi.THRESHOLD_MEASURE_MEAN_QUEUE;
    public static final int MEASURE_RESPONSE_TIME = NativeApi.THRESHOLD_MEASURE_RESPONSE_TIME;
    public static final int MEASURE_WAITING_TIME = NativeApi.THRESHOLD_MEASURE_WAITING_TIME;
    public static final int MEASURE_MEAN_ROBOTS = NativeApi.THRESHOLD_MEASURE_MEAN_ROBOTS;
    public static final int MEASURE_RESIDUAL = NativeApi.THRESHOLD_MEASURE_RESIDUAL;
    public static final int MEASURE_COUNT = NativeApi.THRESHOLD_MEASURE_COUNT;
    /** Indices into the weights of {@link #cost} and {@link #optimize}. */
    public static final int WEIGHT_LOSS = NativeApi.THRESHOLD_WEIGHT_LOSS;
    public static final int WEIGHT_OBSOLESCENCE = NativeApi.THRESHOLD_WEIGHT_OBSOLESCENCE;
    public static final int WEIGHT_RESPONSE = NativeApi.THRESHOLD_WEIGHT_RESPONSE;
    public static final int WEIGHT_ROBOTS = NativeApi.THRESHOLD_WEIGHT_ROBOTS;
    public static final int WEIGHT_STARVATION = NativeApi.THRESHOLD_WEIGHT_STARVATION;
    public static final int WEIGHT_COUNT = NativeApi.THRESHOLD_WEIGHT_COUNT;

    private final int buffer;

    private ThresholdModel(long p, int buffer) {
        super(p, Lib.API::crawlsched_threshold_model_free);
        this.buffer = buffer;
    }

    /**
     * arrivals[r-1] is the process with r active robots; obsolescence may be
     * null (pages never become obsolete). Everything is copied.
     */
    public static ThresholdModel create(Bmap[] arrivals, Dist service, Dist obsolescence, int buffer) {
        long[] ptrs = new long[arrivals.length];
        for (int i = 0; i < ptrs.length; i++) {
            ptrs[i] = ptrOf(arrivals[i], "arrivals[" + i + "]");
        }
        long s = ptrOf(service, "service");
        long o = obsolescence == null ? 0 : obsolescence.ptr();
        long[] out = new long[1];
        try {
            Lib.call(e -> Lib.API.crawlsched_threshold_model_new(ptrs, ptrs.length, s, o, buffer, out, e));
        } finally {
            Reference.reachabilityFence(arrivals);
            Reference.reachabilityFence(service);
            Reference.reachabilityFence(obsolescence);
        }
        return new ThresholdModel(out[0], buffer);
    }

    /** The number of states of the Markov chain. */
    public long stateCount() {
        long[] out = new long[1];
        call((h, e) -> Lib.API.crawlsched_threshold_model_state_count(h, out, e));
        return out[0];
    }

    /** {@link #measures(int[], int[], Control)} without a control. */
    public double[] measures(int[] modes, int[] thresholds) {
        return measures(modes, thresholds, null);
    }

    /**
     * The stationary measures under the policy, indexed by the MEASURE_*
     * constants, under a control (null: none): its memory cap (else the
     * process-wide one) is checked before the chain is built
     * ({@link Status#TOO_LARGE}), cancelling gives {@link Status#CANCELLED}.
     * The other evaluations take a control the same way.
     */
    public double[] measures(int[] modes, int[] thresholds, Control control) {
        double[] out = new double[MEASURE_COUNT];
        long c = Control.addressOf(control);
        try {
            call((h, e) -> Lib.API.crawlsched_threshold_measures(h, modes, modes.length, thresholds, thresholds.length, c, out, out.length, e));
        } finally {
            Control.keep(control);
        }
        return out;
    }

    /** {@link #levelDistribution(int[], int[], Control)} without a control. */
    public double[] levelDistribution(int[] modes, int[] thresholds) {
        return levelDistribution(modes, thresholds, null);
    }

    /** P(i pages in the system), i = 0..buffer+1, under the policy and a control (null: none). */
    public double[] levelDistribution(int[] modes, int[] thresholds, Control control) {
        double[][] r = new double[1][];
        long c = Control.addressOf(control);
        try {
            call((h, e0) -> {
                r[0] = Lib.varDoubles(Integer.toUnsignedLong(buffer) + 2 > (1 << 24) ? 0 : buffer + 2,
                        (o, cap, len, e) -> Lib.API.crawlsched_threshold_level_distribution(
                                h, modes, modes.length, thresholds, thresholds.length, c, o, cap, len, e));
                return NativeApi.OK;
            });
        } finally {
            Control.keep(control);
        }
        return r[0];
    }

    /** {@link #cost(int[], int[], double[], Control)} without a control. */
    public double cost(int[] modes, int[] thresholds, double[] weights) {
        return cost(modes, thresholds, weights, null);
    }

    /** The cost criterion (eq. 2) with weights indexed by the WEIGHT_* constants, under a control (null: none). */
    public double cost(int[] modes, int[] thresholds, double[] weights, Control control) {
        double[] out = new double[1];
        long c = Control.addressOf(control);
        try {
            call((h, e) -> Lib.API.crawlsched_threshold_cost(h, modes, modes.length, thresholds, thresholds.length, weights, weights.length, c, out, e));
        } finally {
            Control.keep(control);
        }
        return out[0];
    }

    /** Optimal thresholds for given modes, their cost and the number of vectors evaluated. */
    public record Plan(int[] thresholds, double cost, long evaluated) {}

    /** {@link #optimize(int[], double[], long, Control)} without a control. */
    public Plan optimize(int[] modes, double[] weights, long maxEvaluations) {
        return optimize(modes, weights, maxEvaluations, null);
    }

    /**
     * Enumerates every threshold vector (TOO_LARGE beyond maxEvaluations) and
     * returns the best, under a control (null: none): its iteration cap
     * lowers maxEvaluations, cancelling stops the search with
     * {@link Status#CANCELLED} (no partial answer).
     */
    public Plan optimize(int[] modes, double[] weights, long maxEvaluations, Control control) {
        int[] out = new int[Math.max(modes.length - 1, 0)];
        double[] cost = new double[1];
        long[] ev = new long[1];
        long c = Control.addressOf(control);
        try {
            call((h, e) -> Lib.API.crawlsched_threshold_optimize(h, modes, modes.length, weights, weights.length, maxEvaluations, c, out, out.length, cost, ev, e));
        } finally {
            Control.keep(control);
        }
        return new Plan(out, cost[0], ev[0]);
    }

    /** Response time of an admitted page: mean, P(served), mean if served, mean if obsolete. */
    public record ResponseTime(double mean, double servedProbability, double meanServed, double meanObsolete) {}

    /** {@link #responseTime(int[], int[], Control)} without a control. */
    public ResponseTime responseTime(int[] modes, int[] thresholds) {
        return responseTime(modes, thresholds, null);
    }

    /** The response time of an admitted page under the policy and a control (null: none). */
    public ResponseTime responseTime(int[] modes, int[] thresholds, Control control) {
        double[] out = new double[NativeApi.THRESHOLD_RESPONSE_COUNT];
        long c = Control.addressOf(control);
        try {
            call((h, e) -> Lib.API.crawlsched_threshold_response_time(h, modes, modes.length, thresholds, thresholds.length, c, out, out.length, e));
        } finally {
            Control.keep(control);
        }
        return new ResponseTime(out[NativeApi.THRESHOLD_RESPONSE_MEAN], out[NativeApi.THRESHOLD_RESPONSE_SERVED_PROBABILITY],
                out[NativeApi.THRESHOLD_RESPONSE_MEAN_SERVED], out[NativeApi.THRESHOLD_RESPONSE_MEAN_OBSOLETE]);
    }

    /** {@link #responseCdf(int[], int[], double[], boolean, Control)} without a control. */
    public double[] responseCdf(int[] modes, int[] thresholds, double[] times, boolean served) {
        return responseCdf(modes, thresholds, times, served, null);
    }

    /**
     * P(sojourn <= t) of an admitted page at each time (given it is served if
     * {@code served}), under a control (null: none), which also stops the
     * uniformization when cancelled.
     */
    public double[] responseCdf(int[] modes, int[] thresholds, double[] times, boolean served, Control control) {
        int which = served ? NativeApi.THRESHOLD_SOJOURN_SERVED : NativeApi.THRESHOLD_SOJOURN_ALL;
        double[] out = new double[times.length];
        long c = Control.addressOf(control);
        try {
            call((h, e) -> Lib.API.crawlsched_threshold_response_cdf(h, modes, modes.length, thresholds, thresholds.length, which, times, times.length, c, out, out.length, e));
        } finally {
            Control.keep(control);
        }
        return out;
    }
}
