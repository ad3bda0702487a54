package dev.kruisevertx.cloneset;

import dev.kruisevertx.revision.RevisionHash;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CloneSetRevisionsTest {
    static CloneSet cs(String image) {
        CloneSet cs = CloneSetPlannerTest.cs(3, 1);
        cs.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(image);
        return cs;
    }

    @Test
    void hashIsFnv1OverTheDataThenTheCollisionCountInTheSafeAlphabet() {
        // FNV-1 32 of the empty input is the offset basis 2166136261; its decimal digits map onto the alphabet.
        assertEquals(RevisionHash.safeEncode("2166136261"), RevisionHash.of(new byte[0], null));
        // Each byte picks alphabet[byte % 27]: '0' (48) -> '4', '1' (49) -> '5', '9' (57) -> 'f'.
        assertEquals("45f", RevisionHash.safeEncode("019"));
        byte[] data = "{\"spec\":{}}".getBytes(StandardCharsets.UTF_8);
        String plain = RevisionHash.of(data, null);
        assertEquals(plain, RevisionHash.of(data, null));
        assertNotEquals(plain, RevisionHash.of(data, 1));
        assertNotEquals(RevisionHash.of(data, 1), RevisionHash.of(data, 2));
        assertTrue(plain.matches("[bcdfghjklmnpqrstvwxz2456789]+"), plain);
    }

    @Test
    void revisionDataIsTheTemplateWithReplacePatch() {
        CloneSet cs = cs("nginx:1");
        ControllerRevision r = CloneSetRevisions.newRevision(cs, 1, null);
        assertTrue(r.getMetadata().getName().startsWith("cs-"), r.getMetadata().getName());
        assertEquals(r.getMetadata().getName(), "cs-" + r.getMetadata().getLabels().get(CloneSetRevisions.HASH_LABEL));
        String json = new String(CloneSetRevisions.bytes(CloneSetRevisions.patchOf(cs)), StandardCharsets.UTF_8);
        assertTrue(json.startsWith("{\"spec\":{\"template\":{\"$patch\":\"replace\",\"metadata\":"), json);
        PodTemplateSpec back = CloneSetRevisions.templateOf(r);
        assertEquals(cs.getSpec().getTemplate(), back);
        assertEquals(Boolean.TRUE, r.getMetadata().getOwnerReferences().get(0).getController());
    }

    /**
     * Pinned against OpenKruise v1.9's CloneSet {@code NewRevision}: labels the template's plus
     * {@code controller.kubernetes.io/hash}, annotations the CloneSet's, and {@code
     * kruise.io/cloneset-volumeclaimtemplate-hash: ""} when there are no volumeClaimTemplates ({@code
     * PatchVCTemplateHash}); with templates the annotation is left out (OpenKruise reads a missing one as compatible).
     */
    @Test
    void aNewRevisionIsLabelledAndAnnotatedAsOpenKruiseLabelsIt() {
        CloneSet cs = dev.kruisevertx.api.common.ApiJson.serialization().unmarshal("""
                {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","metadata":{"name":"web","namespace":"ns",
                 "uid":"u1","annotations":{"team":"shop"}},"spec":{"selector":{"matchLabels":{"foo":"bar"}},
                 "template":{"metadata":{"labels":{"foo":"bar"}},"spec":{"containers":[
                 {"name":"nginx","image":"nginx:1.9.1"}]}}}}""", CloneSet.class);
        ControllerRevision r = CloneSetRevisions.newRevision(cs, 1, 0);
        // OpenKruise's revision of this template (TakeoverCheckTest.DATA) is named web-7df87c59b.
        assertEquals("web-7df87c59b", r.getMetadata().getName());
        assertEquals(java.util.Map.of("foo", "bar", "controller.kubernetes.io/hash", "7df87c59b"),
                r.getMetadata().getLabels());
        assertEquals(java.util.Map.of("team", "shop", "kruise.io/cloneset-volumeclaimtemplate-hash", ""),
                r.getMetadata().getAnnotations());

        cs.getSpec().setVolumeClaimTemplates(List.of(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder()
                .withNewMetadata().withName("data").endMetadata().build()));
        assertEquals(java.util.Map.of("team", "shop"), CloneSetRevisions.newRevision(cs, 1, 0).getMetadata()
                .getAnnotations());
    }

    @Test
    void equalTemplatesReuseTheirRevisionAndOpenKruiseStyleEmptyFieldsDoNotMatter() {
        CloneSet cs = cs("nginx:1");
        ControllerRevision r1 = CloneSetRevisions.newRevision(cs, 1, null);
        // The Go serializer writes empty objects and nulls fabric8 leaves out.
        @SuppressWarnings("unchecked")
        Map<String, Object> data = (Map<String, Object>) new LinkedHashMap<>((Map<String, Object>) r1.getData());
        Map<String, Object> spec = new LinkedHashMap<>((Map<String, Object>) data.get("spec"));
        Map<String, Object> template = new LinkedHashMap<>((Map<String, Object>) spec.get("template"));
        Map<String, Object> meta = new LinkedHashMap<>((Map<String, Object>) template.get("metadata"));
        meta.put("creationTimestamp", null);
        template.put("metadata", meta);
        template.put("status", Map.of());
        spec.put("template", template);
        data.put("spec", spec);
        ControllerRevision fromGo = new ControllerRevisionBuilder(r1).withData(data).build();
        assertTrue(CloneSetRevisions.sameData(fromGo, CloneSetRevisions.patchOf(cs)));

        RevisionResolution res = RevisionResolution.resolve(cs, List.of(fromGo));
        assertSame(fromGo, res.update());
        assertNull(res.toCreate());
        assertNull(res.renumber());
    }

    @Test
    void aRevisionReadBackFromTheApiMatchesEvenWhenNumbersComeBackAsInts() {
        CloneSet cs = cs("nginx:1");
        cs.getSpec().getTemplate().getSpec().setTerminationGracePeriodSeconds(30L); // a long in the model
        ControllerRevision created = CloneSetRevisions.newRevision(cs, 1, null);
        // What an informer hands back: the data parsed from JSON, where 30 is an Integer.
        ControllerRevision readBack = io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                io.fabric8.kubernetes.client.utils.Serialization.asJson(created), ControllerRevision.class);
        assertTrue(CloneSetRevisions.sameData(readBack, CloneSetRevisions.patchOf(cs)));
        assertEquals(created.getMetadata().getName(),
                RevisionResolution.resolve(cs, List.of(readBack)).update().getMetadata().getName());
    }

    @Test
    void newTemplateCreatesTheNextRevisionAndRollingBackRenumbersTheOldOne() {
        ControllerRevision r1 = CloneSetRevisions.newRevision(cs("nginx:1"), 1, null);
        CloneSet v2 = cs("nginx:2");
        v2.setStatus(new CloneSetStatus());
        v2.getStatus().setCurrentRevision(r1.getMetadata().getName());
        RevisionResolution res = RevisionResolution.resolve(v2, List.of(r1));
        assertEquals(2L, res.toCreate().getRevision());
        assertSame(r1, res.current());
        assertNotEquals(r1.getMetadata().getName(), res.update().getMetadata().getName());

        ControllerRevision r2 = res.toCreate();
        CloneSet back = cs("nginx:1");
        RevisionResolution rollback = RevisionResolution.resolve(back, List.of(r1, r2));
        assertSame(r1, rollback.update());
        assertSame(r1, rollback.renumber());
        assertEquals(3L, rollback.nextNumber());
    }

    @Test
    void aNameClashWithOtherDataBumpsTheCollisionCount() {
        CloneSet cs = cs("nginx:1");
        ControllerRevision mine = CloneSetRevisions.newRevision(cs, 1, null);
        ControllerRevision squatter = new ControllerRevisionBuilder(mine).withData(Map.of("spec", Map.of("other", 1))).build();
        RevisionResolution res = RevisionResolution.resolve(cs, List.of(squatter));
        assertEquals(1, res.collisionCount());
        assertNotEquals(mine.getMetadata().getName(), res.toCreate().getMetadata().getName());
    }

    @Test
    void historyKeepsLiveRevisionsAndTheNewestOthers() {
        List<ControllerRevision> revs = new ArrayList<>();
        for (int i = 1; i <= 6; i++) {
            revs.add(new ControllerRevisionBuilder().withNewMetadata().withName("cs-h" + i)
                    .addToLabels(CloneSetRevisions.HASH_LABEL, "h" + i).endMetadata().withRevision((long) i).build());
        }
        // Live: the newest (update), the oldest (a pod is still at it, short form).
        List<ControllerRevision> prune = CloneSetRevisions.toPrune(revs, Set.of("cs-h6", "h1"), 2);
        assertEquals(List.of("cs-h2", "cs-h3"), prune.stream().map(r -> r.getMetadata().getName()).toList());
        assertEquals(List.of(), CloneSetRevisions.toPrune(revs, Set.of("cs-h6"), 10));
    }
}
