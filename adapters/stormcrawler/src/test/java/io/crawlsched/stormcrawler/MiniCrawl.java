package io.crawlsched.stormcrawler;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.parse.ParseFilter;
import com.digitalpebble.stormcrawler.parse.ParseResult;
import com.digitalpebble.stormcrawler.persistence.Scheduler;
import com.digitalpebble.stormcrawler.persistence.Status;
import com.digitalpebble.stormcrawler.protocol.Protocol;
import com.digitalpebble.stormcrawler.protocol.ProtocolResponse;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * A StormCrawler topology's data path, one URL at a time: a status store
 * (URL → metadata and next fetch date) whose earliest due URL is fetched
 * (the spout's query), StormCrawler's HTTP protocol with the URL's metadata
 * (conditional headers from the stored etag / last-modified, as FetcherBolt
 * does), the response metadata merged and {@code fetch.statusCode} set as
 * FetcherBolt does, MD5SignatureParseFilter on a 200 (as the parser bolt
 * runs it), then {@code Scheduler.schedule} as AbstractStatusUpdaterBolt
 * calls it, whose date is stored. Fetches are at least 1/budget wall
 * seconds apart (the fetch budget) and never before the URL is due. The
 * scheduler's dates are in schedule time, {@code scale} times faster than
 * the wall clock: a URL scheduled d ms after the scheduler's now is due
 * d/scale wall ms later.
 */
final class MiniCrawl implements Runnable {
    private record Due(String url, long atNanos) {}

    private final Scheduler scheduler;
    private final LongSupplier schedulerNow;
    private final Protocol protocol;
    private final ParseFilter signature;
    private final List<String> urls;
    private final long periodNanos;
    private final double scale;
    private final long durationNanos;

    /** The status store: each URL's persisted metadata. */
    final Map<String, Metadata> store = new HashMap<>();

    int fetches;
    int notModified;
    int errors;
    volatile Throwable failure;

    MiniCrawl(
            Scheduler scheduler,
            LongSupplier schedulerNow,
            Protocol protocol,
            ParseFilter signature,
            List<String> urls,
            double budget,
            double scale,
            double seconds) {
        this.scheduler = scheduler;
        this.schedulerNow = schedulerNow;
        this.protocol = protocol;
        this.signature = signature;
        this.urls = urls;
        this.periodNanos = Math.round(1e9 / budget);
        this.scale = scale;
        this.durationNanos = Math.round(seconds * 1e9);
    }

    @Override
    public void run() {
        try {
            crawl();
        } catch (Throwable t) {
            failure = t;
        }
    }

    private void crawl() {
        long start = System.nanoTime();
        long end = start + durationNanos;
        PriorityQueue<Due> queue = new PriorityQueue<>((a, b) -> Long.compare(a.atNanos(), b.atNanos()));
        for (String u : urls) {
            store.put(u, new Metadata());
            queue.add(new Due(u, start)); // DISCOVERED: due now
        }
        long slot = start;
        while (!queue.isEmpty()) {
            Due d = queue.poll();
            long at = Math.max(slot, d.atNanos());
            if (at >= end) {
                return;
            }
            sleepUntil(at);
            slot = System.nanoTime() + periodNanos; // starts >= 1/budget apart even after a late wake-up
            Optional<Long> due = fetchAndSchedule(d.url());
            due.ifPresent(t -> queue.add(new Due(d.url(), t)));
        }
    }

    /** One fetch of url; the wall nanoTime at which it is due again (empty: never). */
    private Optional<Long> fetchAndSchedule(String url) {
        Metadata md = store.get(url);
        Metadata merged = new Metadata();
        merged.putAll(md);
        Status status;
        try {
            ProtocolResponse r = protocol.getProtocolOutput(url, md);
            fetches++;
            merged.putAll(r.getMetadata(), "");
            merged.setValue("fetch.statusCode", Integer.toString(r.getStatusCode()));
            status = Status.fromHTTPCode(r.getStatusCode());
            if (r.getStatusCode() == 304) {
                notModified++;
            } else if (status == Status.FETCHED) {
                ParseResult parse = new ParseResult();
                parse.set(url, merged);
                signature.filter(url, r.getContent(), null, parse);
                merged = parse.get(url).getMetadata();
            }
        } catch (Exception e) {
            errors++;
            status = Status.FETCH_ERROR;
        }
        long schedNow = schedulerNow.getAsLong();
        long wallNow = System.nanoTime();
        Optional<Date> next = scheduler.schedule(status, merged);
        store.put(url, merged);
        return next.map(date -> wallNow + Math.round((date.getTime() - schedNow) * 1e6 / scale));
    }

    private static void sleepUntil(long nanos) {
        for (long left = nanos - System.nanoTime(); left > 0; left = nanos - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
