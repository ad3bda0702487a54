package dev.kruisevertx.kube;

import dev.kruisevertx.cache.MockCluster;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link ObjectEdits} against fabric8's mock API server in CRUD mode, which checks resourceVersions as kube does. */
class ObjectEditsTest {
    private MockCluster cluster;
    private KubernetesClient client;

    @BeforeEach
    void setUp() {
        cluster = MockCluster.crud();
        client = cluster.client;
    }

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    private Pod create(String name) {
        return client.pods().inNamespace("ns").resource(new PodBuilder().withNewMetadata().withName(name)
                .withNamespace("ns").endMetadata().withNewSpec().addNewContainer().withName("c").withImage("i")
                .endContainer().endSpec().build()).create();
    }

    private Pod live(String name) {
        return client.pods().inNamespace("ns").withName(name).get();
    }

    private static Pod labelled(Pod p, String key) {
        return new PodBuilder(p).editMetadata().addToLabels(key, "true").endMetadata().build();
    }

    @Test
    void aStaleCachedCopyIsReReadOnConflictAndBothChangesSurvive() {
        Pod cached = create("a");
        client.pods().inNamespace("ns").resource(labelled(live("a"), "other-writer")).update();

        Pod written = ObjectEdits.edit(client, cached, ObjectEdits.Part.OBJECT, p -> labelled(p, "ours"));

        assertEquals("true", written.getMetadata().getLabels().get("ours"));
        assertEquals("true", live("a").getMetadata().getLabels().get("other-writer"), "the other write is kept");
        assertEquals("true", live("a").getMetadata().getLabels().get("ours"));
        assertTrue(cached.getMetadata().getLabels() == null || !cached.getMetadata().getLabels().containsKey("ours"),
                "the cached copy is never changed");
    }

    @Test
    void aGoneObjectIsNullAndANoOpChangeWritesNothing() {
        Pod cached = create("b");
        String version = cached.getMetadata().getResourceVersion();
        assertSame(cached, ObjectEdits.edit(client, cached, ObjectEdits.Part.OBJECT, p -> p));
        assertEquals(version, live("b").getMetadata().getResourceVersion(), "no write for no change");

        client.pods().inNamespace("ns").withName("b").delete();
        assertNull(ObjectEdits.edit(client, cached, ObjectEdits.Part.OBJECT, p -> labelled(p, "x")));
    }

    @Test
    void theStatusPartIsWrittenThroughTheStatusSubresource() {
        Pod cached = create("s");
        Pod written = ObjectEdits.edit(client, cached, ObjectEdits.Part.STATUS,
                p -> new PodBuilder(p).editOrNewStatus().withPhase("Running").endStatus().build());
        assertEquals("Running", written.getStatus().getPhase());
        assertEquals("Running", live("s").getStatus().getPhase());
    }

    @Test
    void aWriterThatAlwaysComesFirstExhaustsTheBoundedAttempts() {
        Pod cached = create("c");
        AtomicInteger calls = new AtomicInteger();
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> ObjectEdits.edit(client, cached, ObjectEdits.Part.OBJECT, p -> {
                    // A conflicting writer gets in between every read and our write.
                    client.pods().inNamespace("ns").resource(labelled(live("c"), "w" + calls.incrementAndGet()))
                            .update();
                    return labelled(p, "ours");
                }));
        assertEquals(409, e.getCode());
        assertEquals(ObjectEdits.DEFAULT_ATTEMPTS, calls.get());
        assertNull(live("c").getMetadata().getLabels().get("ours"));
    }

    @Test
    void aClusterScopedObjectIsEditedWithoutANamespace() {
        io.fabric8.kubernetes.api.model.Node node = client.nodes().resource(new io.fabric8.kubernetes.api.model.NodeBuilder()
                .withNewMetadata().withName("n1").endMetadata().build()).create();
        io.fabric8.kubernetes.api.model.Node written = ObjectEdits.edit(client, io.fabric8.kubernetes.api.model.Node.class,
                node, null, "n1", ObjectEdits.Part.OBJECT, n -> {
                    n.getMetadata().setLabels(java.util.Map.of("edited", "true"));
                    return n;
                }, ObjectEdits.DEFAULT_ATTEMPTS);
        assertEquals("true", written.getMetadata().getLabels().get("edited"));
        assertEquals("true", client.nodes().withName("n1").get().getMetadata().getLabels().get("edited"));
    }
}
