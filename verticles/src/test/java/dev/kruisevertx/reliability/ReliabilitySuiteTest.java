package dev.kruisevertx.reliability;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The short seeded run CI does: faults injected, every scenario converged, no invariant broken. */
class ReliabilitySuiteTest {
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void aShortSeededRunPasses() throws Exception {
        Duration duration = Duration.ofSeconds(Long.getLong("kruise.reliability.seconds", 90));
        try (ReliabilitySuite suite = new ReliabilitySuite(new ReliabilitySuite.Options(duration, 7, 3, 0.2), System.out)) {
            ReliabilityReport report = suite.run();
            System.out.println(report.toText());
            assertTrue(report.faultsInjected() > 0, "faults were injected");
            assertTrue(report.scenarios().size() >= 2, "scenarios ran");
            assertEquals(0, report.totalViolations(), report.toText());
            assertTrue(report.passed(), report.toText());
        }
    }

    @Test
    void badFlagsSayWhatIsWrong() {
        assertEquals(Duration.ofMinutes(10), ReliabilityCommand.parseDuration("10m"));
        assertEquals(Duration.ofSeconds(90), ReliabilityCommand.parseDuration("90s"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ReliabilityCommand.parseDuration("ten"));
        assertTrue(e.getMessage().contains("--duration"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ReliabilitySuite.Options(Duration.ofSeconds(1), 1, 3, 1.5));
    }
}
