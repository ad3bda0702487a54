package dev.kruisevertx.sim.api;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
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

    static ConfigMap createOwnedBy(String name, String apiVersion, String kind, String ownerName, String... uids) {
        ConfigMapBuilder b = new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata();
        for (String uid : uids) {
            b.editMetadata().addNewOwnerReference().withApiVersion(apiVersion).withKind(kind).withName(ownerName)
                    .withUid(uid).endOwnerReference().endMetadata();
        }
        return client.configMaps().inNamespace("default").resource(b.build()).create();
    }

    /** Waits until every request the API server took before now has been handled, with the work it queued. */
    static void settle() throws Exception {
        // The collector judges a new dependent on a later turn of the API server's context; two turns later it is done.
        for (int i = 0; i < 2; i++) {
            fixture.cluster().onApiContext(() -> null).await(10, java.util.concurrent.TimeUnit.SECONDS);
        }
    }

    @Test
    void dependentCreatedAfterItsOwnerWasDeletedIsCollected() {
        ConfigMap owner = create("late-owner", null);
        client.configMaps().inNamespace("default").withName("late-owner").delete();
        Await.waitFor("owner gone", TIMEOUT, () -> get("late-owner") == null);
        // A controller whose cache still showed the owner creates one more dependent: the create succeeds, as on
        // kube-apiserver, and the garbage collector removes it.
        assertNotNull(create("late-dep", owner));
        Await.waitFor("dependent of a deleted owner collected", TIMEOUT, () -> get("late-dep") == null);
    }

    @Test
    void dependentOfAReplacedOwnerIsCollectedAndOneOfTheNewOwnerKept() throws Exception {
        ConfigMap first = create("re-owner", null);
        client.configMaps().inNamespace("default").withName("re-owner").delete();
        Await.waitFor("first owner gone", TIMEOUT, () -> get("re-owner") == null);
        ConfigMap second = create("re-owner", null);
        create("re-dep-old", first);
        create("re-dep-new", second);
        Await.waitFor("dependent of the old uid collected", TIMEOUT, () -> get("re-dep-old") == null);
        settle();
        assertNotNull(get("re-dep-new"));
    }

    @Test
    void danglingReferenceIsDroppedWhenAnotherOwnerLives() {
        ConfigMap gone = create("dangling-gone", null);
        ConfigMap alive = create("dangling-alive", null);
        client.configMaps().inNamespace("default").withName("dangling-gone").delete();
        Await.waitFor("owner gone", TIMEOUT, () -> get("dangling-gone") == null);
        createOwnedBy("dangling-dep", "v1", "ConfigMap", "either", gone.getMetadata().getUid(),
                alive.getMetadata().getUid());
        Await.waitFor("only the live owner left", TIMEOUT, () -> get("dangling-dep"), d -> d != null
                && d.getMetadata().getOwnerReferences().size() == 1
                && d.getMetadata().getOwnerReferences().get(0).getUid().equals(alive.getMetadata().getUid()));
    }

    @Test
    void referenceToAKindTheServerDoesNotServeKeepsTheDependent() throws Exception {
        createOwnedBy("unknown-kind-dep", "example.com/v1", "Widget", "w", "7d0c1f8e-0000-4000-8000-000000000001");
        settle();
        ConfigMap dep = get("unknown-kind-dep");
        assertNotNull(dep, "an owner whose kind cannot be looked up is not called absent");
        assertEquals(1, dep.getMetadata().getOwnerReferences().size());
    }

    @Test
    void dependentCreatedWhileItsOwnerWaitsInForegroundDeletionIsCollected() {
        ConfigMap owner = create("fg-late-owner", null);
        create("fg-late-held", owner, "example.com/slow");
        client.configMaps().inNamespace("default").withName("fg-late-owner")
                .withPropagationPolicy(DeletionPropagation.FOREGROUND).delete();
        Await.waitFor("first dependent marked for deletion", TIMEOUT,
                () -> get("fg-late-held").getMetadata().getDeletionTimestamp() != null);
        create("fg-late-new", owner);
        Await.waitFor("dependent created during the foreground deletion collected", TIMEOUT,
                () -> get("fg-late-new") == null);
        client.configMaps().inNamespace("default").withName("fg-late-held")
                .edit(c -> new ConfigMapBuilder(c).editMetadata().withFinalizers(List.of()).endMetadata().build());
        Await.waitFor("owner removed after its dependents", TIMEOUT, () -> get("fg-late-owner") == null);
    }

    @Test
    void manyDependentsAreCollectedAcrossSeveralTurns() {
        int count = 2 * GarbageCollector.DEPENDENTS_PER_TURN + 50;
        ConfigMap owner = create("many-owner", null);
        for (int i = 0; i < count; i++) {
            create("many-dep-" + i, owner);
        }
        client.configMaps().inNamespace("default").withName("many-owner").delete();
        Await.waitFor("all " + count + " dependents collected", TIMEOUT, () -> client.configMaps().inNamespace("default")
                .list().getItems().stream().noneMatch(c -> c.getMetadata().getName().startsWith("many-dep-")));
    }

    @Test
    void dependentsOfCustomResourcesAreCollectedAlsoWhenTheirDefinitionGoes() {
        ResourceDefinitionContext gadgets = new ResourceDefinitionContext.Builder().withGroup("gc.kruise-vertx.dev")
                .withVersion("v1").withPlural("gadgets").withKind("Gadget").withNamespaced(true).build();
        ManifestApplier.apply(client, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: gadgets.gc.kruise-vertx.dev}
                spec:
                  group: gc.kruise-vertx.dev
                  scope: Namespaced
                  names: {plural: gadgets, singular: gadget, kind: Gadget}
                  versions:
                  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
                """);
        GenericKubernetesResource first = client.genericKubernetesResources(gadgets).inNamespace("default")
                .resource(gadget("g1")).create();
        client.genericKubernetesResources(gadgets).inNamespace("default").withName("g1").delete();
        Await.waitFor("owner gone", TIMEOUT,
                () -> client.genericKubernetesResources(gadgets).inNamespace("default").withName("g1").get() == null);
        // A CRD-backed owner, as a CloneSet is: a pod created after it went (the create raced the delete) goes too.
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("gadget-pod")
                .addNewOwnerReference().withApiVersion("gc.kruise-vertx.dev/v1").withKind("Gadget").withName("g1")
                .withUid(first.getMetadata().getUid()).withController(true).endOwnerReference().endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("i").endContainer().endSpec().build()).create();
        Await.waitFor("pod of the deleted owner collected", TIMEOUT,
                () -> client.pods().inNamespace("default").withName("gadget-pod").get() == null);

        GenericKubernetesResource second = client.genericKubernetesResources(gadgets).inNamespace("default")
                .resource(gadget("g2")).create();
        createOwnedBy("gadget-dep", "gc.kruise-vertx.dev/v1", "Gadget", "g2", second.getMetadata().getUid());
        client.apiextensions().v1().customResourceDefinitions().withName("gadgets.gc.kruise-vertx.dev").delete();
        Await.waitFor("dependent collected with the objects of the removed CRD", TIMEOUT,
                () -> get("gadget-dep") == null);
    }

    static GenericKubernetesResource gadget(String name) {
        return new GenericKubernetesResourceBuilder().withApiVersion("gc.kruise-vertx.dev/v1").withKind("Gadget")
                .withNewMetadata().withName(name).endMetadata().build();
    }
}
