package io.crawlsched.stormcrawler;

import com.digitalpebble.stormcrawler.Constants;
import com.digitalpebble.stormcrawler.Metadata;
import com.digitalpebble.stormcrawler.persistence.DefaultScheduler;
import com.digitalpebble.stormcrawler.persistence.Status;
import com.digitalpebble.stormcrawler.util.ConfUtils;
import io.crawlsched.CrawlschedException;
import io.crawlsched.Dist;
import io.crawlsched.Scheduler;
import java.util.Arrays;
import java.util.Date;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A StormCrawler {@code Scheduler} ({@code scheduler.class}) that spaces each
 * URL's fetches by crawlsched's freshness plan: a page's fetch interval is
 * 1/(s_i B), where B is the fetch budget (crawlsched.budget, fetches per
 * second for the URLs this instance schedules) and s_i the page's share of
 * all fetches in the plan of crawlsched's streaming {@link Scheduler} over
 * the pages seen so far, whose change rates are learnt from what each fetch
 * saw (a 304, or the MD5 signatures before and after). The plan's shares
 * sum to one, so the intervals spend the budget: Σ 1/I_i = B.
 *
 * <p>A page the plan gives no fetch (its rate is too high to keep fresh for
 * the budget) is refetched after crawlsched.interval.max.mins, so its
 * estimate can still come down. Other statuses (DISCOVERED, FETCH_ERROR,
 * ERROR, REDIRECTION) are scheduled as {@link DefaultScheduler} does, with
 * the same keys; ERROR and REDIRECTION also drop the page from the plan.
 *
 * <p>Each URL's estimator state lives in its metadata ({@link PageState#KEY},
 * the library's bounded estimator state), so a restarted topology picks each
 * page up exactly where it left it.
 */
public class CrawlschedScheduler extends DefaultScheduler {
    /** Fetches per second for the URLs this scheduler instance sees (required, &gt; 0). */
    public static final String BUDGET = "crawlsched.budget";

    /** Mean duration of one fetch in seconds, the plan's access-time model (default 1/budget). */
    public static final String CRAWL_TIME_MEAN = "crawlsched.crawl.time.mean";

    /** A new page's change-rate guess per second (default: one change per fetchInterval.default). */
    public static final String DEFAULT_RATE = "crawlsched.default.rate";

    /** Longest interval in minutes, for pages the plan does not fetch (default: fetchInterval.error). */
    public static final String INTERVAL_MAX = "crawlsched.interval.max.mins";

    /** Re-plan after this fraction of the pages has reported a fetch (default 0.01). */
    public static final String REPLAN_FRACTION = "crawlsched.replan.fraction";

    /**
     * Metadata key of a URL's importance weight (&gt; 0, e.g. a sitemap
     * priority; default 1): the plan maximises the weighted fraction of fresh
     * pages. Read when the page enters the plan.
     */
    public static final String WEIGHT = "crawlsched.weight";

    /** Keys written by StormCrawler's MD5SignatureParseFilter (keyName, keyNameCopy). */
    static final String SIGNATURE = "signature";

    static final String SIGNATURE_OLD = "signatureOld";

    private double budget;
    private double defaultRate;
    private double maxIntervalSeconds;
    private double replanFraction;
    private Scheduler plan;

    /** Shares of all fetches by page id, as of the last re-plan. */
    private Map<Long, Double> shares = Map.of();

    /** The median change rate at the last re-plan (NaN: not computed yet). */
    private double medianRate = Double.NaN;

    private long observedSincePlan;
    private long pagesChanged;

    @Override
    public void init(Map<String, Object> stormConf) {
        super.init(stormConf);
        budget = positive(stormConf, BUDGET, Double.NaN);
        double crawlTime = positive(stormConf, CRAWL_TIME_MEAN, 1 / budget);
        int defaultMins = ConfUtils.getInt(stormConf, Constants.defaultFetchIntervalParamName, 1440);
        defaultRate = positive(stormConf, DEFAULT_RATE, 1.0 / (60.0 * Math.max(1, defaultMins)));
        int errorMins = ConfUtils.getInt(stormConf, Constants.errorFetchIntervalParamName, 44640);
        maxIntervalSeconds = 60 * positive(stormConf, INTERVAL_MAX, errorMins);
        replanFraction = positive(stormConf, REPLAN_FRACTION, 0.01);
        try (Dist access = Dist.deterministic(crawlTime)) {
            plan = Scheduler.create(access, Scheduler.Mode.STRIDE);
        }
    }

    /** The clock, in epoch milliseconds (tests run it faster than the wall clock). */
    protected long nowMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public synchronized Optional<Date> schedule(Status status, Metadata metadata) {
        if (status != Status.FETCHED) {
            if (status == Status.ERROR || status == Status.REDIRECTION) {
                forget(metadata);
            }
            return super.schedule(status, metadata);
        }
        long now = nowMillis();
        PageState old = PageState.decode(metadata.getFirstValue(PageState.KEY));
        long id = old == null ? addPage(newPageRate(), weight(metadata)) : visit(old, metadata, now);
        long due = nextDue(old, now, intervalSeconds(id));
        PageState state = new PageState(id, plan.changeRate(id), now, due, plan.pageStateText(id));
        metadata.setValue(PageState.KEY, state.encode());
        return Optional.of(new Date(due));
    }

