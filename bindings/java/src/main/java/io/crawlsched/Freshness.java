package io.crawlsched;

/** Freshness functions that need no model: cycles and Corollary 5.1. */
public final class Freshness {
    private Freshness() {}

    /**
     * Integer accesses per cycle of length total for freq (largest
     * remainder); atLeastOne gives every page with f_i > 0 one access.
     */
    public static long[] integerCounts(double[] freq, long total, boolean atLeastOne) {
        long[] out = new long[freq.length];
        Lib.call(e -> Lib.API.crawlsched_freshness_integer_counts(freq, freq.length, total, Lib.flag(atLeastOne), out, out.length, e));
        return out;
    }

    /** The smallest Fibonacci number >= n. */
    public static long fibonacciAtLeast(long n) {
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_freshness_fibonacci_at_least(n, out, e));
        return out[0];
    }

    /** The golden-ratio cyclic sequence (§5): page i appears counts[i] times. */
    public static int[] goldenRatioSequence(long[] counts) {
        return Lib.varInts(Lib.countsSum(counts),
                (o, cap, len, e) -> Lib.API.crawlsched_freshness_golden_ratio_sequence(counts, counts.length, o, cap, len, e));
    }

    /** A round robin spreading each page's counts[i] accesses evenly over the cycle. */
    public static int[] roundRobinSequence(long[] counts) {
        return Lib.varInts(Lib.countsSum(counts),
                (o, cap, len, e) -> Lib.API.crawlsched_freshness_round_robin_sequence(counts, counts.length, o, cap, len, e));
    }

    /** H(q) of Corollary 5.1, q >= 0 (at most 2 phi^2 / 5). */
    public static double boundRatio(double q) {
        double[] out = new double[1];
        Lib.call(e -> Lib.API.crawlsched_freshness_bound_ratio(q, out, e));
        return out[0];
    }
}
