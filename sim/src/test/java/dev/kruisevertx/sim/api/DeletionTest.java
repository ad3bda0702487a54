package dev.kruisevertx.sim.api;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeletionTest {
    static final Duration TIMEOUT = Duration.ofSeconds(20);
    static ClusterFixture fixture;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0));
        client = fixture.client();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    static ConfigMap create(String name, ConfigMap owner, String... finalizers) {
        ConfigMapBuilder b = new ConfigMapBuilder().withNewMetadata().withName(name).withFinalizers(finalizers).endMetadata();
        if (owner != null) {
            b.editMetadata().addNewOwnerReference().withApiVersion("v1").withKind("ConfigMap").withName(owner.getMetadata().getName())
                    .withUid(owner.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).endOwnerReference().endMetadata();
        }
        return client.configMaps().inNamespace("default").resource(b.build()).create();
    }

    static ConfigMap get(String name) {
        return client.configMaps().inNamespace("default").withName(name).get();
    }

    @Test
    void finalizersKeepObjectUntilRemoved() {
        create("fin", null, "example.com/hold");
        client.configMaps().inNamespace("default").withName("fin").delete();
        ConfigMap held = get("fin");
        assertNotNull(held);
        assertNotNull(held.getMetadata().getDeletionTimestamp());
        client.configMaps().inNamespace("default").withName("fin").edit(c -> new ConfigMapBuilder(c).editMetadata().withFinalizers(List.of()).endMetadata().build());
        assertNull(get("fin"));
    }

    @Test
    void backgroundGarbageCollection() {
        ConfigMap owner = create("bg-owner", null);
        create("bg-dep-1", owner);
        ConfigMap dep2 = create("bg-dep-2", owner);
        create("bg-grandchild", dep2);
        client.configMaps().inNamespace("default").withName("bg-owner").withPropagationPolicy(DeletionPropagation.BACKGROUND).delete();
        Await.waitFor("dependents and grandchild collected", TIMEOUT,
                () -> get("bg-dep-1") == null && get("bg-dep-2") == null && get("bg-grandchild") == null);
    }

    @Test
    void dependentWithAnotherLiveOwnerIsKept() {
        ConfigMap a = create("two-a", null);
        ConfigMap b = create("two-b", null);
        ConfigMap dep = new ConfigMapBuilder(create("two-dep", a)).editMetadata().addNewOwnerReference().withApiVersion("v1").withKind("ConfigMap")
                .withName("two-b").withUid(b.getMetadata().getUid()).endOwnerReference().endMetadata().build();
        client.configMaps().inNamespace("default").resource(dep).update();
        client.configMaps().inNamespace("default").withName("two-a").delete();
        Await.waitFor("reference to the removed owner dropped", TIMEOUT, () -> get("two-dep"),
                d -> d != null && d.getMetadata().getOwnerReferences().size() == 1
                        && d.getMetadata().getOwnerReferences().get(0).getName().equals("two-b"));
    }

    @Test
    void orphanPropagationKeepsDependents() {
        ConfigMap owner = create("or-owner", null);
        create("or-dep", owner);
        client.configMaps().inNamespace("default").withName("or-owner").withPropagationPolicy(DeletionPropagation.ORPHAN).delete();
        Await.waitFor("owner gone", TIMEOUT, () -> get("or-owner") == null);
        ConfigMap dep = get("or-dep");
        assertNotNull(dep);
        assertTrue(dep.getMetadata().getOwnerReferences() == null || dep.getMetadata().getOwnerReferences().isEmpty());
    }

    @Test
    void foregroundWaitsForDependents() {
        ConfigMap owner = create("fg-owner", null);
        create("fg-dep", owner, "example.com/slow");
        client.configMaps().inNamespace("default").withName("fg-owner").withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
        ConfigMap deleting = get("fg-owner");
        assertNotNull(deleting.getMetadata().getDeletionTimestamp());
        assertTrue(deleting.getMetadata().getFinalizers().contains("foregroundDeletion"));
        Await.waitFor("dependent marked for deletion", TIMEOUT, () -> get("fg-dep").getMetadata().getDeletionTimestamp() != null);
        client.configMaps().inNamespace("default").withName("fg-dep").edit(c -> new ConfigMapBuilder(c).editMetadata().withFinalizers(List.of()).endMetadata().build());
        Await.waitFor("owner removed after its dependent", TIMEOUT, () -> get("fg-owner") == null);
    }

    @Test
    void scheduledPodDeletionIsGraceful() {
        Pod pod = new PodBuilder().withNewMetadata().withName("graceful").endMetadata().withNewSpec().withNodeName("nowhere")
                .withTerminationGracePeriodSeconds(20L).addNewContainer().withName("c").withImage("i").endContainer().endSpec().build();
        client.pods().inNamespace("default").resource(pod).create();
        client.pods().inNamespace("default").withName("graceful").delete();
        Pod terminating = client.pods().inNamespace("default").withName("graceful").get();
        assertNotNull(terminating.getMetadata().getDeletionTimestamp());
        assertEquals(20L, terminating.getMetadata().getDeletionGracePeriodSeconds());
        client.pods().inNamespace("default").withName("graceful").withGracePeriod(0).delete();
        assertNull(client.pods().inNamespace("default").withName("graceful").get());
    }

    @Test
    void namespaceDeletionRemovesContents() {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("doomed").endMetadata().build()).create();
        client.configMaps().inNamespace("doomed").resource(new ConfigMapBuilder().withNewMetadata().withName("inside").endMetadata().build()).create();
        client.namespaces().withName("doomed").delete();
        Await.waitFor("namespace and contents gone", TIMEOUT,
                () -> client.namespaces().withName("doomed").get() == null && client.configMaps().inNamespace("doomed").list().getItems().isEmpty());
    }
}
