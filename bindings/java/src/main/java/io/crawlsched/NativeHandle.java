package io.crawlsched;

import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.function.LongConsumer;

/**
 * A handle owning one C object. {@link #close()} frees it (idempotent); a
 * handle that becomes unreachable without close is freed by a
 * {@link Cleaner} as a safety net. Calls on a closed handle throw
 * {@link CrawlschedException} with {@link Status#NULL_ARGUMENT} and never
 * reach the library. {@code close()} must not race with other calls on the
 * same handle; otherwise handles may be shared between threads (see each
 * class).
 */
public abstract class NativeHandle implements AutoCloseable {
    private volatile long ptr;
    private final Cleaner.Cleanable cleanable;

    /** Frees the C object at most once; holds no reference to the handle. */
    private static final class Free implements Runnable {
        private final long ptr;
        private final LongConsumer free;

        Free(long ptr, LongConsumer free) {
            this.ptr = ptr;
            this.free = free;
        }

        @Override
        public void run() {
            free.accept(ptr);
        }
    }

    NativeHandle(long ptr, LongConsumer free) {
        this.ptr = ptr;
        this.cleanable = Lib.CLEANER.register(this, new Free(ptr, free));
    }

    /** The C address; throws if closed. */
    final long ptr() {
        long p = ptr;
        if (p == 0) {
            throw new CrawlschedException(Status.NULL_ARGUMENT, getClass().getSimpleName() + " is closed");
        }
        return p;
    }

    /** The C address of an argument handle, refusing null. */
    static long ptrOf(NativeHandle h, String what) {
        return Lib.nonNull(h, what).ptr();
    }

    /** Whether {@link #close()} has been called. */
    public final boolean isClosed() {
        return ptr == 0;
    }

    /** Frees the C object. Idempotent. */
    @Override
    public final void close() {
        ptr = 0;
        cleanable.clean();
    }

    /** A C call on this handle. */
    @FunctionalInterface
    interface HCall {
        int run(long h, byte[] err);
    }

    /** Runs {@code c} on this handle's address, keeping the handle reachable
     *  (so the cleaner cannot free it) until the call returns. */
    final void call(HCall c) {
        try {
            byte[] e = Lib.err();
            Lib.check(c.run(ptr(), e), e);
        } finally {
            Reference.reachabilityFence(this);
        }
    }

    /** {@link #call(HCall)} also keeping {@code other} reachable. */
    final void call(HCall c, Object other) {
        try {
            call(c);
        } finally {
            Reference.reachabilityFence(other);
        }
    }
}
