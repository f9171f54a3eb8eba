package io.crawlsched;

import io.crawlsched.nativeapi.NativeApi;

/**
 * A streaming crawl scheduler for a changing set of pages with 64-bit ids
 * ({@code crawlsched_scheduler_t}): {@link #next()} says which page to
 * crawl now. Mutable; the library serialises calls, so crawler threads may
 * share one instance. Ids are unsigned 64-bit values carried in a long.
 */
public final class Scheduler extends NativeHandle {
    /** How a page's crawls are spread. */
    public enum Mode {
        /** Each page's crawls evenly spaced in virtual time. */
        STRIDE(NativeApi.SCHEDULER_STRIDE),
        /** Golden-ratio cycles rebuilt at cycle boundaries (§5-6). */
        GOLDEN_RATIO(NativeApi.SCHEDULER_GOLDEN_RATIO);

        final int code;

        Mode(int code) {
            this.code = code;
        }
    }

    private Scheduler(long p) {
        super(p, Lib.API::crawlsched_scheduler_free);
    }

    /** An empty scheduler for crawls whose duration follows access (copied). */
    public static Scheduler create(Dist access, Mode mode) {
        long a = ptrOf(access, "access");
        int m = Lib.nonNull(mode, "mode").code;
        long[] out = new long[1];
        Lib.call(e -> Lib.API.crawlsched_scheduler_new(a, m, out, e), access);
        return new Scheduler(out[0]);
    }

    /** Adds page id with a change-rate guess > 0 (its cost weight is its change rate). */
    public void addPage(long id, double changeRate) {
        call((h, e) -> Lib.API.crawlsched_scheduler_add_page(h, id, changeRate, e));
    }

    /** Adds page id with a change-rate guess and a cost weight > 0. */
    public void addWeightedPage(long id, double changeRate, double weight) {
        call((h, e) -> Lib.API.crawlsched_scheduler_add_weighted_page(h, id, changeRate, weight, e));
    }

    /**
     * Adds pages ids[i] with change-rate guesses changeRates[i] and cost
     * weights weights[i] in one call (weights null: each weight is the
     * page's rate, as {@link #addPage}), as the one-by-one adds would: same
     * schedule and frequencies. All or nothing: on any error (an id already
     * scheduled or repeated, a bad rate or weight, too many pages) no page is
     * added; the message names the first bad element, e.g. "change_rates[17]".
     */
    public void addPages(long[] ids, double[] changeRates, double[] weights) {
        Lib.nonNull(ids, "ids");
        Lib.sameLength("changeRates", Lib.nonNull(changeRates, "changeRates").length, ids.length);
        if (weights != null) {
            Lib.sameLength("weights", weights.length, ids.length);
        }
        call((h, e) -> Lib.API.crawlsched_scheduler_add_pages(h, ids, changeRates, weights, ids.length, e));
    }

    /** Removes page id (NOT_FOUND if absent). */
    public void removePage(long id) {
        call((h, e) -> Lib.API.crawlsched_scheduler_remove_page(h, id, e));
    }

    /** Replaces page id's change rate (and restarts its estimator). */
    public void setChangeRate(long id, double changeRate) {
        call((h, e) -> Lib.API.crawlsched_scheduler_set_change_rate(h, id, changeRate, e));
    }

    /** Reports a crawl of page id, interval > 0 after its previous one. */
    public void observe(long id, double interval, boolean changed) {
        call((h, e) -> Lib.API.crawlsched_scheduler_observe(h, id, interval, Lib.flag(changed), e));
    }

    /** The page to crawl now (NOT_FOUND when no page is scheduled). */
    public long next() {
        long[] out = new long[1];
        call((h, e) -> Lib.API.crawlsched_scheduler_next(h, out, e));
        return out[0];
    }

    /** The next n pages to crawl, in order (one call; all or nothing). */
    public long[] nextBatch(int n) {
        long[] out = new long[Lib.arrayLen(n, "n")];
        nextBatch(out);
        return out;
    }

    /** Fills ids with the next ids.length pages to crawl. */
    public void nextBatch(long[] ids) {
        call((h, e) -> Lib.API.crawlsched_scheduler_next_batch(h, ids, ids.length, e));
    }

