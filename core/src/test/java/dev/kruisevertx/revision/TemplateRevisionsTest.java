package dev.kruisevertx.revision;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The shared update-revision resolution, and its write against the CRUD mock API server. */
@EnableKubernetesMockClient(crud = true)
class TemplateRevisionsTest {
    static KubernetesClient client;
    static final String NS = "revisions";

    static PodTemplateSpec template(String image) {
        return new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "a").endMetadata().withNewSpec()
                .addNewContainer().withName("main").withImage(image).endContainer().endSpec().build();
    }

    static TemplateRevisions.Builder builder() {
        return (data, collisions, number) -> {
            String hash = TemplateRevisions.hash(data, collisions);
            return TemplateRevisions.build("set", NS, null, new OwnerReferenceBuilder().withApiVersion("v1")
                    .withKind("Owner").withName("set").withUid("uid-1").build(), data, hash, hash, number);
        };
    }

    @Test
    void aNewTemplateGetsANewRevisionAndAnOldOneIsRenumbered() {
        JsonNode v1 = TemplateRevisions.dataOf(template("nginx:1"));
        JsonNode v2 = TemplateRevisions.dataOf(template("nginx:2"));
        TemplateRevisions.Resolution first = TemplateRevisions.resolve(v1, List.of(), null, builder());
        assertSame(first.update(), first.toCreate());
        assertEquals("set-" + first.hash(), first.update().getMetadata().getName());
        assertEquals(1, first.nextNumber());

        TemplateRevisions.Resolution second = TemplateRevisions.resolve(v2, List.of(first.update()), null, builder());
        assertNotEquals(first.hash(), second.hash());
        assertEquals(2L, second.update().getRevision());

        TemplateRevisions.Resolution back = TemplateRevisions.resolve(v1, List.of(first.update(), second.update()), null,
                builder());
        assertNull(back.toCreate());
        assertSame(first.update(), back.renumber());
        assertEquals(3L, back.update().getRevision());
        assertEquals(first.hash(), back.hash());
    }

    @Test
    void aNameTakenByOtherDataBumpsTheCollisionCountWhenWritten() {
        JsonNode data = TemplateRevisions.dataOf(template("nginx:1"));
        TemplateRevisions.Resolution refused = TemplateRevisions.resolve(data, List.of(), null, builder());
        // Someone else holds the name with other data, unseen by the cache.
        ControllerRevision squatter = builder().build(TemplateRevisions.dataOf(template("busybox")), 0, 1);
        squatter.getMetadata().setName(refused.toCreate().getMetadata().getName());
        client.apps().controllerRevisions().inNamespace(NS).resource(squatter).create();

        TemplateRevisions.Resolution written = RevisionWrites.write(client, refused, "Owner revisions/set",
                (r, existing) -> TemplateRevisions.afterConflict(data, r, existing, builder()));

        assertEquals(1, written.collisionCount());
        assertNotEquals(refused.toCreate().getMetadata().getName(), written.update().getMetadata().getName());
        assertEquals(written.update().getMetadata().getName(), client.apps().controllerRevisions().inNamespace(NS)
                .withName(written.update().getMetadata().getName()).get().getMetadata().getName());
        // Our own revision found under the name (the cache had not seen it): no collision.
        TemplateRevisions.Resolution again = new TemplateRevisions.Resolution(written.update(), written.update(), null,
                1, 1);
        TemplateRevisions.Resolution ours = RevisionWrites.write(client, again, "Owner revisions/set",
                (r, existing) -> TemplateRevisions.afterConflict(data, r, existing, builder()));
        assertNull(ours.toCreate());
        assertEquals(1, ours.collisionCount());
    }
}
