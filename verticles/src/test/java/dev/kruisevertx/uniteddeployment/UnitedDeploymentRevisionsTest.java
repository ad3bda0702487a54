package dev.kruisevertx.uniteddeployment;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.api.apps.v1alpha1.UpdateStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.revision.RevisionHash;
import dev.kruisevertx.revision.TemplateRevisions;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ControllerRevisions of a UnitedDeployment as OpenKruise v1.9.0's revision.go keeps them. */
class UnitedDeploymentRevisionsTest {

    static UnitedDeployment ud(String image, Integer historyLimit) {
        UnitedDeployment ud = ApiJson.serialization().unmarshal("""
                {"apiVersion":"apps.kruise.io/v1alpha1","kind":"UnitedDeployment",
                 "metadata":{"name":"web","namespace":"ns","uid":"u1"},
                 "spec":{"replicas":4,"selector":{"matchLabels":{"app":"web"}},
                  "template":{"deploymentTemplate":{"metadata":{"labels":{"app":"web","tier":"front"}},
                   "spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},
                    "spec":{"containers":[{"name":"main","image":"%s"}]}}}}},
                  "topology":{"subsets":[{"name":"a"},{"name":"b"}]}}}""".formatted(image), UnitedDeployment.class);
        ud.spec().setRevisionHistoryLimit(historyLimit);
        return ud;
    }

    /** Resolves and "writes" the update revision of {@code ud} into {@code history}, as the actuator does. */
    static TemplateRevisions.Resolution provision(UnitedDeployment ud, List<ControllerRevision> history) {
        UnitedDeploymentRevisions.Cleaned cleaned = UnitedDeploymentRevisions.clean(ud,
                UnitedDeploymentRevisions.history(ud, history));
        history.removeAll(cleaned.expired());
        TemplateRevisions.Resolution r = UnitedDeploymentRevisions.resolve(ud, cleaned.kept());
        if (r.toCreate() != null) {
            history.add(r.toCreate());
        } else if (r.renumber() != null) {
            history.remove(r.renumber());
            history.add(r.update());
        }
        return r;
    }

    static UnitedDeploymentStatus status(String current, String updated) {
        UnitedDeploymentStatus s = new UnitedDeploymentStatus();
        s.setCurrentRevision(current);
        UpdateStatus u = new UpdateStatus();
        u.setUpdatedRevision(updated);
        s.setUpdateStatus(u);
        return s;
    }

    @Test
    void hashIsKubernetesHashControllerRevisionWithTheCollisionCountAsDecimalText() {
        // FNV-1 32 over the bytes then "0" (resp. "1"), printed in decimal and safe-encoded; values computed
        // independently of this code.
        byte[] data = "{\"spec\":{\"template\":{\"$patch\":\"replace\"}}}".getBytes(StandardCharsets.UTF_8);
        assertEquals("589f85db5b", RevisionHash.controllerHistory(data, 0));
        assertEquals("589f85db5c", RevisionHash.controllerHistory(data, 1));
        assertEquals("d8bfb7bc", RevisionHash.controllerHistory(new byte[0], 0));
    }

    @Test
    void revisionHoldsTheWholeTemplateNamedByItsHashLabelledAndOwnedAsOpenKruise() {
        UnitedDeployment ud = ud("web:1", null);
        JsonNode data = UnitedDeploymentRevisions.dataOf(ud);
        assertEquals("replace", data.path("spec").path("template").path("$patch").asText());
        assertEquals("web:1", data.path("spec").path("template").path("deploymentTemplate").path("spec")
                .path("template").path("spec").path("containers").get(0).path("image").asText());
        TemplateRevisions.Resolution r = UnitedDeploymentRevisions.resolve(ud, List.of());
        ControllerRevision created = r.toCreate();
        String hash = RevisionHash.controllerHistory(dev.kruisevertx.revision.RevisionData.bytes(data), 0);
        assertEquals("web-" + hash, created.getMetadata().getName());
        assertEquals(Map.of("app", "web", "tier", "front", "controller.kubernetes.io/hash", hash),
                created.getMetadata().getLabels());
        assertEquals(1L, created.getRevision());
        assertEquals("ns", created.getMetadata().getNamespace());
        var owner = created.getMetadata().getOwnerReferences().get(0);
        assertEquals("UnitedDeployment", owner.getKind());
        assertEquals("u1", owner.getUid());
        assertTrue(owner.getController() && owner.getBlockOwnerDeletion());
        assertEquals(0, r.collisionCount());
        // The same template always names the same revision; another template another one.
        assertEquals(created.getMetadata().getName(), UnitedDeploymentRevisions.resolve(ud("web:1", null), List.of())
                .update().getMetadata().getName());
        assertNotEquals(created.getMetadata().getName(), UnitedDeploymentRevisions.resolve(ud("web:2", null),
                List.of()).update().getMetadata().getName());
        // A long name is cut to 223 characters before the hash.
        String longName = "x".repeat(240);
        assertEquals("x".repeat(223) + "-" + hash, UnitedDeploymentRevisions.name(longName, data, 0));
    }