    /** The number of pages scheduled. */
    public int len() {
        long[] out = new long[1];
        call((h, e) -> Lib.API.crawlsched_scheduler_len(h, out, e));
        return (int) out[0];
    }

    /** Page id's current change-rate estimate. */
    public double changeRate(long id) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_scheduler_change_rate(h, id, out, e));
        return out[0];
    }

    /** Page id's current target share of all crawls. */
    public double frequency(long id) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_scheduler_frequency(h, id, out, e));
        return out[0];
    }

    /**
     * Every page's target share of all crawls, by page id (ascending): one
     * O(N) computation for all pages, where N calls of {@link #frequency}
     * after rates changed cost O(N) each.
     */
    public java.util.SortedMap<Long, Double> frequencies() {
        return pagePairs(Lib.API::crawlsched_scheduler_frequencies, x -> x);
    }

    /** A per-page (ids, values) export: handle, ids, values, capacity, out length, error. */
    private interface PairsExport {
        int apply(long h, long[] ids, double[] values, long cap, long[] got, byte[] err);
    }

    /**
     * Every page's value from a per-page (ids, values) export, by page id
     * (unsigned order), each mapped by f; the buffers are regrown while
     * pages were added meanwhile.
     */
    private java.util.SortedMap<Long, Double> pagePairs(PairsExport export, java.util.function.DoubleUnaryOperator f) {
        while (true) {
            int n = len();
            long[] ids = new long[n];
            double[] values = new double[n];
            long[] got = new long[1];
            try {
                call((h, e) -> export.apply(h, ids, values, n, got, e));
            } catch (CrawlschedException ex) {
                if (ex.status() == Status.BUFFER_TOO_SMALL) {
                    continue; // pages were added meanwhile
                }
                throw ex;
            }
            java.util.SortedMap<Long, Double> out = new java.util.TreeMap<>(Long::compareUnsigned);
            for (int i = 0; i < (int) got[0]; i++) {
                out.put(ids[i], f.applyAsDouble(values[i]));
            }
            return out;
        }
    }

    /**
     * Puts page id on host (an unsigned 32-bit value carried in an int: a
     * politeness group, e.g. an index into the caller's table of host
     * names) from the next pick, replacing its previous host. NOT_FOUND for
     * an unknown id.
     */
    public void setHost(long id, int host) {
        call((h, e) -> Lib.API.crawlsched_scheduler_set_host(h, id, host, e));
    }

    /** Takes page id off its host (no-op when it has none). */
    public void clearHost(long id) {
        call((h, e) -> Lib.API.crawlsched_scheduler_clear_host(h, id, e));
    }

    /** Page id's host (unsigned: {@link Integer#toUnsignedLong}), or empty when it has none. */
    public java.util.OptionalInt host(long id) {
        int[] host = new int[1];
        int[] has = new int[1];
        call((h, e) -> Lib.API.crawlsched_scheduler_host(h, id, host, has, e));
        return has[0] != 0 ? java.util.OptionalInt.of(host[0]) : java.util.OptionalInt.empty();
    }

    /**
     * Sets host's minimum delay (finite, &gt;= 0) between two picks of its
     * pages, in the unit of {@link #nextAt}'s clock and of the crawl times
     * ({@link #next()} rounds it up to whole slots of the mean crawl time,
     * one slot per pick, and the plan caps the host at one pick in that many
     * slots), from the next pick. A host keeps it while it has no pages. A
     * scheduler with hosts keeps the clock of its first pick: {@code next()}
     * after {@code nextAt} (or the reverse) throws
     * {@code CrawlschedException} with {@code INVALID_ARGUMENT}.
     */
    public void setHostDelay(int host, double delay) {
        call((h, e) -> Lib.API.crawlsched_scheduler_set_host_delay(h, host, delay, e));
    }

    /** Host's minimum delay (0 when none was set). */
    public double hostDelay(int host) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_scheduler_host_delay(h, host, out, e));
        return out[0];
    }

    /**
     * What {@link #nextAt} says: {@code ready} and the page {@code id} to
     * crawl now ({@code waitTime} 0), or not ready ({@code id} 0) and the
     * {@code waitTime} after which a host is. One record with a flag, not
     * a sealed pair, so callers on Java 17 read it without patterns:
     *
     * <pre>{@code
     * Scheduler.Pick p = s.nextAt(clock());
     * if (p.ready()) crawl(p.id()); else sleep(p.waitTime());
     * }</pre>
     */
    public record Pick(boolean ready, long id, double waitTime) {}

    /**
     * The pick at time {@code now} on the caller's clock (any finite
     * reading, in the unit of the host delays, never decreasing from call
     * to call). A page of host h comes only when {@link #hostDelay}(h) has
     * passed since the last pick of a page of h (by this method or
     * {@link #next()}); pages without a host are always ready. INVALID_ARGUMENT
     * for {@code now} NaN, infinite or before the previous call's;
     * NOT_FOUND when no page is scheduled.
     */
    public Pick nextAt(double now) {
        long[] id = new long[1];
        double[] wait = new double[1];
        int[] ready = new int[1];
        call((h, e) -> Lib.API.crawlsched_scheduler_next_at(h, now, id, wait, ready, e));
        return new Pick(ready[0] != 0, id[0], wait[0]);
    }

    /**
     * Page id's change-rate estimator state (as {@link Estimator#state()}),
     * to keep in the page's metadata and give back to
     * {@link #setPageState(long, byte[])} in a later run.
     */
    public byte[] pageState(long id) {
        byte[] buf = new byte[Estimator.STATE_MAX_BYTES];
        long[] len = new long[1];
        call((h, e) -> Lib.API.crawlsched_scheduler_page_state(h, id, buf, buf.length, len, e));
        return java.util.Arrays.copyOf(buf, (int) len[0]);
    }

    /** {@link #pageState(long)} as unpadded base64url text. */
    public String pageStateText(long id) {
        return StateText.encode(pageState(id));
    }

    /**
     * Replaces page id's estimator with a saved state and adopts its
     * estimate as the page's change rate: after {@link #addPage} in a new
     * run the page continues exactly as if the run had not stopped. Bad
     * bytes change nothing (INVALID_ARGUMENT).
     */
    public void setPageState(long id, byte[] state) {
        Lib.nonNull(state, "state");
        call((h, e) -> Lib.API.crawlsched_scheduler_set_page_state(h, id, state, state.length, e));
    }

    /** {@link #setPageState(long, byte[])} of {@link #pageStateText(long)}'s text. */
    public void setPageStateText(long id, String text) {
        setPageState(id, StateText.decode(text));
    }

    /** The C API's "never due" (interval 0) as +infinity. */
    private static double never(double interval) {
        return interval == 0 ? Double.POSITIVE_INFINITY : interval;
    }

    /**
     * Page id's revisit interval under the plan, E[X]/f_i time units (the
     * plan makes 1/E[X] crawls per unit time; for a budget of B crawls per
     * unit time create the scheduler with crawl times of mean 1/B), or
     * +infinity when the plan never crawls the page.
     */
    public double revisitInterval(long id) {
        double[] out = new double[1];
        call((h, e) -> Lib.API.crawlsched_scheduler_revisit_interval(h, id, out, e));
        return never(out[0]);
    }

    /**
     * When page id, last crawled at lastVisit (any finite clock in the unit
     * of the rates), is next due under the plan: lastVisit plus its
     * {@link #revisitInterval(long)}, or +infinity when never.
     */
    public double nextDue(long id, double lastVisit) {
        double[] due = new double[1];
        int[] has = new int[1];
        call((h, e) -> Lib.API.crawlsched_scheduler_next_due(h, id, lastVisit, due, has, e));
        return has[0] != 0 ? due[0] : Double.POSITIVE_INFINITY;
    }

    /** Every page's {@link #revisitInterval(long)} by page id (unsigned order), one O(N) computation. */
    public java.util.SortedMap<Long, Double> revisitIntervals() {
        return pagePairs(Lib.API::crawlsched_scheduler_revisit_intervals, Scheduler::never);
    }
}
