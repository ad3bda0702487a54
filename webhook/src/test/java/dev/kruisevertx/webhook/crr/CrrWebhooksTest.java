package dev.kruisevertx.webhook.crr;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Future;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CrrWebhooksTest {
    static final Pod POD = new PodBuilder().withNewMetadata().withName("web-0").withNamespace("ns").withUid("pod-uid-1")
            .endMetadata().withNewSpec().withNodeName("node-a").withTerminationGracePeriodSeconds(45L)
            .addNewContainer().withName("app").withImage("nginx").addNewPort().withName("http").withContainerPort(8080)
            .endPort().withNewLifecycle().withNewPreStop().withNewHttpGet().withPath("/drain").withNewPort("http")
            .endHttpGet().endPreStop().endLifecycle().endContainer()
            .addNewContainer().withName("sidecar").withImage("envoy").withNewLifecycle().withNewPreStop().withNewExec()
            .withCommand("/bin/sh", "-c", "sleep 5").endExec().endPreStop().endLifecycle().endContainer()
            .addNewContainer().withName("starting").withImage("busybox").endContainer()
            .endSpec().withNewStatus().withPhase("Running")
            .addNewContainerStatus().withName("app").withContainerID("containerd://aaa").withRestartCount(2).endContainerStatus()
            .addNewContainerStatus().withName("sidecar").withContainerID("containerd://bbb").withRestartCount(0).endContainerStatus()
            .addNewContainerStatus().withName("starting").withRestartCount(0).endContainerStatus()
            .endStatus().build();

    static AdmissionHandler handler(boolean gate) {
        return CrrWebhooks.mutating((ns, name) -> "ns".equals(ns) && "web-0".equals(name)
                ? Optional.of(POD) : Optional.empty(), gate);
    }

    static ObjectNode crr(String json) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(
                "{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"ContainerRecreateRequest\","
                        + "\"metadata\":{\"name\":\"r\",\"namespace\":\"ns\"},\"spec\":" + json + "}");
    }

    static AdmissionResponse call(AdmissionHandler h, String op, ObjectNode object, ObjectNode old) throws Exception {
        AdmissionRequest request = new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1alpha1",
                "ContainerRecreateRequest", "containerrecreaterequests", "", "r", "ns", op, object, old, false, null);
        return h.handle(request).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static ContainerRecreateRequest applied(ObjectNode object, AdmissionResponse response) {
        JsonNode patched = response.patch() == null ? object : JsonPatch.apply(response.patch(), object);
        return Json.toModel(patched, ContainerRecreateRequest.class);
    }

    static void assertRejected(String spec, int code, String message) throws Exception {
        AdmissionResponse r = call(handler(true), AdmissionRequest.CREATE, crr(spec), null);
        assertFalse(r.allowed(), spec);
        assertEquals(code, r.code(), spec);
        assertEquals(message, r.message(), spec);
    }

    @Test
    void defaultsFromThePod() throws Exception {
        ObjectNode object = crr("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"},{\"name\":\"sidecar\"}]}");
        AdmissionResponse r = call(handler(true), AdmissionRequest.CREATE, object, null);
        assertTrue(r.allowed(), r.message());
        ContainerRecreateRequest crr = applied(object, r);

        assertEquals(Map.of(WellKnown.CRR_ACTIVE_LABEL, "true", WellKnown.CRR_NODE_NAME_LABEL, "node-a",
                WellKnown.CRR_POD_UID_LABEL, "pod-uid-1"), crr.getMetadata().getLabels());
        assertEquals("Fail", crr.getSpec().getStrategy().getFailurePolicy());
        assertEquals(45L, crr.getSpec().getStrategy().getTerminationGracePeriodSeconds());
        var app = crr.getSpec().getContainers().get(0);
        assertEquals("/drain", app.getPreStop().getHttpGet().getPath());
        assertEquals(8080, app.getPorts().get(0).getContainerPort(), "ports are copied for an HTTP hook");
        assertEquals("containerd://aaa", app.getStatusContext().getContainerID());
        assertEquals(2, app.getStatusContext().getRestartCount());
        var sidecar = crr.getSpec().getContainers().get(1);
        assertEquals(List.of("/bin/sh", "-c", "sleep 5"), sidecar.getPreStop().getExec().getCommand());
        assertEquals(null, sidecar.getPorts(), "ports only for HTTP hooks");
        assertEquals("containerd://bbb", sidecar.getStatusContext().getContainerID());
    }

    static AdmissionHandler handlerWithNodes(NodeLookup nodes) {
        return CrrWebhooks.mutating((ns, name) -> "ns".equals(ns) && "web-0".equals(name)
                ? Optional.of(POD) : Optional.empty(), nodes, true);
    }

    static Node node(String name, Map<String, String> labels) {
        return new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata().build();
    }

    @Test
    void aPodOnAVirtualKubeletNodeGivesTheRequestTheVirtualKubeletLabel() throws Exception {
        ObjectNode object = crr("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}]}");
        NodeLookup virtualNode = name -> Future.succeededFuture("node-a".equals(name)
                ? Optional.of(node(name, Map.of("type", "virtual-kubelet"))) : Optional.empty());
        ContainerRecreateRequest onVk = applied(object, call(handlerWithNodes(virtualNode), AdmissionRequest.CREATE, object, null));
        assertEquals("virtual-kubelet", onVk.getMetadata().getLabels().get("type"));
        assertEquals("node-a", onVk.getMetadata().getLabels().get(WellKnown.CRR_NODE_NAME_LABEL));

        NodeLookup plainNode = name -> Future.succeededFuture(Optional.of(node(name, Map.of("type", "agent"))));
        ContainerRecreateRequest onPlain = applied(object, call(handlerWithNodes(plainNode), AdmissionRequest.CREATE, object, null));
        assertFalse(onPlain.getMetadata().getLabels().containsKey("type"), onPlain.getMetadata().getLabels().toString());

        // A node that is gone is not an error; the request just gets no label.
        AdmissionResponse noNode = call(handlerWithNodes(NodeLookup.NONE), AdmissionRequest.CREATE, object, null);
        assertTrue(noNode.allowed(), noNode.message());
        assertFalse(applied(object, noNode).getMetadata().getLabels().containsKey("type"));

        // The API server failing to answer is.
        AdmissionResponse broken = call(handlerWithNodes(name -> Future.failedFuture(new IllegalStateException("timeout"))),
                AdmissionRequest.CREATE, object, null);
        assertFalse(broken.allowed());
        assertEquals(500, broken.code());
        assertEquals("failed to find Node node-a: timeout", broken.message());
    }

    @Test
    void keepsAGivenPolicyAndGrace() throws Exception {
        ObjectNode object = crr("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"sidecar\"}],"
                + "\"strategy\":{\"failurePolicy\":\"Ignore\",\"terminationGracePeriodSeconds\":5}}");
        ContainerRecreateRequest crr = applied(object, call(handler(true), AdmissionRequest.CREATE, object, null));
        assertEquals("Ignore", crr.getSpec().getStrategy().getFailurePolicy());
        assertEquals(5L, crr.getSpec().getStrategy().getTerminationGracePeriodSeconds());
    }

    @Test
    void refusesBadRequestsWithOpenKruisesMessages() throws Exception {
        assertRejected("{\"containers\":[{\"name\":\"app\"}]}", 400, "podName can not be empty");
        assertRejected("{\"podName\":\"web-0\"}", 400, "containers list can not be null");
        assertRejected("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}],\"activeDeadlineSeconds\":2}", 400,
                "activeDeadlineSeconds can not be less than 3s");
        assertRejected("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}],"
                + "\"strategy\":{\"terminationGracePeriodSeconds\":-1}}", 400,
                "terminationGracePeriodSeconds must be non-negative integer");
        assertRejected("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}],"
                + "\"strategy\":{\"unreadyGracePeriodSeconds\":-1}}", 400,
                "unreadyGracePeriodSeconds must be non-negative integer");
        assertRejected("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}],\"strategy\":{\"failurePolicy\":\"Retry\"}}",
                400, "unknown failurePolicy Retry");
        assertRejected("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}],\"strategy\":{\"failurePolicy\":\"ignore\"}}",
                400, "unknown failurePolicy ignore");
        assertRejected("{\"podName\":\"nope\",\"containers\":[{\"name\":\"app\"}]}", 400, "no found Pod named nope");
        assertRejected("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"db\"}]}", 400, "container db not found in Pod");
        assertRejected("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"},{\"name\":\"app\"}]}", 400,
                "can not recreate app multi times");
        assertRejected("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\",\"statusContext\":"
                + "{\"containerID\":\"x\",\"restartCount\":0}}]}", 400,
                "preStop, ports, statusContext in container are ready-only fields");
        assertRejected("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"starting\"}]}", 400,
                "no containerID in starting containerStatus, maybe the container has not been initialized");
    }

    @Test
    void refusesPodsThatAreNotRunningOnANode() throws Exception {
        Pod pending = new PodBuilder(POD).editSpec().withNodeName(null).endSpec().build();
        Pod finished = new PodBuilder(POD).editStatus().withPhase("Succeeded").endStatus().build();
        ObjectNode object = crr("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}]}");
        AdmissionResponse r1 = call(CrrWebhooks.mutating((ns, n) -> Optional.of(pending), true),
                AdmissionRequest.CREATE, object, null);
        assertEquals("not allowed to recreate containers in a pending Pod", r1.message());
        AdmissionResponse r2 = call(CrrWebhooks.mutating((ns, n) -> Optional.of(finished), true),
                AdmissionRequest.CREATE, object, null);
        assertEquals("not allowed to recreate containers in an inactive Pod", r2.message());
    }

    @Test
    void refusedWhileTheKruiseDaemonGateIsOff() throws Exception {
        AdmissionResponse r = call(handler(false), AdmissionRequest.CREATE,
                crr("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}]}"), null);
        assertFalse(r.allowed());
        assertEquals(403, r.code());
        assertEquals("feature-gate KruiseDaemon is not enabled", r.message());
    }

    @Test
    void updatesMayNotChangeTheSpecOrTheRoutingLabels() throws Exception {
        ObjectNode created = crr("{\"podName\":\"web-0\",\"containers\":[{\"name\":\"app\"}]}");
        ContainerRecreateRequest stored = applied(created, call(handler(true), AdmissionRequest.CREATE, created, null));
        stored.getMetadata().setAnnotations(Map.of(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER, "2026-01-01T10:00:00Z"));
        ObjectNode old = Json.toTree(stored);

        ContainerRecreateRequest specChanged = Json.toModel(old, ContainerRecreateRequest.class);
        specChanged.getSpec().setPodName("web-1");
        assertEquals("spec of ContainerRecreateRequest is immutable",
                call(handler(true), AdmissionRequest.UPDATE, Json.toTree(specChanged), old).message());

        ContainerRecreateRequest moved = Json.toModel(old, ContainerRecreateRequest.class);
        moved.getMetadata().getLabels().put(WellKnown.CRR_NODE_NAME_LABEL, "node-b");
        AdmissionResponse r = call(handler(true), AdmissionRequest.UPDATE, Json.toTree(moved), old);
        assertEquals(403, r.code());
        assertEquals("not allowed to update immutable label crr.apps.kruise.io/node-name", r.message());

        ContainerRecreateRequest otherPod = Json.toModel(old, ContainerRecreateRequest.class);
        otherPod.getMetadata().getLabels().remove(WellKnown.CRR_POD_UID_LABEL);
        assertEquals("not allowed to update immutable label crr.apps.kruise.io/pod-uid",
                call(handler(true), AdmissionRequest.UPDATE, Json.toTree(otherPod), old).message());

        ContainerRecreateRequest reacquired = Json.toModel(old, ContainerRecreateRequest.class);
        reacquired.getMetadata().setAnnotations(Map.of(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER, "2026-01-01T11:00:00Z"));
        assertEquals("not allowed to update immutable annotation crr.apps.kruise.io/unready-acquired",
                call(handler(true), AdmissionRequest.UPDATE, Json.toTree(reacquired), old).message());

        // Dropping the active label (the manager does so when the request ends) is allowed.
        ContainerRecreateRequest finished = Json.toModel(old, ContainerRecreateRequest.class);
        finished.getMetadata().getLabels().remove(WellKnown.CRR_ACTIVE_LABEL);
        assertTrue(call(handler(true), AdmissionRequest.UPDATE, Json.toTree(finished), old).allowed());
    }
}
