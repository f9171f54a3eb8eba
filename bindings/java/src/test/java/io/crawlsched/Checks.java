package io.crawlsched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.function.Executable;

/** Assertions shared by the tests. */
final class Checks {
    private Checks() {}

    static void near(String what, double got, double want, double tol) {
        if (Double.isNaN(got) || Math.abs(got - want) > tol) {
            fail(String.format("%s = %.17g, want %.17g (tol %g)", what, got, want, tol));
        }
    }

    /** The call fails with the status, a message, and the status name in getMessage(). */
    static CrawlschedException fails(String what, Status status, Executable call) {
        CrawlschedException e = assertThrows(CrawlschedException.class, call, what);
        assertEquals(status, e.status(), what + ": " + e.getMessage());
        assertEquals(status.code(), e.code(), what);
        assertFalse(e.detail().isEmpty(), what + ": empty message");
        assertTrue(e.getMessage().contains("CRAWLSCHED_" + status.name()), what + ": " + e.getMessage());
        return e;
    }
}
