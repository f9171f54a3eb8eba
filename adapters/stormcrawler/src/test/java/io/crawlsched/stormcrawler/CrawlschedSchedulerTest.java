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

    @Test
    void aRestartedSchedulerContinuesFromTheMetadata() {
        Metadata md = new Metadata();
        md.setValue(PageState.KEY, new PageState(42, 0.25, Manual.now - 4000, Manual.now, 9).encode());
        md.setValue("fetch.statusCode", "304");
        Scheduler s = Scheduler.getInstance(conf(1.0));
        delayMillis(s, Status.FETCHED, md);
        PageState st = PageState.decode(md.getFirstValue(PageState.KEY));
        assertEquals(42, st.id());
        assertEquals(10, st.visits());
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
        PageState p = new PageState(-1, 1e-300, 1L << 60, Long.MAX_VALUE, Long.MAX_VALUE);
        assertEquals(p, PageState.decode(p.encode()));
        assertTrue(p.encode().length() <= PageState.MAX_CHARS);
        for (String bad : new String[] {null, "", "v1:", "v2:1:1:1:1:1", "v1:1:0:1:1:1", "v1:1:NaN:1:1:1", "v1:x:1:1:1:1",
                "v1:1:1:1:1", "v1:1:1:1:1:-1", "v1:1:1:1:1:1:" + "1".repeat(200)}) {
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
