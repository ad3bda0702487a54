package dev.kruisevertx.sim.cache;

import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.cache.LeanObjects;
import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.cache.WatchCacheOptions;
import dev.kruisevertx.kube.ObjectEdits;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The lean watch cache drops a Pod's managedFields and last-applied annotation; a controller that writes a change
 * starting from the cached copy ({@link ObjectEdits}, which every controller's pod writes go through) must not erase
 * them on the server. Against the embedded API server, which stores whatever a full update sends.
 */
class LeanCacheWriteBackTest {
    private static final String APPLIED = "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"web-0\"}}";
    private static ClusterFixture fixture;
    private static KubernetesClient client;
    private static WatchCache cache;
    private static CachedResource<Pod> pods;

    @BeforeAll
    static void start() throws Exception {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setBuiltinControllers(false));
        client = fixture.client();
        cache = new WatchCache(client, WatchCacheOptions.defaults().withMutationDetector(false), new SimpleMeterRegistry());
        pods = cache.resource(Pod.class);
        cache.start(Pod.class).toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() {
        cache.close();
        fixture.close();
    }

    private static Pod create(String name) {
        return client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(name)
                        .addToLabels("app", "web").addToAnnotations(LeanObjects.LAST_APPLIED, APPLIED)
                        .addToAnnotations("keep", "me")
                        .withManagedFields(new ManagedFieldsEntryBuilder().withManager("kubectl-client-side-apply")
                                .withOperation("Update").withApiVersion("v1").withFieldsType("FieldsV1").build())
                        .endMetadata()
                        .withNewSpec().addNewContainer().withName("c").withImage("nginx:1").endContainer().endSpec()
                        .build())
                .create();
    }

    private static Pod cached(String name, BooleanSupplier extra) {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            Pod p = pods.get("default", name);
            if (p != null && extra.getAsBoolean()) {
                return p;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted");
            }
        }
        fail("pod " + name + " never reached the cache");
        return null;
    }

    private static Pod live(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    @Test
    void theCachedCopyIsLeanButTheServersIsNot() {
        create("lean-0");
        Pod cached = cached("lean-0", () -> true);
        assertFalse(cached.getMetadata().getAnnotations().containsKey(LeanObjects.LAST_APPLIED));
        assertTrue(cached.getMetadata().getManagedFields().isEmpty());
        assertEquals("me", cached.getMetadata().getAnnotations().get("keep"));
        Pod server = live("lean-0");
        assertEquals(APPLIED, server.getMetadata().getAnnotations().get(LeanObjects.LAST_APPLIED));
        assertFalse(server.getMetadata().getManagedFields().isEmpty(), "the embedded server keeps managedFields sent");
    }

    @Test
    void anObjectWriteFromTheCachedCopyKeepsWhatTheCacheDropped() {
        create("obj-0");
        Pod cached = cached("obj-0", () -> true);

        Pod written = ObjectEdits.edit(client, cached, ObjectEdits.Part.OBJECT,
                p -> new PodBuilder(p).editMetadata().addToLabels("upgraded", "true").endMetadata().build());

        assertNotNull(written);
        Pod server = live("obj-0");
        assertEquals("true", server.getMetadata().getLabels().get("upgraded"), "the change is written");
        assertEquals(APPLIED, server.getMetadata().getAnnotations().get(LeanObjects.LAST_APPLIED),
                "a full update of the lean copy would have erased it");
        assertEquals("kubectl-client-side-apply", server.getMetadata().getManagedFields().get(0).getManager());
    }

    @Test
    void aStatusWriteFromTheCachedCopyKeepsWhatTheCacheDropped() {
        create("status-0");
        Pod cached = cached("status-0", () -> true);

        ObjectEdits.edit(client, cached, ObjectEdits.Part.STATUS, p -> new PodBuilder(p).editOrNewStatus()
                .withConditions(List.of(new PodConditionBuilder().withType("KruisePodReady").withStatus("True").build()))
                .endStatus().build());

        Pod server = live("status-0");
        assertEquals("KruisePodReady", server.getStatus().getConditions().get(0).getType());
        // pods/status keeps the labels and annotations the body carries (kube-apiserver's pod status strategy):
        // the whole lean copy would have dropped the annotation.
        assertEquals(APPLIED, server.getMetadata().getAnnotations().get(LeanObjects.LAST_APPLIED));
        assertFalse(server.getMetadata().getManagedFields().isEmpty());
    }

    @Test
    void aConcurrentWriterStillMakesTheEditRetryAndBothChangesSurvive() {
        create("race-0");
        Pod cached = cached("race-0", () -> true);
        client.pods().inNamespace("default").withName("race-0").edit(p -> new PodBuilder(p).editMetadata()
                .addToLabels("other", "writer").endMetadata().build());

        ObjectEdits.edit(client, cached, ObjectEdits.Part.OBJECT,
                p -> new PodBuilder(p).editMetadata().addToLabels("ours", "1").endMetadata().build());

        Pod server = live("race-0");
        assertEquals("writer", server.getMetadata().getLabels().get("other"), "the stale patch was refused (409)...");
        assertEquals("1", server.getMetadata().getLabels().get("ours"), "...and retried on the live object");
        assertEquals(APPLIED, server.getMetadata().getAnnotations().get(LeanObjects.LAST_APPLIED));
    }
}
