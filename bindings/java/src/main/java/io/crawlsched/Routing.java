package io.crawlsched;

/** Routing functions that need no server set (Altman et al.). */
public final class Routing {
    private Routing() {}

    /** The balanced (billiard) sequence with counts[m] visits of server m. */
    public static int[] balancedSequence(long[] counts) {
        return Lib.varInts(Lib.countsSum(counts),
                (o, cap, len, e) -> Lib.API.crawlsched_routing_balanced_sequence(counts, counts.length, o, cap, len, e));
    }

    /** g(n, mu2) of §5 (Figure 1; lambda = mu1 = 1), 2 <= n <= 60. */
    public static double twoServerCost(int n, double mu2) {
        double[] out = new double[1];
        Lib.call(e -> Lib.API.crawlsched_routing_two_server_cost(n, mu2, out, e));
        return out[0];
    }

    /** The mu2 at which Figure 1's optimal period grows from n to n + 1 (1 + sqrt 2 for n = 2). */
    public static double switchPoint(int n) {
        double[] out = new double[1];
        Lib.call(e -> Lib.API.crawlsched_routing_switch_point(n, out, e));
        return out[0];
    }
}
