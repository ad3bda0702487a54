package dev.kruisevertx.manager;

import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.Set;

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

    @Test
    void oneCheckByNameAndUnknownNamesAreNotHealthy() {
        HealthChecks checks = new HealthChecks("readyz");
        checks.add("ping", () -> null);
        checks.add("webhook-ready", () -> "certificates not synced");
        assertEquals(Optional.of(new HealthChecks.Report(true, "ok")), checks.evaluateOne("ping"));
        assertEquals(Optional.of(new HealthChecks.Report(false, "internal server error: certificates not synced\n")),
                checks.evaluateOne("webhook-ready"));
        assertEquals(Optional.empty(), checks.evaluateOne("anything"));
    }

    @Test
    void excludedChecksCountAsPassing() {
        HealthChecks checks = new HealthChecks("readyz");
        checks.add("ping", () -> null);
        checks.add("webhook-ready", () -> "certificates not synced");
        HealthChecks.Report report = checks.evaluate(true, Set.of("webhook-ready", "nope"));
        assertTrue(report.healthy());
        assertEquals("[+]ping ok\n[+]webhook-ready excluded: ok\n"
                + "warn: some health checks cannot be excluded: no matches for \"nope\"\nreadyz check passed\n", report.body());
    }
}
