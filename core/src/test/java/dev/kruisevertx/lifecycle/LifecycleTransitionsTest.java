package dev.kruisevertx.lifecycle;

import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.lifecycle.LifecycleTransitions.DeleteStep;
import dev.kruisevertx.lifecycle.LifecycleTransitions.InPlaceStep;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static dev.kruisevertx.lifecycle.LifecyclesTest.hook;
import static dev.kruisevertx.lifecycle.LifecyclesTest.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

class LifecycleTransitionsTest {
    private static final Map<String, String> HOLD = Map.of("hold", "true");

    private static Lifecycle lifecycle(LifecycleHook preNormal, LifecycleHook inPlace, LifecycleHook preDelete) {
        Lifecycle l = new Lifecycle();
        l.setPreNormal(preNormal);
        l.setInPlaceUpdate(inPlace);
        l.setPreDelete(preDelete);
        return l;
    }

    private static final LifecycleHook HOOK = hook(HOLD, null, false);

    /** state, pod labels, lifecycle, atUpdateRevision, completed -> expected next state. */
    static Stream<Arguments> refresh() {
        Lifecycle none = null;
        Lifecycle empty = lifecycle(null, null, null);
        Lifecycle preNormal = lifecycle(HOOK, null, null);
        Lifecycle inPlace = lifecycle(null, HOOK, null);
        Map<String, String> hooked = HOLD;
        Map<String, String> released = Map.of();
        return Stream.of(
                Arguments.of("PreparingNormal, no lifecycle", "PreparingNormal", released, none, false, false, "Normal"),
                Arguments.of("PreparingNormal, no preNormal hook", "PreparingNormal", released, inPlace, false, false, "Normal"),
                Arguments.of("PreparingNormal, hook not yet satisfied", "PreparingNormal", released, preNormal, false, false, null),
                Arguments.of("PreparingNormal, hook satisfied", "PreparingNormal", hooked, preNormal, false, false, "Normal"),
                Arguments.of("Normal stays", "Normal", released, inPlace, true, true, null),
                Arguments.of("no state", null, released, inPlace, true, true, null),
                Arguments.of("PreparingUpdate, old revision: wait", "PreparingUpdate", released, inPlace, false, true, null),
                Arguments.of("PreparingUpdate, rolled back, hook released", "PreparingUpdate", released, inPlace, true, false, "Updated"),
                Arguments.of("PreparingUpdate, rolled back, hooked", "PreparingUpdate", hooked, inPlace, true, false, "Normal"),
                Arguments.of("PreparingUpdate, rolled back, no lifecycle", "PreparingUpdate", released, none, true, false, "Normal"),
                Arguments.of("Updating, not completed", "Updating", released, inPlace, true, false, null),
                Arguments.of("Updating, completed, hook released", "Updating", released, inPlace, true, true, "Updated"),
                Arguments.of("Updating, completed, hook back", "Updating", hooked, inPlace, true, true, "Normal"),
                Arguments.of("Updating, completed, no lifecycle", "Updating", released, none, true, true, "Normal"),
                Arguments.of("Updating, completed, lifecycle without inPlaceUpdate", "Updating", released, empty, true, true, "Updated"),
                Arguments.of("Updated, hook not back", "Updated", released, inPlace, true, true, null),
                Arguments.of("Updated, hook back", "Updated", hooked, inPlace, true, true, "Normal"),
                Arguments.of("Updated, no inPlaceUpdate hook", "Updated", released, empty, true, true, "Normal"),
                Arguments.of("Updated, no lifecycle", "Updated", released, none, true, true, "Normal"),
                Arguments.of("PreparingDelete stays", "PreparingDelete", released, inPlace, true, true, null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refresh")
    void refreshMovesLikeOpenKruise(String name, String state, Map<String, String> labels, Lifecycle lifecycle,
                                    boolean atUpdateRevision, boolean completed, String expected) {
        Pod p = pod(state, labels, List.of(), false);
        Optional<LifecycleState> next = LifecycleTransitions.onRefresh(p, lifecycle, atUpdateRevision, completed);
        assertEquals(Optional.ofNullable(expected).flatMap(LifecycleState::fromValue), next);
    }

    static Stream<Arguments> inPlace() {
        Lifecycle inPlace = lifecycle(null, HOOK, null);
        return Stream.of(
                Arguments.of("no state, no lifecycle", null, Map.of(), null, InPlaceStep.UPDATE),
                Arguments.of("Normal, hooked", "Normal", HOLD, inPlace, InPlaceStep.TO_PREPARING_UPDATE),
                Arguments.of("Normal, not hooked", "Normal", Map.of(), inPlace, InPlaceStep.UPDATE),
                Arguments.of("PreparingNormal, hooked", "PreparingNormal", HOLD, inPlace, InPlaceStep.TO_PREPARING_UPDATE),
                Arguments.of("PreparingUpdate, still hooked", "PreparingUpdate", HOLD, inPlace, InPlaceStep.WAIT),
                Arguments.of("PreparingUpdate, released", "PreparingUpdate", Map.of(), inPlace, InPlaceStep.UPDATE),
                Arguments.of("Updating again", "Updating", Map.of(), inPlace, InPlaceStep.UPDATE),
                Arguments.of("Updated picked again", "Updated", Map.of(), inPlace, InPlaceStep.TO_PREPARING_UPDATE_WITH_HANDLER),
                Arguments.of("PreparingDelete", "PreparingDelete", Map.of(), inPlace, InPlaceStep.NOT_ALLOWED),
                Arguments.of("unknown state", "Weird", Map.of(), inPlace, InPlaceStep.NOT_ALLOWED));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("inPlace")
    void stepsBeforeAnInPlaceUpdate(String name, String state, Map<String, String> labels, Lifecycle lifecycle,
                                    InPlaceStep expected) {
        assertEquals(expected, LifecycleTransitions.beforeInPlaceUpdate(pod(state, labels, List.of(), false), lifecycle));
    }

    static Stream<Arguments> deletes() {
        Lifecycle preDelete = lifecycle(null, null, hook(null, List.of("example.com/keep"), true));
        return Stream.of(
                Arguments.of("no lifecycle", List.of(), null, DeleteStep.DELETE),
                Arguments.of("hooked by finalizer", List.of("example.com/keep"), preDelete, DeleteStep.PREPARE_DELETE),
                Arguments.of("released", List.of(), preDelete, DeleteStep.DELETE));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("deletes")
    void stepsBeforeADelete(String name, List<String> finalizers, Lifecycle lifecycle, DeleteStep expected) {
        assertEquals(expected, LifecycleTransitions.beforeDelete(pod("Normal", Map.of(), finalizers, false), lifecycle));
    }
}
