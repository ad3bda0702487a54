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
    void aSidecarSetConvergesWhenEveryMatchedPodIsUpdatedAndReadyAtTheCurrentGeneration() {
        String base = """
                kind: SidecarSet
                metadata: {name: s, generation: 2}
                spec: {containers: [{name: log, image: log:2}]}
                status: {observedGeneration: %d, matchedPods: 5, updatedPods: %d, readyPods: %d}
                """;
        Readiness done = of(base.formatted(2, 5, 5));
        assertTrue(done.ready());
        assertEquals("5 matched, 5 updated, 5 ready", done.summary());
        assertFalse(of(base.formatted(2, 4, 5)).ready(), "a pod still on the old sidecars");
        assertFalse(of(base.formatted(2, 5, 4)).ready(), "a pod not ready");
        Readiness stale = of(base.formatted(1, 5, 5));
        assertFalse(stale.ready());
        assertTrue(stale.summary().contains("generation not observed yet"));
        assertFalse(of("kind: SidecarSet\nmetadata: {name: s, generation: 1}\n").ready(), "no status yet");
        assertTrue(of("kind: SidecarSet\nmetadata: {name: s, generation: 1}\nstatus: {observedGeneration: 1}\n").ready(),
                "nothing matched yet is converged (it is applied before the pods it injects)");
    }

    @Test
    void aPartitionedRolloutConvergesAtTheExpectedUpdatedReplicas() {
        String partitioned = """
                kind: CloneSet
                metadata: {name: s, generation: 3}
                spec: {replicas: 5}
                status: {observedGeneration: 3, replicas: 5, updatedReplicas: %d, readyReplicas: 5, updatedReadyReplicas: %d, expectedUpdatedReplicas: 2}
                """;
        Readiness canary = of(partitioned.formatted(2, 2));
        assertTrue(canary.ready(), canary.summary());
        assertEquals("5/5 ready, 2/2 updated", canary.summary());
        assertFalse(of(partitioned.formatted(1, 1)).ready());
        assertFalse(of(partitioned.formatted(2, 1)).ready(), "an updated pod that is not ready yet");
    }

    @Test
    void daemonStyleJobsPodsAndPlainObjects() {
        assertTrue(of("""
                kind: DaemonSet
                metadata: {generation: 1}
                status: {observedGeneration: 1, desiredNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 3}
                """).ready());
        assertFalse(of("""
                kind: DaemonSet
                metadata: {generation: 1}
                status: {observedGeneration: 1, desiredNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 1}
                """).ready());
        assertFalse(of("kind: DaemonSet\nmetadata: {generation: 1}").ready(), "no status yet");
        Readiness partitioned = of("""
                kind: DaemonSet
                metadata: {generation: 2}
                spec: {updateStrategy: {rollingUpdate: {partition: 2}}}
                status: {observedGeneration: 2, desiredNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 1}
                """);
        assertTrue(partitioned.ready(), partitioned.summary());
        assertEquals("3/3 ready, 1/1 updated", partitioned.summary());
        assertTrue(of("""
                kind: DaemonSet
                metadata: {generation: 2}
                spec: {updateStrategy: {rollingUpdate: {partition: "50%"}}}
                status: {observedGeneration: 2, desiredNumberScheduled: 3, numberReady: 3, updatedNumberScheduled: 2}
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
        Readiness restarted = of("""
                kind: Pod
                spec: {nodeName: n1}
                status:
                  phase: Running
                  conditions: [{type: Ready, status: 'True'}]
                  containerStatuses: [{name: main, restartCount: 1}, {name: side, restartCount: 0}]
                """);
        assertEquals("Running on n1, ready, restarted main 1x", restarted.summary());
        assertTrue(of("kind: ConfigMap\ndata: {a: b}").ready());
        assertEquals("present", Readiness.of(new ObjectMapper().createObjectNode().put("kind", "Secret")).summary());
    }

    @Test
    void containerRecreateRequestsConvergeWhenEveryContainerSucceeded() {
        Readiness waiting = of("kind: ContainerRecreateRequest\nspec: {podName: p}");
        assertFalse(waiting.ready());
        assertEquals("waiting for the node agent", waiting.summary());
        Readiness recreating = of("""
                kind: ContainerRecreateRequest
                status: {phase: Recreating, containerRecreateStates: [{name: main, phase: Recreating}]}
                """);
        assertFalse(recreating.ready());
        assertEquals("Recreating, main=Recreating", recreating.summary());
        Readiness done = of("""
                kind: ContainerRecreateRequest
                status: {phase: Completed, containerRecreateStates: [{name: main, phase: Succeeded}]}
                """);
        assertTrue(done.ready());
        assertEquals("Completed, main=Succeeded", done.summary());
        Readiness failed = of("""
                kind: ContainerRecreateRequest
                status: {phase: Completed, message: 'recreating has exceeded the activeDeadlineSeconds',
                         containerRecreateStates: [{name: main, phase: Recreating}]}
                """);
        assertFalse(failed.ready());
        assertEquals("Completed, main=Recreating (recreating has exceeded the activeDeadlineSeconds)", failed.summary());
    }

    @Test
    void aWorkloadSpreadConvergesOnceTheControllerSawEveryRecordedCreation() {
        assertFalse(of("kind: WorkloadSpread\nmetadata: {name: w, generation: 1}").ready());
        Readiness creating = of("""
                kind: WorkloadSpread
                metadata: {name: w, generation: 1}
                status:
                  observedGeneration: 1
                  subsetStatuses: [{name: zone-a, replicas: 1, missingReplicas: 1}, {name: zone-b, replicas: 0, missingReplicas: -1}]
                  versionedSubsetStatuses:
                    versionIgnored: [{name: zone-a, replicas: 1, missingReplicas: 0, creatingPods: {p2: "2026-01-01T00:00:00Z"}}]
                """);
        assertFalse(creating.ready());
        assertEquals("zone-a 1 pod (1 missing), zone-b 0 pods, 1 recorded creations/deletions not yet seen",
                creating.summary());
        Readiness done = of("""
                kind: WorkloadSpread
                metadata: {name: w, generation: 1}
                status:
                  observedGeneration: 1
                  subsetStatuses: [{name: zone-a, replicas: 2, missingReplicas: 0}, {name: zone-b, replicas: 2, missingReplicas: -1}]
                """);
        assertTrue(done.ready());
        assertEquals("zone-a 2 pods (0 missing), zone-b 2 pods", done.summary());
    }

    @Test
    void aPersistentPodStateConvergesOnceStatesAreRecordedAtTheCurrentGeneration() {
        assertEquals(new Readiness(false, "no status yet"), of("""
                kind: PersistentPodState
                metadata: {name: p, generation: 1}
                spec: {targetRef: {apiVersion: apps/v1, kind: StatefulSet, name: s}}
                """));
        assertEquals(new Readiness(false, "0 pod states recorded"), of("""
                kind: PersistentPodState
                metadata: {name: p, generation: 1}
                status: {observedGeneration: 1}
                """));
        assertEquals(new Readiness(true, "3 pod states recorded"), of("""
                kind: PersistentPodState
                metadata: {name: p, generation: 1}
                status: {observedGeneration: 1, podStates: {s-0: {nodeName: n}, s-1: {nodeName: n}, s-2: {nodeName: n}}}
                """));
        assertEquals(new Readiness(false, "1 pod state recorded, generation not observed yet"), of("""
                kind: PersistentPodState
                metadata: {name: p, generation: 2}
                status: {observedGeneration: 1, podStates: {s-0: {nodeName: n}}}
                """));
    }

    @Test
    void anImagePullJobConvergesWhenItCompletedWithEveryNodeSucceeded() {
        assertEquals(new Readiness(false, "no status yet"), of("""
                kind: ImagePullJob
                metadata: {name: j}
                spec: {image: nginx:1.26}
                """));
        assertEquals(new Readiness(false, "1/3 nodes pulled, 2 pulling, 0 failed, job is running, progress 33.3%"), of("""
                kind: ImagePullJob
                metadata: {name: j}
                status: {desired: 3, active: 2, succeeded: 1, failed: 0, message: "job is running, progress 33.3%"}
                """));
        // Every node succeeded but the controller has not written completionTime yet.
        assertFalse(of("""
                kind: ImagePullJob
                metadata: {name: j}
                status: {desired: 3, active: 0, succeeded: 3, failed: 0}
                """).ready());
        assertEquals(new Readiness(true, "3/3 nodes pulled, 0 pulling, 0 failed, job has completed"), of("""
                kind: ImagePullJob
                metadata: {name: j}
                status: {desired: 3, succeeded: 3, completionTime: "2026-11-24T20:00:00Z", message: job has completed}
                """));
        // Completed with a failed node, or completed without any node to pull on: stuck, not converged.
        assertEquals(new Readiness(false, "2/3 nodes pulled, 0 pulling, 1 failed, job has completed"), of("""
                kind: ImagePullJob
                metadata: {name: j}
                status: {desired: 3, succeeded: 2, failed: 1, failedNodes: [n2], completionTime: "2026-11-24T20:00:00Z",
                  message: job has completed}
                """));
        assertFalse(of("""
                kind: ImagePullJob
                metadata: {name: j}
                status: {desired: 0, succeeded: 0, completionTime: "2026-11-24T20:00:00Z", message: job has completed}
                """).ready());
    }
}
