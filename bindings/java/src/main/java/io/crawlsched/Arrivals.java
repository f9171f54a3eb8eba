package io.crawlsched;

/**
 * A stationary arrival process with single arrivals: Poisson, MMPP or MAP
 * ({@code crawlsched_routing_arrivals_t}; Altman et al. §5). Immutable:
 * shareable between threads.
 */
public final class Arrivals extends NativeHandle {
    private Arrivals(long p) {
        super(p, Lib.API::crawlsched_routing_arrivals_free);
    }

    interface New {
        int run(long[] out, byte[] err);
    }

    private static Arrivals create(New f) {
        long[] out = new long[1];
        Lib.call(e -> f.run(out, e));
        return new Arrivals(out[0]);
    }

    /** Poisson arrivals of rate > 0. */
    public static Arrivals poisson(double rate) {
        return create((o, e) -> Lib.API.crawlsched_routing_arrivals_poisson_new(rate, o, e));
    }

    /** MMPP: phase generator q (n x n, row-major) and arrival rate rates[i] in phase i. */
    public static Arrivals mmpp(double[] q, double[] rates) {
        return create((o, e) -> Lib.API.crawlsched_routing_arrivals_mmpp_new(q, q.length, rates, rates.length, o, e));
    }

    /** MAP of order n: d0 (no arrival) and d1 (one arrival), n x n row-major each. */
    public static Arrivals map(int n, double[] d0, double[] d1) {
        return create((o, e) -> Lib.API.crawlsched_routing_arrivals_map_new(n, d0, d0.length, d1, d1.length, o, e));
    }

    /** The mean arrival rate lambda. */
    public double rate() {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_routing_arrivals_rate(h, out, e));
        return out[0];
    }

    /** E exp(-mu (tau_1 + ... + tau_k)) (Lemma 5.2), mu > 0, k >= 1. */
    public double transform(double mu, int k) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_routing_arrivals_transform(h, mu, k, out, e));
        return out[0];
    }
}
