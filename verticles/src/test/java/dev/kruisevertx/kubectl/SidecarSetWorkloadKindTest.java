package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** SidecarSet for {@code kubectl kruise why}: cluster-scoped, its controller, its state line, no rollout commands. */
class SidecarSetWorkloadKindTest {
    private static JsonNode json(String yaml) {
        try {
            return new ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory()).readTree(yaml);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    @Test
    void resolvesToTheClusterScopedSidecarSetController() {
        WorkloadKinds.Target t = WorkloadKinds.target(List.of("SidecarSet.apps.kruise.io/log-shipper"));
        assertEquals("sidecarset", t.kind().controller());
        assertFalse(t.kind().namespaced());
        assertTrue(WorkloadKinds.resolve("cloneset").namespaced());
        assertEquals("sidecarset.apps.kruise.io/log-shipper", t.displayName());
        assertEquals("SidecarSet", WorkloadKinds.target(List.of("sidecarsets", "x")).kind().kind());
    }

    @Test
    void rolloutCommandsRefuseASidecarSet() {
        CliException e = assertThrows(CliException.class, () -> WorkloadKinds.rolloutTarget(List.of("sidecarset/log")));
        assertEquals("SidecarSet has no rollout; 'kubectl kruise why sidecarset/log' shows its state", e.getMessage());
    }

    @Test
    void theStateLineCountsTheSidecarUpgrade() {
        WorkloadKind k = new SidecarSetWorkloadKind();
        var done = k.rolloutState(json("""
                metadata: {name: log, generation: 2}
                status: {observedGeneration: 2, matchedPods: 3, updatedPods: 3, readyPods: 3, updatedReadyPods: 3}
                """));
        assertTrue(done.done());
        assertEquals("sidecarset \"log\": 3 matched pods, 3 updated, 3 ready, 3 updated and ready", done.message());
        var moving = k.rolloutState(json("""
                metadata: {name: log, generation: 3}
                status: {observedGeneration: 2, matchedPods: 3, updatedPods: 3, readyPods: 3, updatedReadyPods: 3}
                """));
        assertFalse(moving.done());
        assertEquals("sidecarset \"log\": waiting for the controller to observe generation 3 (3 matched pods, "
                + "3 updated, 3 ready, 3 updated and ready)", moving.message());
        assertFalse(k.rolloutState(json("""
                metadata: {name: log, generation: 2}
                status: {observedGeneration: 2, matchedPods: 3, updatedPods: 1, readyPods: 3, updatedReadyPods: 1}
                """)).done());
        assertEquals("sidecarset \"log\": not counted yet", k.rolloutState(json("{metadata: {name: log}}")).message());
    }

    @Test
    void theTextSaysClusterScopedInsteadOfANamespace() throws Exception {
        WorkloadKinds.Target t = WorkloadKinds.target(List.of("sidecarset/log"));
        JsonNode answer = new ObjectMapper().readTree("{\"reasons\":[{\"code\":\"Paused\",\"message\":"
                + "\"updateStrategy.paused is true: 2 pods wait for the update\"}]}");
        assertEquals("""
                sidecarset.apps.kruise.io/log (cluster-scoped)
                  rollout: sidecarset "log": not counted yet
                  held by Paused: updateStrategy.paused is true: 2 pods wait for the update
                """, WhyOperations.text(t, null, new RolloutState(false, "sidecarset \"log\": not counted yet"), answer,
                false));
    }
}
