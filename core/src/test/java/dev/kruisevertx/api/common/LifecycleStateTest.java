package dev.kruisevertx.api.common;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LifecycleStateTest {
    @Test
    void labelValuesAreOpenKruises() {
        assertEquals(List.of(WellKnown.LIFECYCLE_STATE_PREPARING_NORMAL, WellKnown.LIFECYCLE_STATE_NORMAL,
                        WellKnown.LIFECYCLE_STATE_PREPARING_UPDATE, WellKnown.LIFECYCLE_STATE_UPDATING,
                        WellKnown.LIFECYCLE_STATE_UPDATED, WellKnown.LIFECYCLE_STATE_PREPARING_DELETE),
                Arrays.stream(LifecycleState.values()).map(LifecycleState::value).toList());
        assertEquals(List.of("PreparingNormal", "Normal", "PreparingUpdate", "Updating", "Updated", "PreparingDelete"),
                Arrays.stream(LifecycleState.values()).map(LifecycleState::toString).toList());
    }

    @Test
    void parsesLabelValues() {
        for (LifecycleState s : LifecycleState.values()) {
            assertEquals(Optional.of(s), LifecycleState.fromValue(s.value()));
        }
        assertEquals(Optional.empty(), LifecycleState.fromValue("normal"));
        assertEquals(Optional.empty(), LifecycleState.fromValue(null));
    }
}
