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
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    void aShortSeededRunPasses() throws Exception {
        // The first 6 scenarios of the rotation however long they take: the in-process kill, the leader partition, the
        // manager process killed with SIGKILL, the API server restart, then a CloneSet with an inPlaceUpdate hook and
        // an Advanced StatefulSet with a preDelete hook, each under a fault class; about four minutes in all.
        Duration duration = Duration.ofSeconds(Long.getLong("kruise.reliability.seconds", 30));
        String only = System.getProperty("kruise.reliability.only");
        try (ReliabilitySuite suite = new ReliabilitySuite(new ReliabilitySuite.Options(duration, 7, 3, 0.2, only),
                System.out).atLeast(only == null ? 6 : 1)) {
            ReliabilityReport report = suite.run();
            System.out.println(report.toText());
            if (only == null) {
                List<String> ran = report.scenarios().stream().map(ReliabilityReport.ScenarioResult::name).toList();
                for (String kind : List.of(ReliabilitySuite.MANAGER_KILLED, ReliabilitySuite.LEADER_PARTITIONED,
                        ReliabilitySuite.PROCESS_KILLED, ReliabilitySuite.API_SERVER_RESTARTED)) {
                    assertTrue(ran.stream().anyMatch(n -> n.endsWith(kind)), "the " + kind + " scenario ran: " + ran);
                }
                assertTrue(ran.stream().anyMatch(n -> n.startsWith("CloneSet") && n.contains(" hook under ")),
                        "a hooked CloneSet rollout under a fault ran: " + ran);
                assertTrue(ran.stream().anyMatch(n -> n.startsWith("Advanced StatefulSet") && n.contains(" hook under ")),
                        "a hooked Advanced StatefulSet rollout under a fault ran: " + ran);
                assertTrue(report.faultsInjected() > 0, "faults were injected");
                assertTrue(report.hookReleases() > 0, "the hook handlers released held pods");
                // The takeover is judged against the lease: never before it ran out, at most one retry (with
                // fabric8's jitter) and a second of slack after.
                assertEquals(1, report.takeovers().size(), report.toText());
                for (long t : report.takeovers()) {
                    assertTrue(t >= ReliabilitySuite.LEASE.toMillis() - 500 && t <= ReliabilitySuite.TAKEOVER_BOUND.toMillis(),
                            "takeover " + t + " ms");
                }
            }
            assertEquals(0, report.totalViolations(), report.toText());
            assertEquals(0, report.lostOrDuplicatedPods(), report.toText());
            assertEquals(0, report.fencedWritesAfterExpiry(), report.toText());
            assertEquals(List.of(), report.hookViolations(), report.toText());
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
