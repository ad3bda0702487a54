package dev.kruisevertx.manager;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HealthChecksTest {
    @Test
    void answersLikeControllerRuntime() {
        HealthChecks checks = new HealthChecks("readyz");
        checks.add("ping", () -> null);
        assertEquals(new HealthChecks.Report(true, "ok"), checks.evaluate(false));
        assertEquals("[+]ping ok\nreadyz check passed\n", checks.evaluate(true).body());

        checks.add("webhook-ready", () -> "certificates not synced");
        HealthChecks.Report report = checks.evaluate(false);
        assertFalse(report.healthy());
        assertEquals("[+]ping ok\n[-]webhook-ready failed: certificates not synced\nreadyz check failed\n", report.body());
    }

    @Test
    void aThrowingCheckFailsInsteadOfCrashing() {
        HealthChecks checks = new HealthChecks("healthz");
        checks.add("boom", () -> {
            throw new IllegalStateException("broken");
        });
        HealthChecks.Report report = checks.evaluate(false);
        assertFalse(report.healthy());
        assertTrue(report.body().contains("[-]boom failed: java.lang.IllegalStateException: broken"));
    }
}
