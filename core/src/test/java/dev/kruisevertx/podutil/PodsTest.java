package dev.kruisevertx.podutil;

import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodsTest {
    private static final Instant NOW = Instant.parse("2026-01-01T00:01:00Z");

    private static Pod ready(String status, String since) {
        return new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec().endSpec().withNewStatus()
                .withPhase("Running").addNewCondition().withType("Ready").withStatus(status)
                .withLastTransitionTime(since).endCondition().endStatus().build();
    }

    @Test
    void readiness() {
        assertTrue(Pods.isReady(ready("True", "2026-01-01T00:00:00Z")));
        assertTrue(Pods.isRunningAndReady(ready("True", "2026-01-01T00:00:00Z")));
        assertFalse(Pods.isReady(ready("False", "2026-01-01T00:00:00Z")));
        assertFalse(Pods.isReady(new Pod()));
        assertFalse(Pods.isReady(null));
    }

    @ParameterizedTest(name = "ready since {0}, minReadySeconds {1} -> available {2}")
    @CsvSource({
            "2026-01-01T00:00:00Z, 0, true",
            "2026-01-01T00:00:00Z, 59, true",
            "2026-01-01T00:00:00Z, 60, false",
            "2026-01-01T00:00:30Z, 60, false",
            "'', 10, false"})
    void availability(String since, int minReadySeconds, boolean available) {
        assertEquals(available, Pods.isAvailable(ready("True", since), minReadySeconds, NOW));
    }

    @Test
    void availableInTellsWhenToLookAgain() {
        Pod p = ready("True", "2026-01-01T00:00:30Z");
        assertEquals(Optional.of(Duration.ofSeconds(31)), Pods.availableIn(p, 60, NOW));
        assertEquals(Optional.of(Duration.ZERO), Pods.availableIn(p, 0, NOW));
        assertEquals(Optional.empty(), Pods.availableIn(ready("False", "2026-01-01T00:00:00Z"), 5, NOW));
    }

    @Test
    void nextAvailableInIsTheEarliestPendingAvailability() {
        Pod soon = ready("True", "2026-01-01T00:00:50Z");
        Pod later = ready("True", "2026-01-01T00:00:58Z");
        Pod available = ready("True", "2026-01-01T00:00:00Z");
        Pod notReady = ready("False", "2026-01-01T00:00:59Z");
        // soon: available after 00:01:00 (strictly), so one second past the boundary.
        assertEquals(Duration.ofSeconds(1), Pods.nextAvailableIn(java.util.List.of(later, soon, available, notReady),
                10, NOW));
        assertEquals(Duration.ofSeconds(9), Pods.nextAvailableIn(java.util.List.of(later, available), 10, NOW));
        assertEquals(Duration.ZERO, Pods.nextAvailableIn(java.util.List.of(available, notReady), 10, NOW),
                "nothing changes by waiting");
        assertEquals(Duration.ZERO, Pods.nextAvailableIn(java.util.List.of(soon, later), 0, NOW));
    }

    @Test
    void terminatingActiveAssigned() {
        Pod p = new PodBuilder().withNewMetadata().withName("p").withDeletionTimestamp("2026-01-01T00:00:00Z")
                .endMetadata().withNewSpec().withNodeName("n1").endSpec().build();
        assertTrue(Pods.isTerminating(p));
        assertFalse(Pods.isActive(p));
        assertTrue(Pods.isAssigned(p));
        Pod done = new PodBuilder().withNewMetadata().withName("d").endMetadata().withNewStatus().withPhase("Succeeded")
                .endStatus().build();
        assertFalse(Pods.isActive(done));
        assertFalse(Pods.isAssigned(done));
        assertTrue(Pods.isActive(ready("True", "")));
    }

    @Test
    void controllerOfFindsTheControllingOwner() {
        Pod p = new PodBuilder().withNewMetadata().withName("p")
                .addNewOwnerReference().withUid("a").withKind("Foo").withName("f").withController(false).endOwnerReference()
                .addNewOwnerReference().withUid("b").withKind("CloneSet").withName("c").withController(true).endOwnerReference()
                .endMetadata().build();
        assertEquals("b", Pods.controllerOf(p).orElseThrow().getUid());
        assertTrue(Pods.isControlledBy(p, "b"));
        assertFalse(Pods.isControlledBy(p, "a"));
        assertEquals(Optional.empty(), Pods.controllerOf(new Pod()));
    }

    @Test
    void specifiedDelete() {
        Pod p = ready("True", "");
        assertFalse(SpecifiedDelete.isSpecifiedDelete(p));
        Pod marked = SpecifiedDelete.mark(p, "true");
        assertTrue(SpecifiedDelete.isSpecifiedDelete(marked));
        assertFalse(SpecifiedDelete.isSpecifiedDelete(p));
        assertSame(marked, SpecifiedDelete.mark(marked, "true"));
        Pod anyValue = new PodBuilder(p).editMetadata().addToLabels(WellKnown.SPECIFIED_DELETE_LABEL, "").endMetadata().build();
        assertTrue(Pods.isSpecifiedDelete(anyValue));
        assertEquals("{\"metadata\":{\"labels\":{\"apps.kruise.io/specified-delete\":\"true\"}}}", SpecifiedDelete.patch("true"));
    }

    @ParameterizedTest(name = "cost \"{0}\" -> {1}")
    @CsvSource({"100, 100", "-5, -5", "+7, 7", "abc, 0", "2147483648, 0", "' 1', 0"})
    void deletionCost(String value, int expected) {
        Pod p = new PodBuilder().withNewMetadata().withName("p")
                .addToAnnotations(WellKnown.POD_DELETION_COST_ANNOTATION, value).endMetadata().build();
        assertEquals(expected, PodDeletionCost.of(p));
    }

    @Test
    void deletionCostStrictParseAndDefault() {
        assertEquals(0, PodDeletionCost.of(new Pod()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> PodDeletionCost.parse("x"));
        assertTrue(e.getMessage().contains(WellKnown.POD_DELETION_COST_ANNOTATION));
    }

    @Test
    void labelSelectors() {
        LabelSelector sel = new LabelSelectorBuilder().withMatchLabels(Map.of("app", "a"))
                .addNewMatchExpression().withKey("tier").withOperator("In").withValues("web", "api").endMatchExpression()
                .addNewMatchExpression().withKey("canary").withOperator("DoesNotExist").endMatchExpression()
                .build();
        assertTrue(LabelSelectors.matches(sel, Map.of("app", "a", "tier", "web")));
        assertFalse(LabelSelectors.matches(sel, Map.of("app", "a", "tier", "db")));
        assertFalse(LabelSelectors.matches(sel, Map.of("app", "a", "tier", "web", "canary", "1")));
        assertFalse(LabelSelectors.matches(sel, null));
        assertTrue(LabelSelectors.matches(new LabelSelector(), Map.of()), "empty selector matches everything");
        assertFalse(LabelSelectors.matches(null, Map.of()), "null selector matches nothing");
        LabelSelector notIn = new LabelSelectorBuilder().addNewMatchExpression().withKey("k").withOperator("NotIn")
                .withValues("x").endMatchExpression().addNewMatchExpression().withKey("e").withOperator("Exists")
                .endMatchExpression().build();
        assertTrue(LabelSelectors.matches(notIn, Map.of("e", "")));
        assertFalse(LabelSelectors.matches(notIn, Map.of("e", "", "k", "x")));
        LabelSelector bad = new LabelSelectorBuilder().addNewMatchExpression().withKey("k").withOperator("In")
                .endMatchExpression().build();
        assertThrows(IllegalArgumentException.class, () -> LabelSelectors.compile(bad));
        LabelSelector unknown = new LabelSelectorBuilder().addNewMatchExpression().withKey("k").withOperator("Gt")
                .withValues("1").endMatchExpression().build();
        assertThrows(IllegalArgumentException.class, () -> LabelSelectors.compile(unknown));
    }

    @Test
    void conditionsKeepTransitionTimeWhenStatusIsUnchanged() {
        PodStatus status = new PodStatus();
        assertTrue(PodConditions.set(status, PodConditions.of("X", "False", "A", null, NOW)));
        assertFalse(PodConditions.set(status, PodConditions.of("X", "False", "B", null, NOW.plusSeconds(1))));
        assertEquals("A", PodConditions.get(status, "X").getReason());
        assertTrue(PodConditions.set(status, PodConditions.of("X", "True", null, null, NOW.plusSeconds(2))));
        assertEquals("2026-01-01T00:01:02Z", PodConditions.get(status, "X").getLastTransitionTime());
    }

    @Test
    void readyIsRecomputedFromReadinessGates() {
        Pod p = new PodBuilder().withNewSpec().addNewReadinessGate("G1").addNewReadinessGate("G2").endSpec()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition()
                .addNewCondition().withType("ContainersReady").withStatus("True").endCondition()
                .addNewCondition().withType("G1").withStatus("False").endCondition().endStatus().build();
        assertTrue(PodConditions.recomputeReady(p.getSpec(), p.getStatus(), NOW));
        assertEquals("False", PodConditions.get(p.getStatus(), "Ready").getStatus());
        assertEquals(PodConditions.READINESS_GATES_NOT_READY_REASON, PodConditions.get(p.getStatus(), "Ready").getReason());
        assertTrue(PodConditions.get(p.getStatus(), "Ready").getMessage().contains("\"G2\" does not exist"));
    }

    @Test
    void kruisePodReadinessKeys() {
        Pod p = new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec()
                .addNewReadinessGate(WellKnown.KRUISE_POD_READY_CONDITION).endSpec().build();
        KruisePodReadiness.Message b = new KruisePodReadiness.Message("Lifecycle", "b");
        KruisePodReadiness.Message a = new KruisePodReadiness.Message("Lifecycle", "a");
        Pod one = KruisePodReadiness.addNotReadyKey(p, b, NOW);
        Pod two = KruisePodReadiness.addNotReadyKey(one, a, NOW);
        assertSame(two, KruisePodReadiness.addNotReadyKey(two, a, NOW));
        assertEquals("[{\"userAgent\":\"Lifecycle\",\"key\":\"a\"},{\"userAgent\":\"Lifecycle\",\"key\":\"b\"}]",
                Pods.condition(two, WellKnown.KRUISE_POD_READY_CONDITION).orElseThrow().getMessage());
        Pod stillHeld = KruisePodReadiness.removeNotReadyKey(two, b, NOW);
        assertEquals("False", Pods.condition(stillHeld, WellKnown.KRUISE_POD_READY_CONDITION).orElseThrow().getStatus());
        Pod free = KruisePodReadiness.removeNotReadyKey(stillHeld, a, NOW);
        assertEquals("True", Pods.condition(free, WellKnown.KRUISE_POD_READY_CONDITION).orElseThrow().getStatus());
        assertSame(free, KruisePodReadiness.removeNotReadyKey(free, a, NOW));
        assertTrue(Pods.condition(p, WellKnown.KRUISE_POD_READY_CONDITION).isEmpty(), "input untouched");
    }

    /**
     * The one availability rule every workload shares (it replaced CloneSet's own copy, which counted a pod ready for
     * exactly minReadySeconds as available): ready time plus minReadySeconds must be strictly before now.
     */
    @Test
    void availabilityAtTheBoundaryIsKubernetesStrictRule() {
        Pod readyExactlyMinReadySecondsAgo = ready("True", "2026-01-01T00:00:00Z");
        assertFalse(Pods.isAvailable(readyExactlyMinReadySecondsAgo, 60, NOW));
        assertFalse(Pods.isUpdateReady(readyExactlyMinReadySecondsAgo, 60, NOW));
        assertFalse(Pods.isServing(readyExactlyMinReadySecondsAgo, 60, NOW));
        assertTrue(Pods.isAvailable(readyExactlyMinReadySecondsAgo, 60, NOW.plusMillis(1)));
        assertTrue(Pods.isServing(readyExactlyMinReadySecondsAgo, 60, NOW.plusSeconds(1)));
    }

    @Test
    void revisionLabelsMatchInLongAndShortForm() {
        Pod p = new PodBuilder().withNewMetadata().withName("p")
                .addToLabels("controller-revision-hash", "web-7c9d").endMetadata().build();
        assertTrue(Pods.atRevision(p, "web-7c9d"));
        assertTrue(Pods.atRevision(p, "7c9d"));
        assertFalse(Pods.atRevision(p, "web-8f00"));
        assertEquals("7c9d", Pods.shortHash("web-7c9d"));
        assertEquals("", Pods.lifecycleState(p));
        assertFalse(Pods.isPreparingDelete(p));
    }

    @Test
    void aNullConditionEntryIsSkipped() {
        // Hostile admission input ("conditions":[null,...]) made /validate-pod answer 500.
        Pod pod = new PodBuilder().withNewStatus().withPhase("Running").endStatus().build();
        pod.getStatus().setConditions(new java.util.ArrayList<>(java.util.Arrays.asList(null,
                new io.fabric8.kubernetes.api.model.PodConditionBuilder().withType("Ready").withStatus("True").build())));
        assertTrue(Pods.isReady(pod));
        assertTrue(Pods.condition(pod, "Ready").isPresent());
    }
}