    @Test
    void anEqualRevisionIsReusedAndAnOlderOneRenumberedAsARollback() {
        List<ControllerRevision> history = new ArrayList<>();
        TemplateRevisions.Resolution v1 = provision(ud("web:1", null), history);
        TemplateRevisions.Resolution again = provision(ud("web:1", null), history);
        assertNull(again.toCreate());
        assertNull(again.renumber());
        assertEquals(v1.update().getMetadata().getName(), again.update().getMetadata().getName());
        TemplateRevisions.Resolution v2 = provision(ud("web:2", null), history);
        assertEquals(2L, v2.update().getRevision());
        TemplateRevisions.Resolution back = provision(ud("web:1", null), history);
        assertNull(back.toCreate());
        assertEquals(v1.update().getMetadata().getName(), back.update().getMetadata().getName());
        assertEquals(3L, back.update().getRevision());
        assertEquals(2, history.size());
    }

    @Test
    void aNameTakenByOtherDataBumpsTheCollisionCount() {
        UnitedDeployment ud = ud("web:1", null);
        String name = UnitedDeploymentRevisions.resolve(ud, List.of()).update().getMetadata().getName();
        ControllerRevision squatter = new ControllerRevisionBuilder().withNewMetadata().withName(name)
                .withNamespace("ns").withLabels(Map.of("app", "web")).endMetadata()
                .withData(Map.of("spec", Map.of("template", Map.of("other", true)))).withRevision(1L).build();
        TemplateRevisions.Resolution r = UnitedDeploymentRevisions.resolve(ud, List.of(squatter));
        assertEquals(1, r.collisionCount());
        assertEquals("web-" + RevisionHash.controllerHistory(dev.kruisevertx.revision.RevisionData.bytes(
                UnitedDeploymentRevisions.dataOf(ud)), 1), r.toCreate().getMetadata().getName());
        // After a 409 the same data under the name is ours (the cache had not shown it): no collision.
        TemplateRevisions.Resolution fresh = UnitedDeploymentRevisions.resolve(ud, List.of());
        TemplateRevisions.Resolution ours = UnitedDeploymentRevisions.afterConflict(ud, fresh, fresh.toCreate());
        assertNull(ours.toCreate());
        assertEquals(0, ours.collisionCount());
        TemplateRevisions.Resolution theirs = UnitedDeploymentRevisions.afterConflict(ud, fresh, squatter);
        assertEquals(1, theirs.collisionCount());
        // The status's count is the starting point.
        ud.setStatus(new UnitedDeploymentStatus());
        ud.getStatus().setCollisionCount(3);
        assertEquals(3, UnitedDeploymentRevisions.resolve(ud, List.of()).collisionCount());
    }

    @Test
    void historyBeyondTheLimitIsDeletedOldestFirstButNeverTheCurrentOrUpdatedRevision() {
        List<ControllerRevision> history = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= 4; i++) {
            names.add(provision(ud("web:" + i, null), history).update().getMetadata().getName());
        }
        // Limit 2 with 4 revisions: the 2 oldest go, except web:1 which the status names as current.
        UnitedDeployment ud = ud("web:4", 2);
        ud.setStatus(status(names.get(0), names.get(3)));
        UnitedDeploymentRevisions.Cleaned cleaned = UnitedDeploymentRevisions.clean(ud,
                UnitedDeploymentRevisions.history(ud, history));
        assertEquals(List.of(names.get(1)), cleaned.expired().stream().map(r -> r.getMetadata().getName()).toList());
        assertEquals(List.of(names.get(2), names.get(3)), cleaned.kept().stream()
                .map(r -> r.getMetadata().getName()).toList());
        // The current revision left the kept history, so the current is the update revision (as OpenKruise).
        assertEquals(names.get(3), UnitedDeploymentRevisions.currentRevision(ud, cleaned.kept(), names.get(3)));
        ud.setStatus(status(names.get(2), names.get(3)));
        assertEquals(names.get(2), UnitedDeploymentRevisions.currentRevision(ud, cleaned.kept(), names.get(3)));
        // Default limit 10: nothing to delete.
        assertTrue(UnitedDeploymentRevisions.clean(ud("web:4", null), history).expired().isEmpty());
        assertEquals(10, UnitedDeploymentRevisions.limit(ud("web:4", null)));
        // Limit 0 (or a negative one) keeps no history beyond what the status names.
        UnitedDeployment none = ud("web:4", -1);
        assertEquals(0, UnitedDeploymentRevisions.limit(none));
        assertEquals(4, UnitedDeploymentRevisions.clean(none, history).expired().size());
    }

    @Test
    void historyIsTheControlledRevisionsTheSelectorMatches() {
        UnitedDeployment ud = ud("web:1", null);
        ControllerRevision mine = UnitedDeploymentRevisions.resolve(ud, List.of()).toCreate();
        ControllerRevision other = new ControllerRevisionBuilder(mine).editMetadata().withName("web-other")
                .withLabels(Map.of("app", "db")).endMetadata().build();
        assertEquals(List.of(mine), UnitedDeploymentRevisions.history(ud, List.of(other, mine)));
        assertSame(mine, UnitedDeploymentRevisions.history(ud, List.of(mine)).get(0));
    }
}
