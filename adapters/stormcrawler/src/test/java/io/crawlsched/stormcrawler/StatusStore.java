package io.crawlsched.stormcrawler;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.Status;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * One crawl's in-memory status store (URL → persisted metadata and wall due
 * time), shared by its topology's spout and status updater bolt through a
 * JVM-wide registry (the in-process cluster runs them in this JVM). Its dates
 * are in schedule time, {@code scale} times faster than the wall clock: a URL
 * scheduled d ms after the scheduler's now is due d/scale wall ms later.
 * Every URL is due at the crawl's start; none is released at or after its end.
 */
final class StatusStore {
    private static final Map<String, StatusStore> REGISTRY = new ConcurrentHashMap<>();

    /** A URL released for fetching, with a copy of its stored metadata. */
    record Release(String url, Metadata metadata) {}

    private record Due(String url, long atNanos) {}

    private final List<String> urls;
    private final LongSupplier schedulerNow;
    private final double scale;
    private final long durationNanos;
    private final Map<String, Metadata> stored = new HashMap<>();
    private final PriorityQueue<Due> queue = new PriorityQueue<>((a, b) -> Long.compare(a.atNanos(), b.atNanos()));
    private long endNanos = Long.MAX_VALUE; // before start: the queue is empty, the crawl not done
    private boolean spoutActive;
    private boolean updaterPrepared;
    private int inFlight;
    private int errors;
    private int failed;

    private StatusStore(List<String> urls, LongSupplier schedulerNow, double scale, double seconds) {
        this.urls = List.copyOf(urls);
        this.schedulerNow = schedulerNow;
        this.scale = scale;
        this.durationNanos = Math.round(seconds * 1e9);
        urls.forEach(u -> stored.put(u, new Metadata()));
    }

    /** A new store under name for the given URLs; schedulerNow is the scheduler's clock (epoch ms). */
    static StatusStore create(String name, List<String> urls, LongSupplier schedulerNow, double scale, double seconds) {
        StatusStore s = new StatusStore(urls, schedulerNow, scale, seconds);
        if (REGISTRY.putIfAbsent(name, s) != null) {
            throw new IllegalStateException("store " + name + " exists");
        }
        return s;
    }

    static StatusStore named(String name) {
        StatusStore s = REGISTRY.get(name);
        if (s == null) {
            throw new IllegalStateException("no store " + name);
        }
        return s;
    }

    static void remove(String name) {
        REGISTRY.remove(name);
    }

    /** The spout was called (its topology is active). */
    synchronized void spoutActive() {
        spoutActive = true;
    }

    synchronized void updaterPrepared() {
        updaterPrepared = true;
    }

    /** True once the topology runs: its spout is called and its status updater prepared. */
    synchronized boolean ready() {
        return spoutActive && updaterPrepared;
    }

    /** Starts the crawl at wall nanoTime start: every URL (DISCOVERED) is due then. */
    synchronized void start(long startNanos) {
        urls.forEach(u -> queue.add(new Due(u, startNanos)));
        endNanos = startNanos + durationNanos;
    }

    /** The earliest due URL if it is due at nowNanos (before the end), now in flight. */
    synchronized Optional<Release> release(long nowNanos) {
        Due d = queue.peek();
        if (d == null || d.atNanos() > nowNanos || nowNanos >= endNanos) {
            return Optional.empty();
        }
        queue.poll();
        inFlight++;
        Metadata copy = new Metadata();
        copy.putAll(stored.get(d.url()));
        return Optional.of(new Release(d.url(), copy));
    }

    /** The status updater's store: the metadata, and the date converted to a wall due time. */
    synchronized void store(String url, Status status, Metadata metadata, Optional<Date> nextFetch) {
        long schedNow = schedulerNow.getAsLong();
        long wallNow = System.nanoTime();
        stored.put(url, metadata);
        if (status == Status.FETCH_ERROR || status == Status.ERROR) {
            errors++;
        }
        nextFetch.ifPresent(d -> queue.add(new Due(url, wallNow + Math.round((d.getTime() - schedNow) * 1e6 / scale))));
    }

    /** The spout's ack: the tuple tree of a released URL is done. */
    synchronized void acked() {
        inFlight--;
    }

    /** The spout's fail: the URL is due again now (the failure is counted). */
    synchronized void failed(String url) {
        inFlight--;
        failed++;
        queue.add(new Due(url, System.nanoTime()));
    }

    /** True once the crawl ended and no released URL is in flight. */
    synchronized boolean done() {
        return System.nanoTime() >= endNanos && inFlight == 0;
    }

    synchronized Metadata metadata(String url) {
        return stored.get(url);
    }

    /** Stored FETCH_ERROR / ERROR statuses plus failed tuples. */
    synchronized int errors() {
        return errors + failed;
    }
}
