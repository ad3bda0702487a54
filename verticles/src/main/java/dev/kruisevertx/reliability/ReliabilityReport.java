package dev.kruisevertx.reliability;

import dev.kruisevertx.sim.faults.FaultClass;
import dev.kruisevertx.sim.invariants.Violation;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What a reliability run did and saw: the figures the issue asks for, printable as text. */
public final class ReliabilityReport {
    /** One scenario run: its name, whether it converged, and the time it took to (ms, from the disruption). */
    public record ScenarioResult(String name, boolean converged, long recoveryMillis, String detail) {
    }

    final long seed;
    long elapsedMillis;
    final Map<FaultClass, Long> faults = new EnumMap<>(FaultClass.class);
    long proxiedRequests;
    long forwardedRequests;
    final List<ScenarioResult> scenarios = new ArrayList<>();
    Map<String, Long> violationCounts = new LinkedHashMap<>();
    List<Violation> violations = List.of();
    long podEvents;
    long workloadEvents;
    long fencedWritesAfterExpiry;
    long lostOrDuplicatedPods;
    /** Holds of lifecycle hooks the test's hook handlers released, and pods the manager acted on while held. */
    long hookReleases;
    final List<String> hookViolations = new ArrayList<>();
    /** Leader takeovers: ms from the old leader's last lease renewal to the standby's acquisition. */
    final List<Long> takeovers = new ArrayList<>();

    ReliabilityReport(long seed) {
        this.seed = seed;
        for (FaultClass f : FaultClass.values()) {
            faults.put(f, 0L);
        }
    }

    void addFaults(Map<FaultClass, Long> counts, long requests, long forwarded) {
        counts.forEach((k, v) -> faults.merge(k, v, Long::sum));
        proxiedRequests += requests;
        forwardedRequests += forwarded;
    }

    public List<ScenarioResult> scenarios() {
        return List.copyOf(scenarios);
    }

    public List<Violation> violations() {
        return violations;
    }

    public long totalViolations() {
        return violationCounts.values().stream().mapToLong(Long::longValue).sum();
    }

    public long fencedWritesAfterExpiry() {
        return fencedWritesAfterExpiry;
    }

    public long lostOrDuplicatedPods() {
        return lostOrDuplicatedPods;
    }

    public List<String> hookViolations() {
        return List.copyOf(hookViolations);
    }

    public long hookReleases() {
        return hookReleases;
    }

    public List<Long> takeovers() {
        return List.copyOf(takeovers);
    }

    public long failedScenarios() {
        return scenarios.stream().filter(s -> !s.converged()).count();
    }

    public long faultsInjected() {
        return faults.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Zero violations, zero lost or duplicated pods, no write after a lost lease, every scenario converged. */
    public boolean passed() {
        return totalViolations() == 0 && lostOrDuplicatedPods == 0 && fencedWritesAfterExpiry == 0
                && hookViolations.isEmpty() && failedScenarios() == 0 && !scenarios.isEmpty();
    }

    public String toText() {
        StringBuilder b = new StringBuilder();
        b.append("reliability run: seed ").append(seed).append(", ").append(elapsedMillis / 1000).append(" s\n");
        b.append("\nfaults injected (").append(faultsInjected()).append(" of ").append(proxiedRequests)
                .append(" proxied requests, ").append(forwardedRequests).append(" forwarded):\n");
        faults.forEach((k, v) -> b.append(String.format("  %-18s %8d%n", k, v)));
        b.append("\nscenarios (").append(scenarios.size()).append(", ").append(failedScenarios())
                .append(" did not converge):\n");
        Map<String, List<ScenarioResult>> byKind = new LinkedHashMap<>();
        for (ScenarioResult s : scenarios) {
            byKind.computeIfAbsent(s.name().replaceAll(" #\\d+$", ""), k -> new ArrayList<>()).add(s);
        }
        b.append(String.format("  %-80s %5s %5s %9s %9s%n", "scenario", "runs", "ok", "mean s", "max s"));
        byKind.forEach((name, runs) -> {
            long ok = runs.stream().filter(ScenarioResult::converged).count();
            double mean = runs.stream().filter(ScenarioResult::converged).mapToLong(ScenarioResult::recoveryMillis)
                    .average().orElse(0) / 1000.0;
            double max = runs.stream().mapToLong(ScenarioResult::recoveryMillis).max().orElse(0) / 1000.0;
            b.append(String.format("  %-80s %5d %5d %9.1f %9.1f%n", name, runs.size(), ok, mean, max));
        });
        for (ScenarioResult s : scenarios) {
            if (!s.converged() || !s.detail().isEmpty()) {
                b.append("  - ").append(s.name()).append(s.converged() ? ": " : " (did not converge): ")
                        .append(s.detail()).append('\n');
            }
        }
        b.append("\ninvariants (").append(podEvents).append(" pod events, ").append(workloadEvents)
                .append(" workload events watched):\n");
        violationCounts.forEach((k, v) -> b.append(String.format("  %-26s %6d violations%n", k, v)));
        violations.stream().limit(20).forEach(v -> b.append("  - ").append(v).append('\n'));
        b.append("\nlifecycle hooks: ").append(hookReleases).append(" holds released by the hook handlers, ")
                .append(hookViolations.size()).append(" pods acted on while held\n");
        hookViolations.stream().limit(20).forEach(v -> b.append("  - ").append(v).append('\n'));
        if (!takeovers.isEmpty()) {
            b.append(String.format("leader takeovers (old leader's last lease renewal to the standby's acquisition, "
                            + "bound %d-%d ms): %d, min %d ms, max %d ms%n", ReliabilitySuite.LEASE.toMillis() - 500,
                    ReliabilitySuite.TAKEOVER_BOUND.toMillis(), takeovers.size(),
                    takeovers.stream().mapToLong(Long::longValue).min().orElse(0),
                    takeovers.stream().mapToLong(Long::longValue).max().orElse(0)));
        }
        b.append("\nlost or duplicated pods: ").append(lostOrDuplicatedPods).append('\n');
        b.append("writes by a deposed leader after its lease expired: ").append(fencedWritesAfterExpiry).append('\n');
        b.append("\nresult: ").append(passed() ? "PASS" : "FAIL").append('\n');
        return b.toString();
    }
}
