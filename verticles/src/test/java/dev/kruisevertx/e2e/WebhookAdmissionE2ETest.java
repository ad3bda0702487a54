package dev.kruisevertx.e2e;

import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.manager.ControllerRegistry;
import dev.kruisevertx.manager.ManagerApp;
import dev.kruisevertx.manager.ManagerCommand;
import dev.kruisevertx.manager.ManagerConfig;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The manager's webhook behind the embedded API server's admission path, as kube-apiserver would call it: the
 * pod readiness gate, CloneSet validation, and the caBundle kept in place.
 */
class WebhookAdmissionE2ETest {
    @TempDir
    static Path certs;
    static ClusterFixture fixture;
    static ManagerApp manager;
    static KubernetesClient managerClient;

    @BeforeAll
    static void start() throws Exception {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(2));
        EmbeddedProduct.install(fixture.cluster());

        List<ControllerDefinition> controllers = ControllerRegistry.all();
        ManagerCommand command = new ManagerCommand();
        CommandLine cl = new CommandLine(command);
        ManagerCommand.addWorkerFlags(cl.getCommandSpec(), controllers);
        cl.parseArgs("--metrics-addr=0", "--health-probe-addr=0", "--debug-addr=0", "--enable-leader-election=false");
        ManagerConfig config = command.toConfig(cl.getCommandSpec(), controllers,
                EmbeddedProduct.localWebhookEnv(Map.of(), certs));
        managerClient = fixture.cluster().newClient();
        manager = ManagerApp.start(config, managerClient, controllers).toCompletionStage().toCompletableFuture()
                .get(120, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        if (manager != null) {
            manager.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
        if (managerClient != null) {
            managerClient.close();
        }
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void aPodOfAKruiseWorkloadGetsTheReadinessGateAndBecomesReady() {
        KubernetesClient client = fixture.client();
        // A real owner: the garbage collector removes pods whose owner does not exist. Its selector does not match
        // the pod, so the CloneSet controller only releases it (and never deletes it).
        List<io.fabric8.kubernetes.api.model.HasMetadata> applied = ManifestApplier.apply(client, """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: gate-owner, namespace: default}
                spec:
                  replicas: 0
                  selector: {matchLabels: {app: gate-owner}}
                  template:
                    metadata: {labels: {app: gate-owner}}
                    spec: {containers: [{name: main, image: nginx}]}
                """);
        String ownerUid = applied.get(0).getMetadata().getUid();
        Pod pod = client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("owned")
                .addNewOwnerReference().withApiVersion("apps.kruise.io/v1alpha1").withKind("CloneSet")
                .withName("gate-owner").withUid(ownerUid).withController(true).endOwnerReference()
                .endMetadata().withNewSpec().addNewContainer().withName("main").withImage("nginx:1.25").endContainer()
                .endSpec().build()).create();
        assertTrue(pod.getSpec().getReadinessGates().stream().anyMatch(g -> g.getConditionType().equals("KruisePodReady")),
                "the mutating webhook added the KruisePodReady gate: " + pod.getSpec().getReadinessGates());
        Await.waitFor("the owned pod is Ready (podreadiness set KruisePodReady=True)", Duration.ofSeconds(60), () -> {
            Pod p = client.pods().inNamespace("default").withName("owned").get();
            return p.getStatus() != null && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
                    .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
        });

        Pod plain = client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("plain")
                .endMetadata().withNewSpec().addNewContainer().withName("main").withImage("nginx").endContainer()
                .endSpec().build()).create();
        assertTrue(plain.getSpec().getReadinessGates() == null || plain.getSpec().getReadinessGates().isEmpty(),
                "a pod no kruise workload owns is left alone");
    }

