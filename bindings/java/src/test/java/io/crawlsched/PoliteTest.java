package io.crawlsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Per-host politeness: the plan's overloads and record, and nextAt's picks. */
class PoliteTest {
    static final double INF = Double.POSITIVE_INFINITY;
    static final int[] HOSTS = {0, 0, 1, 1, 2, 2};
    static final double[] RATES = {0.1, 0.3, 0.5, 1, 2, 4};

    @Test
    void looseCapsGiveTheUnconstrainedPlanAndATightHostItsCap() {
        try (Dist ex = Dist.exponential(2); // E[X] = 1/2
                FreshnessModel m = FreshnessModel.create(ex, RATES, null)) {
            PolitePlan loose = m.politeFrequencies(HOSTS, new double[] {INF, INF, INF});
            assertArrayEquals(m.optimalFrequencies(), loose.frequencies(), 1e-12);
            assertEquals(m.lowerBound(), loose.objective(), 1e-12 * m.lowerBound());
            PolitePlan randomized = m.politeFrequencies(HOSTS, new double[] {INF, INF, INF}, PoliteObjective.RANDOMIZED);
            assertArrayEquals(m.randomizedOptimalFrequencies(), randomized.frequencies(), 1e-12);
            PolitePlan tight = m.politeFrequencies(HOSTS, new double[] {INF, INF, 0.6}, PoliteObjective.EVENLY_SPACED);
            assertArrayEquals(new boolean[] {false, false, true}, tight.saturated());
            assertEquals(0.3, tight.frequencies()[4] + tight.frequencies()[5], 1e-13);
            assertEquals(tight.lnMultiplier(), tight.lnHostMultipliers()[0]);
            assertEquals(m.cost(tight.frequencies()), tight.objective(), 1e-12 * tight.objective());
            // Every overload is the five-argument call; plans compare by content.
            assertEquals(tight, m.politeFrequencies(HOSTS, new double[] {INF, INF, 0.6}, PoliteObjective.EVENLY_SPACED,
                    false, null));
            assertEquals(tight.hashCode(), m.politeFrequencies(HOSTS, new double[] {INF, INF, 0.6}).hashCode());
            assertFalse(tight.equals(loose));
            assertTrue(tight.toString().contains("saturated=[false, false, true]"));
        }
    }

    @Test
    void slackOrInfeasibleWhenTheCapsAreShort() {
        double[] caps = {0.2, 0.3, 0.1}; // sum 0.6 < 1/E[X] = 2
        try (Dist ex = Dist.exponential(2); FreshnessModel m = FreshnessModel.create(ex, RATES, null)) {
            CrawlschedException e = assertThrows(CrawlschedException.class, () -> m.politeFrequencies(HOSTS, caps));
            assertEquals(Status.INFEASIBLE, e.status());
            PolitePlan slack = m.politeFrequencies(HOSTS, caps, PoliteObjective.EVENLY_SPACED, true);
            assertEquals(Double.NEGATIVE_INFINITY, slack.lnMultiplier());
            assertEquals(0.6, slack.crawlRate(), 1e-15);
            for (int h = 0; h < 3; h++) {
                assertTrue(slack.saturated()[h]);
                assertEquals(caps[h] / 2, slack.frequencies()[2 * h] + slack.frequencies()[2 * h + 1], 1e-15);
            }
            try (Control c = Control.create()) {
                c.cancel();
                CrawlschedException cancelled = assertThrows(CrawlschedException.class,
                        () -> m.politeFrequencies(HOSTS, new double[] {INF, INF, 0.6}, PoliteObjective.RANDOMIZED,
                                false, c));
                assertEquals(Status.CANCELLED, cancelled.status());
            }
            CrawlschedException noObjective = assertThrows(CrawlschedException.class,
                    () -> m.politeFrequencies(HOSTS, caps, null));
            assertEquals(Status.NULL_ARGUMENT, noObjective.status());
        }
    }

    @Test
    void nextAtNeverPicksAHostWithinItsDelay() {
        double[] delays = {1, 0.5, 2};
        try (Dist ex = Dist.exponential(2); Scheduler s = Scheduler.create(ex, Scheduler.Mode.STRIDE)) {
            for (long p = 0; p < 12; p++) {
                s.addPage(p, 0.1 * (p + 1));
                s.setHost(p, (int) (p % 3));
            }
            for (int h = 0; h < 3; h++) {
                s.setHostDelay(h, delays[h]);
            }
            assertEquals(1, s.host(4).getAsInt());
            assertEquals(2.0, s.hostDelay(2));
            double now = 0;
            double[] last = {Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.NEGATIVE_INFINITY};
            int waits = 0;
            for (int k = 0; k < 2000; k++) {
                Scheduler.Pick pick = s.nextAt(now);
                if (!pick.ready()) {
                    assertEquals(0, pick.id());
                    waits++;
                    now += pick.waitTime();
                    continue;
                }
                assertEquals(0.0, pick.waitTime());
                int h = (int) (pick.id() % 3);
                assertTrue(now - last[h] >= delays[h], "host " + h + " within its delay");
                last[h] = now;
                now += 0.1;
            }
            assertTrue(waits > 0);
            s.clearHost(4);
            assertTrue(s.host(4).isEmpty());
            s.setHost(5, -1); // uint32 4294967295
            assertEquals(4294967295L, Integer.toUnsignedLong(s.host(5).getAsInt()));
        }
    }
}
