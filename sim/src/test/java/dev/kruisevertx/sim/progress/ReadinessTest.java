package dev.kruisevertx.sim.progress;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.sim.Manifests;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ReadinessTest {
    static Readiness of(String yaml) {
        return Readiness.of(Manifests.parse(yaml).get(0));
    }

    @Test
    void replicaWorkloadNeedsObservedGenerationUpdatedAndReady() {
        String base = """
                kind: CloneSet
                metadata: {name: s, generation: 2}
                spec: {replicas: 3}
                status: {observedGeneration: %d, replicas: 3, updatedReplicas: %d, readyReplicas: 3, updatedReadyReplicas: %d}
                """;
        assertTrue(of(base.formatted(2, 3, 3)).ready());
        Readiness partial = of(base.formatted(2, 2, 2));
        assertFalse(partial.ready());
        assertEquals("3/3 ready, 2/3 updated", partial.summary());
        Readiness stale = of(base.formatted(1, 3, 3));
        assertFalse(stale.ready());
        assertTrue(stale.summary().contains("generation not observed yet"));
    }

    @Test
    void daemonStyleJobsPodsAndPlainObjects() {
        assertTrue(of("""
                kind: DaemonSet
                metadata: {generation: 1}
                status: {observedGeneration: 1, desiredNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3}
                """).ready());
        assertTrue(of("kind: BroadcastJob\nstatus: {conditions: [{type: Complete, status: 'True'}]}").ready());
        assertFalse(of("kind: BroadcastJob\nstatus: {phase: running}").ready());
        Readiness pod = of("""
                kind: Pod
                spec: {nodeName: n1}
                status:
                  phase: Running
                  conditions: [{type: Ready, status: 'True'}]
                """);
        assertTrue(pod.ready());
        assertEquals("Running on n1, ready", pod.summary());
        assertTrue(of("kind: ConfigMap\ndata: {a: b}").ready());
        assertEquals("present", Readiness.of(new ObjectMapper().createObjectNode().put("kind", "Secret")).summary());
    }
}
