package dev.kruisevertx.api.crd;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SidecarSet CRD has OpenKruise v1.9's scope, versions, conversion, columns and schema shape. */
class SidecarSetCrdTest {
    final CustomResourceDefinition crd = KruiseCrds.of(SidecarSet.class);

    private CustomResourceDefinitionVersion version(String name) {
        return crd.getSpec().getVersions().stream().filter(v -> v.getName().equals(name)).findFirst().orElseThrow();
    }

    private JSONSchemaProps spec(String version) {
        return version(version).getSchema().getOpenAPIV3Schema().getProperties().get("spec");
    }

    @Test
    void clusterScopedWithBothVersionsAndWebhookConversion() {
        assertEquals("sidecarsets.apps.kruise.io", crd.getMetadata().getName());
        assertEquals("Cluster", crd.getSpec().getScope());
        assertEquals("SidecarSetList", crd.getSpec().getNames().getListKind());
        assertTrue(version("v1alpha1").getServed() && !version("v1alpha1").getStorage());
        assertTrue(version("v1beta1").getServed() && version("v1beta1").getStorage());
        assertEquals("Webhook", crd.getSpec().getConversion().getStrategy());
        assertEquals("/convert", crd.getSpec().getConversion().getWebhook().getClientConfig().getService().getPath());
    }

    @Test
    void statusSubresourceAndPrinterColumnsAsOpenKruise() {
        for (String v : List.of("v1alpha1", "v1beta1")) {
            assertNotNull(version(v).getSubresources().getStatus());
            assertNull(version(v).getSubresources().getScale());
            assertEquals(List.of("MATCHED .status.matchedPods", "UPDATED .status.updatedPods",
                            "READY .status.readyPods", "AGE .metadata.creationTimestamp"),
                    version(v).getAdditionalPrinterColumns().stream()
                            .map((CustomResourceColumnDefinition c) -> c.getName() + " " + c.getJsonPath()).toList());
        }
    }

    @Test
    void versionsDifferInNamespaceAndCustomVersion() {
        assertTrue(spec("v1alpha1").getProperties().containsKey("namespace"));
        assertFalse(spec("v1alpha1").getProperties().containsKey("customVersion"));
        assertFalse(spec("v1beta1").getProperties().containsKey("namespace"));
        assertTrue(spec("v1beta1").getProperties().containsKey("customVersion"));
    }

    @Test
    void sidecarContainersAreSchemalessContainersWithTypedSidecarFields() {
        for (String v : List.of("v1alpha1", "v1beta1")) {
            for (String list : List.of("containers", "initContainers")) {
                JSONSchemaProps item = spec(v).getProperties().get(list).getItems().getSchema();
                assertTrue(item.getXKubernetesPreserveUnknownFields(), v + " " + list);
                assertEquals(List.of("podInjectPolicy", "resourcesPolicy", "shareVolumeDevicePolicy",
                        "shareVolumePolicy", "transferEnv", "upgradeStrategy"),
                        item.getProperties().keySet().stream().sorted().toList(), v + " " + list);
                assertTrue(item.getRequired() == null || item.getRequired().isEmpty());
                JSONSchemaProps policy = item.getProperties().get("resourcesPolicy");
                assertEquals(List.of("resourcesExpr", "targetContainersMode"), policy.getRequired().stream().sorted().toList());
                assertEquals(".*", policy.getProperties().get("targetContainersNameRegex").getDefault().asText());
                assertEquals(List.of("sum", "max"), policy.getProperties().get("targetContainersMode").getEnum()
                        .stream().map(n -> n.asText()).toList());
            }
            assertTrue(spec(v).getProperties().get("volumes").getXKubernetesPreserveUnknownFields());
            JSONSchemaProps revision = spec(v).getProperties().get("injectionStrategy").getProperties().get("revision");
            assertEquals("Always", revision.getProperties().get("policy").getDefault().asText());
            assertEquals(List.of("Always", "Partial"), revision.getProperties().get("policy").getEnum().stream()
                    .map(n -> n.asText()).toList());
            JSONSchemaProps update = spec(v).getProperties().get("updateStrategy");
            assertEquals(true, update.getProperties().get("partition").getXKubernetesIntOrString());
            assertEquals(true, update.getProperties().get("maxUnavailable").getXKubernetesIntOrString());
            assertEquals("atomic", spec(v).getProperties().get("selector").getXKubernetesMapType());
        }
    }
}
