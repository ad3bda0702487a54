package dev.kruisevertx.lifecycle;

import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.KruisePodReadiness;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LifecyclesTest {
    static final Instant T0 = Instant.parse("2026-05-01T10:00:00Z");

    static LifecycleHook hook(Map<String, String> labels, List<String> finalizers, boolean markNotReady) {
        LifecycleHook h = new LifecycleHook();
        h.setLabelsHandler(labels);
        h.setFinalizersHandler(finalizers);
        h.setMarkPodNotReady(markNotReady);
        return h;
    }

    static Pod pod(String state, Map<String, String> labels, List<String> finalizers, boolean kruiseGate) {
        Map<String, String> l = new LinkedHashMap<>(labels);
        if (state != null) {
            l.put(WellKnown.LIFECYCLE_STATE_LABEL, state);
        }
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").withLabels(l)
                .withFinalizers(finalizers).endMetadata().withNewSpec().endSpec();
        if (kruiseGate) {
            b.editSpec().addNewReadinessGate(WellKnown.KRUISE_POD_READY_CONDITION).endSpec();
        }
        return b.build();
    }

    static Pod pod(String state) {
        return pod(state, Map.of(), List.of(), false);
    }

    static Stream<Arguments> states() {
        return Stream.of(
                Arguments.of("PreparingNormal", Optional.of(LifecycleState.PREPARING_NORMAL)),
                Arguments.of("Normal", Optional.of(LifecycleState.NORMAL)),
                Arguments.of("PreparingUpdate", Optional.of(LifecycleState.PREPARING_UPDATE)),
                Arguments.of("Updating", Optional.of(LifecycleState.UPDATING)),
                Arguments.of("Updated", Optional.of(LifecycleState.UPDATED)),
                Arguments.of("PreparingDelete", Optional.of(LifecycleState.PREPARING_DELETE)),
                Arguments.of("Bogus", Optional.empty()),
                Arguments.of(null, Optional.empty()));
    }

    @ParameterizedTest(name = "state {0}")
    @MethodSource("states")
    void readsTheStateLabel(String label, Optional<LifecycleState> expected) {
        assertEquals(expected, Lifecycles.stateOf(pod(label)));
        assertEquals(label == null ? "" : label, Lifecycles.rawStateOf(pod(label)));
    }

    @Test
    void podWithoutMetadataHasNoState() {
        assertEquals(Optional.empty(), Lifecycles.stateOf(new Pod()));
        assertEquals(Optional.empty(), Lifecycles.stateOf(null));
    }

    /** hook, pod labels, pod finalizers, isHookedBy (any), isAllHookedBy (all). */
    static Stream<Arguments> hooks() {
        String f = "kruise.io/unready-blocker";
        return Stream.of(
                Arguments.of("finalizer present", hook(null, List.of(f), false), Map.of(), List.of(f), true, true),
                Arguments.of("label present", hook(Map.of(f, "true"), null, false), Map.of(f, "true"), List.of(), true, true),
                Arguments.of("both present", hook(Map.of(f, "true"), List.of(f), false), Map.of(f, "true"), List.of(f), true, true),
                Arguments.of("neither present", hook(Map.of(f, "true"), List.of(f), false), Map.of(f + "-other", "true"),
                        List.of(f + "-other"), false, false),
                Arguments.of("one of two finalizers", hook(null, List.of(f + "-a", f + "-b"), false), Map.of(),
                        List.of(f + "-a"), true, false),
                Arguments.of("label value differs", hook(Map.of(f, "true"), null, false), Map.of(f, "false"), List.of(),
                        false, false),
                Arguments.of("label but not finalizer", hook(Map.of(f, "true"), List.of(f), false), Map.of(f, "true"),
                        List.of(), true, false),
                Arguments.of("empty hook, busy pod", hook(null, null, false), Map.of(f, "true"), List.of(f), false, true),
                Arguments.of("empty hook, empty pod", hook(null, null, false), Map.of(), List.of(), false, true),
                Arguments.of("empty handler value matches a missing label", hook(Map.of("x", ""), null, false), Map.of(),
                        List.of(), true, true));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hooks")
    void matchesHooks(String name, LifecycleHook hook, Map<String, String> labels, List<String> finalizers,
                      boolean any, boolean all) {
        Pod p = pod("Normal", labels, finalizers, false);
        assertEquals(any, Lifecycles.isHookedBy(hook, p));
        assertEquals(all, Lifecycles.isAllHookedBy(hook, p));
    }

    @Test
    void nullHookOrPodIsNeverHooked() {
        assertFalse(Lifecycles.isHookedBy(null, pod("Normal")));
        assertFalse(Lifecycles.isHookedBy(hook(null, null, false), null));
        assertFalse(Lifecycles.isAllHookedBy(null, pod("Normal")));
        assertFalse(Lifecycles.isAllHookedBy(hook(null, null, false), null));
    }

    static Stream<Arguments> markFlags() {
        Lifecycle none = new Lifecycle();
        Lifecycle preDelete = new Lifecycle();
        preDelete.setPreDelete(hook(null, null, true));
        Lifecycle inPlace = new Lifecycle();
        inPlace.setInPlaceUpdate(hook(null, null, true));
        Lifecycle both = new Lifecycle();
        both.setPreDelete(hook(null, null, true));
        both.setInPlaceUpdate(hook(null, null, true));
        Lifecycle neither = new Lifecycle();
        neither.setPreDelete(hook(null, null, false));
        neither.setInPlaceUpdate(hook(null, null, false));
        Lifecycle preNormalOnly = new Lifecycle();
        preNormalOnly.setPreNormal(hook(null, null, true));
        return Stream.of(Arguments.of("null", null, false), Arguments.of("no hooks", none, false),
                Arguments.of("preDelete", preDelete, true), Arguments.of("inPlaceUpdate", inPlace, true),
                Arguments.of("both", both, true), Arguments.of("both off", neither, false),
                Arguments.of("preNormal does not count", preNormalOnly, false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("markFlags")
    void lifecycleMarksPodNotReady(String name, Lifecycle lifecycle, boolean expected) {
        assertEquals(expected, Lifecycles.isLifecycleMarkPodNotReady(lifecycle));
    }

    @Test
    void withStateWritesLabelAndTimestampOnACopy() {
        Pod p = pod("PreparingNormal");
        String before = ApiJson.toJson(p);
        LifecycleChange c = Lifecycles.withState(p, LifecycleState.NORMAL, T0, false);
        assertEquals(before, ApiJson.toJson(p));
        assertTrue(c.metadataChanged());
        assertFalse(c.statusChanged());
        assertEquals("Normal", Pods.label(c.pod(), WellKnown.LIFECYCLE_STATE_LABEL));
        assertEquals("2026-05-01T10:00:00Z", Pods.annotations(c.pod()).get(WellKnown.LIFECYCLE_TIMESTAMP_LABEL));

        LifecycleChange same = Lifecycles.withState(c.pod(), LifecycleState.NORMAL, T0.plusSeconds(5), false);
        assertFalse(same.changed());
        assertSame(c.pod(), same.pod());
    }

    @Test
    void markPodNotReadyFollowsTheStates() {
        Pod p = pod("Normal", Map.of(), List.of(), true);

        LifecycleChange preparing = Lifecycles.withState(p, LifecycleState.PREPARING_UPDATE, T0, true);
        assertTrue(preparing.statusChanged());
        assertTrue(preparing.metadataChanged());
        assertEquals("False", Pods.condition(preparing.pod(), WellKnown.KRUISE_POD_READY_CONDITION).orElseThrow().getStatus());
        assertEquals("[{\"userAgent\":\"Lifecycle\",\"key\":\"preUpdateHook\"}]",
                Pods.condition(preparing.pod(), WellKnown.KRUISE_POD_READY_CONDITION).orElseThrow().getMessage());
        assertFalse(Lifecycles.isKruisePodReady(preparing.pod()));

        LifecycleChange updating = Lifecycles.withState(preparing.pod(), LifecycleState.UPDATING, T0, true);
        assertFalse(updating.statusChanged(), "Updating keeps the pod out of service");
        assertFalse(Lifecycles.isKruisePodReady(updating.pod()));

        LifecycleChange updated = Lifecycles.withState(updating.pod(), LifecycleState.UPDATED, T0, true);
        assertTrue(updated.statusChanged());
        assertTrue(Lifecycles.isKruisePodReady(updated.pod()));
        assertEquals("[]", Pods.condition(updated.pod(), WellKnown.KRUISE_POD_READY_CONDITION).orElseThrow().getMessage());
    }

    @Test
    void normalReleasesEveryLifecycleKey() {
        Pod p = pod("Normal", Map.of(), List.of(), true);
        Pod deleting = Lifecycles.withState(p, LifecycleState.PREPARING_DELETE, T0, true).pod();
        Pod other = KruisePodReadiness.addNotReadyKey(deleting, new KruisePodReadiness.Message("ContainerRecreateRequest", "x"), T0);
        LifecycleChange back = Lifecycles.withState(other, LifecycleState.NORMAL, T0, true);
        assertTrue(back.statusChanged());
        assertEquals(List.of(new KruisePodReadiness.Message("ContainerRecreateRequest", "x")),
                KruisePodReadiness.notReadyKeys(back.pod()));
        assertFalse(Lifecycles.isKruisePodReady(back.pod()), "another component still holds the pod");
    }

    @Test
    void podsWithoutTheGateAreNotMarked() {
        Pod p = pod("Normal");
        LifecycleChange c = Lifecycles.withState(p, LifecycleState.PREPARING_DELETE, T0, true);
        assertFalse(c.statusChanged());
        assertTrue(Lifecycles.isKruisePodReady(c.pod()));
    }

    @Test
    void withHandlerPutsTheHookBack() {
        LifecycleHook h = hook(Map.of("hold", "true"), List.of("example.com/hold"), false);
        Pod p = pod("Updated", Map.of("app", "x"), List.of("other"), false);
        LifecycleChange c = Lifecycles.withStateAndHandler(p, LifecycleState.PREPARING_UPDATE, h, T0);
        assertTrue(c.metadataChanged());
        assertEquals("PreparingUpdate", Pods.label(c.pod(), WellKnown.LIFECYCLE_STATE_LABEL));
        assertEquals("true", Pods.label(c.pod(), "hold"));
        assertEquals(List.of("other", "example.com/hold"), c.pod().getMetadata().getFinalizers());
        assertEquals(List.of("other"), p.getMetadata().getFinalizers());
        assertFalse(Lifecycles.withStateAndHandler(p, LifecycleState.PREPARING_UPDATE, null, T0).changed());
        LifecycleChange again = Lifecycles.withStateAndHandler(c.pod(), LifecycleState.PREPARING_UPDATE, h, T0);
        assertFalse(again.changed());
    }

    @Test
    void setStateOnAPodBeingCreated() {
        Pod p = new PodBuilder().withNewMetadata().withName("n").endMetadata().build();
        Lifecycles.setState(p.getMetadata(), LifecycleTransitions.initialState(), T0);
        assertEquals("PreparingNormal", Pods.label(p, WellKnown.LIFECYCLE_STATE_LABEL));
        assertNull(Pods.label(p, WellKnown.LIFECYCLE_TIMESTAMP_LABEL), "the timestamp is an annotation");
    }
}
