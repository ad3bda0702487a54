package dev.kruisevertx.api.apps.v1alpha1;

import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.crd.KruiseCrds;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The model and its CRD used through a fabric8 client against the CRUD mock API server. */
@EnableKubernetesMockClient(crud = true)
class CloneSetApiTest {
    static KubernetesClient client;

    private static CloneSet fixture() throws IOException {
        try (InputStream in = CloneSetApiTest.class.getResourceAsStream("/api/cloneset-full.yaml")) {
            CloneSet cs = ApiJson.serialization().unmarshal(new String(in.readAllBytes(), StandardCharsets.UTF_8),
                    CloneSet.class);
            cs.getMetadata().setResourceVersion(null);
            cs.getMetadata().setUid(null);
            return cs;
        }
    }

    @BeforeEach
    void installCrd() {
        CustomResourceDefinition crd = KruiseCrds.of(CloneSet.class);
        client.apiextensions().v1().customResourceDefinitions().resource(crd).createOr(existing -> existing.update());
    }

    @Test
    void createReadAndListThroughTheClient() throws IOException {
        CloneSet created = client.resources(CloneSet.class).inNamespace("crud").resource(fixture()).create();
        assertNotNull(created.getMetadata().getResourceVersion());

        CloneSet read = client.resources(CloneSet.class).inNamespace("crud").withName("sample").get();
        assertEquals(fixture().getSpec(), read.getSpec());
        assertEquals("InPlaceIfPossible", read.getSpec().getUpdateStrategy().getType());

        List<CloneSet> listed = client.resources(CloneSet.class, CloneSetList.class).inNamespace("crud").list()
                .getItems();
        assertEquals(List.of("sample"), listed.stream().map(c -> c.getMetadata().getName()).toList());
        assertEquals(read.getSpec(), listed.get(0).getSpec());
    }

    @Test
    void statusIsWrittenThroughTheStatusSubresource() throws IOException {
        CloneSet cs = fixture();
        cs.getMetadata().setName("with-status");
        cs.setStatus(null);
        client.resources(CloneSet.class).inNamespace("status").resource(cs).create();

        CloneSet current = client.resources(CloneSet.class).inNamespace("status").withName("with-status").get();
        CloneSetStatus status = new CloneSetStatus();
        status.setReplicas(5);
        status.setReadyReplicas(5);
        status.setObservedGeneration(1);
        status.setLabelSelector("app=sample");
        current.setStatus(status);
        client.resources(CloneSet.class).inNamespace("status").resource(current).updateStatus();

        CloneSet after = client.resources(CloneSet.class).inNamespace("status").withName("with-status").get();
        assertEquals(status, after.getStatus());
    }
}
