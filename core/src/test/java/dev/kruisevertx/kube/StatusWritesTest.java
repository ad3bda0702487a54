package dev.kruisevertx.kube;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus;
import dev.kruisevertx.api.crd.KruiseCrds;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@EnableKubernetesMockClient(crud = true)
class StatusWritesTest {
    static KubernetesClient client;

    @BeforeEach
    void installCrd() {
        client.apiextensions().v1().customResourceDefinitions().resource(KruiseCrds.of(CloneSet.class))
                .createOr(existing -> existing.update());
    }

    static CloneSetStatus status(int collisionCount) {
        CloneSetStatus s = new CloneSetStatus();
        s.setCollisionCount(collisionCount);
        return s;
    }

    @Test
    void aStatusIsWrittenOnlyOverTheVersionItWasComputedFrom() {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("status-writes").build());
        cs.setSpec(new CloneSetSpec());
        CloneSet created = client.resources(CloneSet.class).inNamespace("status-writes").resource(cs).create();

        assertTrue(StatusWrites.writeOverSameVersion(client, CloneSet.class, created, live -> live.setStatus(status(1))));
        CloneSet afterFirst = client.resources(CloneSet.class).inNamespace("status-writes").withName("web").get();
        assertEquals(1, afterFirst.getStatus().getCollisionCount());

        // A reconcile that still sees the object as it was before that write must not undo it.
        assertFalse(StatusWrites.writeOverSameVersion(client, CloneSet.class, created, live -> live.setStatus(status(0))));
        assertEquals(1, client.resources(CloneSet.class).inNamespace("status-writes").withName("web").get()
                .getStatus().getCollisionCount());

        // Once the cache has caught up, the write goes through.
        assertTrue(StatusWrites.writeOverSameVersion(client, CloneSet.class, afterFirst, live -> live.setStatus(status(2))));
        assertEquals(2, client.resources(CloneSet.class).inNamespace("status-writes").withName("web").get()
                .getStatus().getCollisionCount());
    }
}
