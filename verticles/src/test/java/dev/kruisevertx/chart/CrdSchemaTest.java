package dev.kruisevertx.chart;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every CRD of crds/ (which the chart installs unchanged) has a structural schema as the API server demands for
 * apiextensions.k8s.io/v1: every node has a type unless it is int-or-string or keeps unknown fields, and unknown
 * fields are kept only where OpenKruise keeps them (crd-preserve-unknown-fields.txt).
 */
class CrdSchemaTest {
    @Test
    void everySchemaNodeIsTyped() throws IOException {
        Set<String> allowed = allowedPreserve();
        Set<String> preserved = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        List<JsonNode> crds = ChartRenderTest.crdFiles();
        assertFalse(crds.isEmpty(), "crds/ holds no CRD");
        for (JsonNode crd : crds) {
            assertEquals("apiextensions.k8s.io/v1", crd.path("apiVersion").asText());
            String name = crd.path("metadata").path("name").asText();
            for (JsonNode version : crd.path("spec").path("versions")) {
                String v = version.path("name").asText();
                JsonNode schema = version.path("schema").path("openAPIV3Schema");
                assertTrue(schema.isObject(), name + " " + v + " has no openAPIV3Schema");
                assertEquals("object", schema.path("type").asText(), name + " " + v + ": the root must be an object");
                walk(name + " " + v, "", schema, preserved, problems);
            }
        }
        assertEquals(List.of(), problems);
        assertEquals(allowed, preserved, "x-kubernetes-preserve-unknown-fields must be exactly where OpenKruise has it");
    }

    @Test
    void theCheckerCatchesAnUntypedField() throws IOException {
        JsonNode bad = HelmChart.parseAll("""
                type: object
                properties:
                  spec:
                    type: object
                    properties:
                      replicas: {description: no type}
                      partition: {x-kubernetes-int-or-string: true}
                      items: {type: array, items: {properties: {a: {type: string}}}}
                """).get(0);
        List<String> problems = new ArrayList<>();
        walk("test v1", "", bad, new TreeSet<>(), problems);
        assertEquals(List.of("test v1 .spec.replicas: no type", "test v1 .spec.items[]: no type"), problems);
    }

    static void walk(String crd, String path, JsonNode node, Set<String> preserved, List<String> problems) {
        boolean intOrString = node.path("x-kubernetes-int-or-string").asBoolean(false);
        boolean preserve = node.path("x-kubernetes-preserve-unknown-fields").asBoolean(false);
        if (preserve) {
            preserved.add(crd + " " + path);
        }
        if (!node.hasNonNull("type") && !intOrString && !preserve) {
            problems.add(crd + " " + (path.isEmpty() ? "." : path) + ": no type");
        }
        if (intOrString && node.has("type")) {
            problems.add(crd + " " + path + ": int-or-string must not declare a type");
        }
        node.path("properties").fields().forEachRemaining(e ->
                walk(crd, path + "." + e.getKey(), e.getValue(), preserved, problems));
        if (node.path("items").isObject()) {
            walk(crd, path + "[]", node.path("items"), preserved, problems);
        }
        if (node.path("additionalProperties").isObject()) {
            walk(crd, path + "{}", node.path("additionalProperties"), preserved, problems);
        }
        for (String forbidden : List.of("$ref", "definitions", "dependencies", "uniqueItems")) {
            if (node.has(forbidden)) {
                problems.add(crd + " " + path + ": " + forbidden + " is not allowed in a structural schema");
            }
        }
    }

    private static Set<String> allowedPreserve() throws IOException {
        Set<String> out = new TreeSet<>();
        try (InputStream in = CrdSchemaTest.class.getResourceAsStream("crd-preserve-unknown-fields.txt")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (!line.isBlank() && !line.startsWith("#")) {
                    out.add(line.strip());
                }
            }
        }
        return out;
    }
}
