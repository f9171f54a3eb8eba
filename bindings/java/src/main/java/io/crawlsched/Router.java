package io.crawlsched;

/**
 * A streaming router repeating a period ({@code crawlsched_routing_router_t}):
 * {@link #next()} gives the server of each request in O(1). Its position is
 * an atomic counter inside the library, so threads may share one instance.
 */
public final class Router extends NativeHandle {
    private Router(long p) {
        super(p, Lib.API::crawlsched_routing_router_free);
    }

    /** A router repeating seq (indices < servers; copied). */
    public static Router create(int[] seq, int servers) {
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_routing_router_new(seq, seq.length, servers, out, e));
        return new Router(out[0]);
    }

    /** The server of the next request. */
    public int next() {
        int[] out = new int[1];
        call((h, e) -> Lib.API.crawlsched_routing_router_next(h, out, e));
        return out[0];
    }

    /** Fills out with the servers of the next out.length requests (one contiguous block). */
    public void nextBatch(int[] out) {
        call((h, e) -> Lib.API.crawlsched_routing_router_next_batch(h, out, out.length, e));
    }

    /** The servers of the next n requests. */
    public int[] nextBatch(int n) {
        int[] out = new int[Lib.arrayLen(n, "n")];
        nextBatch(out);
        return out;
    }
}
