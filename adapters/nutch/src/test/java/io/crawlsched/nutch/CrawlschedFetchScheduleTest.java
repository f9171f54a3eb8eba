package io.crawlsched.nutch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.crawlsched.Estimator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.nutch.crawl.CrawlDatum;
import org.apache.nutch.crawl.FetchSchedule;
import org.junit.jupiter.api.Test;

class CrawlschedFetchScheduleTest {
    static final double BUDGET = 2.0;

    static Configuration conf() {
        Configuration c = new Configuration(false);
        c.setInt("db.fetch.interval.default", 100);
        c.setInt("db.fetch.interval.max", 100_000);
        c.set(CrawlschedFetchSchedule.BUDGET, Double.toString(BUDGET));
        return c;
    }

    static CrawlschedFetchSchedule schedule(Configuration c) {
        CrawlschedFetchSchedule s = new CrawlschedFetchSchedule();
        s.setConf(c);
        return s;
    }

    /** Visits every {@code interval} s a page that changes as a Poisson process of rate mu. */
    static CrawlDatum crawl(CrawlschedFetchSchedule s, double mu, double interval, int visits, long seed) {
        Random rnd = new Random(seed);
        CrawlDatum d = new CrawlDatum(CrawlDatum.STATUS_DB_UNFETCHED, 100, 1f);
        long t = 1_000_000L;
        for (int v = 0; v < visits; v++) {
            boolean changed = rnd.nextDouble() < 1 - Math.exp(-mu * interval);
            int state = v == 0 ? FetchSchedule.STATUS_UNKNOWN
                    : changed ? FetchSchedule.STATUS_MODIFIED : FetchSchedule.STATUS_NOTMODIFIED;
            d = s.setFetchSchedule(new Text("http://x/"), d, d.getFetchTime(), d.getModifiedTime(), t, 0L, state);
            t += Math.round(interval * 1000);
        }
        return d;
    }

    @Test
    void stateStaysBoundedAndTheEstimateFindsTheRate() {
        CrawlschedFetchSchedule s = schedule(conf());
        for (double mu : new double[] {0.01, 0.1, 1.0}) {
            CrawlDatum d = crawl(s, mu, 0.7 / mu, 3000, 42);
            BytesWritable b = (BytesWritable) d.getMetaData().get(PageState.KEY);
            assertTrue(b.getLength() <= PageState.MAX_BYTES, "bounded state");
            assertTrue(b.getLength() <= 17 + 878, "within about 1 KiB (the library's bound below 2^35 visits)");
            double est = s.rate(d);
            assertEquals(mu, est, 0.15 * mu, "estimate of rate " + mu);
        }
    }

    @Test
    void firstFetchIsNoObservation() {
        CrawlschedFetchSchedule s = schedule(conf());
        CrawlDatum d = crawl(s, 1.0, 1.0, 1, 1);
        PageState st = PageState.read(d);
        assertNotNull(st);
        try (Estimator e = Estimator.fromState(st.estimator)) {
            assertEquals(0, e.observations());
        }
        assertEquals(1.0 / 100, st.rate, 1e-15, "the guess: 1/db.fetch.interval.default");
        assertEquals(1_000_000L + 100_000L, d.getFetchTime(), "no plan yet: the default interval");
    }

