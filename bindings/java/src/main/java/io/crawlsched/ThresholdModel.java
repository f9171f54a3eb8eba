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

    /** The stationary measures under the policy, indexed by the MEASURE_* constants. */
    public double[] measures(int[] modes, int[] thresholds) {
        double[] out = new double[MEASURE_COUNT];
        call((h, e) -> Lib.API.crawlsched_threshold_measures(h, modes, modes.length, thresholds, thresholds.length, out, out.length, e));
        return out;
    }

    /** P(i pages in the system), i = 0..buffer+1, under the policy. */
    public double[] levelDistribution(int[] modes, int[] thresholds) {
        double[][] r = new double[1][];
        call((h, e0) -> {
            r[0] = Lib.varDoubles(Integer.toUnsignedLong(buffer) + 2 > (1 << 24) ? 0 : buffer + 2,
                    (o, cap, len, e) -> Lib.API.crawlsched_threshold_level_distribution(
                            h, modes, modes.length, thresholds, thresholds.length, o, cap, len, e));
            return NativeApi.OK;
        });
        return r[0];
    }

    /** The cost criterion (eq. 2) with weights indexed by the WEIGHT_* constants. */
    public double cost(int[] modes, int[] thresholds, double[] weights) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_threshold_cost(h, modes, modes.length, thresholds, thresholds.length, weights, weights.length, out, e));
        return out[0];
    }

    /** Optimal thresholds for given modes, their cost and the number of vectors evaluated. */
    public record Plan(int[] thresholds, double cost, long evaluated) {}

    /** Enumerates every threshold vector (TOO_LARGE beyond maxEvaluations) and returns the best. */
    public Plan optimize(int[] modes, double[] weights, long maxEvaluations) {
        int[] out = new int[Math.max(modes.length - 1, 0)];
        double[] cost = new double[1];
        long[] ev = new long[1];
        call((h, e) -> Lib.API.crawlsched_threshold_optimize(h, modes, modes.length, weights, weights.length, maxEvaluations, out, out.length, cost, ev, e));
        return new Plan(out, cost[0], ev[0]);
    }

    /**
     * As {@link #optimize(int[], double[], long)} under a control (null:
     * none): its iteration cap lowers maxEvaluations, cancelling stops the
     * search with {@link Status#CANCELLED} (no partial answer).
     */
    public Plan optimize(int[] modes, double[] weights, long maxEvaluations, Control control) {
        int[] out = new int[Math.max(modes.length - 1, 0)];
        double[] cost = new double[1];
        long[] ev = new long[1];
        long c = Control.addressOf(control);
        try {
            call((h, e) -> Lib.API.crawlsched_threshold_optimize_with_control(h, modes, modes.length, weights, weights.length, maxEvaluations, c, out, out.length, cost, ev, e));
        } finally {
            Control.keep(control);
        }
        return new Plan(out, cost[0], ev[0]);
    }

    /** Response time of an admitted page: mean, P(served), mean if served, mean if obsolete. */
    public record ResponseTime(double mean, double servedProbability, double meanServed, double meanObsolete) {}

    public ResponseTime responseTime(int[] modes, int[] thresholds) {
        double[] out = new double[NativeApi.THRESHOLD_RESPONSE_COUNT];
        call((h, e) -> Lib.API.crawlsched_threshold_response_time(h, modes, modes.length, thresholds, thresholds.length, out, out.length, e));
        return new ResponseTime(out[NativeApi.THRESHOLD_RESPONSE_MEAN], out[NativeApi.THRESHOLD_RESPONSE_SERVED_PROBABILITY],
                out[NativeApi.THRESHOLD_RESPONSE_MEAN_SERVED], out[NativeApi.THRESHOLD_RESPONSE_MEAN_OBSOLETE]);
    }

    /** P(sojourn <= t) of an admitted page at each time (given it is served if {@code served}). */
    public double[] responseCdf(int[] modes, int[] thresholds, double[] times, boolean served) {
        int which = served ? NativeApi.THRESHOLD_SOJOURN_SERVED : NativeApi.THRESHOLD_SOJOURN_ALL;
        double[] out = new double[times.length];
        call((h, e) -> Lib.API.crawlsched_threshold_response_cdf(h, modes, modes.length, thresholds, thresholds.length, which, times, times.length, out, out.length, e));
        return out;
    }
}
