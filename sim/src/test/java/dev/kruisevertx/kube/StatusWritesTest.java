package dev.kruisevertx.kube;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus;
import dev.kruisevertx.api.crd.KruiseCrds;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * On the embedded API server, which (as kube-apiserver) refuses a write carrying a resourceVersion that is no longer
 * the object's: fabric8's mock server in CRUD mode does not check it on the status subresource, so it cannot tell a
 * status written over a newer object from one written over the version it was computed from.
 */
class StatusWritesTest {
    static ClusterFixture fixture;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setBuiltinControllers(false));
        client = fixture.client();
        client.apiextensions().v1().customResourceDefinitions().resource(KruiseCrds.of(CloneSet.class))
                .createOr(existing -> existing.update());
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    static CloneSetStatus status(int collisionCount) {
        CloneSetStatus s = new CloneSetStatus();
        s.setCollisionCount(collisionCount);
        return s;
    }

    private static CloneSet get(String name) {
        return client.resources(CloneSet.class).inNamespace("default").withName(name).get();
    }

    private static CloneSet create(String name) {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        cs.setSpec(new CloneSetSpec());
        return client.resources(CloneSet.class).inNamespace("default").resource(cs).create();
    }

    @Test
    void aStatusIsWrittenOnlyOverTheVersionItWasComputedFrom() {
        CloneSet created = create("web");

        assertTrue(StatusWrites.writeOverSameVersion(client, CloneSet.class, created, live -> live.setStatus(status(1))));
        CloneSet afterFirst = get("web");
        assertEquals(1, afterFirst.getStatus().getCollisionCount());
        assertNull(created.getStatus(), "the object the status was computed from is left as it was");

        // A reconcile that still sees the object as it was before that write must not undo it.
        assertFalse(StatusWrites.writeOverSameVersion(client, CloneSet.class, created, live -> live.setStatus(status(0))));
        assertEquals(1, get("web").getStatus().getCollisionCount());

        // Once the cache has caught up, the write goes through.
        assertTrue(StatusWrites.writeOverSameVersion(client, CloneSet.class, afterFirst, live -> live.setStatus(status(2))));
        assertEquals(2, get("web").getStatus().getCollisionCount());
    }

    @Test
    void aStatusComputedBeforeASpecChangeIsNotWrittenAndTheStatusWriteChangesNothingElse() {
        CloneSet created = create("spec-change");
        CloneSet edited = client.resources(CloneSet.class).inNamespace("default").withName("spec-change")
                .edit(cs -> {
                    cs.getSpec().setReplicas(3);
                    return cs;
                });

        assertFalse(StatusWrites.writeOverSameVersion(client, CloneSet.class, created, live -> live.setStatus(status(1))));
        assertNull(get("spec-change").getStatus());

        // A status write sends the whole object: only its status may change on the server.
        assertTrue(StatusWrites.writeOverSameVersion(client, CloneSet.class, edited, live -> {
            live.setStatus(status(4));
            live.getSpec().setReplicas(9);
            live.getMetadata().setLabels(java.util.Map.of("written", "through-status"));
        }));
        CloneSet after = get("spec-change");
        assertEquals(4, after.getStatus().getCollisionCount());
        assertEquals(3, after.getSpec().getReplicas());
        assertFalse(after.getMetadata().getLabels() != null && after.getMetadata().getLabels().containsKey("written"));
    }
}