    /** The datum as Hadoop writes it between jobs, read back. */
    static CrawlDatum roundTrip(CrawlDatum d) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buf)) {
            d.write(out);
        }
        CrawlDatum back = new CrawlDatum();
        back.readFields(new DataInputStream(new ByteArrayInputStream(buf.toByteArray())));
        return back;
    }

    /**
     * The state written to the metadata and read back at every fetch (through
     * Hadoop's serialisation) continues exactly as one estimator that saw
     * every visit: the same estimate, bit for bit, after each.
     */
    @Test
    void restoredStateContinuesAsTheUninterruptedEstimator() throws Exception {
        CrawlschedFetchSchedule s = schedule(conf());
        Random rnd = new Random(5);
        CrawlDatum d = new CrawlDatum(CrawlDatum.STATUS_DB_UNFETCHED, 100, 1f);
        long t = 1_000_000L;
        try (Estimator ref = Estimator.withPrior(1.0 / 100, 100)) { // conf(): the guess and its weight
            for (int v = 0; v < 400; v++) {
                boolean changed = rnd.nextDouble() < 0.3;
                int state = v == 0 ? FetchSchedule.STATUS_UNKNOWN
                        : changed ? FetchSchedule.STATUS_MODIFIED : FetchSchedule.STATUS_NOTMODIFIED;
                long step = 1 + rnd.nextInt(20_000);
                if (v > 0) {
                    ref.observe(step / 1000.0, changed);
                }
                t += step;
                d = roundTrip(s.setFetchSchedule(new Text("http://x/"), d, d.getFetchTime(), d.getModifiedTime(), t,
                        0L, state));
                assertEquals(Double.doubleToLongBits(ref.estimate()), Double.doubleToLongBits(s.rate(d)),
                        "estimate after visit " + v);
                PageState st = PageState.read(d);
                assertTrue(st.estimator.length <= Estimator.STATE_MAX_BYTES);
                assertTrue(Arrays.equals(ref.state(), st.estimator), "state after visit " + v);
            }
        }
    }

    /** A state of the adapter's first format (a prior and its last visits) is read as those visits observed. */
    @Test
    void firstFormatIsConverted() throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(buf)) {
            out.writeByte(1);
            out.writeDouble(0.5);
            out.writeDouble(10);
            out.writeLong(7_000L);
            out.writeDouble(0.4);
            out.writeShort(2);
            out.writeFloat(2.5f);
            out.writeBoolean(true);
            out.writeFloat(4f);
            out.writeBoolean(false);
        }
        CrawlDatum d = new CrawlDatum();
        d.getMetaData().put(PageState.KEY, new BytesWritable(buf.toByteArray()));
        PageState st = PageState.read(d);
        try (Estimator e = Estimator.withPrior(0.5, 10)) {
            e.observe(2.5, true);
            e.observe(4, false);
            assertEquals(e.estimate(), st.rate, 0);
            assertTrue(Arrays.equals(e.state(), st.estimator));
        }
        assertEquals(7_000L, st.lastFetch);
    }

    /** At the plan's multiplier the pages' fetch rates 1/interval add up to the budget. */
    @Test
    void plannedIntervalsSpendTheBudget() {
        double[] rates = new double[50];
        for (int i = 0; i < rates.length; i++) {
            rates[i] = 0.001 * Math.pow(1000, i / 49.0);
        }
        double[] w = new double[rates.length];
        Arrays.fill(w, 1);
        Configuration c = conf();
        c.set(CrawlschedFetchSchedule.MAX_INTERVAL, "1e300");
        Plan.compute(rates, w, BUDGET).applyTo(c);
        CrawlschedFetchSchedule s = schedule(c);
        double total = 0;
        int never = 0;
        for (double r : rates) {
            double iv = s.interval(r);
            if (iv >= 1e300) {
                never++;
            } else {
                total += 1 / iv;
            }
        }
        assertEquals(BUDGET, total, 1e-6 * BUDGET);
        assertTrue(never > 0, "the fastest pages are not worth visiting (Theorem 3.4)");
        assertTrue(s.interval(rates[0]) > s.interval(rates[20]), "a page changing rarely is visited rarely");
    }

    /** PlanTool reads a CrawlDb and the schedule finds the plan through crawlsched.plan.file. */
    @Test
    void planToolWritesThePlanTheScheduleReads() throws Exception {
        Path dir = Files.createTempDirectory("crawldb");
        try {
            planToolRoundTrip(dir);
        } finally {
            org.apache.hadoop.fs.FileSystem.getLocal(conf()).delete(new org.apache.hadoop.fs.Path(dir.toString()), true);
        }
    }

    private static void planToolRoundTrip(Path dir) throws Exception {
        Configuration c = conf();
        CrawlschedFetchSchedule s = schedule(c);
        double[] rates = new double[20];
        org.apache.hadoop.fs.Path data = new org.apache.hadoop.fs.Path(dir.toString(), "current/part-r-00000/data");
        try (SequenceFile.Writer wr = SequenceFile.createWriter(c, SequenceFile.Writer.file(data),
                SequenceFile.Writer.keyClass(Text.class), SequenceFile.Writer.valueClass(CrawlDatum.class))) {
            for (int i = 0; i < rates.length; i++) {
                CrawlDatum d = crawl(s, 0.002 * (i + 1), 50, 200, i);
                rates[i] = s.rate(d);
                wr.append(new Text("http://x/" + i), d);
            }
        }
        assertEquals(0, new PlanTool() {{ setConf(c); }}.run(new String[] {dir.toString()}));
        double[] w = new double[rates.length];
        Arrays.fill(w, 1);
        Plan want = Plan.compute(rates, w, BUDGET);
        Configuration c2 = conf();
        c2.set(PlanTool.PLAN_FILE, dir.resolve(PlanTool.FILE_NAME).toString());
        Plan got = Plan.from(schedule(c2).getConf());
        assertEquals(want.lnMultiplier, got.lnMultiplier, 0);
        assertEquals(want.medianRate, got.medianRate, 0);
    }
}
