package io.crawlsched;

/**
 * An MDP under construction ({@code crawlsched_mdp_builder_t}): add
 * (state, action) rows in any order, then {@link #build()}. Mutable; the
 * library serialises calls.
 */
public final class MdpBuilder extends NativeHandle {
    private MdpBuilder(long p) {
        super(p, Lib.API::crawlsched_mdp_builder_free);
    }

    /** Starts an MDP with nStates (1 <= nStates < 2^32) states and no action. */
    public static MdpBuilder create(long nStates) {
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_mdp_builder_new(nStates, out, e));
        return new MdpBuilder(out[0]);
    }

    /**
     * Adds an action to state moving to next[i] with probability prob[i] at
     * one-step cost; returns the action's index within the state.
     */
    public int addAction(int state, int[] next, double[] prob, double cost) {
        Lib.sameLength("prob", prob.length, next.length);
        int[] out = new int[1];
        call((h, e) -> Lib.API.crawlsched_mdp_builder_add_action(h, state, next, prob, next.length, cost, out, e));
        return out[0];
    }

    /** Finishes the MDP (every state needs an action); the builder is emptied. */
    public Mdp build() {
        long[] out = new long[1];
        call((h, e) -> Lib.API.crawlsched_mdp_build(h, out, e));
        return new Mdp(out[0]);
    }
}
