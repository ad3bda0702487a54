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

    @Test
    void servedAndStoredV1alpha1WithStatusSubresourceAndPrinterColumns() {
        CustomResourceDefinitionVersion v = crd.getSpec().getVersions().get(0);
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
        var schema = crd.getSpec().getVersions().get(0).getSchema().getOpenAPIV3Schema();
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
