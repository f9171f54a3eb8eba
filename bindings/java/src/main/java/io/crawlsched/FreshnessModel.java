package io.crawlsched;

/**
 * N pages (change rates, cost weights) and the access-time distribution
 * ({@code crawlsched_freshness_model_t}; Coffman, Liu, Weber). Immutable:
 * one instance may be used from any number of threads at once.
 */
public final class FreshnessModel extends NativeHandle {
    private final int n;

    private FreshnessModel(long p, int n) {
        super(p, Lib.API::crawlsched_freshness_model_free);
        this.n = n;
    }

    /**
     * Page i changes at rate changeRates[i] > 0 and weighs weights[i] > 0 in
     * the cost; weights may be null (c_i = change rate, Theorem 3.4).
     * {@code access} is copied and may be closed afterwards.
     */
    public static FreshnessModel create(Dist access, double[] changeRates, double[] weights) {
        if (weights != null) {
            Lib.sameLength("weights", weights.length, changeRates.length);
        }
        long a = ptrOf(access, "access");
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_freshness_model_new(a, changeRates, weights, changeRates.length, out, e), access);
        return new FreshnessModel(out[0], changeRates.length);
    }

    /** The number of pages N (asked from the library). */
    public int len() {
        long[] out = new long[1];
        call((h, e) -> Lib.API.crawlsched_freshness_model_len(h, out, e));
        return (int) out[0];
    }

    /** h_i = E[exp(-mu_i X)] for every page. */
    public double[] h() {
        double[] out = new double[n];
        call((h, e) -> Lib.API.crawlsched_freshness_model_h(h, out, out.length, e));
        return out;
    }

    /** The optimal access frequencies (summing to 1; Theorem 3.4 or eqs. 8-9). */
    public double[] optimalFrequencies() {
        double[] out = new double[n];
        call((h, e) -> Lib.API.crawlsched_freshness_optimal_frequencies(h, out, out.length, e));
        return out;
    }

    /** The randomized policy's optimal frequencies (Theorem 4.1 / eq. 15). */
    public double[] randomizedOptimalFrequencies() {
        double[] out = new double[n];
        call((h, e) -> Lib.API.crawlsched_freshness_randomized_optimal_frequencies(h, out, out.length, e));
        return out;
    }

    /** The lower bound on the cost of every policy (Theorem 3.4 eq. 6, or Theorem 3.3). */
    public double lowerBound() {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_freshness_lower_bound(h, out, e));
        return out[0];
    }

    /** The randomized policy's cost at its optimal frequencies (eq. 11). */
    public double randomizedOptimalCost() {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_freshness_randomized_optimal_cost(h, out, e));
        return out[0];
    }

    /** Right side of eq. (18): the large-N golden-ratio cost limit. */
    public double goldenRatioBound() {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_freshness_golden_ratio_bound(h, out, e));
        return out[0];
    }

    /** Cost of frequencies freq with perfectly even spacing (Theorem 3.3's bound). */
    public double cost(double[] freq) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_freshness_cost(h, freq, freq.length, out, e));
        return out[0];
    }

    /** Cost of the randomized policy with frequencies freq (Lemma 4.1). */
    public double randomizedCost(double[] freq) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_freshness_randomized_cost(h, freq, freq.length, out, e));
        return out[0];
    }

    /** Per-page obsolescence bound r_i of Theorem 3.3 for freq. */
    public double[] obsolescenceBound(double[] freq) {
        double[] out = new double[n];
        call((h, e) -> Lib.API.crawlsched_freshness_obsolescence_bound(h, freq, freq.length, out, out.length, e));
        return out;
    }

    /** Exact long-run cost of repeating the cycle seq (page indices) forever. */
    public double cyclicCost(int[] seq) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_freshness_cyclic_cost(h, seq, seq.length, out, e));
        return out[0];
    }

    /** Exact per-page fraction of time out of date under the cycle seq. */
    public double[] cyclicObsolescence(int[] seq) {
        double[] out = new double[n];
        call((h, e) -> Lib.API.crawlsched_freshness_cyclic_obsolescence(h, seq, seq.length, out, out.length, e));
        return out;
    }

    /** {@link #simulateCyclic(int[], long, long, Control)} without a control. */
    public Estimate simulateCyclic(int[] seq, long cycles, long seed) {
        return simulateCyclic(seq, cycles, seed, null);
    }

    /**
     * Seeded Monte Carlo of {@code cycles} repetitions of seq: the cost and
     * its standard error, under a control (null: none): cancelling stops the run.
     */
    public Estimate simulateCyclic(int[] seq, long cycles, long seed, Control control) {
        double[] c = new double[1];
        double[] s = new double[1];
        long ctl = Control.addressOf(control);
        try {
            call((h, e) -> Lib.API.crawlsched_freshness_simulate_cyclic(h, seq, seq.length, cycles, seed, ctl, c, s, e));
        } finally {
            Control.keep(control);
        }
        return new Estimate(c[0], s[0]);
    }

    /** A Monte Carlo estimate and its standard error. */
    public record Estimate(double value, double stdError) {}

    /**
     * {@link #politeFrequencies(int[], double[], PoliteObjective, boolean, Control)}
     * minimising the evenly spaced bound, without slack or control.
     */
    public PolitePlan politeFrequencies(int[] hosts, double[] maxRates) {
        return politeFrequencies(hosts, maxRates, PoliteObjective.EVENLY_SPACED, false, null);
    }

    /** {@link #politeFrequencies(int[], double[], PoliteObjective, boolean, Control)} without slack or control. */
    public PolitePlan politeFrequencies(int[] hosts, double[] maxRates, PoliteObjective objective) {
        return politeFrequencies(hosts, maxRates, objective, false, null);
    }

    /** {@link #politeFrequencies(int[], double[], PoliteObjective, boolean, Control)} without a control. */
    public PolitePlan politeFrequencies(int[] hosts, double[] maxRates, PoliteObjective objective,
            boolean allowSlack) {
        return politeFrequencies(hosts, maxRates, objective, allowSlack, null);
    }

    /**
     * The optimal frequencies under per-host politeness
     * ({@code crawlsched_freshness_polite_frequencies}): page i is on host
     * {@code hosts[i]} (one entry per page, an unsigned 32-bit id below
     * {@code maxRates.length}; every host needs a page) and host h accepts
     * at most {@code maxRates[h]} crawls per unit time (finite &gt; 0, e.g.
     * 1 / Crawl-delay, or {@link Double#POSITIVE_INFINITY} for no limit).
     * When the caps sum below the crawler's rate 1/E[X] this throws
     * {@link CrawlschedException} with {@link Status#INFEASIBLE} (the
     * message gives the shortfall), or with {@code allowSlack} returns the
     * plan crawling every host at its cap. Thread-safe.
     *
     * <pre>{@code
     * PolitePlan plan = model.politeFrequencies(new int[] {0, 0, 1},
     *         new double[] {Double.POSITIVE_INFINITY, 0.5});
     * boolean tight = plan.saturated()[1];
     * }</pre>
     *
     * @param control memory cap, cancellation and iteration cap (null: none)
     */
    public PolitePlan politeFrequencies(int[] hosts, double[] maxRates, PoliteObjective objective,
            boolean allowSlack, Control control) {
        Lib.nonNull(hosts, "hosts");
        Lib.nonNull(maxRates, "maxRates");
        int code = Lib.nonNull(objective, "objective").code;
        double[] f = new double[n];
        long[] len = new long[1];
        byte[] sat = new byte[maxRates.length];
        double[] lnh = new double[maxRates.length];
        double[] lnl = new double[1];
        double[] obj = new double[1];
        double[] rate = new double[1];
        int flags = allowSlack ? io.crawlsched.nativeapi.NativeApi.POLITE_ALLOW_SLACK : 0;
        long ctl = Control.addressOf(control);
        try {
            call((h, e) -> Lib.API.crawlsched_freshness_polite_frequencies(h, hosts, hosts.length, maxRates,
                    maxRates.length, code, flags, ctl, f, f.length, len, sat, lnh, lnl, obj, rate, e));
        } finally {
            Control.keep(control);
        }
        boolean[] saturated = new boolean[sat.length];
        for (int i = 0; i < sat.length; i++) {
            saturated[i] = sat[i] != 0;
        }
        double[] freq = len[0] == f.length ? f : java.util.Arrays.copyOf(f, (int) len[0]);
        return new PolitePlan(freq, saturated, lnh, lnl[0], obj[0], rate[0]);
    }
}
