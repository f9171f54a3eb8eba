package io.crawlsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Per-host politeness through the thin wrappers: the plan and nextAt. */
class PoliteTest {
    @Test
    void looseCapsGiveTheUnconstrainedPlanAndATightHostItsCap() {
        double inf = Double.POSITIVE_INFINITY;
        int[] hosts = {0, 0, 1, 1, 2, 2};
        try (Dist ex = Dist.exponential(2); // E[X] = 1/2
                FreshnessModel m = FreshnessModel.create(ex, new double[] {0.1, 0.3, 0.5, 1, 2, 4}, null)) {
            FreshnessModel.PolitePlan loose = m.politeFrequencies(hosts, new double[] {inf, inf, inf},
                    FreshnessModel.PoliteObjective.EVENLY_SPACED, false, null);
            assertArrayEquals(m.optimalFrequencies(), loose.frequencies(), 1e-12);
            FreshnessModel.PolitePlan tight = m.politeFrequencies(hosts, new double[] {inf, inf, 0.6},
                    FreshnessModel.PoliteObjective.EVENLY_SPACED, false, null);
            assertTrue(tight.saturated()[2] && !tight.saturated()[0] && !tight.saturated()[1]);
            assertEquals(0.3, tight.frequencies()[4] + tight.frequencies()[5], 1e-13);
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
                    waits++;
                    now += pick.waitTime();
                    continue;
                }
                int h = (int) (pick.id() % 3);
                assertTrue(now - last[h] >= delays[h], "host " + h + " within its delay");
                last[h] = now;
                now += 0.1;
            }
            assertTrue(waits > 0);
            s.clearHost(4);
            assertTrue(s.host(4).isEmpty());
        }
    }
}
