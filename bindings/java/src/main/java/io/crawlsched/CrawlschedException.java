package io.crawlsched;

/**
 * A failed crawlsched call: the status ({@link #status()}, and the raw C
 * value {@link #code()}) and the library's message. Unchecked, like
 * {@link IllegalArgumentException}: most failures are invalid arguments.
 */
public class CrawlschedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int code;
    private final String detail;

    public CrawlschedException(int code, String detail) {
        super("crawlsched: " + Status.libraryName(code) + (detail.isEmpty() ? "" : ": " + detail));
        this.code = code;
        this.detail = detail;
    }

    public CrawlschedException(Status status, String detail) {
        this(status.code(), detail);
    }

    /** The status ({@link Status#UNKNOWN} for a code this binding does not know). */
    public Status status() {
        return Status.of(code);
    }

    /** The C status value ({@code crawlsched_status_t}). */
    public int code() {
        return code;
    }

    /** The library's message alone, without the status name (may be empty). */
    public String detail() {
        return detail;
    }
}
