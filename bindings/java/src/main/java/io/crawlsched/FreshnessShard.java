package io.crawlsched;

/**
 * Some pages of a general-weights freshness model, evaluated at a multiplier
 * ln(lambda) in absolute units, for solves a distributed engine drives
 * ({@code crawlsched_freshness_shard_t}). Immutable: one instance may be used
 * from any number of threads at once. Drive the shards with
 * {@link MultiplierSearch}.
 */
public final class FreshnessShard extends NativeHandle {
    private final int n;

    private FreshnessShard(long p, int n) {
        super(p, Lib.API::crawlsched_freshness_shard_free);
        this.n = n;
    }

    /** The shard of all of {@code model}'s pages (copied: the model may be closed afterwards). */
    public static FreshnessShard create(FreshnessModel model) {
        long m = ptrOf(model, "model");
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_freshness_shard_new(m, out, e), model);
        return new FreshnessShard(out[0], model.len());
    }

    /** {sum_a, ln_w_min, ln_w_max}: combine over shards (add, min, max) for {@link MultiplierSearch#create}. */
    public double[] summary() {
        double[] a = new double[1], lo = new double[1], hi = new double[1];
        call((h, e) -> Lib.API.crawlsched_freshness_shard_summary(h, a, lo, hi, e));
        return new double[] {a[0], lo[0], hi[0]};
    }

    /** {sum, dsum}: the shard's sum of frequencies at lnLambda and its derivative (&lt;= 0). */
    public double[] sumAt(double lnLambda) {
        double[] s = new double[1], d = new double[1];
        call((h, e) -> Lib.API.crawlsched_freshness_shard_sum_at(h, lnLambda, s, d, e));
        return new double[] {s[0], d[0]};
    }

    /** The shard's frequencies at lnLambda (the final multiplier: its share of the plan). */
    public double[] frequenciesAt(double lnLambda) {
        double[] out = new double[n];
        call((h, e) -> Lib.API.crawlsched_freshness_shard_frequencies_at(h, lnLambda, out, out.length, e));
        return out;
    }

    /**
     * The search for the multiplier at which all shards' frequencies sum to 1
     * ({@code crawlsched_freshness_multiplier_search_t}). Mutable; the library
     * serialises calls, so threads may share one instance.
     */
    public static final class MultiplierSearch extends NativeHandle {
        private MultiplierSearch(long p) {
            super(p, Lib.API::crawlsched_freshness_multiplier_search_free);
        }

        /** A search from the shards' combined summaries. */
        public static MultiplierSearch create(double sumA, double lnWMin, double lnWMax) {
            long[] out = new long[1];
            Lib.call(e -> Lib.API.crawlsched_freshness_multiplier_search_new(sumA, lnWMin, lnWMax, out, e));
            return new MultiplierSearch(out[0]);
        }

        /** {done (0 or 1), ln lambda}: evaluate the shards there, or the final multiplier. */
        public double[] next() {
            int[] done = new int[1];
            double[] x = new double[1];
            call((h, e) -> Lib.API.crawlsched_freshness_multiplier_search_next(h, done, x, e));
            return new double[] {done[0], x[0]};
        }

        /** The shards' totals of {@link FreshnessShard#sumAt} at the ln lambda last proposed. */
        public void update(double sum, double dsum) {
            call((h, e) -> Lib.API.crawlsched_freshness_multiplier_search_update(h, sum, dsum, e));
        }
    }
}
