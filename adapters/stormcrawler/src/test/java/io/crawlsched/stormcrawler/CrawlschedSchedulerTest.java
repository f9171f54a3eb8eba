package io.crawlsched.stormcrawler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.digitalpebble.stormcrawler.Constants;
import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.Scheduler;
import com.digitalpebble.stormcrawler.persistence.Status;
import io.crawlsched.Estimator;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CrawlschedScheduler without a crawl: a settable clock and metadata as the status updater passes it. */
class CrawlschedSchedulerTest {
    /** The scheduler on a clock the test sets (epoch ms). */
    public static class Manual extends CrawlschedScheduler {
        static long now = 1_000_000;

        @Override
        protected long nowMillis() {
            return now;
        }
    }

    static Map<String, Object> conf(double budget) {
        Map<String, Object> c = new HashMap<>();
        c.put(Scheduler.schedulerClassParamName, Manual.class.getName());
        c.put(CrawlschedScheduler.BUDGET, budget);
        c.put(Constants.fetchErrorFetchIntervalParamName, 7);
        return c;
    }

    static long delayMillis(Scheduler s, Status status, Metadata md) {
        return s.schedule(status, md).orElseThrow().getTime() - Manual.now;
    }

    @Test
    void equalPagesShareTheBudgetEvenly() {
        Scheduler s = Scheduler.getInstance(conf(2.0)); // 2 fetches per second
        Metadata[] pages = new Metadata[10];
        long last = 0;
        for (int i = 0; i < pages.length; i++) {
            pages[i] = new Metadata();
            last = delayMillis(s, Status.FETCHED, pages[i]);
        }
        // Ten pages, same guess and weight: each fetched every 10 / 2 = 5 s, so the ten spend 2 per second.
        assertEquals(5000, last);
    }

    @Test
    void otherStatusesAreScheduledAsDefaultScheduler() {
        Scheduler s = Scheduler.getInstance(conf(1.0));
        Metadata md = new Metadata();
        delayMillis(s, Status.FETCHED, md);
        long wall = s.schedule(Status.FETCH_ERROR, md).orElseThrow().getTime() - System.currentTimeMillis();
        assertEquals(7 * 60_000, wall, 5000); // fetchInterval.fetch.error, on the wall clock as DefaultScheduler
        assertTrue(md.containsKey(PageState.KEY));
        s.schedule(Status.ERROR, md);
        assertFalse(md.containsKey(PageState.KEY)); // dropped from the plan
    }

    /** The metadata as it comes back from the status index: a copy. */
    static Metadata copy(Metadata md) {
        Metadata c = new Metadata();
        c.putAll(md, "");
        return c;
    }

    /**
     * A restarted scheduler that reads a page's metadata continues its
     * estimator exactly: after every later fetch its state and estimate equal,
     * bit for bit, those of the scheduler that did not stop.
     */
    @Test
    void aRestartedSchedulerContinuesExactly() {
        Scheduler first = Scheduler.getInstance(conf(1.0));
        Metadata md = new Metadata();
        String[] codes = {"200", "304", "304", "200", "304"};
        for (int v = 0; v < 12; v++) {
            md.setValue("fetch.statusCode", codes[v % codes.length]);
            delayMillis(first, Status.FETCHED, md);
            Manual.now += 700 + 300L * v;
        }
        Metadata restored = copy(md);
        Scheduler second = Scheduler.getInstance(conf(1.0)); // the restart: the page is unknown to it
        for (int v = 0; v < 12; v++) {
            String code = codes[(v * 7) % codes.length];
            md.setValue("fetch.statusCode", code);
            restored.setValue("fetch.statusCode", code);
            delayMillis(first, Status.FETCHED, md);
            delayMillis(second, Status.FETCHED, restored);
            PageState a = PageState.decode(md.getFirstValue(PageState.KEY));
            PageState b = PageState.decode(restored.getFirstValue(PageState.KEY));
            assertEquals(a.estimator(), b.estimator(), "state after " + v + " fetches since the restart");
            assertEquals(Double.doubleToLongBits(a.rate()), Double.doubleToLongBits(b.rate()));
            assertEquals(a.id(), b.id());
            try (Estimator e = Estimator.fromStateText(b.estimator())) {
                assertEquals(12 + v, e.observations(), "one observation per fetch after the first");
                assertTrue(e.state().length <= Estimator.STATE_MAX_BYTES);
            }
            assertTrue(md.getFirstValue(PageState.KEY).length() <= PageState.MAX_CHARS);
            Manual.now += 500 + 900L * (v % 3);
        }
    }

    /** A first-format value: its rate becomes the page's guess in the restarted plan. */
    @Test
    void aFirstFormatValueIsReadAsAGuess() {
        Metadata md = new Metadata();
        md.setValue(PageState.KEY, "v1:2a:0.25:" + (Manual.now - 4000) + ":" + Manual.now + ":9");
        md.setValue("fetch.statusCode", "304");
        Scheduler s = Scheduler.getInstance(conf(1.0));
        delayMillis(s, Status.FETCHED, md);
        PageState st = PageState.decode(md.getFirstValue(PageState.KEY));
        assertEquals(42, st.id());
        assertTrue(md.getFirstValue(PageState.KEY).startsWith("v2:"));
        assertTrue(st.rate() < 0.25, "4 s unchanged lowers the estimate: " + st.rate());
    }

    @Test
    void changeIsA200WithANewSignature() {
        Metadata md = new Metadata();
        md.setValue("fetch.statusCode", "304");
        assertFalse(CrawlschedScheduler.changed(md));
        md.setValue("fetch.statusCode", "200");
        assertTrue(CrawlschedScheduler.changed(md)); // no signatures: a 200 to a conditional request
        md.setValue(CrawlschedScheduler.SIGNATURE, "a");
        md.setValue(CrawlschedScheduler.SIGNATURE_OLD, "a");
        assertFalse(CrawlschedScheduler.changed(md));
        md.setValue(CrawlschedScheduler.SIGNATURE, "b");
        assertTrue(CrawlschedScheduler.changed(md));
    }

    @Test
    void pageStateRoundTripsAndRefusesMalformedText() {
        String text;
        try (Estimator e = Estimator.withPrior(0.5, 10)) {
            e.observe(2, true);
            text = e.stateText();
        }
        PageState p = new PageState(-1, 0.5, 1L << 60, Long.MAX_VALUE, text);
        PageState back = PageState.decode(p.encode());
        assertEquals(p.id(), back.id());
        assertEquals(p.lastFetchMillis(), back.lastFetchMillis());
        assertEquals(p.dueMillis(), back.dueMillis());
        assertEquals(text, back.estimator());
        try (Estimator e = Estimator.fromStateText(text)) {
            assertEquals(e.estimate(), back.rate(), 0);
        }
        assertEquals(1514, PageState.MAX_STATE_CHARS);
        for (String bad : new String[] {null, "", "v2:", "v3:1:1:1:" + text, "v2:1:1:1:x" + text, "v2:x:1:1:" + text,
                "v2:1:1:" + text, "v2:1:1:1:1:" + text, "v1:1:0:1:1:1", "v1:1:NaN:1:1:1", "v1:1:1:1:1:-1",
                "v2:1:1:1:" + "A".repeat(2000)}) {
            assertNull(PageState.decode(bad), bad);
        }
    }

    @Test
    void theBudgetIsRequired() {
        Map<String, Object> c = conf(1.0);
        c.remove(CrawlschedScheduler.BUDGET);
        assertThrows(RuntimeException.class, () -> Scheduler.getInstance(c));
    }
}
