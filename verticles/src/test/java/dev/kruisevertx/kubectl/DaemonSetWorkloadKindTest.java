package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DaemonSetWorkloadKindTest {
    private static final DaemonSetWorkloadKind KIND = new DaemonSetWorkloadKind();

    private static JsonNode json(String yaml) {
        return Serialization.jsonMapper().valueToTree(Serialization.unmarshal(yaml, java.util.Map.class));
    }

    @Test
    void aliasesLeaveKubectlsDaemonSetAlone() {
        assertEquals(KIND.kind(), WorkloadKinds.resolve("ads").kind());
        assertEquals("apps.kruise.io", WorkloadKinds.resolve("daemonset.apps.kruise.io").context().getGroup());
        CliException e = assertThrows(CliException.class, () -> WorkloadKinds.resolve("ds"));
        assertTrue(e.getMessage().contains("use 'kubectl rollout'"), e.getMessage());
        assertTrue(e.getMessage().contains("'ads'"), e.getMessage());
        assertEquals(List.of("spec", "updateStrategy", "rollingUpdate", "paused"), KIND.pausedPath());
        assertEquals("daemonset.apps.kruise.io/agent", KIND.displayName("agent"));
    }

    @Test
    void rolloutStates() {
        assertEquals("Waiting for daemon set spec update to be observed...", KIND.rolloutState(json("""
                metadata: {name: a, generation: 4}
                status: {observedGeneration: 3}
                """)).message());
        RolloutState updating = KIND.rolloutState(json("""
                metadata: {name: a, generation: 2}
                spec: {updateStrategy: {rollingUpdate: {paused: true}}}
                status: {observedGeneration: 2, desiredNumberScheduled: 5, updatedNumberScheduled: 2, numberAvailable: 5}
                """));
        assertFalse(updating.done());
        assertTrue(updating.message().startsWith("Waiting for daemon set \"a\" rollout to finish: 2 out of 5 new pods have been updated..."),
                updating.message());
        assertTrue(updating.message().contains("rollout resume daemonset.apps.kruise.io/a"), updating.message());
        RolloutState unavailable = KIND.rolloutState(json("""
                metadata: {name: a, generation: 2}
                status: {observedGeneration: 2, desiredNumberScheduled: 5, updatedNumberScheduled: 5, numberAvailable: 4}
                """));
        assertEquals("Waiting for daemon set \"a\" rollout to finish: 4 of 5 updated pods are available...", unavailable.message());
        RolloutState partitioned = KIND.rolloutState(json("""
                metadata: {name: a, generation: 2}
                spec: {updateStrategy: {rollingUpdate: {partition: "50%"}}}
                status: {observedGeneration: 2, desiredNumberScheduled: 5, updatedNumberScheduled: 3, numberAvailable: 5}
                """));
        assertTrue(partitioned.done(), partitioned.message());
        assertEquals("partitioned roll out complete: 3 new pods have been updated (partition 2)...", partitioned.message());
        RolloutState done = KIND.rolloutState(json("""
                metadata: {name: a, generation: 2}
                status: {observedGeneration: 2, desiredNumberScheduled: 3, updatedNumberScheduled: 3, numberAvailable: 3}
                """));
        assertTrue(done.done());
        assertEquals("daemon set \"a\" successfully rolled out", done.message());
    }
}
