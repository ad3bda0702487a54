package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.kruisevertx.cache.MockCluster.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Informers of kinds known only at run time on the shared cache: found by discovery, one per kind, shared. */
class WatchCacheGenericTest {
    private MockCluster cluster;
    private WatchCache cache;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.crud();
        cache = new WatchCache(cluster.client, WatchCacheOptions.defaults(), new SimpleMeterRegistry());
        cluster.server.expectCustomResource(new CustomResourceDefinitionContext.Builder()
                .withGroup("ws.example.com").withVersion("v1").withKind("Gadget").withPlural("gadgets")
                .withScope("Namespaced").build());
        cluster.client.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName("gadgets.ws.example.com").endMetadata()
                .withNewSpec().withGroup("ws.example.com").withScope("Namespaced")
                .withNewNames().withKind("Gadget").withPlural("gadgets").endNames()
                .addNewVersion().withName("v1").withServed(true).withStorage(true).endVersion()
                .endSpec().build()).create();
    }

    @AfterEach
    void tearDown() {
        cache.close();
        cluster.close();
    }

    @Test
    void oneInformerPerKindSharedByEveryCallerAndFedByTheWatch() {
        CachedResource<GenericKubernetesResource> first = cache.generic("ws.example.com", "v1", "Gadget").orElseThrow();
        assertSame(first, cache.generic("ws.example.com", "v1", "Gadget").orElseThrow(),
                "a second caller (another controller) gets the same informer");
        await("the informer lists", first::hasSynced);
        List<CacheEvent<GenericKubernetesResource>> events = new CopyOnWriteArrayList<>();
        first.addListener(events::add);
        cluster.client.genericKubernetesResources("ws.example.com/v1", "Gadget").inNamespace("a")
                .resource(new GenericKubernetesResourceBuilder().withApiVersion("ws.example.com/v1").withKind("Gadget")
                        .withNewMetadata().withName("g").withNamespace("a").endMetadata()
                        .addToAdditionalProperties("spec", Map.of("replicas", 3)).build()).create();
        await("the watch delivers the new Gadget", () -> first.get("a", "g") != null && !events.isEmpty());
        assertEquals("g", events.get(0).object().getMetadata().getName());
        assertTrue(cache.hasSynced());
    }

    @Test
    void aKindTheServerDoesNotServeHasNoInformer() {
        assertTrue(cache.generic("ws.example.com", "v1", "Widgetless").isEmpty());
        assertTrue(cache.generic("nowhere.example.com", "v1", "Gadget").isEmpty());
        assertTrue(cache.hasSynced(), "nothing started, nothing to wait for");
    }
}
