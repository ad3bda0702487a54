package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.common.ApiJson;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A ContainerRecreateRequest written by OpenKruise reads into the model and writes back unchanged. */
class ContainerRecreateRequestApiTest {
    static final String OPENKRUISE_CRR = """
            {"apiVersion":"apps.kruise.io/v1alpha1","kind":"ContainerRecreateRequest",
             "metadata":{"name":"r","namespace":"ns","labels":{"crr.apps.kruise.io/node-name":"n1",
               "crr.apps.kruise.io/pod-uid":"u1","crr.apps.kruise.io/active":"true"}},
             "spec":{"podName":"web-0","containers":[{"name":"app",
                 "preStop":{"exec":{"command":["/bin/sh","-c","sleep 1"]}},
                 "statusContext":{"containerID":"containerd://abc","restartCount":2}}],
               "strategy":{"failurePolicy":"Fail","orderedRecreate":true,"forceRecreate":true,
                 "terminationGracePeriodSeconds":30,"unreadyGracePeriodSeconds":3,"minStartedSeconds":10},
               "activeDeadlineSeconds":300,"ttlSecondsAfterFinished":1800,"futureField":{"x":1}},
             "status":{"phase":"Completed","completionTime":"2026-01-01T10:00:00Z","message":"m",
               "containerRecreateStates":[{"name":"app","phase":"Succeeded","isKilled":true}]}}""";

    @Test
    void roundTripKeepsEveryField() {
        ContainerRecreateRequest crr = ApiJson.serialization().unmarshal(OPENKRUISE_CRR, ContainerRecreateRequest.class);
        assertEquals("web-0", crr.getSpec().getPodName());
        assertEquals("containerd://abc", crr.getSpec().getContainers().get(0).getStatusContext().getContainerID());
        assertEquals(2, crr.getSpec().getContainers().get(0).getStatusContext().getRestartCount());
        assertTrue(crr.getSpec().getStrategy().isForceRecreate());
        assertEquals(10, crr.getSpec().getStrategy().getMinStartedSeconds());
        assertEquals(1800, crr.getSpec().getTtlSecondsAfterFinished());
        assertTrue(crr.getStatus().getContainerRecreateStates().get(0).getIsKilled());
        assertTrue(crr.isCompleted());

        // Through text, so numbers compare by value (a tree keeps int and long nodes apart).
        JsonNode written = ApiJson.serialization().unmarshal(ApiJson.toJson(crr), JsonNode.class);
        JsonNode original = ApiJson.serialization().unmarshal(OPENKRUISE_CRR, JsonNode.class);
        assertEquals(original, written);
    }

    @Test
    void defaultsAreOmittedAsOpenKruiseOmitsThem() {
        ContainerRecreateRequestStrategy strategy = new ContainerRecreateRequestStrategy();
        JsonNode json = ApiJson.serialization().convertValue(strategy, JsonNode.class);
        assertEquals(0, json.size(), json.toString());
        ContainerRecreateRequestContainerRecreateState state =
                new ContainerRecreateRequestContainerRecreateState("app", "Pending", null, false);
        JsonNode s = ApiJson.serialization().convertValue(state, JsonNode.class);
        assertEquals(List.of("name", "phase"), iterable(s));
        assertFalse(s.has("isKilled"));
        // restartCount 0 is written: OpenKruise's field has no omitempty.
        JsonNode ctx = ApiJson.serialization().convertValue(new ContainerRecreateRequestContainerContext("c", 0),
                JsonNode.class);
        assertEquals(0, ctx.get("restartCount").asInt());
    }

    @Test
    void syncContainerStatusesAnnotationFormat() {
        String json = ApiJson.toJson(List.of(new ContainerRecreateRequestSyncContainerStatus("app", false, 0, null)));
        assertEquals("[{\"name\":\"app\",\"ready\":false,\"restartCount\":0}]", json);
    }

    private static List<String> iterable(JsonNode n) {
        List<String> names = new java.util.ArrayList<>();
        n.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
