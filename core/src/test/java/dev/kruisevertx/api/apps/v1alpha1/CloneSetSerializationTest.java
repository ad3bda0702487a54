package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.api.common.UpdateScatterTerm;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CloneSetSerializationTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String fixture() throws IOException {
        try (InputStream in = CloneSetSerializationTest.class.getResourceAsStream("/api/cloneset-full.yaml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsEveryFieldOfAFullCloneSet() throws IOException {
        CloneSet cs = ApiJson.serialization().unmarshal(fixture(), CloneSet.class);

        assertEquals("apps.kruise.io/v1alpha1", cs.getApiVersion());
        assertEquals("CloneSet", cs.getKind());
        CloneSetSpec spec = cs.getSpec();
        assertEquals(5, spec.getReplicas());
        assertEquals(Map.of("app", "sample"), spec.getSelector().getMatchLabels());
        assertEquals("nginx:alpine", spec.getTemplate().getSpec().getContainers().get(0).getImage());
        assertEquals(new Quantity("20Gi"),
                spec.getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests().get("storage"));
        assertEquals(List.of("sample-abcde", "sample-fghij"), spec.getScaleStrategy().getPodsToDelete());
        assertEquals(new IntOrString(1), spec.getScaleStrategy().getMaxUnavailable());
        assertTrue(spec.getScaleStrategy().isDisablePVCReuse());

        CloneSetUpdateStrategy update = spec.getUpdateStrategy();
        assertEquals(Optional.of(CloneSetUpdateStrategyType.IN_PLACE_IF_POSSIBLE), update.typeValue());
        assertEquals(new IntOrString("20%"), update.getPartition());
        assertEquals(new IntOrString("50%"), update.getMaxUnavailable());
        assertEquals(new IntOrString(2), update.getMaxSurge());
        assertTrue(update.isPaused());
        assertEquals(50, update.getPriorityStrategy().getWeightPriority().get(0).getWeight());
        assertEquals(Map.of("test-key", "bar"),
                update.getPriorityStrategy().getWeightPriority().get(1).getMatchSelector().getMatchLabels());
        assertEquals(List.of(new UpdateScatterTerm("zone", "zone-a"), new UpdateScatterTerm("zone", "zone-b")),
                update.getScatterStrategy());
        assertEquals(10, update.getInPlaceUpdateStrategy().getGracePeriodSeconds());
        assertEquals(5, spec.getRevisionHistoryLimit());
        assertEquals(30, spec.getMinReadySeconds());

        LifecycleHook preDelete = spec.getLifecycle().getPreDelete();
        assertEquals(List.of("example.io/unready-blocker"), preDelete.getFinalizersHandler());
        assertTrue(preDelete.isMarkPodNotReady());
        assertEquals(Map.of("example.io/block-unready", "true"), spec.getLifecycle().getInPlaceUpdate().getLabelsHandler());
        assertFalse(spec.getLifecycle().getPreNormal().isMarkPodNotReady());

        CloneSetStatus status = cs.getStatus();
        assertEquals(3L, status.getObservedGeneration());
        assertEquals(5, status.getReplicas());
        assertEquals(4, status.getReadyReplicas());
        assertEquals(4, status.getAvailableReplicas());
        assertEquals(2, status.getUpdatedReplicas());
        assertEquals(2, status.getUpdatedReadyReplicas());
        assertEquals(1, status.getUpdatedAvailableReplicas());
        assertEquals(4, status.getExpectedUpdatedReplicas());
        assertEquals("sample-7f9c6d8b5", status.getUpdateRevision());
        assertEquals("sample-5d4c7b9f6", status.getCurrentRevision());
        assertEquals(1, status.getCollisionCount());
        assertEquals("app=sample,tier in (api,web)", status.getLabelSelector());
        CloneSetCondition condition = status.getConditions().get(0);
        assertEquals(Optional.of(CloneSetConditionType.FAILED_SCALE), CloneSetConditionType.fromValue(condition.getType()));
        assertEquals("False", condition.getStatus());
        assertEquals("2026-06-21T10:00:00Z", condition.getLastTransitionTime());
    }

    @Test
    void roundTripKeepsEveryFieldIncludingUnknownOnes() throws IOException {
        String yaml = fixture();
        CloneSet cs = ApiJson.serialization().unmarshal(yaml, CloneSet.class);

        JsonNode original = new YAMLMapper().readTree(yaml);
        JsonNode written = JSON.readTree(ApiJson.toJson(cs));
        assertEquals(original, written);

        // progressDeadlineSeconds became a typed field with issue 17 (the stuck-rollout deadline); it round-trips so.
        assertEquals(600, cs.getSpec().getProgressDeadlineSeconds());
        assertEquals(null, cs.getSpec().getAdditionalProperties().get("progressDeadlineSeconds"));
        // Plain Jackson (e.g. Vert.x's JSON codec) keeps them too: nothing depends on fabric8's mapper set-up.
        CloneSetSpec viaPlainJackson = JSON.readValue(JSON.writeValueAsString(cs.getSpec()), CloneSetSpec.class);
        assertEquals(cs.getSpec(), viaPlainJackson);
        assertEquals(original.get("spec"), JSON.readTree(JSON.writeValueAsString(viaPlainJackson)));
        assertEquals("enabled", cs.getSpec().getUpdateStrategy().getAdditionalProperties().get("futureKnob"));
    }

    @Test
    void equalityFollowsContent() throws IOException {
        CloneSet a = ApiJson.serialization().unmarshal(fixture(), CloneSet.class);
        CloneSet b = ApiJson.serialization().unmarshal(fixture(), CloneSet.class);
        assertEquals(a.getSpec(), b.getSpec());
        assertEquals(a.getSpec().hashCode(), b.getSpec().hashCode());
        assertEquals(a.getStatus(), b.getStatus());

        b.getSpec().getUpdateStrategy().setPaused(false);
        assertNotEquals(a.getSpec(), b.getSpec());
        b.getSpec().getUpdateStrategy().setPaused(true);
        b.getSpec().getUpdateStrategy().setAdditionalProperty("futureKnob", "off");
        assertNotEquals(a.getSpec(), b.getSpec());
    }

    @Test
    void zeroValuesAreWrittenLikeOpenKruise() throws IOException {
        CloneSet cs = new CloneSet();
        cs.setSpec(new CloneSetSpec());
        cs.getSpec().setUpdateStrategy(new CloneSetUpdateStrategy());
        cs.getSpec().setScaleStrategy(new CloneSetScaleStrategy());
        cs.setStatus(new CloneSetStatus());

        JsonNode json = JSON.readTree(ApiJson.toJson(cs));
        // Go omits false/0 for these omitempty fields; so must we, or every write would look like a change.
        assertFalse(json.at("/spec").has("minReadySeconds"));
        assertFalse(json.at("/spec/updateStrategy").has("paused"));
        assertFalse(json.at("/spec/scaleStrategy").has("disablePVCReuse"));
        assertFalse(json.at("/status").has("observedGeneration"));
        assertFalse(json.at("/status").has("updatedAvailableReplicas"));
        assertFalse(json.at("/status").has("expectedUpdatedReplicas"));
        assertFalse(json.at("/status").has("additionalProperties"));
        // ...while the five counters without omitempty are always present.
        for (String counter : List.of("replicas", "readyReplicas", "availableReplicas", "updatedReplicas",
                "updatedReadyReplicas")) {
            assertTrue(json.at("/status").has(counter), counter);
            assertEquals(0, json.at("/status/" + counter).asInt());
        }
        assertEquals("apps.kruise.io/v1alpha1", json.get("apiVersion").asText());
        assertEquals("CloneSet", json.get("kind").asText());
    }

    @Test
    void documentsAreReadIntoCloneSetByApiVersionAndKind() throws IOException {
        Object read = ApiJson.serialization().unmarshal(fixture());
        assertEquals(CloneSet.class, read.getClass());
    }

    @Test
    void javaSerializationWorksLikeForAnyFabric8Resource() throws Exception {
        CloneSet cs = ApiJson.serialization().unmarshal(fixture(), CloneSet.class);
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(bytes)) {
            out.writeObject(cs);
        }
        try (java.io.ObjectInputStream in = new java.io.ObjectInputStream(
                new java.io.ByteArrayInputStream(bytes.toByteArray()))) {
            CloneSet copy = (CloneSet) in.readObject();
            assertEquals(cs.getSpec(), copy.getSpec());
            assertEquals(cs.getStatus(), copy.getStatus());
        }
    }

    @Test
    void unexpectedUpdateTypeSurvivesAndIsReportedAsUnknown() {
        CloneSet cs = ApiJson.serialization().unmarshal(
                "{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\",\"spec\":{\"updateStrategy\":{\"type\":\"RollingUpdate\"}}}",
                CloneSet.class);
        assertEquals("RollingUpdate", cs.getSpec().getUpdateStrategy().getType());
        assertEquals(Optional.empty(), cs.getSpec().getUpdateStrategy().typeValue());
    }
}
