package io.crawlsched;

import io.crawlsched.nativeapi.NativeApi;

/**
 * A crawlsched status code ({@code crawlsched_status_t}, docs/c-api.md).
 * A newer library may return codes this enum does not know: they map to
 * {@link #UNKNOWN}, and {@link CrawlschedException#code()} keeps the number.
 */
public enum Status {
    OK(NativeApi.OK),
    NULL_ARGUMENT(NativeApi.NULL_ARGUMENT),
    INVALID_ARGUMENT(NativeApi.INVALID_ARGUMENT),
    INFEASIBLE(NativeApi.INFEASIBLE),
    NOT_CONVERGED(NativeApi.NOT_CONVERGED),
    TOO_LARGE(NativeApi.TOO_LARGE),
    BUFFER_TOO_SMALL(NativeApi.BUFFER_TOO_SMALL),
    NOT_FOUND(NativeApi.NOT_FOUND),
    CANCELLED(NativeApi.CANCELLED),
    NUMERICAL(NativeApi.NUMERICAL),
    PANIC(NativeApi.PANIC),
    INTERNAL(NativeApi.INTERNAL),
    /** A code added by a later library version. */
    UNKNOWN(-1);

    private final int code;

    Status(int code) {
        this.code = code;
    }

    /** The C value ({@code -1} for {@link #UNKNOWN}). */
    public int code() {
        return code;
    }

    /** The status of a C value; {@link #UNKNOWN} if not one of the above. */
    public static Status of(int code) {
        for (Status s : values()) {
            if (s.code == code && s != UNKNOWN) {
                return s;
            }
        }
        return UNKNOWN;
    }

    /** The library's name of a code, e.g. "CRAWLSCHED_INVALID_ARGUMENT" (crawlsched_status_string). */
    public static String libraryName(int code) {
        return Lib.API.crawlsched_status_string(code);
    }
}
