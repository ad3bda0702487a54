package dev.kruisevertx.crr;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.demo.DemoOptions;
import dev.kruisevertx.demo.DemoRunner;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.nodes.SimNodes;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A v1beta1 ContainerRecreateRequest through the embedded cluster's admission and conversion paths (as {@code demo}
 * runs it): defaulted by the webhook in v1beta1, stored as v1alpha1, carried out by the node agent (the container is
 * recreated), read back and deleted through v1beta1; hostile v1beta1 requests refused with the field.
 */
class CrrV1beta1EndToEndTest {
    static final Duration TIMEOUT = Duration.ofSeconds(90);
    static final String NS = "default";
    static final String ALPHA = "apps.kruise.io/v1alpha1";
    static final String BETA = "apps.kruise.io/v1beta1";
    static DemoRunner product;
    static KubernetesClient client;
    static SimNodes nodes;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("crr-beta-e2e");
        product = new DemoRunner(new DemoOptions(2, dir.resolve("kubeconfig"), 0, "127.0.0.1:0", "127.0.0.1:0", "0", "",
                null, true, Duration.ofSeconds(60)), new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        product.start();
        client = product.cluster().client();
        nodes = product.cluster().nodes();
    }

    @AfterAll
    static void stop() throws Exception {
        if (product != null) {
            product.close();
        }
    }

    static Pod runningPod(String name) {
        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1.25").endContainer().endSpec()
                .build()).create();
        Pod ready = Await.waitFor("pod " + name + " ready", TIMEOUT, () -> client.pods().inNamespace(NS).withName(name).get(),
                p -> Pods.conditionTrue(p, "Ready"));
        // A container started in the request's creation second counts as already recreated (as in OpenKruise).
        Await.waitFor("the container of " + name + " started in an earlier second", TIMEOUT, () -> {
            Instant second = Instant.now().truncatedTo(ChronoUnit.SECONDS);
            String id = ready.getStatus().getContainerStatuses().get(0).getContainerID();
            return nodes.container(ready.getSpec().getNodeName(), id.substring(id.indexOf("://") + 3)).orElseThrow()
                    .startedAt().isBefore(second);
        });
        return ready;
    }

    static GenericKubernetesResource create(String json) {
        GenericKubernetesResource object = Serialization.unmarshal(json, GenericKubernetesResource.class);
        return client.genericKubernetesResources(object.getApiVersion(), object.getKind()).inNamespace(NS)
                .resource(object).create();
    }

    static GenericKubernetesResource get(String apiVersion, String name) {
        return client.genericKubernetesResources(apiVersion, "ContainerRecreateRequest").inNamespace(NS).withName(name)
                .get();
    }

    @SuppressWarnings("unchecked")
    static <T> T at(GenericKubernetesResource r, String... path) {
        Object node = r == null ? null : r.getAdditionalProperties();
        for (String p : path) {
            node = node == null ? null : node instanceof List<?> l ? l.get(Integer.parseInt(p))
                    : ((Map<String, Object>) node).get(p);
        }
        return (T) node;
    }

    @Test
    void aV1beta1RequestIsDefaultedStoredAsV1alpha1AndTheContainerIsRecreated() {
        Pod before = runningPod("beta-restart");
        GenericKubernetesResource created = create("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"ContainerRecreateRequest",
                 "metadata":{"name":"beta-restart"},
                 "spec":{"podName":"beta-restart","containers":[{"name":"main"}],
                   "strategy":{"minStartedSeconds":1},"ttlSecondsAfterFinished":600}}
                """);
        assertEquals(BETA, created.getApiVersion());
        // The webhook defaulted the v1beta1 object: labels from the pod, the container's current context.
        assertEquals(before.getSpec().getNodeName(), created.getMetadata().getLabels().get(WellKnown.CRR_NODE_NAME_LABEL));
        assertEquals(before.getMetadata().getUid(), created.getMetadata().getLabels().get(WellKnown.CRR_POD_UID_LABEL));
        assertEquals("Fail", at(created, "spec", "strategy", "failurePolicy"));
        String oldId = before.getStatus().getContainerStatuses().get(0).getContainerID();
        assertEquals(oldId, at(created, "spec", "containers", "0", "statusContext", "containerID"));

        // The node agent (reading v1alpha1) carries it out; the status reads back through v1beta1.
        GenericKubernetesResource done = Await.waitFor("beta-restart Completed through v1beta1", TIMEOUT,
                () -> get(BETA, "beta-restart"), r -> r != null && "Completed".equals(at(r, "status", "phase")));
        assertEquals(BETA, done.getApiVersion());
        assertEquals("Succeeded", at(done, "status", "containerRecreateStates", "0", "phase"));
        assertEquals(ALPHA, get(ALPHA, "beta-restart").getApiVersion());
        Pod after = client.pods().inNamespace(NS).withName("beta-restart").get();
        assertNotEquals(oldId, after.getStatus().getContainerStatuses().get(0).getContainerID());
        assertEquals(before.getStatus().getContainerStatuses().get(0).getRestartCount() + 1,
                after.getStatus().getContainerStatuses().get(0).getRestartCount());
        assertFalse(client.genericKubernetesResources(BETA, "ContainerRecreateRequest").inNamespace(NS).list()
                .getItems().isEmpty());

        client.genericKubernetesResources(BETA, "ContainerRecreateRequest").inNamespace(NS).withName("beta-restart")
                .delete();
        Await.waitFor("the request gone", TIMEOUT, () -> get(ALPHA, "beta-restart") == null);
    }

    @Test
    void hostileV1beta1RequestsAreRefusedWithTheFieldAndNothingIsStored() {
        String head = """
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"ContainerRecreateRequest","metadata":{"name":"%s"},
                 "spec":{"podName":"nobody",""";
        Map<String, String> cases = Map.of(
                "wrongtype", "\"containers\":[{\"name\":\"main\"}],\"activeDeadlineSeconds\":\"soon\"}}",
                "huge", "\"containers\":[{\"name\":\"main\"}],\"ttlSecondsAfterFinished\":99999999999999}}",
                "notalist", "\"containers\":\"main\"}}",
                // The API server drops a status sent on create (status subresource), so this is judged on its spec.
                "ignoredstatus", "\"containers\":[{\"name\":\"main\"}]},\"status\":{\"conditions\":\"x\"}}");
        Map<String, String> expected = Map.of(
                "wrongtype", "spec.activeDeadlineSeconds",
                "huge", "spec.ttlSecondsAfterFinished",
                "notalist", "spec.containers",
                "ignoredstatus", "no found Pod named nobody");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            KubernetesClientException e = assertThrows(KubernetesClientException.class,
                    () -> create(head.formatted(c.getKey()) + c.getValue()), c.getKey());
            assertTrue(e.getCode() == 422 || e.getCode() == 400, c.getKey() + ": " + e.getCode() + " " + e.getMessage());
            assertTrue(e.getMessage().contains(expected.get(c.getKey())), c.getKey() + ": " + e.getMessage());
            assertFalse(e.getMessage().contains("dev.kruisevertx"), e.getMessage());
            assertNull(get(ALPHA, c.getKey()), c.getKey() + " was stored");
        }
    }
}
