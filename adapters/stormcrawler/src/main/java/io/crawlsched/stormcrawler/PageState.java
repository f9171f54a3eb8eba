package io.crawlsched.stormcrawler;

import io.crawlsched.CrawlschedException;
import io.crawlsched.Estimator;
import java.util.Locale;

/**
 * What {@link CrawlschedScheduler} keeps in a URL's metadata (one value
 * under {@link #KEY}, at most {@link #MAX_CHARS} characters): the page's id
 * in the in-memory scheduler, the time of its last fetch, the date its next
 * fetch was planned for (epoch milliseconds) and its change-rate
 * estimator's state, the library's bounded export as text
 * ({@code Scheduler.pageStateText}: the page's visits, bucketed, and its
 * prior), from which a restarted scheduler continues exactly. {@link #rate}
 * is that state's estimate. {@link #encode} and {@link #decode} are the
 * only code that knows the format.
 *
 * <p>Values of the first format ("v1:id:rate:lastFetch:due:visits") decode
 * with {@code estimator} null: the page re-enters a plan with that rate as
 * its guess.
 */
record PageState(long id, double rate, long lastFetchMillis, long dueMillis, String estimator) {
    /** The metadata key; list it in {@code metadata.persist}. */
    static final String KEY = "crawlsched.state";

    /** Longest state text: unpadded base64 of {@link Estimator#STATE_MAX_BYTES} bytes (1514 characters). */
    static final int MAX_STATE_CHARS = (Estimator.STATE_MAX_BYTES * 4 + 2) / 3;

    /** Longest encoded form: prefix, 16 hex digits, two longs, the state text and three separators. */
    static final int MAX_CHARS = 3 + 16 + 2 * 20 + MAX_STATE_CHARS + 3;

    private static final String PREFIX = "v2:";

    private static final String PREFIX_V1 = "v1:";

    /** "v2:id(hex):lastFetchMillis:dueMillis:estimatorStateText". */
    String encode() {
        return String.format(Locale.ROOT, "%s%x:%d:%d:%s", PREFIX, id, lastFetchMillis, dueMillis, estimator);
    }

    /**
     * The state in value, or null when value is absent, too long or
     * malformed, or its estimator state is not one (the page then starts
     * afresh).
     */
    static PageState decode(String value) {
        if (value == null || value.length() > MAX_CHARS) {
            return null;
        }
        if (value.startsWith(PREFIX_V1)) {
            return decodeV1(value.substring(PREFIX_V1.length()));
        }
        if (!value.startsWith(PREFIX)) {
            return null;
        }
        String[] f = value.substring(PREFIX.length()).split(":", -1);
        if (f.length != 4) {
            return null;
        }
        try (Estimator e = Estimator.fromStateText(f[3])) {
            return new PageState(Long.parseUnsignedLong(f[0], 16), e.estimate(), Long.parseLong(f[1]),
                    Long.parseLong(f[2]), f[3]);
        } catch (NumberFormatException | CrawlschedException e) {
            return null;
        }
    }

    /** "id(hex):rate:lastFetchMillis:dueMillis:visits" of the first format. */
    private static PageState decodeV1(String value) {
        String[] f = value.split(":", -1);
        if (f.length != 5) {
            return null;
        }
        try {
            double rate = Double.parseDouble(f[1]);
            if (!(rate > 0) || Double.isInfinite(rate) || Long.parseLong(f[4]) < 0) {
                return null;
            }
            return new PageState(Long.parseUnsignedLong(f[0], 16), rate, Long.parseLong(f[2]), Long.parseLong(f[3]),
                    null);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
