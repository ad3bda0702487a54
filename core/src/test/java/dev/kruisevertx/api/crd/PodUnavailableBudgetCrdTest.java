package dev.kruisevertx.api.crd;

import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The PodUnavailableBudget CRD serves v1alpha1 (stored) and master's v1beta1 through the conversion webhook. */
class PodUnavailableBudgetCrdTest {
    private final CustomResourceDefinition crd = KruiseCrds.of(PodUnavailableBudget.class);

    private CustomResourceDefinitionVersion version(String name) {
        assertEquals(List.of("v1alpha1", "v1beta1"), crd.getSpec().getVersions().stream()
                .map(CustomResourceDefinitionVersion::getName).sorted().toList());
        return crd.getSpec().getVersions().stream().filter(v -> v.getName().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void v1alpha1StaysStoredAndV1beta1IsServedWithMasterFieldsAndTheConversionWebhook() {
        CustomResourceDefinitionVersion alpha = version("v1alpha1");
        CustomResourceDefinitionVersion beta = version("v1beta1");
        assertTrue(alpha.getServed() && alpha.getStorage());
        assertTrue(beta.getServed());
        assertFalse(beta.getStorage());
        assertEquals(alpha.getAdditionalPrinterColumns(), beta.getAdditionalPrinterColumns());
        assertEquals(alpha.getSubresources(), beta.getSubresources());
        assertEquals(List.of("pub"), crd.getSpec().getNames().getShortNames());
        assertEquals("Webhook", crd.getSpec().getConversion().getStrategy());
        assertEquals("/convert", crd.getSpec().getConversion().getWebhook().getClientConfig().getService().getPath());
        var spec = beta.getSchema().getOpenAPIV3Schema().getProperties().get("spec").getProperties();
        assertEquals(Set.of("selector", "targetRef", "maxUnavailable", "minAvailable", "protectOperations",
                "protectTotalReplicas", "ignoredPodSelector"), spec.keySet());
        assertEquals("int32", spec.get("protectTotalReplicas").getFormat());
        assertEquals(1.0, spec.get("protectTotalReplicas").getMinimum());
        assertEquals("string", spec.get("protectOperations").getItems().getSchema().getType());
        assertEquals(Set.of("selector", "targetRef", "maxUnavailable", "minAvailable"),
                alpha.getSchema().getOpenAPIV3Schema().getProperties().get("spec").getProperties().keySet());
        assertEquals(alpha.getSchema().getOpenAPIV3Schema().getProperties().get("status"),
                beta.getSchema().getOpenAPIV3Schema().getProperties().get("status"));
    }
}
