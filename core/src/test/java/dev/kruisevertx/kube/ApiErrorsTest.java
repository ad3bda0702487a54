package dev.kruisevertx.kube;

import dev.kruisevertx.cache.MockCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The expected answers {@link ApiErrors} turns into null, with real ones from fabric8's mock API server. */
class ApiErrorsTest {
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

    private ConfigMap create(String name) {
        return client.configMaps().inNamespace("ns").resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                .withNamespace("ns").endMetadata().addToData("k", "v").build()).create();
    }

    @Test
    void aCreateOfAnObjectThatExistsIsNullAndOtherFailuresStillThrow() throws Exception {
        assertNotNull(ApiErrors.ignoringAlreadyExists(() -> create("a")));
        assertNull(ApiErrors.ignoringAlreadyExists(() -> create("a")));
        KubernetesClientException gone = assertThrows(KubernetesClientException.class,
                () -> ApiErrors.ignoringAlreadyExists(() -> client.configMaps().inNamespace("ns").withName("missing")
                        .edit(c -> new ConfigMapBuilder(c).addToData("x", "y").build())));
        assertEquals(404, gone.getCode());
    }

    @Test
    void aCallOnAnObjectThatIsGoneIsNullAndAConflictStillThrows() throws Exception {
        assertNull(ApiErrors.ignoringNotFound(() -> client.configMaps().inNamespace("ns").withName("missing")
                .edit(c -> new ConfigMapBuilder(c).addToData("x", "y").build())));
        create("b");
        KubernetesClientException exists = assertThrows(KubernetesClientException.class,
                () -> ApiErrors.ignoringNotFound(() -> create("b")));
        assertEquals(409, exists.getCode());
    }
}
