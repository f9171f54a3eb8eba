package io.crawlsched;

import io.crawlsched.nativeapi.NativeApi;
import io.crawlsched.nativeapi.NativeLoader;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Helpers shared by the idiomatic classes: the backend, errors, buffers. */
final class Lib {
    private Lib() {}

    /** The backend; its first use loads the library and checks the ABI. */
    static final NativeApi API = NativeLoader.api();

    /** Frees handles that were never closed (a safety net). */
    static final Cleaner CLEANER = Cleaner.create();

    /** A C call taking the caller-owned error struct; returns the status. */
    @FunctionalInterface
    interface Call {
        int run(byte[] err);
    }

    /** A fresh, zeroed {@code crawlsched_error_t}: one per call, so threads never share one. */
    static byte[] err() {
        return new byte[NativeApi.ERROR_STRUCT_SIZE];
    }

    static void check(int status, byte[] err) {
        if (status != NativeApi.OK) {
            throw new CrawlschedException(status, message(err));
        }
    }

    /** The NUL-terminated UTF-8 message of an error struct. */
    static String message(byte[] err) {
        int end = 4;
        while (end < err.length && err[end] != 0) {
            end++;
        }
        return new String(err, 4, end - 4, StandardCharsets.UTF_8);
    }

    /** The status field of an error struct (native byte order). */
    static int status(byte[] err) {
        return ByteBuffer.wrap(err, 0, 4).order(ByteOrder.nativeOrder()).getInt();
    }

    static void call(Call c) {
        byte[] e = err();
        check(c.run(e), e);
    }

    /** {@link #call(Call)} keeping {@code keep} (handles whose address the call uses) reachable. */
    static void call(Call c, Object keep) {
        try {
            call(c);
        } finally {
            Reference.reachabilityFence(keep);
        }
    }

    /** A variable-size output call: capacity, the length slot, the error struct. */
    @FunctionalInterface
    interface VarCall<A> {
        int run(A out, long cap, long[] len, byte[] err);
    }

    /**
     * Runs a {@code (out, cap, *out_len)} call with a buffer of {@code guess}
     * elements, and once more with the size the library asks for on
     * BUFFER_TOO_SMALL.
     */
    static int[] varInts(int guess, VarCall<int[]> f) {
        int[] out = new int[guess];
        long[] len = new long[1];
        while (true) {
            byte[] e = err();
            int st = f.run(out, out.length, len, e);
            if (st == NativeApi.BUFFER_TOO_SMALL && len[0] > out.length) {
                out = new int[checkedLen(len[0])];
                continue;
            }
            check(st, e);
            return len[0] == out.length ? out : Arrays.copyOf(out, (int) len[0]);
        }
    }

    static double[] varDoubles(int guess, VarCall<double[]> f) {
        double[] out = new double[guess];
        long[] len = new long[1];
        while (true) {
            byte[] e = err();
            int st = f.run(out, out.length, len, e);
            if (st == NativeApi.BUFFER_TOO_SMALL && len[0] > out.length) {
                out = new double[checkedLen(len[0])];
                continue;
            }
            check(st, e);
            return len[0] == out.length ? out : Arrays.copyOf(out, (int) len[0]);
        }
    }

    static int checkedLen(long n) {
        if (n < 0 || n > Integer.MAX_VALUE - 8) {
            throw new CrawlschedException(Status.TOO_LARGE, "a result of " + Long.toUnsignedString(n)
                    + " elements does not fit a Java array");
        }
        return (int) n;
    }

    /** A non-negative count as an array length (Java arrays hold at most 2^31 - 1). */
    static int arrayLen(long n, String what) {
        if (n < 0 || n > Integer.MAX_VALUE - 8) {
            throw new CrawlschedException(Status.INVALID_ARGUMENT, what + " = " + n + " is negative or too large for a Java array");
        }
        return (int) n;
    }

    static void sameLength(String what, int got, int want) {
        if (got != want) {
            throw new CrawlschedException(Status.INVALID_ARGUMENT, what + " has length " + got + ", expected " + want);
        }
    }

    static <T> T nonNull(T x, String what) {
        if (x == null) {
            throw new CrawlschedException(Status.NULL_ARGUMENT, what + " is null");
        }
        return x;
    }

    static int flag(boolean b) {
        return b ? 1 : 0;
    }

    /** Sum of counts as an initial buffer size, 0 (ask the library) if large. */
    static int countsSum(long[] counts) {
        long s = 0;
        for (long c : counts) {
            s += c;
            if (c < 0 || s > (1 << 24)) {
                return 0;
            }
        }
        return (int) s;
    }
}
