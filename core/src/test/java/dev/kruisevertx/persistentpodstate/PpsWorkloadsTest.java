package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** OpenKruise v1.9.0's ValidateAPIVersionAndKind, IsReferenceEqual and SelectorPersistentPodState as facts. */
class PpsWorkloadsTest {
    static final CustomWorkloadWhiteList GAME = CustomWorkloadWhiteList.parse(
            "{\"workloads\":[{\"Group\":\"game.kruise.io\",\"Kind\":\"GameServerSet\"}]}");

    @Test
    void statefulSetsOfBothGroupsAreAlwaysSupported() {
        assertTrue(PpsWorkloads.supported("apps/v1", "StatefulSet", CustomWorkloadWhiteList.EMPTY));
        assertTrue(PpsWorkloads.supported("apps.kruise.io/v1beta1", "StatefulSet", CustomWorkloadWhiteList.EMPTY));
        assertTrue(PpsWorkloads.supported("apps.kruise.io/v1alpha1", "StatefulSet", null));
    }

    @Test
    void otherKindsOnlyWhenWhitelisted() {
        assertFalse(PpsWorkloads.supported("apps/v1", "Deployment", CustomWorkloadWhiteList.EMPTY));
        assertFalse(PpsWorkloads.supported("game.kruise.io/v1alpha1", "GameServerSet", CustomWorkloadWhiteList.EMPTY));
        assertTrue(PpsWorkloads.supported("game.kruise.io/v1alpha1", "GameServerSet", GAME));
        assertFalse(PpsWorkloads.supported("game.kruise.io/v1alpha1", "GameServer", GAME));
        assertFalse(PpsWorkloads.supported("", "", GAME));
        assertFalse(PpsWorkloads.supported("a/b/c", "StatefulSet", GAME));
        assertFalse(PpsWorkloads.supported("/v1", "StatefulSet", GAME));
    }

    @Test
    void theVersionDoesNotMatterWhenMatchingAWorkload() {
        assertTrue(PpsWorkloads.sameWorkload(new TargetReference("apps.kruise.io/v1alpha1", "StatefulSet", "web"),
                new TargetReference("apps.kruise.io/v1beta1", "StatefulSet", "web")));
        assertFalse(PpsWorkloads.sameWorkload(new TargetReference("apps/v1", "StatefulSet", "web"),
                new TargetReference("apps.kruise.io/v1beta1", "StatefulSet", "web")));
        assertFalse(PpsWorkloads.sameWorkload(new TargetReference("apps/v1", "StatefulSet", "web"),
                new TargetReference("apps/v1", "StatefulSet", "web2")));
    }

    @Test
    void selectSkipsOnesBeingDeleted() {
        PersistentPodState gone = PpsFixtures.pps("a", List.of("zone"), null, null, null);
        gone.getMetadata().setDeletionTimestamp("2026-11-24T00:00:00Z");
        PersistentPodState live = PpsFixtures.pps("b", List.of("zone"), null, null, null);
        assertEquals("b", PpsWorkloads.select(List.of(gone, live),
                new TargetReference("apps.kruise.io/v1beta1", "StatefulSet", "web")).orElseThrow().getMetadata().getName());
        assertTrue(PpsWorkloads.select(List.of(gone), new TargetReference("apps.kruise.io/v1beta1", "StatefulSet",
                "web")).isEmpty());
    }
}
