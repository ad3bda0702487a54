package dev.kruisevertx.reliability;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The short seeded run CI does: faults injected, every scenario converged, no invariant broken. */
class ReliabilitySuiteTest {
    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void aShortSeededRunPasses() throws Exception {
        // 100 s: the kill and the leader partition (first in the rotation) and then a few fault-class rollouts,
        // both Advanced StatefulSet variants among them; about two minutes in all.
        Duration duration = Duration.ofSeconds(Long.getLong("kruise.reliability.seconds", 100));
        try (ReliabilitySuite suite = new ReliabilitySuite(new ReliabilitySuite.Options(duration, 7, 3, 0.2,
                System.getProperty("kruise.reliability.only")), System.out)) {
            ReliabilityReport report = suite.run();
            System.out.println(report.toText());
            assertTrue(report.faultsInjected() > 0, "faults were injected");
            if (System.getProperty("kruise.reliability.only") == null) {
                List<String> ran = report.scenarios().stream().map(ReliabilityReport.ScenarioResult::name).toList();
                assertTrue(ran.stream().anyMatch(n -> n.endsWith(ReliabilitySuite.MANAGER_KILLED)),
                        "the manager-kill scenario ran: " + ran);
                assertTrue(ran.stream().anyMatch(n -> n.endsWith(ReliabilitySuite.LEADER_PARTITIONED)),
                        "the leader-partition scenario ran: " + ran);
                assertTrue(ran.size() >= 3, "fault-class rollouts ran too: " + ran);
            }
            assertEquals(0, report.totalViolations(), report.toText());
            assertEquals(0, report.lostOrDuplicatedPods(), report.toText());
            assertEquals(0, report.fencedWritesAfterExpiry(), report.toText());
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
        IllegalArgumentException only = assertThrows(IllegalArgumentException.class, () -> {
            try (ReliabilitySuite s = new ReliabilitySuite(new ReliabilitySuite.Options(Duration.ofSeconds(1), 1, 3,
                    0.2, "no such scenario"), System.out)) {
                s.run();
            }
        });
        assertTrue(only.getMessage().contains("--only") && only.getMessage().contains(ReliabilitySuite.LEADER_PARTITIONED),
                only.getMessage());
    }
}
