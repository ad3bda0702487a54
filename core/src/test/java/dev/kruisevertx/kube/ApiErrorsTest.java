package dev.kruisevertx.kube;

import dev.kruisevertx.cache.MockCluster;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    void onlyAnAlreadyExistsMayHaveBeenWritten() throws Exception {
        try (MockCluster cluster = MockCluster.crud()) {
            KubernetesClient client = cluster.client;
            create(client, "c");
            KubernetesClientException exists = assertThrows(KubernetesClientException.class, () -> create(client, "c"));
            assertTrue(ApiErrors.isAlreadyExists(exists));
            assertFalse(ApiErrors.definitelyNotWritten(exists), "maybe an earlier attempt of ours");
        }
        // A 409 Conflict on a create (a webhook or a proxy refusing it) wrote nothing.
        KubernetesClientException refused = new KubernetesClientException(new StatusBuilder().withCode(409)
                .withReason("Conflict").withMessage("refused").build());
        assertFalse(ApiErrors.isAlreadyExists(refused));
        assertTrue(ApiErrors.definitelyNotWritten(refused));
        assertThrows(KubernetesClientException.class, () -> ApiErrors.ignoringAlreadyExists(() -> {
            throw refused;
        }));
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
