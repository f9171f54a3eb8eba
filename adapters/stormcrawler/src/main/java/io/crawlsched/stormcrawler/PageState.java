package io.crawlsched.stormcrawler;

import java.util.Locale;

/**
 * What {@link CrawlschedScheduler} keeps in a URL's metadata (one value
 * under {@link #KEY}, at most {@link #MAX_CHARS} characters): the page's id
 * in the in-memory scheduler, its change-rate estimate (per second), the
 * time of its last fetch, the date its next fetch was planned for (epoch
 * milliseconds) and the number of visits the estimate rests on. {@link #encode} and {@link #decode} are the only code
 * that knows the format, so it can become the library's bounded estimator
 * state text (Scheduler.pageStateText) without touching the scheduler.
 */
record PageState(long id, double rate, long lastFetchMillis, long dueMillis, long visits) {
    /** The metadata key; list it in {@code metadata.persist}. */
    static final String KEY = "crawlsched.state";

    /** Longest encoded form: prefix, 16 hex digits, a double, three longs. */
    static final int MAX_CHARS = 100;

    private static final String PREFIX = "v1:";

    /** "v1:id(hex):rate:lastFetchMillis:dueMillis:visits". */
    String encode() {
        return String.format(
                Locale.ROOT, "%s%x:%s:%d:%d:%d", PREFIX, id, Double.toString(rate), lastFetchMillis, dueMillis, visits);
    }

    /** The state in value, or null when value is absent, too long or malformed (the page then starts afresh). */
    static PageState decode(String value) {
        if (value == null || value.length() > MAX_CHARS || !value.startsWith(PREFIX)) {
            return null;
        }
        String[] f = value.substring(PREFIX.length()).split(":", -1);
        if (f.length != 5) {
            return null;
        }
        try {
            long id = Long.parseUnsignedLong(f[0], 16);
            double rate = Double.parseDouble(f[1]);
            long last = Long.parseLong(f[2]);
            long due = Long.parseLong(f[3]);
            long visits = Long.parseLong(f[4]);
            if (!(rate > 0) || Double.isInfinite(rate) || visits < 0) {
                return null;
            }
            return new PageState(id, rate, last, due, visits);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
