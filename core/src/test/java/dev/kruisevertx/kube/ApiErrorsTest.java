package dev.kruisevertx.kube;

import dev.kruisevertx.cache.MockCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The expected answers {@link ApiErrors} turns into null, with real ones from fabric8's mock API server. */
class ApiErrorsTest {

    private static ConfigMap create(KubernetesClient client, String name) {
        return client.configMaps().inNamespace("ns").resource(new ConfigMapBuilder().withNewMetadata().withName(name)
                .withNamespace("ns").endMetadata().addToData("k", "v").build()).create();
    }

    private static ConfigMap editMissing(KubernetesClient client) {
        return client.configMaps().inNamespace("ns").withName("missing")
                .edit(c -> new ConfigMapBuilder(c).addToData("x", "y").build());
    }

    @Test
    void aCreateOfAnObjectThatExistsIsNullAndOtherFailuresStillThrow() throws Exception {
        try (MockCluster cluster = MockCluster.crud()) {
            KubernetesClient client = cluster.client;
            assertNotNull(ApiErrors.ignoringAlreadyExists(() -> create(client, "a")));
            assertNull(ApiErrors.ignoringAlreadyExists(() -> create(client, "a")));
            KubernetesClientException gone = assertThrows(KubernetesClientException.class,
                    () -> ApiErrors.ignoringAlreadyExists(() -> editMissing(client)));
            assertEquals(404, gone.getCode());
        }
    }

    @Test
    void aCallOnAnObjectThatIsGoneIsNullAndAConflictStillThrows() throws Exception {
        try (MockCluster cluster = MockCluster.crud()) {
            KubernetesClient client = cluster.client;
            assertNull(ApiErrors.ignoringNotFound(() -> editMissing(client)));
            create(client, "b");
            KubernetesClientException exists = assertThrows(KubernetesClientException.class,
                    () -> ApiErrors.ignoringNotFound(() -> create(client, "b")));
            assertEquals(409, exists.getCode());
        }
    }
}
