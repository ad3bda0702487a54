package dev.kruisevertx.api.crd;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaProps;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CloneSet CRD against OpenKruise v1.9.0's {@code apps.kruise.io_clonesets.yaml}. */
class CloneSetCrdTest {
    private final CustomResourceDefinition crd = KruiseCrds.of(CloneSet.class);

    private CustomResourceDefinitionVersion v1alpha1() {
        return version("v1alpha1");
    }

    private CustomResourceDefinitionVersion version(String name) {
        // v1alpha1 (stored) and v1beta1 (served, issue 27), nothing else.
        assertEquals(List.of("v1alpha1", "v1beta1"), crd.getSpec().getVersions().stream()
                .map(CustomResourceDefinitionVersion::getName).sorted().toList());
        return crd.getSpec().getVersions().stream().filter(v -> v.getName().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void v1beta1IsServedNotStoredWithTheSameColumnsAndSubresourcesAndTheConversionWebhook() {
        CustomResourceDefinitionVersion beta = version("v1beta1");
        assertTrue(beta.getServed());
        assertFalse(beta.getStorage());
        assertEquals(v1alpha1().getAdditionalPrinterColumns(), beta.getAdditionalPrinterColumns());
        assertEquals(v1alpha1().getSubresources(), beta.getSubresources());
        assertEquals("Webhook", crd.getSpec().getConversion().getStrategy());
        assertEquals("/convert", crd.getSpec().getConversion().getWebhook().getClientConfig().getService().getPath());
        JSONSchemaProps spec = beta.getSchema().getOpenAPIV3Schema().getProperties().get("spec");
        JSONSchemaProps scale = spec.getProperties().get("scaleStrategy");
        assertEquals(java.util.Set.of("podsToDelete", "maxUnavailable", "enablePVCReuse", "excludePreparingDelete"),
                scale.getProperties().keySet());
        JSONSchemaProps update = spec.getProperties().get("updateStrategy");
        assertEquals(java.util.Set.of("type", "rollingUpdate"), update.getProperties().keySet());
        JSONSchemaProps rolling = update.getProperties().get("rollingUpdate");
        assertEquals(java.util.Set.of("partition", "maxUnavailable", "maxSurge", "podUpdatePolicy", "paused",
                "priorityStrategy", "scatterStrategy", "inPlaceUpdateStrategy"), rolling.getProperties().keySet());
        assertEquals(java.util.Set.of("gracePeriodSeconds", "imagePreDownloadParallelism",
                        "imagePreDownloadTimeoutSeconds", "imagePreDownloadMinUpdatedReadyPods"),
                rolling.getProperties().get("inPlaceUpdateStrategy").getProperties().keySet());
        assertTrue(rolling.getProperties().get("partition").getXKubernetesIntOrString());
        assertTrue(rolling.getProperties().get("inPlaceUpdateStrategy").getProperties()
                .get("imagePreDownloadParallelism").getXKubernetesIntOrString());
    }

    private JSONSchemaProps schema(String... path) {
        JSONSchemaProps s = v1alpha1().getSchema().getOpenAPIV3Schema();
        for (String p : path) {
            s = p.equals("[]") ? s.getItems().getSchema() : s.getProperties().get(p);
            if (s == null) {
                throw new AssertionError("no schema at " + String.join(".", path));
            }
        }
        return s;
    }

    @Test
    void namesScopeAndVersion() {
        assertEquals("clonesets.apps.kruise.io", crd.getMetadata().getName());
        assertEquals("apps.kruise.io", crd.getSpec().getGroup());
        assertEquals("Namespaced", crd.getSpec().getScope());
        assertEquals("CloneSet", crd.getSpec().getNames().getKind());
        assertEquals("CloneSetList", crd.getSpec().getNames().getListKind());
        assertEquals("clonesets", crd.getSpec().getNames().getPlural());
        assertEquals("cloneset", crd.getSpec().getNames().getSingular());
        assertEquals(List.of("clone"), crd.getSpec().getNames().getShortNames());
        CustomResourceDefinitionVersion v = v1alpha1();
        assertEquals("v1alpha1", v.getName());
        assertTrue(v.getServed());
        assertTrue(v.getStorage());
    }

    @Test
    void statusAndScaleSubresources() {
        var sub = v1alpha1().getSubresources();
        assertTrue(sub.getStatus() != null, "status subresource");
        assertEquals(".spec.replicas", sub.getScale().getSpecReplicasPath());
        assertEquals(".status.replicas", sub.getScale().getStatusReplicasPath());
        assertEquals(".status.labelSelector", sub.getScale().getLabelSelectorPath());
    }

    @Test
    void printerColumnsAreOpenKruisesInOrder() {
        List<String> expected = List.of(
                "DESIRED|integer|.spec.replicas|0|The desired number of pods.",
                "UPDATED|integer|.status.updatedReplicas|0|The number of pods updated.",
                "UPDATED_READY|integer|.status.updatedReadyReplicas|0|The number of pods updated and ready.",
                "UPDATED_AVAILABLE|integer|.status.updatedAvailableReplicas|0|The number of pods updated and available.",
                "READY|integer|.status.readyReplicas|0|The number of pods ready.",
                "TOTAL|integer|.status.replicas|0|The number of currently all pods.",
                "AGE|date|.metadata.creationTimestamp|0|CreationTimestamp is a timestamp representing the server "
                        + "time when this object was created. It is not guaranteed to be set in happens-before order "
                        + "across separate operations. Clients may not set this value. It is represented in RFC3339 "
                        + "form and is in UTC.",
                "CONTAINERS|string|.spec.template.spec.containers[*].name|1|The containers of currently cloneset.",
                "IMAGES|string|.spec.template.spec.containers[*].image|1|The images of currently cloneset.",
                "SELECTOR|string|.status.labelSelector|1|The selector of currently cloneset.");
        List<String> actual = v1alpha1().getAdditionalPrinterColumns().stream()
                .map(CloneSetCrdTest::describe).toList();
        assertEquals(expected, actual);
    }

    private static String describe(CustomResourceColumnDefinition c) {
        int priority = c.getPriority() == null ? 0 : c.getPriority();
        return c.getName() + "|" + c.getType() + "|" + c.getJsonPath() + "|" + priority + "|" + c.getDescription();
    }

    @Test
    void intOrPercentFields() {
        for (String[] path : List.of(
                new String[] {"spec", "updateStrategy", "partition"},
                new String[] {"spec", "updateStrategy", "maxUnavailable"},
                new String[] {"spec", "updateStrategy", "maxSurge"},
                new String[] {"spec", "scaleStrategy", "maxUnavailable"})) {
            JSONSchemaProps s = schema(path);
            String where = String.join(".", path);
            assertEquals(Boolean.TRUE, s.getXKubernetesIntOrString(), where);
            assertEquals(List.of("integer", "string"), s.getAnyOf().stream().map(JSONSchemaProps::getType).toList(), where);
            assertNull(s.getType(), where);
        }
    }

    @Test
    void templatesAreSchemalessLikeOpenKruise() {
        for (String field : List.of("template", "volumeClaimTemplates")) {
            JSONSchemaProps s = schema("spec", field);
            assertEquals(Boolean.TRUE, s.getXKubernetesPreserveUnknownFields(), field);
            assertNull(s.getType(), field);
            assertTrue(s.getProperties() == null || s.getProperties().isEmpty(), field);
        }
    }

    @Test
    void requiredFieldsAsOpenKruise() {
        assertEquals(List.of("selector", "template"), schema("spec").getRequired());
        assertEquals(List.of("availableReplicas", "readyReplicas", "replicas", "updatedReadyReplicas", "updatedReplicas"),
                schema("status").getRequired());
        assertEquals(List.of("status", "type"), schema("status", "conditions", "[]").getRequired());
        assertEquals(List.of("key", "value"), schema("spec", "updateStrategy", "scatterStrategy", "[]").getRequired());
        assertEquals(List.of("orderedKey"),
                schema("spec", "updateStrategy", "priorityStrategy", "orderPriority", "[]").getRequired());
        assertEquals(List.of("matchSelector", "weight"),
                schema("spec", "updateStrategy", "priorityStrategy", "weightPriority", "[]").getRequired());
    }

    @Test
    void typesAndFormatsAsOpenKruise() {
        assertEquals("int32", schema("spec", "replicas").getFormat());
        assertEquals("int32", schema("spec", "minReadySeconds").getFormat());
        assertEquals("int32", schema("spec", "updateStrategy", "inPlaceUpdateStrategy", "gracePeriodSeconds").getFormat());
        assertEquals("int64", schema("status", "observedGeneration").getFormat());
        assertEquals("int32", schema("status", "updatedAvailableReplicas").getFormat());
        assertEquals("date-time", schema("status", "conditions", "[]", "lastTransitionTime").getFormat());
        assertEquals("boolean", schema("spec", "lifecycle", "preDelete", "markPodNotReady").getType());
        assertEquals("string", schema("spec", "lifecycle", "preNormal", "labelsHandler").getAdditionalProperties()
                .getSchema().getType());
        assertEquals("atomic", schema("spec", "selector").getXKubernetesMapType());
        assertEquals(List.of("key", "operator"), schema("spec", "selector", "matchExpressions", "[]").getRequired());
        assertEquals("atomic", schema("spec", "updateStrategy", "priorityStrategy", "weightPriority", "[]",
                "matchSelector").getXKubernetesMapType());
        assertEquals("string", schema("apiVersion").getType());
        assertEquals("object", schema("metadata").getType());
    }

    @Test
    void modelOnlyFieldsStayOutOfTheSchema() {
        assertTrue(!schema("spec").getProperties().containsKey("additionalProperties"));
        assertTrue(schema("spec").getProperties().keySet().stream().noneMatch(k -> k.startsWith("get")));
    }
}
