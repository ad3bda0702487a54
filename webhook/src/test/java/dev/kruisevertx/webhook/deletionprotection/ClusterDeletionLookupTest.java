package dev.kruisevertx.webhook.deletionprotection;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.webhook.deletionprotection.DeletionProtectionLookup.CustomResourceType;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The manager's lookup against the embedded API server: cached pods when the cache watches the namespace, the API
 * server otherwise; claims and custom resources listed page by page; all of it on worker threads.
 */
class ClusterDeletionLookupTest {
    static ClusterFixture fixture;
    static KubernetesClient client;
    static Vertx vertx;

    @BeforeAll
    static void start() {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0));
        client = fixture.client();
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        if (vertx != null) {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    static <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    static void namespace(String name) {
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
                .create();
    }

    static Pod pod(String namespace, String name) {
        return client.pods().inNamespace(namespace).resource(new PodBuilder().withNewMetadata().withName(name)
                .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("nginx").endContainer()
                .endSpec().build()).create();
    }

    @Test
    void activePodsComeFromTheCacheOnAWorkerAndFromTheApiServerWhenTheCacheDoesNotWatchTheNamespace() throws Exception {
        namespace("pods-a");
        Pod running = pod("pods-a", "p1");
        Pod done = pod("pods-a", "p2");
        done.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Succeeded").build());
        done = client.pods().inNamespace("pods-a").resource(done).updateStatus();
        List<Pod> cached = List.of(running, done);
        List<String> threads = new CopyOnWriteArrayList<>();
        ClusterDeletionLookup lookup = new ClusterDeletionLookup(vertx, client, ns -> {
            threads.add(Thread.currentThread().getName());
            return ns.equals("pods-a") ? Optional.of(cached) : Optional.empty();
        });
        assertEquals(1, await(lookup.activePods("pods-a")));
        assertTrue(threads.get(0).contains("worker"), threads.toString());

        namespace("pods-b");
        pod("pods-b", "q1");
        pod("pods-b", "q2");
        assertEquals(2, await(lookup.activePods("pods-b")), "read from the API server");
        assertEquals(0, await(lookup.activePods("pods-empty")));
    }

    @Test
    void boundClaimsArePagedUntilOneIsFound() throws Exception {
        namespace("claims");
        // More than a page of pending claims before the Bound one.
        for (int i = 0; i < ClusterDeletionLookup.PAGE + 20; i++) {
            claim("claims", String.format("a-%03d", i));
        }
        ClusterDeletionLookup lookup = new ClusterDeletionLookup(vertx, client, ns -> Optional.of(List.of()));
        assertEquals(0, await(lookup.boundClaims("claims")));
        PersistentVolumeClaim bound = claim("claims", "z-bound");
        bound.setStatus(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder().withPhase("Bound").build());
        client.persistentVolumeClaims().inNamespace("claims").resource(bound).updateStatus();
        assertEquals(1, await(lookup.boundClaims("claims")));
    }

    static PersistentVolumeClaim claim(String namespace, String name) {
        return client.persistentVolumeClaims().inNamespace(namespace).resource(new PersistentVolumeClaimBuilder()
                .withNewMetadata().withName(name).endMetadata().withNewSpec().withAccessModes("ReadWriteOnce")
                .withNewResources().withRequests(Map.of("storage", new Quantity("1Gi"))).endResources().endSpec()
                .build()).create();
    }

    @Test
    void customResourcesAreCountedAcrossNamespaces() throws Exception {
        client.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName("widgets.example.com").endMetadata()
                .withNewSpec().withGroup("example.com").withScope("Namespaced")
                .withNewNames().withPlural("widgets").withSingular("widget").withKind("Widget").withListKind("WidgetList")
                .endNames()
                .addNewVersion().withName("v1").withServed(true).withStorage(true).withNewSchema()
                .withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema().endSchema().endVersion()
                .endSpec().build()).create();
        CustomResourceType type = new CustomResourceType("example.com", "v1", "Widget", "widgets", true);
        ClusterDeletionLookup lookup = new ClusterDeletionLookup(vertx, client, ns -> Optional.of(List.of()));
        assertEquals(0, awaitEventually(lookup, type, 0));
        namespace("widgets-a");
        namespace("widgets-b");
        ResourceDefinitionContext context = new ResourceDefinitionContext.Builder().withGroup("example.com")
                .withVersion("v1").withPlural("widgets").withKind("Widget").withNamespaced(true).build();
        for (String ns : List.of("widgets-a", "widgets-b")) {
            client.genericKubernetesResources(context).inNamespace(ns).resource(new GenericKubernetesResourceBuilder()
                    .withApiVersion("example.com/v1").withKind("Widget").withNewMetadata().withName("w")
                    .withNamespace(ns).endMetadata().build()).create();
        }
        assertEquals(2, await(lookup.activeCustomResources(type)));
    }

    /** The CRD's resource is served shortly after it is created. */
    static int awaitEventually(ClusterDeletionLookup lookup, CustomResourceType type, int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                int n = await(lookup.activeCustomResources(type));
                if (n == expected || System.nanoTime() > deadline) {
                    return n;
                }
            } catch (Exception e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
            }
            Thread.sleep(200);
        }
    }
}
