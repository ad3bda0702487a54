package dev.kruisevertx.api.common;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InPlaceUpdateStateTest {
    // Shaped like the annotation an OpenKruise v1.9 controller writes in the middle of a two-batch update,
    // plus a field this model does not know.
    private static final String WRITTEN_BY_OPENKRUISE = """
            {"revision":"sample-7f9c6d8b5","updateTimestamp":"2026-06-21T10:00:00Z",\
            "lastContainerStatuses":{"main":{"imageID":"docker.io/library/nginx@sha256:aaa",\
            "resources":{"limits":{"cpu":"1"}}}},\
            "updateEnvFromMetadata":true,"updateImages":true,"verticalUpdateOnly":false,\
            "nextContainerImages":{"sidecar":"busybox:1.37"},\
            "nextContainerRefMetadata":{"sidecar":{"labels":{"app-version":"v2"}}},\
            "nextContainerResources":{"sidecar":{"requests":{"memory":"64Mi"}}},\
            "preCheckBeforeNext":{"containersRequiredReady":["main"]},\
            "containerBatchesRecord":[{"timestamp":"2026-06-21T10:00:00Z","containers":["main"]}],\
            "someFutureField":{"x":1}}""";

    private static Pod podWith(Map<String, String> annotations) {
        return new PodBuilder().withNewMetadata().withName("p").withAnnotations(annotations).endMetadata().build();
    }

    @Test
    void readsTheAnnotationOpenKruiseWrites() {
        InPlaceUpdateState state = InPlaceUpdateState.readFrom(
                podWith(Map.of(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION, WRITTEN_BY_OPENKRUISE))).orElseThrow();

        assertEquals("sample-7f9c6d8b5", state.getRevision());
        assertEquals("2026-06-21T10:00:00Z", state.getUpdateTimestamp());
        assertEquals("docker.io/library/nginx@sha256:aaa", state.getLastContainerStatuses().get("main").getImageID());
        assertEquals(new Quantity("1"), state.getLastContainerStatuses().get("main").getResources().getLimits().get("cpu"));
        assertTrue(state.isUpdateEnvFromMetadata());
        assertTrue(state.isUpdateImages());
        assertFalse(state.isUpdateResources());
        assertEquals(Map.of("sidecar", "busybox:1.37"), state.getNextContainerImages());
        assertEquals(Map.of("app-version", "v2"), state.getNextContainerRefMetadata().get("sidecar").getLabels());
        assertEquals(new Quantity("64Mi"), state.getNextContainerResources().get("sidecar").getRequests().get("memory"));
        assertEquals(List.of("main"), state.getPreCheckBeforeNext().getContainersRequiredReady());
        assertEquals(List.of(new InPlaceUpdateContainerBatch("2026-06-21T10:00:00Z", List.of("main"))),
                state.getContainerBatchesRecord());
    }

    @Test
    void writesBackWhatItReadIncludingUnknownFields() throws Exception {
        InPlaceUpdateState state = ApiJson.fromAnnotation("k", WRITTEN_BY_OPENKRUISE, InPlaceUpdateState.class);
        ObjectMapper json = new ObjectMapper();
        JsonNode original = json.readTree(WRITTEN_BY_OPENKRUISE);
        JsonNode written = json.readTree(state.toJson());
        assertEquals(original, written);
        assertEquals(state, ApiJson.fromAnnotation("k", state.toJson(), InPlaceUpdateState.class));
    }

    @Test
    void minimalStateOmitsUnsetFlags() throws Exception {
        InPlaceUpdateState state = new InPlaceUpdateState();
        state.setRevision("r1");
        state.setUpdateTimestamp("2026-06-21T10:00:00Z");
        state.setLastContainerStatuses(Map.of("main", new InPlaceUpdateContainerStatus("id-1")));
        JsonNode written = new ObjectMapper().readTree(state.toJson());
        assertEquals(List.of("revision", "updateTimestamp", "lastContainerStatuses", "verticalUpdateOnly"),
                iterableToList(written.fieldNames()));
    }

    private static List<String> iterableToList(java.util.Iterator<String> it) {
        List<String> out = new java.util.ArrayList<>();
        it.forEachRemaining(out::add);
        return out;
    }

    @Test
    void fallsBackToThePreV1AnnotationAndIgnoresAbsentOnes() {
        String json = "{\"revision\":\"old\",\"updateTimestamp\":\"2020-01-01T00:00:00Z\",\"lastContainerStatuses\":{}}";
        assertEquals("old", InPlaceUpdateState.readFrom(
                podWith(Map.of(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION_OLD, json))).orElseThrow().getRevision());
        assertEquals(Optional.empty(), InPlaceUpdateState.readFrom(podWith(Map.of("other", "x"))));
        assertEquals(Optional.empty(), InPlaceUpdateState.readFrom(new Pod()));
    }

    @Test
    void invalidJsonNamesTheAnnotation() {
        Pod pod = podWith(Map.of(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION, "{not json"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> InPlaceUpdateState.readFrom(pod));
        assertTrue(e.getMessage().contains(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION), e.getMessage());
    }

    @Test
    void runtimeContainerMetaFromKruiseDaemon() {
        String json = "{\"containers\":[{\"name\":\"main\",\"containerID\":\"containerd://abc\",\"restartCount\":2,"
                + "\"hashes\":{\"plainHash\":3735928559,\"plainHashWithoutResources\":1234,\"extractedEnvFromMetadataHash\":99}}]}";
        RuntimeContainerMetaSet set = RuntimeContainerMetaSet.readFrom(
                podWith(Map.of(WellKnown.RUNTIME_CONTAINERS_META_ANNOTATION, json))).orElseThrow();
        RuntimeContainerMeta main = set.getContainers().get(0);
        assertEquals("containerd://abc", main.getContainerID());
        assertEquals(2, main.getRestartCount());
        assertEquals(3735928559L, main.getHashes().getPlainHash());
        assertEquals(99L, main.getHashes().getExtractedEnvFromMetadataHash());
        assertEquals(set, ApiJson.fromAnnotation("k", set.toJson(), RuntimeContainerMetaSet.class));
    }
}
