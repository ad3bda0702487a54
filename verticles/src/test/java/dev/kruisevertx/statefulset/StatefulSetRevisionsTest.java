package dev.kruisevertx.statefulset;

import dev.kruisevertx.revision.TemplateRevisions;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetStatus;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

class StatefulSetRevisionsTest {

    static StatefulSet set(String image, Integer collisionCount) {
        StatefulSet set = new StatefulSet();
        set.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("ns").withUid("uid-1").build());
        StatefulSetSpec spec = new StatefulSetSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "web").build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "web").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage(image).endContainer().endSpec().build());
        set.setSpec(spec);
        if (collisionCount != null) {
            StatefulSetStatus status = new StatefulSetStatus();
            status.setCollisionCount(collisionCount);
            set.setStatus(status);
        }
        return set;
    }

    /** A stored revision: name, number and the data of the template with this image. */
    static ControllerRevision stored(String name, long number, String image) {
        return new ControllerRevisionBuilder().withNewMetadata().withName(name).withNamespace("ns").endMetadata()
                .withRevision(number).withData(ApiJson.serialization().convertValue(
                        StatefulSetRevisions.dataOf(set(image, null).getSpec().getTemplate()), Map.class))
                .build();
    }

    @Test
    void aNewTemplateGetsANewRevisionNamedFromItsHashAndCollisionCountZero() {
        TemplateRevisions.Resolution r = StatefulSetRevisions.resolve(set("nginx:1", null), List.of());
        assertEquals(0, r.collisionCount());
        assertSame(r.update(), r.toCreate());
        assertEquals("web-" + StatefulSetRevisions.hash(
                StatefulSetRevisions.dataOf(set("nginx:1", null).getSpec().getTemplate()), 0),
                r.update().getMetadata().getName());
        assertEquals(1L, r.update().getRevision());
        assertEquals("web", r.update().getMetadata().getLabels().get("app"));
        // OpenKruise v1.9 (history.NewControllerRevision): the template's labels plus controller.kubernetes.io/hash.
        assertEquals(Map.of("app", "web", "controller.kubernetes.io/hash", r.update().getMetadata().getName()
                .substring("web-".length())), r.update().getMetadata().getLabels());
    }

    /**
     * Pinned against OpenKruise v1.9's {@code newRevision} for template {@code foo: bar / nginx:1.9.1}: the name and
     * hash label from {@code HashControllerRevision(data, 0)}, labels the template's (not the selector's) plus
     * {@code controller.kubernetes.io/hash}, annotations the set's.
     */
    @Test
    void aNewRevisionIsLabelledAndAnnotatedAsOpenKruiseLabelsIt() {
        StatefulSet set = ApiJson.serialization().unmarshal("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","metadata":{"name":"db","namespace":"ns",
                 "uid":"u1","annotations":{"team":"storage"}},"spec":{"selector":{"matchLabels":{"foo":"bar"}},
                 "template":{"metadata":{"labels":{"foo":"bar","tier":"db"}},"spec":{"containers":[
                 {"name":"nginx","image":"nginx:1.9.1"}]}}}}""", StatefulSet.class);
        ControllerRevision r = StatefulSetRevisions.resolve(set, List.of()).toCreate();
        String data = "{\"spec\":{\"template\":{\"$patch\":\"replace\",\"metadata\":{\"creationTimestamp\":null,"
                + "\"labels\":{\"foo\":\"bar\",\"tier\":\"db\"}},\"spec\":{\"containers\":[{\"image\":\"nginx:1.9.1\","
                + "\"name\":\"nginx\",\"resources\":{}}]}}}}";
        String hash = dev.kruisevertx.revision.RevisionHash.of(data.getBytes(java.nio.charset.StandardCharsets.UTF_8), 0);
        assertEquals("db-" + hash, r.getMetadata().getName());
        assertEquals(Map.of("foo", "bar", "tier", "db", "controller.kubernetes.io/hash", hash),
                r.getMetadata().getLabels());
        assertEquals(Map.of("team", "storage"), r.getMetadata().getAnnotations());
        assertEquals(data, new String(dev.kruisevertx.revision.GoRevisionData.bytes(
                StatefulSetRevisions.dataOf(set.getSpec().getTemplate())), java.nio.charset.StandardCharsets.UTF_8));
    }

    @Test
    void aRevisionWithTheSameDataIsReusedWhateverItsName() {
        // Another controller (OpenKruise) named it differently; the data decides.
        ControllerRevision theirs = stored("web-5d8f7b9c4", 3, "nginx:1");
        TemplateRevisions.Resolution r = StatefulSetRevisions.resolve(set("nginx:1", null), List.of(theirs));
        assertSame(theirs, r.update());
        assertNull(r.toCreate());
        assertNull(r.renumber());
    }

    @Test
    void rollingBackRenumbersTheOlderRevision() {
        ControllerRevision v1 = stored("web-a", 1, "nginx:1");
        ControllerRevision v2 = stored("web-b", 2, "nginx:2");
        TemplateRevisions.Resolution r = StatefulSetRevisions.resolve(set("nginx:1", null), List.of(v1, v2));
        assertSame(v1, r.renumber());
        assertEquals(3L, r.nextNumber());
        assertEquals("web-a", r.update().getMetadata().getName());
        assertEquals(3L, r.update().getRevision());
        assertNull(r.toCreate());
    }

    @Test
    void aNameTakenByOtherDataBumpsTheCollisionCount() {
        String wanted = StatefulSetRevisions.resolve(set("nginx:2", 4), List.of()).update().getMetadata().getName();
        ControllerRevision squatter = stored(wanted, 1, "nginx:1");
        TemplateRevisions.Resolution r = StatefulSetRevisions.resolve(set("nginx:2", 4), List.of(squatter));
        assertEquals(5, r.collisionCount());
        assertNotEquals(wanted, r.update().getMetadata().getName());
        assertEquals("web-" + StatefulSetRevisions.hash(
                StatefulSetRevisions.dataOf(set("nginx:2", null).getSpec().getTemplate()), 5),
                r.toCreate().getMetadata().getName());
        assertEquals(2L, r.toCreate().getRevision());
    }

    @Test
    void aConflictOnCreateIsOursWhenTheDataMatchesElseACollision() {
        StatefulSet s = set("nginx:1", null);
        TemplateRevisions.Resolution refused = StatefulSetRevisions.resolve(s, List.of());
        String name = refused.toCreate().getMetadata().getName();

        TemplateRevisions.Resolution ours = StatefulSetRevisions.afterConflict(s, refused, stored(name, 1, "nginx:1"));
        assertNull(ours.toCreate());
        assertEquals(name, ours.update().getMetadata().getName());
        assertEquals(0, ours.collisionCount());

        TemplateRevisions.Resolution collided = StatefulSetRevisions.afterConflict(s, refused,
                stored(name, 1, "busybox"));
        assertEquals(1, collided.collisionCount());
        assertNotEquals(name, collided.toCreate().getMetadata().getName());
    }

    @Test
    void pruningKeepsLiveRevisionsByExactNameOnlyAndDropsTheOldestBeyondTheLimit() {
        ControllerRevision r1 = stored("web-a", 1, "nginx:1");
        ControllerRevision r2 = stored("web-b", 2, "nginx:2");
        // Its hash label names a live revision, but StatefulSet (unlike CloneSet) only looks at the name.
        ControllerRevision r3 = new ControllerRevisionBuilder(stored("web-c", 3, "nginx:3")).editMetadata()
                .addToLabels("controller-revision-hash", "web-e").endMetadata().build();
        ControllerRevision r4 = stored("web-d", 4, "nginx:4");
        ControllerRevision r5 = stored("web-e", 5, "nginx:5");
        List<ControllerRevision> shuffled = List.of(r4, r1, r5, r3, r2);

        assertEquals(List.of("web-b", "web-c"),
                StatefulSetRevisions.toPrune(shuffled, java.util.Set.of("web-a", "web-e"), 1).stream().map(r -> r.getMetadata().getName()).toList());
        assertEquals(List.of(), StatefulSetRevisions.toPrune(shuffled, java.util.Set.of("web-a", "web-e"), 3));
        assertEquals(List.of("web-a", "web-b", "web-c", "web-d"),
                StatefulSetRevisions.toPrune(shuffled, java.util.Set.of("web-e"), 0).stream()
                        .map(r -> r.getMetadata().getName()).toList());
    }
}
