package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.UnknownFields;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatefulSetConversionTest {
    private static final ObjectMapper YAML = new YAMLMapper();
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode load(String name) throws IOException {
        try (InputStream in = StatefulSetConversionTest.class.getResourceAsStream("/api/" + name)) {
            assertNotNull(in, name);
            return (ObjectNode) YAML.readTree(in);
        }
    }

    @Test
    void everyV1beta1FieldSurvivesARoundTripThroughV1alpha1() throws IOException {
        ObjectNode beta = load("statefulset-v1beta1-full.yaml");
        ObjectNode alpha = StatefulSetConversion.toV1alpha1(beta);
        assertEquals(load("statefulset-v1beta1-full.yaml"), beta, "input must not be modified");
        assertEquals(beta, StatefulSetConversion.toV1beta1(alpha));
    }

    @Test
    void everyV1alpha1FieldSurvivesARoundTripThroughV1beta1() throws IOException {
        ObjectNode alpha = load("statefulset-v1alpha1-full.yaml");
        ObjectNode beta = StatefulSetConversion.toV1beta1(alpha);
        assertEquals("apps.kruise.io/v1beta1", beta.get("apiVersion").asText());
        assertEquals(alpha, StatefulSetConversion.toV1alpha1(beta));
        // No v1beta1-only field is set, so nothing is stashed.
        assertFalse(StatefulSetConversion.toV1alpha1(beta).path("metadata").path("annotations")
                .has(StatefulSetConversion.BETA_FIELDS_ANNOTATION));
    }

    @Test
    void v1beta1OnlyFieldsLeaveTheSpecForTheAnnotation() throws IOException {
        ObjectNode alpha = StatefulSetConversion.toV1alpha1(load("statefulset-v1beta1-full.yaml"));
        JsonNode spec = alpha.get("spec");
        for (String f : StatefulSetConversion.BETA_ONLY_SPEC_FIELDS) {
            assertFalse(spec.has(f), f);
        }
        JsonNode stash = JSON.readTree(alpha.path("metadata").path("annotations")
                .path(StatefulSetConversion.BETA_FIELDS_ANNOTATION).asText());
        assertEquals(StatefulSetConversion.BETA_ONLY_SPEC_FIELDS.size(), stash.size());
        assertEquals("5-7", stash.path("reserveOrdinals").get(1).asText());
        assertEquals(3, stash.path("ordinals").path("start").asInt());
        assertEquals("team-a", alpha.path("metadata").path("annotations").path("owner").asText());
        // Shared fields, including the whole rollingUpdate and status, are unchanged.
        assertEquals("50%", spec.path("updateStrategy").path("rollingUpdate").path("maxUnavailable").asText());
        assertEquals(7, alpha.path("status").path("observedGeneration").asInt());
    }

    @Test
    void annotationsMapCreatedForTheStashIsRemovedAgain() throws IOException {
        ObjectNode beta = load("statefulset-v1beta1-full.yaml");
        ((ObjectNode) beta.get("metadata")).remove("annotations");
        ObjectNode alpha = StatefulSetConversion.toV1alpha1(beta);
        assertTrue(alpha.path("metadata").path("annotations").has(StatefulSetConversion.BETA_FIELDS_ANNOTATION));
        assertEquals(beta, StatefulSetConversion.toV1beta1(alpha));
    }

    @Test
    void typedModelsKnowEveryFieldOfBothVersions() throws IOException {
        for (String[] c : new String[][] {{"statefulset-v1beta1-full.yaml", "b"}, {"statefulset-v1alpha1-full.yaml", "a"}}) {
            ObjectNode doc = load(c[0]);
            Class<?> type = c[1].equals("b") ? StatefulSet.class : dev.kruisevertx.api.apps.v1alpha1.StatefulSet.class;
            Object typed = ApiJson.serialization().convertValue(doc, type);
            List<String> unknown = new ArrayList<>();
            collectUnknown(typed, "", unknown);
            assertTrue(unknown.isEmpty(), c[0] + " has fields the model does not know: " + unknown);
            // Re-read as text so that numbers compare by value (a long field reads back as LongNode).
            assertEquals(doc, JSON.readTree(JSON.writeValueAsString(ApiJson.serialization()
                    .convertValue(typed, JsonNode.class))), c[0]);
        }
    }

    @Test
    void typedConversionMatchesTheTreeConversion() throws IOException {
        StatefulSet beta = ApiJson.serialization().convertValue(load("statefulset-v1beta1-full.yaml"), StatefulSet.class);
        dev.kruisevertx.api.apps.v1alpha1.StatefulSet alpha = StatefulSetConversion.toV1alpha1(beta);
        assertNull(alpha.getSpec().getAdditionalProperties().get("reserveOrdinals"));
        StatefulSet back = StatefulSetConversion.toV1beta1(alpha);
        assertEquals(beta.getSpec(), back.getSpec());
        assertEquals(beta.getStatus(), back.getStatus());
        assertEquals(beta.getMetadata(), back.getMetadata());
    }

    @Test
    void badInputIsRejectedWithAClearMessage() throws IOException {
        ObjectNode beta = load("statefulset-v1beta1-full.yaml");
        IllegalArgumentException wrongVersion = assertThrows(IllegalArgumentException.class,
                () -> StatefulSetConversion.toV1beta1(beta));
        assertTrue(wrongVersion.getMessage().contains("apps.kruise.io/v1alpha1"), wrongVersion.getMessage());

        ObjectNode alpha = load("statefulset-v1alpha1-full.yaml");
        ((ObjectNode) alpha.path("metadata").path("annotations")).put(StatefulSetConversion.BETA_FIELDS_ANNOTATION, "{oops");
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                () -> StatefulSetConversion.toV1beta1(alpha));
        assertTrue(bad.getMessage().contains(StatefulSetConversion.BETA_FIELDS_ANNOTATION), bad.getMessage());

        ((ObjectNode) alpha.path("metadata").path("annotations")).put(StatefulSetConversion.BETA_FIELDS_ANNOTATION,
                "{\"replicas\": 9}");
        IllegalArgumentException notBetaOnly = assertThrows(IllegalArgumentException.class,
                () -> StatefulSetConversion.toV1beta1(alpha));
        assertTrue(notBetaOnly.getMessage().contains("'replicas'"), notBetaOnly.getMessage());
    }

    /** Walks the model and lists every value kept only as an unknown field. */
    private static void collectUnknown(Object value, String path, List<String> out) {
        if (value == null) {
            return;
        }
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                collectUnknown(list.get(i), path + "[" + i + "]", out);
            }
            return;
        }
        if (value instanceof UnknownFields u) {
            u.getAdditionalProperties().keySet().forEach(k -> out.add(path + "." + k));
        }
        if (!value.getClass().getName().startsWith("dev.kruisevertx.")) {
            if (value instanceof io.fabric8.kubernetes.client.CustomResource<?, ?> cr) {
                collectUnknown(cr.getSpec(), path + ".spec", out);
                collectUnknown(cr.getStatus(), path + ".status", out);
            }
            return;
        }
        for (Class<?> c = value.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                try {
                    f.setAccessible(true);
                    collectUnknown(f.get(value), path + "." + f.getName(), out);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    out.add(path + "." + f.getName() + " (unreadable: " + e + ")");
                }
            }
        }
    }
}
