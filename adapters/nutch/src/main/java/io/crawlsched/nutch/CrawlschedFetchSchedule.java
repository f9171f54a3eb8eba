package io.crawlsched.nutch;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.nutch.crawl.AbstractFetchSchedule;
import org.apache.nutch.crawl.CrawlDatum;
import org.apache.nutch.crawl.FetchSchedule;

/**
 * A Nutch FetchSchedule whose intervals come from crawlsched's freshness
 * plan: each fetch of a page is an observation (changed or not, after the
 * time since its previous fetch) for the page's change-rate estimator, whose
 * state lives in the CrawlDatum metadata ({@link PageState}); the next
 * interval is 1/(f_i x budget) with f_i the page's optimal share of the
 * fetches at the current {@link Plan}'s multiplier.
 *
 * <p>Configuration (nutch-site.xml): {@code db.fetch.schedule.class} =
 * {@code io.crawlsched.nutch.CrawlschedFetchSchedule};
 * {@value #BUDGET} (fetches per second, required);
 * {@value #INITIAL_RATE} (change-rate guess per second for pages with no
 * evidence, default 1/db.fetch.interval.default, replaced by the plan's
 * median estimate once there is a plan); {@value #PRIOR_WEIGHT} (seconds of
 * observation the guess is worth, default db.fetch.interval.default);
 * {@value #MIN_INTERVAL} and {@value #MAX_INTERVAL} (seconds, defaults
 * 1/budget and db.fetch.interval.max); the plan: the file named by
 * {@value PlanTool#PLAN_FILE} that {@link PlanTool} writes once per cycle,
 * or the plan's keys ({@link Plan}) themselves. Without a plan the interval
 * is db.fetch.interval.default.
 */
public class CrawlschedFetchSchedule extends AbstractFetchSchedule {
    public static final String BUDGET = "crawlsched.budget";
    public static final String INITIAL_RATE = "crawlsched.initial_rate";
    public static final String PRIOR_WEIGHT = "crawlsched.prior_weight";
    public static final String MIN_INTERVAL = "crawlsched.min_interval";
    public static final String MAX_INTERVAL = "crawlsched.max_interval";

    private double budget;
    private double initialRate;
    private double priorWeight;
    private double minInterval;
    private double maxIntervalSeconds;
    private Plan plan;

    @Override
    public void setConf(Configuration conf) {
        super.setConf(conf);
        if (conf == null) {
            return;
        }
        budget = conf.getDouble(BUDGET, 0);
        if (!(budget > 0) || Double.isInfinite(budget)) {
            throw new IllegalArgumentException(BUDGET + " must be a positive number of fetches per second, got "
                    + conf.get(BUDGET));
        }
        double def = defaultInterval > 0 ? defaultInterval : FetchSchedule.SECONDS_PER_DAY;
        initialRate = conf.getDouble(INITIAL_RATE, 1.0 / def);
        priorWeight = conf.getDouble(PRIOR_WEIGHT, def);
        minInterval = conf.getDouble(MIN_INTERVAL, 1.0 / budget);
        maxIntervalSeconds = conf.getDouble(MAX_INTERVAL, maxInterval > 0 ? maxInterval : 90.0 * SECONDS_PER_DAY);
        try {
            PlanTool.load(conf);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(PlanTool.PLAN_FILE + ": " + e.getMessage(), e);
        }
        plan = Plan.from(conf);
    }

    @Override
    public CrawlDatum setFetchSchedule(Text url, CrawlDatum datum, long prevFetchTime, long prevModifiedTime,
            long fetchTime, long modifiedTime, int state) {
        datum = super.setFetchSchedule(url, datum, prevFetchTime, prevModifiedTime, fetchTime, modifiedTime, state);
        PageState s = PageState.read(datum);
        if (s == null) {
            s = PageState.fresh(guess(), priorWeight);
        }
        if (s.lastFetch > 0 && fetchTime > s.lastFetch && state != FetchSchedule.STATUS_UNKNOWN) {
            s.observe((fetchTime - s.lastFetch) / 1000.0, state == FetchSchedule.STATUS_MODIFIED);
        }
        s.lastFetch = fetchTime;
        s.write(datum);
        double interval = interval(s.rate);
        datum.setFetchInterval((float) interval);
        datum.setFetchTime(fetchTime + Math.round(interval * 1000.0));
        if (modifiedTime <= 0 || state == FetchSchedule.STATUS_MODIFIED) {
            modifiedTime = fetchTime;
        }
        datum.setModifiedTime(modifiedTime);
        return datum;
    }

    /** The page's current change-rate estimate per second (the guess for a page without state). */
    public double rate(CrawlDatum datum) {
        PageState s = PageState.read(datum);
        return s == null ? guess() : s.rate;
    }

    /** Seconds until the next fetch of a page of this rate under the current plan. */
    double interval(double rate) {
        if (plan == null) {
            return defaultInterval > 0 ? defaultInterval : SECONDS_PER_DAY;
        }
        double f = plan.frequency(rate, 1.0, budget);
        double interval = f > 0 ? 1.0 / (f * budget) : maxIntervalSeconds;
        return Math.min(Math.max(interval, minInterval), maxIntervalSeconds);
    }

    private double guess() {
        if (plan != null && plan.medianRate > 0) {
            return plan.medianRate;
        }
        return initialRate;
    }
}
