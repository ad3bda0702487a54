package dev.kruisevertx.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.impl.BaseClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.kruisevertx.cache.MockCluster.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The watch cache's client decodes without managedFields and otherwise exactly as the main client: on a realistic pod
 * as kube-apiserver serves it, decoded alone and listed/watched from fabric8's CRUD mock API server.
 */
class LeanDecodingClientTest {
    private static final String POD_JSON = resource("/cache/realistic-pod.json");
    private static final String NS = "a";

    private MockCluster cluster;
    private WatchCache cache;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.crud();
    }

    @AfterEach
    void tearDown() {
        if (cache != null) {
            cluster.settlePods(cache.resource(Pod.class), NS);
            cache.close();
        }
        cluster.close();
    }

    private static String resource(String path) {
        try (InputStream in = LeanDecodingClientTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode json(Object o) {
        return ApiJson.serialization().convertValue(o, JsonNode.class);
    }

    /** The fixture as a client creates it: named {@code name} in {@link #NS}, managedFields kept. */
    private static Pod podToCreate(String name) {
        Pod pod = ApiJson.serialization().unmarshal(POD_JSON, Pod.class);
        pod.getMetadata().setName(name);
        pod.getMetadata().setNamespace(NS);
        pod.getMetadata().setResourceVersion(null);
        pod.getMetadata().setUid(null);
        return pod;
    }

    @Test
    void aRealisticPodDecodesWithoutManagedFieldsAndOtherwiseAsLeanObjectsLeavesIt() {
        Pod whole = ApiJson.serialization().unmarshal(POD_JSON, Pod.class);
        assertFalse(whole.getMetadata().getManagedFields().isEmpty(), "the fixture carries managedFields");

        Pod skipped = LeanDecodingClient.serialization().unmarshal(POD_JSON, Pod.class);

        assertTrue(skipped.getMetadata().getManagedFields().isEmpty());
        assertTrue(skipped.getMetadata().getAdditionalProperties().isEmpty(),
                "an ignored property must not land in the additional properties either");
        // The cache's result today: decoded whole, then the transform; now: decoded without, then the transform.
        Pod today = LeanObjects.withDefaultInterner().apply(whole);
        Pod now = LeanObjects.withDefaultInterner().apply(skipped);
        assertEquals(json(today), json(now));
        assertEquals(today, now);
        assertEquals(today.hashCode(), now.hashCode());
        // Nothing but managedFields is skipped at the parser: the last-applied annotation is still the transform's.
        Pod untransformed = ApiJson.serialization().unmarshal(POD_JSON, Pod.class);
        untransformed.getMetadata().setManagedFields(List.of());
        Pod skippedOnly = LeanDecodingClient.serialization().unmarshal(POD_JSON, Pod.class);
        assertEquals(json(untransformed), json(skippedOnly));
        assertEquals(untransformed, skippedOnly);
        assertTrue(skippedOnly.getMetadata().getAnnotations().containsKey(LeanObjects.LAST_APPLIED));
    }

    @Test
    void customResourcesDecodeWithoutManagedFieldsToo() {
        String cloneSet = """
                {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet",
                 "metadata":{"name":"cs","namespace":"a","managedFields":[{"manager":"kubectl","operation":"Apply",
                   "apiVersion":"apps.kruise.io/v1alpha1","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{"f:replicas":{}}}}]},
                 "spec":{"replicas":3}}""";
        CloneSet whole = ApiJson.serialization().unmarshal(cloneSet, CloneSet.class);
        CloneSet skipped = LeanDecodingClient.serialization().unmarshal(cloneSet, CloneSet.class);
        assertEquals(1, whole.getMetadata().getManagedFields().size());
        assertTrue(skipped.getMetadata().getManagedFields().isEmpty());
        assertEquals(Integer.valueOf(3), skipped.getSpec().getReplicas());
        // Kinds known only at run time (whitelisted workloads) are cached as generic resources: typed metadata too.
        GenericKubernetesResource generic = LeanDecodingClient.serialization()
                .unmarshal(cloneSet, GenericKubernetesResource.class);
        assertTrue(generic.getMetadata().getManagedFields().isEmpty());
        assertEquals("cs", generic.getMetadata().getName());
        assertEquals(3, ((Number) ((java.util.Map<?, ?>) generic.getAdditionalProperties().get("spec")).get("replicas")).intValue());
    }

    @Test
    void theViewSharesTheMainClientsHttpClientAndIsMadeOnce() {
        KubernetesClient main = cluster.client;
        KubernetesClient lean = LeanDecodingClient.over(main);

        assertNotSame(main, lean);
        assertTrue(LeanDecodingClient.skipsManagedFields(lean));
        assertFalse(LeanDecodingClient.skipsManagedFields(main));
        assertSame(((BaseClient) main).getHttpClient(), ((BaseClient) lean).getHttpClient(), "no second connection pool");
        assertSame(((BaseClient) main).getExecutor(), ((BaseClient) lean).getExecutor(), "no second thread pool");
        assertSame(lean, LeanDecodingClient.over(lean));
        assertEquals(main.getConfiguration().getMasterUrl(), lean.getConfiguration().getMasterUrl());
    }

    @Test
    void listsAndWatchesThroughTheViewCarryNoManagedFieldsWhileTheMainClientSeesThem() throws Exception {
        KubernetesClient main = cluster.client;
        main.pods().inNamespace(NS).resource(podToCreate("listed")).create();
        Pod stored = main.pods().inNamespace(NS).withName("listed").get();
        assertFalse(stored.getMetadata().getManagedFields().isEmpty(), "the mock keeps the managedFields it was given");

        KubernetesClient lean = LeanDecodingClient.over(main);
        Pod listed = lean.pods().inNamespace(NS).list().getItems().get(0);
        assertTrue(listed.getMetadata().getManagedFields().isEmpty());
        ObjectNode expected = (ObjectNode) json(stored);
        ((ObjectNode) expected.get("metadata")).remove("managedFields");
        assertEquals(expected, json(listed));

        List<Pod> watched = new CopyOnWriteArrayList<>();
        try (Watch ignored = lean.pods().inNamespace(NS).withResourceVersion(listed.getMetadata().getResourceVersion())
                .watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Pod pod) {
                        if (action == Action.ADDED && "watched".equals(pod.getMetadata().getName())) {
                            watched.add(pod);
                        }
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                    }
                })) {
            main.pods().inNamespace(NS).resource(podToCreate("watched")).create();
            await("the watch event of the new pod", () -> !watched.isEmpty());
        }
        assertTrue(watched.get(0).getMetadata().getManagedFields().isEmpty());
        assertFalse(main.pods().inNamespace(NS).withName("watched").get().getMetadata().getManagedFields().isEmpty(),
                "the main client still decodes them");
        // The view is not closed: closing it would close the HTTP client it shares. The main client still works.
        assertNotNull(main.pods().inNamespace(NS).withName("listed").get());
    }

    @Test
    void anInformerMadeThroughTheViewStoresPodsWithoutManagedFields() {
        KubernetesClient main = cluster.client;
        main.pods().inNamespace(NS).resource(podToCreate("listed")).create();
        var informer = LeanDecodingClient.over(main).pods().inNamespace(NS).inform();
        try {
            await("the listed pod in the informer", () -> informer.getStore().getByKey(NS + "/listed") != null);
            main.pods().inNamespace(NS).resource(podToCreate("watched")).create();
            await("the watched pod in the informer", () -> informer.getStore().getByKey(NS + "/watched") != null);
            // No transform here: what the store holds is what fabric8's list and watch decoded.
            assertTrue(informer.getStore().getByKey(NS + "/listed").getMetadata().getManagedFields().isEmpty());
            assertTrue(informer.getStore().getByKey(NS + "/watched").getMetadata().getManagedFields().isEmpty());
            main.pods().inNamespace(NS).resource(podToCreate("settle")).create();
            await("the last pod in the informer", () -> informer.getStore().getByKey(NS + "/settle") != null);
        } finally {
            informer.stop();
        }
    }

    @Test
    void withoutTheLeanTransformTheCacheDecodesWhole() {
        try (WatchCache whole = new WatchCache(cluster.client, WatchCacheOptions.defaults().withLeanObjects(false),
                new SimpleMeterRegistry())) {
            assertSame(cluster.client, whole.listingClient(), "measuring the cache before its transform: nothing skipped");
        }
    }

    @Test
    void theWatchCacheHoldsWhatLeanObjectsMadeOfTheWholePodBefore() {
        KubernetesClient main = cluster.client;
        main.pods().inNamespace(NS).resource(podToCreate("listed")).create();
        cache = new WatchCache(main, WatchCacheOptions.defaults().withNamespace(NS), new SimpleMeterRegistry());
        assertTrue(LeanDecodingClient.skipsManagedFields(cache.listingClient()));
        CachedResource<Pod> pods = cache.resource(Pod.class);
        cache.start(Pod.class);
        await("the listed pod in the cache", () -> pods.get(NS, "listed") != null);
        main.pods().inNamespace(NS).resource(podToCreate("watched")).create();
        await("the watched pod in the cache", () -> pods.get(NS, "watched") != null);

        for (String name : List.of("listed", "watched")) {
            Pod fromServer = main.pods().inNamespace(NS).withName(name).get();
            assertFalse(fromServer.getMetadata().getManagedFields().isEmpty());
            Pod leanBefore = LeanObjects.withDefaultInterner().apply(fromServer);
            Pod cached = pods.get(NS, name);
            assertEquals(json(leanBefore), json(cached), name);
            assertEquals(leanBefore, cached, name);
        }
    }
}
