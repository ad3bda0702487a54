package dev.kruisevertx.api.crd;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The UnitedDeployment CRD has OpenKruise v1.9's scope, version, subresources, columns and schema shape. */
class UnitedDeploymentCrdTest {
    final CustomResourceDefinition crd = KruiseCrds.of(UnitedDeployment.class);
    final CustomResourceDefinitionVersion version = version("v1alpha1");
    final JSONSchemaProps root = version.getSchema().getOpenAPIV3Schema();

    private CustomResourceDefinitionVersion version(String name) {
        // v1alpha1 (stored) and v1beta1 (served, issue 27), nothing else.
        assertEquals(List.of("v1alpha1", "v1beta1"), crd.getSpec().getVersions().stream()
                .map(CustomResourceDefinitionVersion::getName).sorted().toList());
        return crd.getSpec().getVersions().stream().filter(v -> v.getName().equals(name)).findFirst().orElseThrow();
    }

    private JSONSchemaProps spec() {
        return root.getProperties().get("spec");
    }

    @Test
    void namespacedStoredAsV1alpha1WithShortName() {
        assertEquals("uniteddeployments.apps.kruise.io", crd.getMetadata().getName());
        assertEquals("Namespaced", crd.getSpec().getScope());
        assertEquals(List.of("ud"), crd.getSpec().getNames().getShortNames());
        assertEquals("UnitedDeploymentList", crd.getSpec().getNames().getListKind());
        assertEquals("v1alpha1", version.getName());
        assertTrue(version.getServed() && version.getStorage());
    }

    @Test
    void v1beta1IsServedNotStoredWithTheSameColumnsAndSubresourcesAndTheConversionWebhook() {
        CustomResourceDefinitionVersion beta = version("v1beta1");
        assertTrue(beta.getServed());
        assertFalse(beta.getStorage());
        assertEquals(version.getAdditionalPrinterColumns(), beta.getAdditionalPrinterColumns());
        assertEquals(version.getSubresources(), beta.getSubresources());
        assertEquals("Webhook", crd.getSpec().getConversion().getStrategy());
        assertEquals("/convert", crd.getSpec().getConversion().getWebhook().getClientConfig().getService().getPath());
        JSONSchemaProps betaRoot = beta.getSchema().getOpenAPIV3Schema();
        JSONSchemaProps status = betaRoot.getProperties().get("status");
        assertEquals(List.of("collisionCount", "conditions", "currentRevision", "labelSelector", "observedGeneration",
                        "readyReplicas", "replicas", "reservedPods", "subsetStatuses", "updatedReadyReplicas",
                        "updatedReplicas", "updatedRevision"),
                status.getProperties().keySet().stream().sorted().toList());
        // The cloneSetTemplate holds a v1beta1 CloneSet spec.
        JSONSchemaProps cloneSetSpec = betaRoot.getProperties().get("spec").getProperties().get("template")
                .getProperties().get("cloneSetTemplate").getProperties().get("spec");
        assertEquals(java.util.Set.of("type", "rollingUpdate"), cloneSetSpec.getProperties().get("updateStrategy")
                .getProperties().keySet());
        assertTrue(cloneSetSpec.getProperties().get("scaleStrategy").getProperties().containsKey("enablePVCReuse"));
        assertEquals(spec().getProperties().get("topology"),
                betaRoot.getProperties().get("spec").getProperties().get("topology"));
    }

    @Test
    void statusAndScaleSubresourcesAndPrinterColumnsAsOpenKruise() {
        assertNotNull(version.getSubresources().getStatus());
        assertEquals(".spec.replicas", version.getSubresources().getScale().getSpecReplicasPath());
        assertEquals(".status.replicas", version.getSubresources().getScale().getStatusReplicasPath());
        assertEquals(".status.labelSelector", version.getSubresources().getScale().getLabelSelectorPath());
        assertEquals(List.of("DESIRED .spec.replicas integer", "CURRENT .status.replicas integer",
                        "UPDATED .status.updatedReplicas integer", "READY .status.readyReplicas integer",
                        "AGE .metadata.creationTimestamp date"),
                version.getAdditionalPrinterColumns().stream()
                        .map((CustomResourceColumnDefinition c) -> c.getName() + " " + c.getJsonPath() + " " + c.getType())
                        .toList());
    }

