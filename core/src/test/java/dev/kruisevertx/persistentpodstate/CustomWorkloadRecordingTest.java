package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PodState;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static dev.kruisevertx.persistentpodstate.PpsFixtures.HOST;
import static dev.kruisevertx.persistentpodstate.PpsFixtures.ZONE;
import static dev.kruisevertx.persistentpodstate.PpsFixtures.pod;
import static dev.kruisevertx.persistentpodstate.PpsFixtures.pps;
import static dev.kruisevertx.persistentpodstate.PpsFixtures.state;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The recording table for a whitelisted custom workload (OpenKruise v1.9.0's getPodStatefulSetLike): its ordinals are
 * 0 to spec.replicas - 1, a missing or non-integer spec.replicas counts as 0, a deleting one drops every state.
 */
class CustomWorkloadRecordingTest {
    static GenericKubernetesResource game(Object replicas, boolean deleting) {
        Map<String, Object> spec = new HashMap<>();
        if (replicas != null) {
            spec.put("replicas", replicas);
        }
        var b = new GenericKubernetesResourceBuilder().withApiVersion("game.example.com/v1").withKind("GameServerSet")
                .withNewMetadata().withName("web").withNamespace("default")
                .withDeletionTimestamp(deleting ? "2026-11-24T00:00:00Z" : null).endMetadata();
        return b.addToAdditionalProperties("spec", spec).build();
    }

    static PersistentPodState withStates(Map<String, PodState> states) {
        return PodStateRecordingTest.withStates(pps("web", List.of(ZONE), List.of(HOST), null, null), states);
    }

    static final PodState ZONE_A = state("node-1", Map.of(ZONE, "zone-a", HOST, "node-1"), null);

    @Test
    void readyPodsOfACustomWorkloadAreRecorded() {
        var plan = PodStateRecordingTest.run(withStates(Map.of()), PpsWorkloads.customWorkload(game(2, false)),
                pod("web-0", "node-1", true, null), pod("web-1", "node-2", false, null));
        assertEquals(Map.of("web-0", ZONE_A), plan.status().getPodStates());
        assertEquals(List.of("web-0"), plan.recorded());
    }

    @Test
    void aGoneOrdinalInsideSpecReplicasKeepsItsState() {
        var plan = PodStateRecordingTest.run(withStates(Map.of("web-1", ZONE_A)),
                PpsWorkloads.customWorkload(game(2, false)));
        assertEquals(Map.of("web-1", ZONE_A), plan.status().getPodStates());
    }

    @Test
    void aGoneOrdinalBeyondSpecReplicasIsDroppedWhenScaled() {
        var plan = PodStateRecordingTest.run(withStates(Map.of("web-1", ZONE_A, "web-2", ZONE_A)),
                PpsWorkloads.customWorkload(game(2, false)));
        assertEquals(Map.of("web-1", ZONE_A), plan.status().getPodStates());
        assertEquals(List.of("web-2"), plan.forgotten());
    }

    @Test
    void withoutSpecReplicasEveryGoneOrdinalIsOutside() {
        var plan = PodStateRecordingTest.run(withStates(Map.of("web-0", ZONE_A)),
                PpsWorkloads.customWorkload(game(null, false)));
        assertEquals(List.of("web-0"), plan.forgotten());
        assertEquals(0, PpsWorkloads.customReplicas(game("3", false)));
        assertEquals(0, PpsWorkloads.customReplicas(game(-1, false)));
        assertEquals(3, PpsWorkloads.customReplicas(game(3L, false)));
    }

    @Test
    void aDeletingCustomWorkloadDropsEveryState() {
        var plan = PodStateRecordingTest.run(withStates(Map.of("web-0", ZONE_A)),
                PpsWorkloads.customWorkload(game(2, true)));
        assertEquals(List.of("web-0"), plan.forgotten());
        assertEquals(null, plan.status().getPodStates());
    }

    @Test
    void onlyWhitelistedGroupAndKindAreSupported() {
        var list = CustomWorkloadWhiteList.parse(
                "{\"workloads\":[{\"Group\":\"game.example.com\",\"Version\":\"v1\",\"Kind\":\"GameServerSet\"}]}");
        assertTrue(PpsWorkloads.supported("game.example.com/v1", "GameServerSet", list));
        assertTrue(PpsWorkloads.supported("game.example.com/v2", "GameServerSet", list));
        assertFalse(PpsWorkloads.supported("game.example.com/v1", "GameServer", list));
        assertFalse(PpsWorkloads.supported("game.example.com/v1", "GameServerSet", CustomWorkloadWhiteList.EMPTY));
        assertFalse(PpsWorkloads.supported("game.example.com/v1", "GameServerSet", null));
    }

    @Test
    void anAnnotatedCustomWorkloadGetsAGeneratedStateTargetingItsKind() {
        GenericKubernetesResource g = game(2, false);
        g.getMetadata().setUid("uid-1");
        g.getMetadata().setAnnotations(Map.of(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true",
                PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, ZONE));
        var d = AutoGeneration.decide(g, "game.example.com/v1", "GameServerSet", null);
        assertEquals(AutoGeneration.Action.CREATE, d.action());
        assertEquals("GameServerSet", d.desired().spec().targetRef().getKind());
        assertEquals("game.example.com/v1", d.desired().spec().targetRef().getApiVersion());
        assertEquals(List.of(ZONE), d.desired().getSpec().getRequiredPersistentTopology().keys());
    }
}
