package io.crawlsched.nutch;

import io.crawlsched.CrawlschedException;
import io.crawlsched.Estimator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.nutch.crawl.CrawlDatum;

/**
 * One page's change-rate evidence, kept in its CrawlDatum metadata under
 * {@link #KEY} (at most {@value #MAX_BYTES} bytes): the time of its last
 * fetch, its current estimate and its estimator's state, the library's
 * bounded export ({@link Estimator#state()}: the visits, bucketed, and the
 * prior), which {@link Estimator#fromState} restores exactly. Each
 * observation imports the state, observes once and exports it again: no
 * visit history is kept or replayed. {@link #read} and {@link #write} are
 * the only two places that know the encoding.
 */
final class PageState {
    static final Text KEY = new Text("_crawlsched_");
    static final int MAX_BYTES = 1 + 8 + 8 + Estimator.STATE_MAX_BYTES;
    private static final byte FORMAT = 2;
    /** The adapter's first format: a prior and the last 32 visits (read once, then rewritten as FORMAT). */
    private static final byte FORMAT_VISITS = 1;

    /** Time of the last successful fetch (ms), 0 before the first. */
    long lastFetch;
    /** The estimate of {@link #estimator} (per second). */
    double rate;
    /** The estimator's state ({@link Estimator#state()}). */
    byte[] estimator;

    private PageState(long lastFetch, double rate, byte[] estimator) {
        this.lastFetch = lastFetch;
        this.rate = rate;
        this.estimator = estimator;
    }

    /** A page without evidence: an estimator with a prior guess worth priorWeight seconds. */
    static PageState fresh(double priorRate, double priorWeight) {
        try (Estimator e = Estimator.withPrior(priorRate, priorWeight)) {
            return new PageState(0, e.estimate(), e.state());
        }
    }

    /** The page's state, or null when it has none (a page never fetched by this schedule, or foreign bytes). */
    static PageState read(CrawlDatum datum) {
        Writable w = datum.getMetaData().get(KEY);
        if (!(w instanceof BytesWritable)) {
            return null;
        }
        BytesWritable b = (BytesWritable) w;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b.getBytes(), 0, b.getLength()))) {
            byte format = in.readByte();
            if (format == FORMAT_VISITS) {
                return readVisits(in);
            }
            if (format != FORMAT) {
                return null;
            }
            long lastFetch = in.readLong();
            double rate = in.readDouble();
            byte[] state = Arrays.copyOfRange(b.getBytes(), 1 + 8 + 8, b.getLength());
            try (Estimator e = Estimator.fromState(state)) {
                return Double.doubleToLongBits(e.estimate()) == Double.doubleToLongBits(rate)
                        ? new PageState(lastFetch, rate, state)
                        : null;
            }
        } catch (IOException | CrawlschedException e) {
            return null; // truncated or foreign bytes: the page starts afresh
        }
    }

    /**
     * A state of the first format, converted: its prior with its visits
     * (at most 32) observed, the estimate it stored.
     */
    private static PageState readVisits(DataInputStream in) throws IOException {
        double priorRate = in.readDouble();
        double priorWeight = in.readDouble();
        long lastFetch = in.readLong();
        in.readDouble(); // the estimate, recomputed below
        int n = in.readShort();
        if (n < 0 || n > 32 || !(priorRate > 0) || !(priorWeight > 0)) {
            return null;
        }
        try (Estimator e = Estimator.withPrior(priorRate, priorWeight)) {
            for (int i = 0; i < n; i++) {
                float interval = in.readFloat();
                e.observe(interval, in.readBoolean());
            }
            return new PageState(lastFetch, e.estimate(), e.state());
        }
    }

    /** Stores the state in the datum's metadata. */
    void write(CrawlDatum datum) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(MAX_BYTES);
        try (DataOutputStream out = new DataOutputStream(buf)) {
            out.writeByte(FORMAT);
            out.writeLong(lastFetch);
            out.writeDouble(rate);
            out.write(estimator);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        datum.getMetaData().put(KEY, new BytesWritable(buf.toByteArray()));
    }

    /**
     * Records a visit {@code interval} seconds after the previous one and
     * returns the new estimate (per second).
     */
    double observe(double interval, boolean changedNow) {
        try (Estimator e = Estimator.fromState(estimator)) {
            e.observe(interval, changedNow);
            rate = e.estimate();
            estimator = e.state();
        }
        return rate;
    }
}
