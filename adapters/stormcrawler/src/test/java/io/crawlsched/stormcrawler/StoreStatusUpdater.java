package io.crawlsched.stormcrawler;

import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.AbstractStatusUpdaterBolt;
import com.digitalpebble.stormcrawler.persistence.Status;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import org.apache.storm.task.OutputCollector;
import org.apache.storm.task.TopologyContext;
import org.apache.storm.tuple.Tuple;

/**
 * The status updater of a {@link StatusStore}: StormCrawler's
 * AbstractStatusUpdaterBolt calls the configured scheduler
 * ({@code scheduler.class}) and filters the metadata to
 * {@code metadata.persist}; this stores the result.
 */
public class StoreStatusUpdater extends AbstractStatusUpdaterBolt {
    private static final long serialVersionUID = 1L;

    private final String storeName;
    private transient StatusStore store;

    StoreStatusUpdater(String storeName) {
        this.storeName = storeName;
    }

    @Override
    public void prepare(Map<String, Object> conf, TopologyContext context, OutputCollector collector) {
        super.prepare(conf, context, collector);
        store = StatusStore.named(storeName);
        store.updaterPrepared();
    }

    @Override
    protected void store(String url, Status status, Metadata metadata, Optional<Date> nextFetch, Tuple t) {
        store.store(url, status, metadata, nextFetch);
        ack(t, url);
    }
}
