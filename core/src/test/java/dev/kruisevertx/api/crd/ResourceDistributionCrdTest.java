package dev.kruisevertx.api.crd;

import dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ResourceDistribution CRD: v1alpha1 stored, v1beta1 served (issue 27) with master's spellings, /convert. */
class ResourceDistributionCrdTest {
    final CustomResourceDefinition crd = KruiseCrds.of(ResourceDistribution.class);

    private CustomResourceDefinitionVersion version(String name) {
        assertEquals(List.of("v1alpha1", "v1beta1"), crd.getSpec().getVersions().stream()
                .map(CustomResourceDefinitionVersion::getName).sorted().toList());
        return crd.getSpec().getVersions().stream().filter(v -> v.getName().equals(name)).findFirst().orElseThrow();
    }

    private static JSONSchemaProps at(CustomResourceDefinitionVersion v, String... path) {
        JSONSchemaProps node = v.getSchema().getOpenAPIV3Schema();
        for (String p : path) {
            node = "[]".equals(p) ? node.getItems().getSchema() : node.getProperties().get(p);
        }
        return node;
    }

    @Test
    void v1alpha1IsStoredAndV1beta1ServedWithTheConversionWebhook() {
        assertEquals("Cluster", crd.getSpec().getScope());
        CustomResourceDefinitionVersion alpha = version("v1alpha1");
        CustomResourceDefinitionVersion beta = version("v1beta1");
        assertTrue(alpha.getServed() && alpha.getStorage());
        assertTrue(beta.getServed());
        assertFalse(beta.getStorage());
        assertEquals(alpha.getAdditionalPrinterColumns(), beta.getAdditionalPrinterColumns());
        assertEquals(alpha.getSubresources(), beta.getSubresources());
        assertEquals("Webhook", crd.getSpec().getConversion().getStrategy());
        assertEquals("/convert", crd.getSpec().getConversion().getWebhook().getClientConfig().getService().getPath());
    }

    @Test
    void eachVersionHasItsOwnSpellings() {
        CustomResourceDefinitionVersion alpha = version("v1alpha1");
        CustomResourceDefinitionVersion beta = version("v1beta1");
        assertEquals(Set.of("allNamespaces", "excludedNamespaces", "includedNamespaces", "namespaceLabelSelector"),
                at(alpha, "spec", "targets").getProperties().keySet());
        assertEquals(Set.of("allNamespaces", "excludedNamespaces", "includedNamespaces", "namespaceSelector"),
                at(beta, "spec", "targets").getProperties().keySet());
        assertTrue(at(alpha, "status", "conditions", "[]").getProperties().containsKey("failedNamespace"));
        assertTrue(at(beta, "status", "conditions", "[]").getProperties().containsKey("failedNamespaces"));
        assertFalse(at(beta, "status", "conditions", "[]").getProperties().containsKey("failedNamespace"));
        assertTrue(at(beta, "spec", "resource").getXKubernetesPreserveUnknownFields());
    }
}
