package dev.kruisevertx.api.crd;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ContainerRecreateRequest CRD has OpenKruise's names, columns, subresources and required fields. */
class ContainerRecreateRequestCrdTest {
    final CustomResourceDefinition crd = KruiseCrds.of(ContainerRecreateRequest.class);

    @Test
    void namesAndScope() {
        assertEquals("containerrecreaterequests.apps.kruise.io", crd.getMetadata().getName());
        assertEquals("Namespaced", crd.getSpec().getScope());
        assertEquals(List.of("crr"), crd.getSpec().getNames().getShortNames());
        assertEquals("ContainerRecreateRequestList", crd.getSpec().getNames().getListKind());
        assertEquals("apps.kruise.io_containerrecreaterequests.yaml", KruiseCrds.fileName(crd));
    }

    private CustomResourceDefinitionVersion version(String name) {
        // v1alpha1 (stored) and v1beta1 (served, issue 27), nothing else.
        assertEquals(List.of("v1alpha1", "v1beta1"), crd.getSpec().getVersions().stream()
                .map(CustomResourceDefinitionVersion::getName).sorted().toList());
        return crd.getSpec().getVersions().stream().filter(v -> v.getName().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void v1beta1IsServedNotStoredWithTheSameColumnsAndMasterStatusFieldsAndTheConversionWebhook() {
        CustomResourceDefinitionVersion beta = version("v1beta1");
        CustomResourceDefinitionVersion alpha = version("v1alpha1");
        assertTrue(beta.getServed());
        assertTrue(!beta.getStorage());
        assertEquals(alpha.getAdditionalPrinterColumns().stream().map(c -> c.getName() + " " + c.getJsonPath()).toList(),
                beta.getAdditionalPrinterColumns().stream().map(c -> c.getName() + " " + c.getJsonPath()).toList());
        assertEquals(alpha.getSubresources(), beta.getSubresources());
        assertEquals("Webhook", crd.getSpec().getConversion().getStrategy());
        assertEquals("/convert", crd.getSpec().getConversion().getWebhook().getClientConfig().getService().getPath());
        var status = beta.getSchema().getOpenAPIV3Schema().getProperties().get("status").getProperties();
        assertEquals(java.util.Set.of("phase", "completionTime", "message", "containerRecreateStates",
                "containerStatusSnapshot", "conditions"), status.keySet());
        assertEquals(java.util.Set.of("name", "ready", "restartCount", "containerID"),
                status.get("containerStatusSnapshot").getItems().getSchema().getProperties().keySet());
        assertEquals(alpha.getSchema().getOpenAPIV3Schema().getProperties().get("spec"),
                beta.getSchema().getOpenAPIV3Schema().getProperties().get("spec"));
    }

    @Test
    void servedAndStoredV1alpha1WithStatusSubresourceAndPrinterColumns() {
        CustomResourceDefinitionVersion v = version("v1alpha1");
        assertEquals("v1alpha1", v.getName());
        assertTrue(v.getServed() && v.getStorage());
        assertNotNull(v.getSubresources().getStatus());
        assertEquals(null, v.getSubresources().getScale());
        assertEquals(List.of("PHASE .status.phase", "POD .spec.podName",
                        "NODE .metadata.labels.crr\\.apps\\.kruise\\.io/node-name", "AGE .metadata.creationTimestamp"),
                v.getAdditionalPrinterColumns().stream().map(c -> c.getName() + " " + c.getJsonPath()).toList());
        assertEquals(List.of("string", "string", "string", "date"),
                v.getAdditionalPrinterColumns().stream().map(CustomResourceColumnDefinition::getType).toList());
    }

    @Test
    void requiredFieldsAsOpenKruise() {
        var schema = version("v1alpha1").getSchema().getOpenAPIV3Schema();
        var spec = schema.getProperties().get("spec");
        assertEquals(List.of("containers", "podName"), spec.getRequired().stream().sorted().toList());
        var container = spec.getProperties().get("containers").getItems().getSchema();
        assertEquals(List.of("name"), container.getRequired());
        assertEquals(List.of("containerID", "restartCount"),
                container.getProperties().get("statusContext").getRequired().stream().sorted().toList());
        var strategy = spec.getProperties().get("strategy").getProperties();
        assertEquals("int64", strategy.get("terminationGracePeriodSeconds").getFormat());
        assertEquals("int32", strategy.get("minStartedSeconds").getFormat());
        var state = schema.getProperties().get("status").getProperties().get("containerRecreateStates")
                .getItems().getSchema();
        assertEquals("boolean", state.getProperties().get("isKilled").getType());
        assertEquals(List.of("name", "phase"), state.getRequired().stream().sorted().toList());
    }
}
