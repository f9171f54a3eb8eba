package io.crawlsched;

import io.crawlsched.nativeapi.NativeLoader;

/** Library-wide information: version, ABI, the thread's last error. */
public final class Crawlsched {
    private Crawlsched() {}

    /** The ABI version this binding was written for; loading refuses any other. */
    public static final int ABI_VERSION = NativeLoader.BINDING_ABI_VERSION;

    /** The loaded library's version, "MAJOR.MINOR.PATCH". */
    public static String version() {
        return Lib.API.crawlsched_version();
    }

    /** The loaded library's ABI version (checked at load to equal {@link #ABI_VERSION}). */
    public static int libraryAbiVersion() {
        return Lib.API.crawlsched_abi_version();
    }

    /**
     * The library's per-OS-thread last error (crawlsched_last_error_status
     * and _message), for completeness only: the binding itself never uses
     * it (each call's exception comes from its own error struct), and a
     * virtual thread may change OS threads between two calls.
     */
    public static LastError threadLastError() {
        int st = Lib.API.crawlsched_last_error_status();
        return new LastError(Status.of(st), st, Lib.API.crawlsched_last_error_message());
    }

    /** The thread's last error: status, its C value, message ("" if none yet). */
    public record LastError(Status status, int code, String message) {}
}
