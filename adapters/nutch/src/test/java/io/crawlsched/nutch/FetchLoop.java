package io.crawlsched.nutch;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.nutch.crawl.CrawlDatum;
import org.apache.nutch.crawl.FetchSchedule;

/**
 * Nutch's crawl cycle around a real FetchSchedule, in one thread: generate
 * (shouldFetch, most overdue first, at most topN), fetch (paced at the
 * budget), updatedb as CrawlDbReducer does it (change status from the MD5
 * signature, setFetchSchedule with the old datum's times). Nutch's own
 * Fetcher and its plugins are not on Maven Central, hence this loop.
 * Nutch time runs {@link #speed} times faster than the wall clock, so the
 * site's second-scale changes map onto Nutch's integer-second intervals.
 */
final class FetchLoop {
    final FetchSchedule schedule;
    final Configuration conf;
    final double speed;
    final double budgetWall;
    final double cycleWall;
    final Map<String, CrawlDatum> db = new LinkedHashMap<>();
    final boolean planned;
    long fetches;
    private long t0;

    FetchLoop(FetchSchedule schedule, Configuration conf, double speed, double budgetWall, double cycleWall) {
        this.schedule = schedule;
        this.conf = conf;
        this.speed = speed;
        this.budgetWall = budgetWall;
        this.cycleWall = cycleWall;
        this.planned = schedule instanceof CrawlschedFetchSchedule;
        schedule.setConf(conf);
    }

    /** Nutch time (ms) now. */
    long now() {
        return Math.round((System.nanoTime() - t0) / 1e6 * speed) + 1_000_000L;
    }

    double wall() {
        return (System.nanoTime() - t0) / 1e9;
    }

    void inject(List<String> urls) {
        for (String u : urls) {
            CrawlDatum d = new CrawlDatum(CrawlDatum.STATUS_DB_UNFETCHED, conf.getInt("db.fetch.interval.default", 0), 1f);
            d = schedule.initializeSchedule(new Text(u), d);
            d.setFetchTime(now());
            db.put(u, d);
        }
    }

    void run(double seconds) throws Exception {
        long topN = Math.round(budgetWall * cycleWall);
        double release = 0;
        while (wall() < seconds) {
            double cycleEnd = wall() + cycleWall;
            if (planned) {
                plan();
            }
            for (String u : generate(topN)) {
                release = Math.max(release, wall());
                sleepUntil(release);
                if (wall() >= seconds) {
                    return;
                }
                fetchAndUpdate(u);
                release += 1.0 / budgetWall;
            }
            sleepUntil(cycleEnd);
        }
    }

    /**
     * What Generator's first job selects: pages due by the end of this cycle
     * (Generator's -adddays look-ahead, here one cycle), most overdue first,
     * at most topN.
     */
    private List<String> generate(long topN) {
        long now = now() + Math.round(cycleWall * speed * 1000);
        List<String> due = new ArrayList<>();
        for (Map.Entry<String, CrawlDatum> e : db.entrySet()) {
            if (schedule.shouldFetch(new Text(e.getKey()), e.getValue(), now)) {
                due.add(e.getKey());
            }
        }
        due.sort(Comparator.comparingLong(u -> db.get(u).getFetchTime()));
        return due.subList(0, (int) Math.min(topN, due.size()));
    }

    /** The plan of this generate cycle from every page's current estimate. */
    private void plan() {
        CrawlschedFetchSchedule s = (CrawlschedFetchSchedule) schedule;
        double[] rates = db.values().stream().mapToDouble(s::rate).toArray();
        double[] weights = new double[rates.length];
        Arrays.fill(weights, 1.0);
        Plan.compute(rates, weights, conf.getDouble(CrawlschedFetchSchedule.BUDGET, 0)).applyTo(conf);
        schedule.setConf(conf);
    }

    private void fetchAndUpdate(String u) throws Exception {
        long fetchTime = now();
        HttpResponse<byte[]> r = TestSite.HTTP.send(HttpRequest.newBuilder(URI.create(u)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
        fetches++;
        if (r.statusCode() != 200) {
            throw new IllegalStateException(u + ": HTTP " + r.statusCode());
        }
        byte[] signature = MessageDigest.getInstance("MD5").digest(r.body());
        CrawlDatum old = db.get(u);
        long prevModifiedTime = old.getModifiedTime();
        long prevFetchTime = old.getFetchTime();
        int state = FetchSchedule.STATUS_UNKNOWN;
        if (old.getSignature() != null) {
            state = Arrays.equals(old.getSignature(), signature) ? FetchSchedule.STATUS_NOTMODIFIED
                    : FetchSchedule.STATUS_MODIFIED;
        }
        CrawlDatum result = schedule.setFetchSchedule(new Text(u), old, prevFetchTime, prevModifiedTime, fetchTime,
                0L, state);
        if (state == FetchSchedule.STATUS_NOTMODIFIED) {
            result.setStatus(CrawlDatum.STATUS_DB_NOTMODIFIED);
            result.setModifiedTime(prevModifiedTime);
        } else {
            result.setStatus(CrawlDatum.STATUS_DB_FETCHED);
            result.setSignature(signature);
        }
        db.put(u, result);
    }

    void start() {
        t0 = System.nanoTime();
    }

    private void sleepUntil(double wallSeconds) throws InterruptedException {
        long ms = Math.round((wallSeconds - wall()) * 1000);
        if (ms > 0) {
            Thread.sleep(ms);
        }
    }
}
