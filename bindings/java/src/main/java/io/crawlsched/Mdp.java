package io.crawlsched;

/** A finished sparse MDP ({@code crawlsched_mdp_t}). Immutable: shareable between threads. */
public final class Mdp extends NativeHandle {
    Mdp(long p) {
        super(p, Lib.API::crawlsched_mdp_free);
    }

    /** Numbers of states, (state, action) pairs and transitions. */
    public record Size(long states, long actions, long transitions) {}

    public Size size() {
        long[] s = new long[1];
        long[] a = new long[1];
        long[] t = new long[1];
        call((h, e) -> Lib.API.crawlsched_mdp_size(h, s, a, t, e));
        return new Size(s[0], a[0], t[0]);
    }
}
