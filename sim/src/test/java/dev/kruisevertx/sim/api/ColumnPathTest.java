package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ColumnPathTest {
    static final JsonNode OBJECT = read("""
            {"metadata": {"labels": {"crr.apps.kruise.io/node-name": "node-1", "app": "x"}},
             "spec": {"replicas": 3, "template": {"spec": {"containers": [
               {"name": "main", "image": "nginx:1.25"}, {"name": "sidecar", "image": "envoy:1"}]}}},
             "status": {"empty": null}}
            """);

    static JsonNode read(String json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static String at(String path) {
        return ColumnPath.parse(path).first(OBJECT).asText();
    }

    @Test
    void fieldsIndexesAndWildcardsGiveTheFirstMatch() {
        assertEquals("3", at(".spec.replicas"));
        assertEquals("nginx:1.25", at(".spec.template.spec.containers[*].image"), "first match, as kube-apiserver");
        assertEquals("sidecar", at(".spec.template.spec.containers[1].name"));
        assertEquals("envoy:1", at(".spec.template.spec.containers[-1].image"));
        assertEquals("x", at("{.metadata.labels.app}"));
    }

    @Test
    void escapedDotsAndQuotedKeysNameOneField() {
        assertEquals("node-1", at(".metadata.labels.crr\\.apps\\.kruise\\.io/node-name"));
        assertEquals("node-1", at(".metadata.labels['crr.apps.kruise.io/node-name']"));
    }

    @Test
    void missingAndNullValuesFindNothing() {
        assertTrue(ColumnPath.parse(".status.phase").first(OBJECT).isMissingNode());
        assertTrue(ColumnPath.parse(".status.empty").first(OBJECT).isMissingNode());
        assertTrue(ColumnPath.parse(".spec.template.spec.containers[5].name").first(OBJECT).isMissingNode());
        assertTrue(ColumnPath.parse(".spec.replicas[*]").first(OBJECT).isMissingNode());
    }

    @Test
    void unsupportedSyntaxIsRefusedWithTheReason() {
        IllegalArgumentException filter = assertThrows(IllegalArgumentException.class,
                () -> ColumnPath.parse(".status.conditions[?(@.type==\"Ready\")].status"));
        assertTrue(filter.getMessage().contains("is not supported"), filter.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ColumnPath.parse("..name"));
        assertThrows(IllegalArgumentException.class, () -> ColumnPath.parse(".spec[0"));
    }
}