    @Test
    void anInvalidCloneSetIsRejectedWithTheReason() {
        KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> ManifestApplier.apply(
                fixture.client(), """
                        apiVersion: apps.kruise.io/v1alpha1
                        kind: CloneSet
                        metadata: {name: bad, namespace: default}
                        spec:
                          replicas: 2
                          selector: {matchLabels: {app: bad}}
                          template:
                            metadata: {labels: {app: other}}
                            spec: {containers: [{name: main, image: nginx}]}
                        """));
        assertTrue(e.getMessage().contains("selector"), e.getMessage());
        assertTrue(e.getMessage().contains("template"), e.getMessage());
    }

    @Test
    void hostileWorkloadsAreRefusedWithAFieldMessageAndNothingIsStored() {
        KubernetesClient client = fixture.client();
        String longName = "w".repeat(10_000);
        Object[][] cases = {
                // The API server's own name rule comes first (a real one validates the name before the validating
                // webhooks run); a name it accepts but the workload cannot use is the webhook's to refuse.
                {statefulSet(longName, "\"25%\""), "metadata.name: Invalid value: \"" + longName
                        + "\": must be no more than 253 characters"},
                {statefulSet("w".repeat(60), "\"25%\""), "metadata.name: Too long: may not be more than 52 characters"},
                {statefulSet("overflow", "\"99999999999999999999%\""), "spec.updateStrategy.rollingUpdate.maxUnavailable: "
                        + "Invalid value: \"99999999999999999999%\": must not be greater than 100%"},
                {cloneSet("quoted", "\"7\""), "spec.replicas: Invalid value: \"7\": must be an integer"},
                {cloneSet("arabic", "\"\u0665\""), "spec.replicas: Invalid value: \"\u0665\": must be an integer"},
        };
        for (Object[] c : cases) {
            GenericKubernetesResource object = io.fabric8.kubernetes.client.utils.Serialization.unmarshal((String) c[0],
                    GenericKubernetesResource.class);
            KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> client
                    .genericKubernetesResources(object.getApiVersion(), object.getKind()).inNamespace("default")
                    .resource(object).create());
            assertEquals(422, e.getCode(), e.getMessage());
            assertTrue(e.getMessage().contains((String) c[1]), e.getMessage());
            assertTrue(!e.getMessage().contains("java.") && !e.getMessage().contains("dev.kruisevertx"), e.getMessage());
        }
        assertTrue(client.genericKubernetesResources("apps.kruise.io/v1beta1", "StatefulSet").inNamespace("default")
                .list().getItems().stream().noneMatch(s -> s.getMetadata().getName().startsWith("www")
                        || s.getMetadata().getName().equals("overflow")), "nothing was stored");
        assertTrue(client.apps().controllerRevisions().inNamespace("default").list().getItems().stream()
                .noneMatch(r -> r.getMetadata().getName().startsWith("www")), "no revision was attempted");
    }

    private static String statefulSet(String name, String maxUnavailable) {
        return """
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"StatefulSet","metadata":{"name":"%s","namespace":"default"},
                 "spec":{"replicas":1,"podManagementPolicy":"Parallel","selector":{"matchLabels":{"app":"h"}},
                  "template":{"metadata":{"labels":{"app":"h"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}},
                  "updateStrategy":{"type":"RollingUpdate","rollingUpdate":{"maxUnavailable":%s}}}}
                """.formatted(name, maxUnavailable);
    }

    private static String cloneSet(String name, String replicas) {
        return """
                {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","metadata":{"name":"%s","namespace":"default"},
                 "spec":{"replicas":%s,"selector":{"matchLabels":{"app":"h"}},
                  "template":{"metadata":{"labels":{"app":"h"}},"spec":{"containers":[{"name":"c","image":"nginx"}]}}}}
                """.formatted(name, replicas);
    }

    @Test
    void aHandEditedCaBundleIsRestored() {
        KubernetesClient client = fixture.client();
        String path = "/webhooks/0/clientConfig/caBundle";
        GenericKubernetesResource before = client.genericKubernetesResources("admissionregistration.k8s.io/v1",
                "MutatingWebhookConfiguration").withName("kruise-mutating-webhook-configuration").get();
        String original = caBundle(before);
        assertTrue(original != null && !original.isEmpty(), "the manager patched a caBundle in");
        client.genericKubernetesResources("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration")
                .withName("kruise-mutating-webhook-configuration")
                .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON),
                        "[{\"op\":\"replace\",\"path\":\"" + path + "\",\"value\":\"" + "Zm9v" + "\"}]");
        Await.waitFor("the caBundle is restored", Duration.ofSeconds(60), () -> original.equals(caBundle(
                client.genericKubernetesResources("admissionregistration.k8s.io/v1", "MutatingWebhookConfiguration")
                        .withName("kruise-mutating-webhook-configuration").get())));
        assertEquals(original, caBundle(client.genericKubernetesResources("admissionregistration.k8s.io/v1",
                "MutatingWebhookConfiguration").withName("kruise-mutating-webhook-configuration").get()));
    }

    @SuppressWarnings("unchecked")
    private static String caBundle(GenericKubernetesResource configuration) {
        List<Object> webhooks = (List<Object>) configuration.getAdditionalProperties().get("webhooks");
        Map<String, Object> clientConfig = (Map<String, Object>) ((Map<String, Object>) webhooks.get(0)).get("clientConfig");
        return (String) clientConfig.get("caBundle");
    }
}