    @Test
    void templatesKeepUnknownMetadataAndTypeOnlyTheKruiseSpecs() {
        assertEquals(List.of("selector"), spec().getRequired());
        JSONSchemaProps template = spec().getProperties().get("template");
        assertEquals(List.of("advancedStatefulSetTemplate", "cloneSetTemplate", "deploymentTemplate",
                "statefulSetTemplate"), template.getProperties().keySet().stream().sorted().toList());
        for (String kind : template.getProperties().keySet()) {
            JSONSchemaProps t = template.getProperties().get(kind);
            assertEquals(List.of("spec"), t.getRequired(), kind);
            assertTrue(t.getProperties().get("metadata").getXKubernetesPreserveUnknownFields(), kind);
        }
        for (String schemaless : List.of("statefulSetTemplate", "deploymentTemplate")) {
            assertTrue(template.getProperties().get(schemaless).getProperties().get("spec")
                    .getXKubernetesPreserveUnknownFields(), schemaless);
        }
        for (String typed : List.of("advancedStatefulSetTemplate", "cloneSetTemplate")) {
            assertEquals(List.of("selector", "template"), template.getProperties().get(typed).getProperties()
                    .get("spec").getRequired().stream().sorted().toList(), typed);
        }
    }

    @Test
    void subsetsTakeIntOrStringCountsARawPatchAndTheScheduleEnum() {
        JSONSchemaProps topology = spec().getProperties().get("topology");
        JSONSchemaProps subset = topology.getProperties().get("subsets").getItems().getSchema();
        assertEquals(List.of("name"), subset.getRequired());
        for (String count : List.of("replicas", "minReplicas", "maxReplicas")) {
            assertTrue(subset.getProperties().get(count).getXKubernetesIntOrString(), count);
        }
        assertTrue(subset.getProperties().get("patch").getXKubernetesPreserveUnknownFields());
        JSONSchemaProps schedule = topology.getProperties().get("scheduleStrategy");
        assertEquals(List.of("Adaptive", "Fixed", ""), schedule.getProperties().get("type").getEnum().stream()
                .map(n -> n.asText()).toList());
        assertEquals(List.of("rescheduleCriticalSeconds", "reserveUnschedulablePods", "unschedulableDuration"),
                schedule.getProperties().get("adaptive").getProperties().keySet().stream().sorted().toList());
        assertEquals("int32", spec().getProperties().get("updateStrategy").getProperties().get("manualUpdate")
                .getProperties().get("partitions").getAdditionalProperties().getSchema().getFormat());
    }

    @Test
    void statusRequiresWhatOpenKruiseAlwaysWrites() {
        JSONSchemaProps status = root.getProperties().get("status");
        assertEquals(List.of("currentRevision", "replicas", "updatedReplicas"),
                status.getRequired().stream().sorted().toList());
        assertEquals(List.of("collisionCount", "conditions", "currentRevision", "labelSelector", "observedGeneration",
                        "readyReplicas", "replicas", "reservedPods", "subsetReplicas", "subsetStatuses", "updateStatus",
                        "updatedReadyReplicas", "updatedReplicas"),
                status.getProperties().keySet().stream().sorted().toList());
        JSONSchemaProps subsetCondition = status.getProperties().get("subsetStatuses").getItems().getSchema()
                .getProperties().get("conditions").getItems().getSchema();
        assertEquals(List.of("status", "type"), subsetCondition.getRequired().stream().sorted().toList());
    }
}
