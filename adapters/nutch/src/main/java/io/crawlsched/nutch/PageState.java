package io.crawlsched.nutch;

import io.crawlsched.Estimator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.io.Writable;
import org.apache.nutch.crawl.CrawlDatum;

/**
 * One page's change-rate evidence, kept in its CrawlDatum metadata under
 * {@link #KEY} (at most {@value #MAX_BYTES} bytes). Today's Java binding
 * cannot export an estimator, so the state is a prior (rate guess, weight
 * in seconds) plus the last {@value #MAX_OBSERVATIONS} visits (interval,
 * changed), replayed into a fresh {@link Estimator}; older visits are folded
 * into the prior. {@link #read} and {@link #write} are the only two places
 * that know the encoding: they switch to the library's bounded estimator
 * export ({@code Estimator.state()/fromState}, issue 23) once the released
 * library has it.
 */
final class PageState {
    static final Text KEY = new Text("_crawlsched_");
    static final int MAX_OBSERVATIONS = 32;
    static final int MAX_BYTES = 1 + 8 * 4 + 2 + MAX_OBSERVATIONS * 5;
    private static final byte FORMAT = 1;

    double priorRate;
    double priorWeight;
    /** Time of the last successful fetch (ms), 0 before the first. */
    long lastFetch;
    /** The estimate after the last observation (per second). */
    double rate;
    int n;
    final float[] intervals = new float[MAX_OBSERVATIONS];
    final boolean[] changed = new boolean[MAX_OBSERVATIONS];

    PageState(double priorRate, double priorWeight) {
        this.priorRate = priorRate;
        this.priorWeight = priorWeight;
        this.rate = priorRate;
    }

    /** The page's state, or null when it has none (a page never fetched by this schedule). */
    static PageState read(CrawlDatum datum) {
        Writable w = datum.getMetaData().get(KEY);
        if (!(w instanceof BytesWritable)) {
            return null;
        }
        BytesWritable b = (BytesWritable) w;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(b.getBytes(), 0, b.getLength()))) {
            if (in.readByte() != FORMAT) {
                return null;
            }
            PageState s = new PageState(in.readDouble(), in.readDouble());
            s.lastFetch = in.readLong();
            s.rate = in.readDouble();
            int n = in.readShort();
            if (n < 0 || n > MAX_OBSERVATIONS || !(s.priorRate > 0) || !(s.priorWeight > 0)) {
                return null;
            }
            for (int i = 0; i < n; i++) {
                s.intervals[i] = in.readFloat();
                s.changed[i] = in.readBoolean();
            }
            s.n = n;
            return s;
        } catch (IOException e) {
            return null; // truncated or foreign bytes: the page starts afresh
        }
    }

    /** Stores the state in the datum's metadata. */
    void write(CrawlDatum datum) {
        ByteArrayOutputStream buf = new ByteArrayOutputStream(MAX_BYTES);
        try (DataOutputStream out = new DataOutputStream(buf)) {
            out.writeByte(FORMAT);
            out.writeDouble(priorRate);
            out.writeDouble(priorWeight);
            out.writeLong(lastFetch);
            out.writeDouble(rate);
            out.writeShort(n);
            for (int i = 0; i < n; i++) {
                out.writeFloat(intervals[i]);
                out.writeBoolean(changed[i]);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        datum.getMetaData().put(KEY, new BytesWritable(buf.toByteArray()));
    }

    /**
     * Records a visit {@code interval} seconds after the previous one and
     * returns the new estimate (per second). When the window is full the
     * oldest visit moves into the prior: the current estimate becomes the
     * prior's guess, worth the prior's time plus the dropped interval.
     */
    double observe(double interval, boolean changedNow) {
        if (n == MAX_OBSERVATIONS) {
            priorRate = rate;
            priorWeight += intervals[0];
            System.arraycopy(intervals, 1, intervals, 0, n - 1);
            System.arraycopy(changed, 1, changed, 0, n - 1);
            n--;
        }
        intervals[n] = (float) interval;
        changed[n] = changedNow;
        n++;
        try (Estimator e = Estimator.withPrior(priorRate, priorWeight)) {
            for (int i = 0; i < n; i++) {
                e.observe(intervals[i], changed[i]);
            }
            rate = e.estimate();
        }
        return rate;
    }
}
