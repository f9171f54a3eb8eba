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

    /**
     * What a shard reports at a multiplier: its sum of frequencies, the sum's
     * derivative against ln lambda (&lt;= 0), and the sum exactly as an
     * unsigned 128-bit count of 2^-80 (exactHi * 2^64 + exactLo, both read as
     * unsigned; each frequency truncated to that grid), which does not depend
     * on how the pages are split.
     */
    public record Sums(double sum, double dsum, long exactHi, long exactLo) {
        /** No pages: the start of a total. */
        public static final Sums ZERO = new Sums(0, 0, 0, 0);

        /** The total of both (the exact sums as saturating unsigned 128-bit integers). */
        public Sums plus(Sums o) {
            long lo = exactLo + o.exactLo;
            long carry = Long.compareUnsigned(lo, exactLo) < 0 ? 1 : 0;
            long hi = exactHi + o.exactHi;
            boolean over = Long.compareUnsigned(hi, exactHi) < 0;
            hi += carry;
            if (over || (carry == 1 && hi == 0)) {
                hi = -1L;
                lo = -1L;
            }
            return new Sums(sum + o.sum, dsum + o.dsum, hi, lo);
        }
    }

    /** The shard's sums at lnLambda. */
    public Sums sumAt(double lnLambda) {
        double[] s = new double[1], d = new double[1];
        long[] hi = new long[1], lo = new long[1];
        call((h, e) -> Lib.API.crawlsched_freshness_shard_sum_at(h, lnLambda, s, d, hi, lo, e));
        return new Sums(s[0], d[0], hi[0], lo[0]);
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

        /**
         * The shards' totals of {@link FreshnessShard#sumAt} at the ln lambda last
         * proposed (added with {@link Sums#plus}). The float sums steer the search,
         * the exact one ends it, the same however the pages are split.
         */
        public void update(Sums total) {
            call((h, e) -> Lib.API.crawlsched_freshness_multiplier_search_update(
                    h, total.sum(), total.dsum(), total.exactHi(), total.exactLo(), e));
        }
    }
}
