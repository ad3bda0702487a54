package dev.kruisevertx.api.crd;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSpec;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The WorkloadSpread CRD has OpenKruise v1.9.0's names, version, columns, subresources and schema shape. */
class WorkloadSpreadCrdTest {
    final CustomResourceDefinition crd = KruiseCrds.of(WorkloadSpread.class);

    @Test
    void namesAndScope() {
        assertEquals("workloadspreads.apps.kruise.io", crd.getMetadata().getName());
        assertEquals("Namespaced", crd.getSpec().getScope());
        assertEquals(List.of("ws"), crd.getSpec().getNames().getShortNames());
        assertEquals("WorkloadSpreadList", crd.getSpec().getNames().getListKind());
        assertEquals("workloadspread", crd.getSpec().getNames().getSingular());
        assertEquals("apps.kruise.io_workloadspreads.yaml", KruiseCrds.fileName(crd));
        // v1beta1 is served too (issue 27): the /convert webhook converts between them.
        assertEquals("Webhook", crd.getSpec().getConversion().getStrategy());
        assertEquals("/convert", crd.getSpec().getConversion().getWebhook().getClientConfig().getService().getPath());
    }

    private CustomResourceDefinitionVersion version(String name) {
        assertEquals(List.of("v1alpha1", "v1beta1"), crd.getSpec().getVersions().stream()
                .map(CustomResourceDefinitionVersion::getName).sorted().toList());
        return crd.getSpec().getVersions().stream().filter(v -> v.getName().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void v1beta1IsServedNotStoredWithTheSameColumnsAndMastersSubsetAndConditionFields() {
        CustomResourceDefinitionVersion beta = version("v1beta1");
        assertTrue(beta.getServed());
        assertFalse(beta.getStorage());
        assertEquals(version("v1alpha1").getAdditionalPrinterColumns(), beta.getAdditionalPrinterColumns());
        assertEquals(version("v1alpha1").getSubresources(), beta.getSubresources());
        var spec = beta.getSchema().getOpenAPIV3Schema().getProperties().get("spec");
        assertEquals(List.of("subsets", "targetRef"), spec.getRequired().stream().sorted().toList());
        var subset = spec.getProperties().get("subsets").getItems().getSchema();
        assertEquals(java.util.Set.of("name", "requiredNodeSelector", "preferredNodeSelector", "tolerations",
                "maxReplicas", "patch"), subset.getProperties().keySet());
        assertTrue(subset.getProperties().get("patch").getXKubernetesPreserveUnknownFields());
        var condition = beta.getSchema().getOpenAPIV3Schema().getProperties().get("status").getProperties()
                .get("subsetStatuses").getItems().getSchema().getProperties().get("conditions").getItems().getSchema();
        assertTrue(condition.getProperties().containsKey("observedGeneration"), condition.getProperties().keySet()
                .toString());
    }

    @Test
    void storedV1alpha1WithStatusSubresourceAndOpenKruisesColumns() {
        CustomResourceDefinitionVersion v = version("v1alpha1");
        assertTrue(v.getServed() && v.getStorage());
        assertNotNull(v.getSubresources().getStatus());
        assertNull(v.getSubresources().getScale());
        assertEquals(List.of("WorkloadName .spec.targetRef.name", "WorkloadKind .spec.targetRef.kind",
                        "Adaptive .spec.scheduleStrategy.type[?(@ == \"Adaptive\")]", "Age .metadata.creationTimestamp"),
                v.getAdditionalPrinterColumns().stream().map(c -> c.getName() + " " + c.getJsonPath()).toList());
        assertEquals(List.of("string", "string", "boolean", "date"),
                v.getAdditionalPrinterColumns().stream().map(CustomResourceColumnDefinition::getType).toList());
    }

    @Test
    void requiredFieldsEnumAndFormatsAsOpenKruise() {
        var schema = version("v1alpha1").getSchema().getOpenAPIV3Schema();
        var spec = schema.getProperties().get("spec");
        assertEquals(List.of("subsets", "targetRef"), spec.getRequired().stream().sorted().toList());
        assertEquals(List.of("apiVersion", "kind", "name"),
                spec.getProperties().get("targetRef").getRequired().stream().sorted().toList());
        var subset = spec.getProperties().get("subsets").getItems().getSchema();
        assertEquals(List.of("name"), subset.getRequired());
        assertTrue(subset.getProperties().get("maxReplicas").getXKubernetesIntOrString());
        assertTrue(subset.getProperties().get("patch").getXKubernetesPreserveUnknownFields());
        assertNull(subset.getProperties().get("patch").getType());
        var strategy = spec.getProperties().get("scheduleStrategy").getProperties();
        assertEquals(List.of("Adaptive", "Fixed", ""),
                strategy.get("type").getEnum().stream().map(JsonNode::asText).toList());
        assertEquals("int32", strategy.get("adaptive").getProperties().get("rescheduleCriticalSeconds").getFormat());
        var status = schema.getProperties().get("status").getProperties();
        assertEquals("int64", status.get("observedGeneration").getFormat());
        var subsetStatus = status.get("subsetStatuses").getItems().getSchema();
        assertEquals(List.of("missingReplicas", "name", "replicas"),
                subsetStatus.getRequired().stream().sorted().toList());
        assertEquals("array", status.get("versionedSubsetStatuses").getAdditionalProperties().getSchema().getType());
    }

    @Test
    void aSubsetPatchRoundTripsAsArbitraryJson() {
        String json = "{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"WorkloadSpread\",\"metadata\":{\"name\":"
                + "\"ws\"},\"spec\":{\"targetRef\":{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"d\"},"
                + "\"subsets\":[{\"name\":\"a\",\"maxReplicas\":\"50%\",\"patch\":{\"metadata\":{\"labels\":{\"x\":"
                + "\"y\"}}},\"futureField\":1}]}}";
        WorkloadSpread ws = ApiJson.serialization().unmarshal(json, WorkloadSpread.class);
        WorkloadSpreadSpec spec = ws.spec();
        WorkloadSpreadSubset a = spec.getSubsets().get(0);
        assertEquals("50%", a.getMaxReplicas().getStrVal());
        assertEquals("y", a.getPatch().path("metadata").path("labels").path("x").asText());
        JsonNode back = ApiJson.serialization().convertValue(ws, JsonNode.class);
        assertEquals(1, back.path("spec").path("subsets").get(0).path("futureField").asInt());
        assertEquals("y", back.path("spec").path("subsets").get(0).path("patch").path("metadata").path("labels")
                .path("x").asText());
    }
}