    /**
     * The next fetch one interval after the one planned (so a page fetched
     * late is not fetched less often than planned, which would leave budget
     * unused), but at least half an interval after now.
     */
    static long nextDue(PageState old, long now, double intervalSeconds) {
        long interval = Math.round(intervalSeconds * 1000);
        if (old == null || old.dueMillis() > now) {
            return now + interval;
        }
        return Math.max(now + interval / 2, old.dueMillis() + interval);
    }

    /** Reports a fetch of a known page at now: the interval since its previous fetch and whether it changed. */
    private long visit(PageState old, Metadata metadata, long now) {
        if (!known(old.id())) { // a restart, or another instance's page: its estimator continues
            plan.addWeightedPage(old.id(), old.rate(), weight(metadata));
            if (old.estimator() != null) {
                plan.setPageStateText(old.id(), old.estimator());
            }
            pagesChanged++;
        }
        double interval = (now - old.lastFetchMillis()) / 1000.0;
        if (interval > 0) {
            plan.observe(old.id(), interval, changed(metadata));
            observedSincePlan++;
        }
        return old.id();
    }

    /** Whether the fetch saw a new version: a 304 did not; else the signatures differ (or, without them, a 200 did). */
    static boolean changed(Metadata metadata) {
        if ("304".equals(metadata.getFirstValue("fetch.statusCode"))) {
            return false;
        }
        String now = metadata.getFirstValue(SIGNATURE);
        String before = metadata.getFirstValue(SIGNATURE_OLD);
        return now == null || before == null || !now.equals(before);
    }

    /**
     * The page's fetch interval in seconds: 1/(share × budget), capped for
     * pages the plan leaves out. Re-plans once replanFraction of the pages
     * reported a fetch or entered or left; until then a page new to the plan
     * gets the round-robin interval, pages / budget.
     */
    private double intervalSeconds(long id) {
        if (observedSincePlan + pagesChanged > replanFraction * plan.len()) {
            replan();
        }
        Double share = shares.get(id);
        if (share == null) {
            return Math.min(maxIntervalSeconds, plan.len() / budget);
        }
        return share > 0 ? Math.min(maxIntervalSeconds, 1 / (share * budget)) : maxIntervalSeconds;
    }

    /**
     * Fresh shares, scaled so the planned pages spend the budget left after
     * the pages the plan leaves out (each fetched once per maximum interval).
     */
    private void replan() {
        Map<Long, Double> f = plan.frequencies();
        double total = f.values().stream().mapToDouble(Double::doubleValue).sum();
        long left = f.values().stream().filter(v -> !(v > 0)).count();
        double spend = Math.max(0.5, 1 - left / (maxIntervalSeconds * budget));
        f.replaceAll((id, v) -> total > 0 ? spend * v / total : 0.0);
        shares = f;
        medianRate = Double.NaN;
        observedSincePlan = 0;
        pagesChanged = 0;
    }

    /**
     * A new page's rate guess: the median of the estimates at the last
     * re-plan (a guess far above them would get no fetch, so it would never
     * be corrected), or crawlsched.default.rate before any.
     */
    private double newPageRate() {
        if (Double.isNaN(medianRate)) {
            double[] rates = shares.keySet().stream().filter(this::known).mapToDouble(plan::changeRate).toArray();
            Arrays.sort(rates);
            medianRate = rates.length == 0 ? defaultRate : rates[rates.length / 2];
        }
        return medianRate;
    }

    private long addPage(double rate, double weight) {
        while (true) {
            long id = ThreadLocalRandom.current().nextLong();
            if (!known(id)) {
                plan.addWeightedPage(id, rate, weight);
                pagesChanged++;
                return id;
            }
        }
    }

    /** The URL's weight from {@link #WEIGHT}; 1 when absent or not a positive number. */
    static double weight(Metadata metadata) {
        String v = metadata.getFirstValue(WEIGHT);
        try {
            double w = v == null ? 1 : Double.parseDouble(v);
            return w > 0 && !Double.isInfinite(w) ? w : 1;
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private boolean known(long id) {
        try {
            plan.changeRate(id);
            return true;
        } catch (CrawlschedException e) {
            return false;
        }
    }

    private void forget(Metadata metadata) {
        PageState state = PageState.decode(metadata.getFirstValue(PageState.KEY));
        if (state != null && known(state.id())) {
            plan.removePage(state.id());
            pagesChanged++;
        }
        metadata.remove(PageState.KEY);
    }

    /** The page's current change-rate estimate per second (for tests and metrics). */
    public synchronized double changeRate(Metadata metadata) {
        PageState state = PageState.decode(metadata.getFirstValue(PageState.KEY));
        return state == null ? Double.NaN : state.rate();
    }

    private static double positive(Map<String, Object> conf, String key, double fallback) {
        Object v = conf.get(key);
        double x = v == null ? fallback : v instanceof Number ? ((Number) v).doubleValue() : Double.parseDouble(v.toString());
        if (!(x > 0) || Double.isInfinite(x)) {
            throw new IllegalArgumentException(key + " must be a positive number, got " + v);
        }
        return x;
    }
}
