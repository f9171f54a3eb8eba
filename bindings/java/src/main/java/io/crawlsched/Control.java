package io.crawlsched;

import java.lang.ref.Reference;

/**
 * A memory cap, an iteration cap and a cancel flag for the computations it
 * is attached to ({@code crawlsched_control_t}; docs/c-api.md, "Limits and
 * cancellation"): {@link MdpSolver#setControl}, {@link Robots#solve(long,
 * long, double, double, double, Control)}, {@link ThresholdModel#optimize(int[],
 * double[], long, Control)}. Thread-safe: {@link #cancel()} may be called
 * from another thread while a computation runs.
 */
public final class Control extends NativeHandle {
    private Control(long p) {
        super(p, Lib.API::crawlsched_control_free);
    }

    /** A control: not cancelled, the process-wide memory cap, no iteration cap. */
    public static Control create() {
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_control_new(out, e));
        return new Control(out[0]);
    }

    /** Memory cap in bytes; 0 returns to the process-wide default, -1 (UINT64_MAX) is unlimited. */
    public void setMemoryLimit(long bytes) {
        call((h, e) -> Lib.API.crawlsched_control_set_memory_limit(h, bytes, e));
    }

    /** Iteration cap (0: none); it lowers, never raises, a computation's own limit. */
    public void setMaxIterations(long n) {
        call((h, e) -> Lib.API.crawlsched_control_set_max_iterations(h, n, e));
    }

    /** Raises the cancel flag (callable from any thread). */
    public void cancel() {
        call((h, e) -> Lib.API.crawlsched_control_cancel(h, e));
    }

    /** Clears the cancel flag; limits are kept. */
    public void reset() {
        call((h, e) -> Lib.API.crawlsched_control_reset(h, e));
    }

    /** Whether the control was cancelled since its last reset. */
    public boolean isCancelled() {
        int[] out = new int[1];
        call((h, e) -> Lib.API.crawlsched_control_is_cancelled(h, out, e));
        return out[0] != 0;
    }

    /** The process-wide memory cap in bytes (0: unlimited). */
    public static long defaultMemoryLimit() {
        return Lib.API.crawlsched_get_default_memory_limit();
    }

    /** Sets the process-wide memory cap in bytes (0: unlimited) for computations without a control of their own. */
    public static void setDefaultMemoryLimit(long bytes) {
        Lib.API.crawlsched_set_default_memory_limit(bytes);
    }

    /** The address of an optional control (0 for null). */
    static long addressOf(Control c) {
        return c == null ? 0 : c.ptr();
    }

    /** Keeps an optional control reachable until here. */
    static void keep(Control c) {
        Reference.reachabilityFence(c);
    }
}
