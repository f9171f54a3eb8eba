package io.crawlsched.stormcrawler;

import java.util.Map;

/**
 * The crawlsched scheduler on a clock that runs {@code test.clock.scale}
 * times faster than the wall clock from {@code test.clock.origin} (epoch
 * ms): the comparison's schedule time, in which StormCrawler's
 * DefaultScheduler (whole minutes) can have a 3-minute interval that the
 * test topologies serve in 3 wall seconds.
 */
public class ScaledClockScheduler extends CrawlschedScheduler {
    static final String ORIGIN = "test.clock.origin";
    static final String SCALE = "test.clock.scale";

    private long origin;
    private double scale;

    @Override
    public void init(Map<String, Object> stormConf) {
        super.init(stormConf);
        origin = ((Number) stormConf.get(ORIGIN)).longValue();
        scale = ((Number) stormConf.get(SCALE)).doubleValue();
    }

    @Override
    protected long nowMillis() {
        return scaled(origin, scale);
    }

    /** Schedule time now, in epoch ms. */
    static long scaled(long origin, double scale) {
        return origin + Math.round((System.currentTimeMillis() - origin) * scale);
    }
}
