package dev.kruisevertx.cache;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntryBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The watch cache's informer transform on a realistic pod as kube-apiserver serves it (managedFields included). */
class LeanObjectsTest {
    private static final String POD_JSON = resource("/cache/realistic-pod.json");

    private static String resource(String path) {
        try (InputStream in = LeanObjectsTest.class.getResourceAsStream(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Pod decode() {
        return ApiJson.serialization().unmarshal(POD_JSON, Pod.class);
    }

    private static JsonNode json(Object o) {
        return ApiJson.serialization().convertValue(o, JsonNode.class);
    }

    @Test
    void onlyManagedFieldsAndTheLastAppliedAnnotationAreDropped() {
        Pod pod = decode();
        assertFalse(pod.getMetadata().getManagedFields().isEmpty(), "the fixture carries managedFields");
        assertTrue(pod.getMetadata().getAnnotations().containsKey(LeanObjects.LAST_APPLIED));

        Pod lean = LeanObjects.withDefaultInterner().apply(pod);

        assertSame(pod, lean, "changed in place: the informer's one copy");
        ObjectNode expected = (ObjectNode) json(decode());
        ((ObjectNode) expected.get("metadata")).remove("managedFields");
        ((ObjectNode) expected.at("/metadata/annotations")).remove(LeanObjects.LAST_APPLIED);
        // Every other field (spec, status, labels, owner references, finalizers, the other annotations, probes,
        // env, volumes, conditions, container statuses) is exactly as decoded: whatever a controller reads is there.
        assertEquals(expected, json(lean));
        Pod reference = ApiJson.serialization().convertValue(expected, Pod.class);
        assertEquals(reference, lean, "equals() sees the same object (the empty additional-properties maps included)");
        assertEquals(reference.hashCode(), lean.hashCode());
    }

    @Test
    void theFieldsControllersReadAreThere() {
        Pod lean = LeanObjects.withDefaultInterner().apply(decode());
        var meta = lean.getMetadata();
        assertEquals("app-0", meta.getLabels().get("app"));
        assertEquals("app-0-7d9f8c6b5", meta.getLabels().get("controller-revision-hash"));
        assertEquals("Normal", meta.getLabels().get("lifecycle.apps.kruise.io/state"));
        assertTrue(meta.getAnnotations().containsKey("apps.kruise.io/inplace-update-grace"));
        assertEquals("CloneSet", meta.getOwnerReferences().get(0).getKind());
        assertTrue(meta.getOwnerReferences().get(0).getController());
        assertEquals(List.of("apps.kruise.io/protection"), meta.getFinalizers());
        assertEquals("1000000", meta.getResourceVersion());
        assertEquals("KruisePodReady", lean.getSpec().getReadinessGates().get(0).getConditionType());
        assertEquals(2, lean.getSpec().getContainers().size());
        assertEquals("/ready", lean.getSpec().getContainers().get(0).getReadinessProbe().getHttpGet().getPath());
        assertEquals("500m", lean.getSpec().getContainers().get(0).getResources().getRequests().get("cpu").toString());
        assertEquals("node-0", lean.getSpec().getNodeName());
        assertEquals("Running", lean.getStatus().getPhase());
        assertEquals(6, lean.getStatus().getConditions().size());
        assertTrue(lean.getStatus().getContainerStatuses().get(1).getImageID().startsWith("docker.io/envoyproxy/envoy@"));
    }

    @Test
    void repeatedStringsOfSeparatelyDecodedPodsAreShared() {
        LeanObjects lean = LeanObjects.withDefaultInterner();
        Pod a = lean.apply(decode());
        Pod b = lean.apply(decode());
        assertNotSame(a.getMetadata(), b.getMetadata(), "two objects...");
        assertSame(a.getMetadata().getNamespace(), b.getMetadata().getNamespace(), "...sharing their strings");
        assertSame(a.getMetadata().getLabels().get("team"), b.getMetadata().getLabels().get("team"));
        assertSame(a.getSpec().getContainers().get(0).getImage(), b.getSpec().getContainers().get(0).getImage());
        assertSame(a.getSpec().getContainers().get(0).getEnv().get(2).getName(),
                b.getSpec().getContainers().get(0).getEnv().get(2).getName());
        assertSame(a.getMetadata().getOwnerReferences().get(0).getUid(), b.getMetadata().getOwnerReferences().get(0).getUid());
        assertSame(a.getSpec().getContainers().get(0).getAdditionalProperties(),
                b.getSpec().getContainers().get(0).getAdditionalProperties(), "one shared empty map");
    }

    @Test
    void otherKindsKeepTheLastAppliedAnnotationAndLoseManagedFields() {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("web").withNamespace("ns")
                .addToAnnotations(LeanObjects.LAST_APPLIED, "{\"kind\":\"CloneSet\"}")
                .withManagedFields(new ManagedFieldsEntryBuilder().withManager("kubectl").withOperation("Apply").build())
                .build());
        LeanObjects.withDefaultInterner().apply(cs);
        assertEquals("{\"kind\":\"CloneSet\"}", cs.getMetadata().getAnnotations().get(LeanObjects.LAST_APPLIED),
                "only Pods lose it: workloads are written back with full updates in places");
        assertTrue(cs.getMetadata().getManagedFields().isEmpty());
    }

    @Test
    void genericObjectsKeepTheirUntypedContent() {
        GenericKubernetesResource g = ApiJson.serialization().unmarshal("{\"apiVersion\":\"example.com/v1\",\"kind\":\"Thing\","
                + "\"metadata\":{\"name\":\"t\",\"namespace\":\"ns\",\"managedFields\":[{\"manager\":\"m\"}]},"
                + "\"spec\":{\"a\":{\"b\":[1,2,{\"c\":\"d\"}]}}}", GenericKubernetesResource.class);
        Map<String, Object> before = Map.copyOf(g.getAdditionalProperties());
        LeanObjects.withDefaultInterner().apply(g);
        assertEquals(before, g.getAdditionalProperties());
        assertTrue(g.getMetadata().getManagedFields().isEmpty());
    }

    @Test
    void hostileShapesAreHandled() {
        // Huge values are kept whole (not interned), nulls everywhere are fine, and a pod without metadata or
        // spec is stored as it came.
        Pod huge = new PodBuilder().withNewMetadata().withName("h").withNamespace("ns")
                .addToAnnotations("big", "v".repeat(2_000_000)).endMetadata().build();
        java.util.Map<String, String> labels = new java.util.LinkedHashMap<>();
        labels.put("k", null);
        huge.getMetadata().setLabels(labels);
        LeanObjects lean = LeanObjects.withDefaultInterner();
        lean.apply(huge);
        assertEquals(2_000_000, huge.getMetadata().getAnnotations().get("big").length());
        assertTrue(huge.getMetadata().getLabels().containsKey("k"));
        Pod bare = new Pod();
        assertSame(bare, lean.apply(bare));
        assertEquals(null, lean.apply((Pod) null));
    }
}
