package dev.kruisevertx.pub;

import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetSpec;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The status calculation as a table: desired, current, allowed and total for budgets and pod sets. */
class PubStatusCalculatorTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:01:00Z");

    static Pod pod(String name, String state) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready")
                .withStatus(state.equals("notready") ? "False" : "True").endCondition().endStatus();
        switch (state) {
            case "pending" -> b.editStatus().withPhase("Pending").endStatus();
            case "succeeded" -> b.editStatus().withPhase("Succeeded").endStatus();
            case "terminating" -> b.editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata();
            case "marked" -> b.editMetadata().addToLabels("unavailable-pod.kruise.io/maintenance", "true").endMetadata();
            case "inconsistent" -> b.editMetadata().addToLabels("test/inconsistent", "true").endMetadata();
            default -> { }
        }
        return b.build();
    }

    /** "ready:3,notready:1" -> pods p0.. in those states. */
    static List<Pod> pods(String spec) {
        List<Pod> out = new ArrayList<>();
        if (spec.isEmpty()) {
            return out;
        }
        for (String part : spec.split(",")) {
            String[] kv = part.split(":");
            for (int i = 0; i < Integer.parseInt(kv[1]); i++) {
                out.add(pod("p" + out.size(), kv[0]));
            }
        }
        return out;
    }

    static PodUnavailableBudget pub(String max, String min) {
        PodUnavailableBudget p = new PodUnavailableBudget();
        p.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("pub").build());
        PodUnavailableBudgetSpec s = new PodUnavailableBudgetSpec();
        s.setMaxUnavailable(max == null ? null : max.endsWith("%") ? new IntOrString(max)
                : new IntOrString(Integer.parseInt(max)));
        s.setMinAvailable(min == null ? null : min.endsWith("%") ? new IntOrString(min)
                : new IntOrString(Integer.parseInt(min)));
        p.setSpec(s);
        return p;
    }

    static Stream<Arguments> table() {
        return Stream.of(
                // name, max, min, expected, pods, desired, current, allowed
                Arguments.of("max 1 of 5 ready", "1", null, 5, "ready:5", 4, 5, 1),
                Arguments.of("max 0 allows nothing", "0", null, 3, "ready:3", 3, 3, 0),
                Arguments.of("max 30% of 10 rounds up to 3", "30%", null, 10, "ready:10", 7, 10, 3),
                Arguments.of("max 25% of 3 rounds up to 1", "25%", null, 3, "ready:3", 2, 3, 1),
                Arguments.of("max 100% desires nothing", "100%", null, 4, "ready:4", 0, 4, 4),
                Arguments.of("max above total floors desired at 0", "10", null, 4, "ready:4", 0, 4, 4),
                Arguments.of("min 2 of 3", null, "2", 3, "ready:3", 2, 3, 1),
                Arguments.of("min integer beyond total", null, "5", 3, "ready:3", 5, 3, 0),
                Arguments.of("min 50% of 5 rounds up to 3", null, "50%", 5, "ready:5", 3, 5, 2),
                Arguments.of("min 0%", null, "0%", 5, "ready:2", 0, 2, 2),
                Arguments.of("neither desires nothing", null, null, 3, "ready:3", 0, 3, 3),
                Arguments.of("not ready pods are not available", "1", null, 5, "ready:3,notready:2", 4, 3, 0),
                Arguments.of("pending pods are not available", "1", null, 4, "ready:3,pending:1", 3, 3, 0),
                Arguments.of("terminating pods are not counted", "1", null, 3, "ready:2,terminating:1", 2, 2, 0),
                Arguments.of("succeeded pods are not counted", "2", null, 4, "ready:3,succeeded:1", 2, 3, 1),
                Arguments.of("unavailable-pod label marks a pod unavailable", "2", null, 4, "ready:3,marked:1", 2, 3, 1),
                Arguments.of("inconsistent pods are not available", "1", null, 3, "ready:2,inconsistent:1", 2, 2, 0),
                Arguments.of("no pods", "1", null, 3, "", 2, 0, 0),
                Arguments.of("protect total replicas beyond the pods", "2", null, 10, "ready:5", 8, 5, 0),
                Arguments.of("scaled to zero", "1", null, 0, "", 0, 0, 0),
                Arguments.of("min 100% of 0", null, "100%", 0, "", 0, 0, 0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void calculates(String name, String max, String min, int expected, String pods, int desired, int current,
                    int allowed) {
        PubStatusCalculator.Result r = PubStatusCalculator.calculate(pub(max, min), pods(pods), expected,
                p -> !p.getMetadata().getLabels().containsKey("test/inconsistent"), NOW);
        assertEquals(List.of(desired, current, allowed, expected), List.of(r.desiredAvailable(), r.currentAvailable(),
                r.unavailableAllowed(), r.totalReplicas()));
    }

    private static PodUnavailableBudget withRecords(Map<String, String> disrupted, Map<String, String> unavailable) {
        PodUnavailableBudget p = pub("1", null);
        PodUnavailableBudgetStatus s = new PodUnavailableBudgetStatus();
        s.setDisruptedPods(disrupted);
        s.setUnavailablePods(unavailable);
        p.setStatus(s);
        return p;
    }

    @Test
    void recordedPodsAreNotAvailableUntilTheirRecordExpires() {
        // p0 disrupted 5s ago (kept 15s more), p1 disrupted 25s ago (expired), p2 updated 3s ago (kept 7s more),
        // p3 updated 11s ago (expired), p9 is not a pod of the budget any more.
        PodUnavailableBudget pub = withRecords(
                Map.of("p0", "2026-01-01T00:00:55Z", "p1", "2026-01-01T00:00:35Z", "p9", "2026-01-01T00:00:59Z"),
                Map.of("p2", "2026-01-01T00:00:57Z", "p3", "2026-01-01T00:00:49Z"));
        PubStatusCalculator.Result r = PubStatusCalculator.calculate(pub, pods("ready:5"), 5, p -> true, NOW);
        assertEquals(Map.of("p0", "2026-01-01T00:00:55Z"), r.disruptedPods());
        assertEquals(Map.of("p2", "2026-01-01T00:00:57Z"), r.unavailablePods());
        assertEquals(List.of("p1"), r.expiredDisruptions());
        assertEquals(3, r.currentAvailable());
        assertEquals(4, r.desiredAvailable());
        assertEquals(0, r.unavailableAllowed());
        assertEquals(Duration.ofSeconds(7), r.recheckIn());
    }

    @Test
    void recordsOfInactivePodsAreDropped() {
        PodUnavailableBudget pub = withRecords(Map.of("p2", "2026-01-01T00:00:59Z"), Map.of("p2", "2026-01-01T00:00:59Z"));
        PubStatusCalculator.Result r = PubStatusCalculator.calculate(pub, pods("ready:2,terminating:1"), 3,
                p -> true, NOW);
        assertEquals(Map.of(), r.disruptedPods());
        assertEquals(Map.of(), r.unavailablePods());
        assertEquals(null, r.recheckIn());
        assertEquals(2, r.currentAvailable());
    }

    @Test
    void aRecordOnItsDeadlineIsKept() {
        PodUnavailableBudget pub = withRecords(Map.of("p0", "2026-01-01T00:00:40Z"), Map.of("p1", "2026-01-01T00:00:50Z"));
        PubStatusCalculator.Result r = PubStatusCalculator.calculate(pub, pods("ready:2"), 2, p -> true, NOW);
        assertEquals(Map.of("p0", "2026-01-01T00:00:40Z"), r.disruptedPods());
        assertEquals(Map.of("p1", "2026-01-01T00:00:50Z"), r.unavailablePods());
        assertEquals(Duration.ZERO, r.recheckIn());
        assertEquals(0, r.currentAvailable());
    }

    @Test
    void aBadPercentIsAnErrorTheCallerReports() {
        assertThrows(IllegalArgumentException.class, () -> PubStatusCalculator.calculate(pub("x%", null),
                pods("ready:1"), 1, p -> true, NOW));
    }
}
