package io.crawlsched;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Handles left to the garbage collector are freed by the Cleaner (a safety net). */
class CleanerTest {
    @Test
    void forgottenHandlesAreFreed() throws InterruptedException {
        for (int i = 0; i < 2000; i++) {
            Dist d = Dist.exponential(1);
            Scheduler s = Scheduler.create(d, Scheduler.Mode.STRIDE);
            s.addPage(1, 0.5);
            assertEquals(1, s.next());
            Arrivals.poisson(1);
        }
        System.gc();
        Thread.sleep(50);
        System.gc();
    }
}
