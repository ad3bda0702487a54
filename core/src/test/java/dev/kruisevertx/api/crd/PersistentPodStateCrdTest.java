package dev.kruisevertx.api.crd;

import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The PersistentPodState CRD: v1alpha1 stored, v1beta1 (issue 27) served with master's {@code keys} spelling. */
class PersistentPodStateCrdTest {
    private final CustomResourceDefinition crd = KruiseCrds.of(PersistentPodState.class);

    private CustomResourceDefinitionVersion version(String name) {
        assertEquals(List.of("v1alpha1", "v1beta1"), crd.getSpec().getVersions().stream()
                .map(CustomResourceDefinitionVersion::getName).sorted().toList());
        return crd.getSpec().getVersions().stream().filter(v -> v.getName().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void v1alpha1IsStoredAndV1beta1ServedThroughTheConversionWebhook() {
        assertTrue(version("v1alpha1").getServed() && version("v1alpha1").getStorage());
        assertTrue(version("v1beta1").getServed());
        assertFalse(version("v1beta1").getStorage());
        assertEquals(version("v1alpha1").getSubresources(), version("v1beta1").getSubresources());
        assertEquals("Webhook", crd.getSpec().getConversion().getStrategy());
        assertEquals("/convert", crd.getSpec().getConversion().getWebhook().getClientConfig().getService().getPath());
    }

    @Test
    void topologyTermsSpellTheirKeysPerVersion() {
        JSONSchemaProps alpha = version("v1alpha1").getSchema().getOpenAPIV3Schema().getProperties().get("spec");
        JSONSchemaProps beta = version("v1beta1").getSchema().getOpenAPIV3Schema().getProperties().get("spec");
        assertEquals(Set.of("nodeTopologyKeys"),
                alpha.getProperties().get("requiredPersistentTopology").getProperties().keySet());
        assertEquals(Set.of("keys"), beta.getProperties().get("requiredPersistentTopology").getProperties().keySet());
        assertEquals(List.of("keys"), beta.getProperties().get("requiredPersistentTopology").getRequired());
        JSONSchemaProps preferred = beta.getProperties().get("preferredPersistentTopology").getItems().getSchema();
        assertEquals(Set.of("keys"), preferred.getProperties().get("preference").getProperties().keySet());
        assertEquals(List.of("preference", "weight"), preferred.getRequired().stream().sorted().toList());
        assertEquals(alpha.getProperties().keySet(), beta.getProperties().keySet());
        assertEquals(version("v1alpha1").getSchema().getOpenAPIV3Schema().getProperties().get("status"),
                version("v1beta1").getSchema().getOpenAPIV3Schema().getProperties().get("status"));
    }
}
