package io.crawlsched.stormcrawler;

import java.util.Map;
import org.apache.storm.spout.SpoutOutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.topology.OutputFieldsDeclarer;
import org.apache.storm.topology.base.BaseRichSpout;
import org.apache.storm.tuple.Fields;
import org.apache.storm.tuple.Values;

/**
 * The spout of a {@link StatusStore}, as StormCrawler's MemorySpout: emits
 * ({@code url}, {@code metadata}) for the earliest URL once it is due, at most
 * one per 1/budget wall seconds (the fetch budget: the fetcher adds no delay
 * of its own), anchored by the URL so the store knows when its tuple tree is
 * done.
 */
public class StoreSpout extends BaseRichSpout {
    private static final long serialVersionUID = 1L;

    private final String storeName;
    private final long periodNanos;
    private transient StatusStore store;
    private transient SpoutOutputCollector collector;
    private transient long nextSlot;
    private transient boolean active;

    StoreSpout(String storeName, double budget) {
        this.storeName = storeName;
        this.periodNanos = Math.round(1e9 / budget);
    }

    @Override
    public void open(Map<String, Object> conf, TopologyContext context, SpoutOutputCollector collector) {
        this.store = StatusStore.named(storeName);
        this.collector = collector;
        this.nextSlot = System.nanoTime();
    }

    @Override
    public void nextTuple() {
        if (!active) {
            active = true;
            store.spoutActive();
        }
        long now = System.nanoTime();
        if (now < nextSlot) {
            return;
        }
        store.release(now).ifPresent(r -> {
            collector.emit(new Values(r.url(), r.metadata()), r.url());
            nextSlot = System.nanoTime() + periodNanos; // >= 1/budget apart even after a late call
        });
    }

    @Override
    public void ack(Object msgId) {
        store.acked();
    }

    @Override
    public void fail(Object msgId) {
        store.failed((String) msgId);
    }

    @Override
    public void declareOutputFields(OutputFieldsDeclarer declarer) {
        declarer.declare(new Fields("url", "metadata"));
    }
}
