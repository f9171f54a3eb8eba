package io.crawlsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class EstimatorStateTest {
    /** docs/c-api.md's example: visits after 1 (changed) and 2 (unchanged); the MLE is ln 1.5. */
    @Test
    void stateRoundTripsExactly() {
        try (Estimator x = Estimator.create()) {
            x.observe(1, true);
            x.observe(2, false);
            byte[] b = x.state();
            assertArrayEquals(new byte[] {(byte) 0xC5, 1, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 8, 0x40,
                0, 0, 0, 0, 0, 0, (byte) 0xf0, 0x3f, 1}, b);
            try (Estimator y = Estimator.fromState(b); Estimator z = Estimator.fromStateText(x.stateText())) {
                assertEquals(Math.log(1.5), z.estimate(), 1e-15);
                for (int k = 0; k < 40; k++) {
                    x.observe(0.3 + 0.1 * (k % 5), k % 3 == 0);
                    y.observe(0.3 + 0.1 * (k % 5), k % 3 == 0);
                    assertEquals(Double.doubleToLongBits(x.estimate()), Double.doubleToLongBits(y.estimate()));
                }
            }
            CrawlschedException e = assertThrows(CrawlschedException.class,
                    () -> Estimator.fromState(java.util.Arrays.copyOf(b, 10)));
            assertEquals(Status.INVALID_ARGUMENT, e.status());
            assertThrows(CrawlschedException.class, () -> Estimator.fromStateText("xR"));
        }
    }

    /** Constant crawl time d: f_i = mu_i / sum(mu), so the interval is d sum(mu) / mu_i. */
    @Test
    void dueTimesFollowTheClosedForm() {
        try (Dist d = Dist.deterministic(0.5); Scheduler s = Scheduler.create(d, Scheduler.Mode.STRIDE);
                Scheduler s2 = Scheduler.create(d, Scheduler.Mode.STRIDE)) {
            s.addPages(new long[] {30, 10, 20}, new double[] {5, 1, 2}, null);
            var all = s.revisitIntervals();
            assertEquals(4.0, all.get(10L), 1e-13);
            assertEquals(2.0, s.revisitInterval(20), 1e-13);
            assertEquals(100.8, s.nextDue(30, 100), 1e-12);
            for (int k = 0; k < 20; k++) {
                s.observe(20, 0.4, k % 2 == 0);
            }
            s2.addPage(20, 2);
            s2.setPageStateText(20, s.pageStateText(20));
            assertEquals(s.changeRate(20), s2.changeRate(20));
            assertNotEquals(2.0, s2.changeRate(20));
            assertThrows(CrawlschedException.class, () -> s2.setPageState(20, new byte[] {(byte) 0xC5, 9}));
        }
        try (Dist ex = Dist.exponential(1); Scheduler w = Scheduler.create(ex, Scheduler.Mode.STRIDE)) {
            w.addPages(new long[] {1, 2, 3}, new double[] {1, 1, 1}, new double[] {1, 1, 0.02});
            assertEquals(Double.POSITIVE_INFINITY, w.revisitInterval(3));
            assertEquals(Double.POSITIVE_INFINITY, w.nextDue(3, 5));
            CrawlschedException e = assertThrows(CrawlschedException.class, () -> w.nextDue(99, 0));
            assertEquals(Status.NOT_FOUND, e.status());
        }
    }
}
