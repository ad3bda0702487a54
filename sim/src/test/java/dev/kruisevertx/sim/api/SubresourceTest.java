package dev.kruisevertx.sim.api;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.api.model.autoscaling.v1.ScaleBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SubresourceTest {
    static final ResourceDefinitionContext WIDGETS = new ResourceDefinitionContext.Builder().withGroup("test.kruise-vertx.dev")
            .withVersion("v1alpha1").withPlural("widgets").withKind("Widget").withNamespaced(true).build();
    static final ResourceDefinitionContext WIDGETS_BETA = new ResourceDefinitionContext.Builder().withGroup("test.kruise-vertx.dev")
            .withVersion("v1beta1").withPlural("widgets").withKind("Widget").withNamespaced(true).build();
    static ClusterFixture fixture;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        // The API server's subresource rules alone: a built-in Deployment controller writing the same objects would
        // race these exact writes (409s, status overwritten).
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setBuiltinControllers(false)
                .setCrdDirectory(Path.of("src/test/resources/crds")));
        client = fixture.client();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    static Deployment deployment(String name) {
        return new DeploymentBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", name).endSelector()
                .withNewTemplate().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("nginx").endContainer().endSpec().endTemplate().endSpec()
                .build();
    }

    @Test
    void builtInStatusIsSeparatedAndGenerationCountsSpecChanges() {
        Deployment d = client.apps().deployments().inNamespace("default").resource(new DeploymentBuilder(deployment("st"))
                .withNewStatus().withReplicas(7).endStatus().build()).create();
        assertNull(d.getStatus(), "create drops status");
        assertEquals(1L, d.getMetadata().getGeneration());

        d.setStatus(new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder().withReplicas(2).withObservedGeneration(1L).build());
        Deployment afterStatus = client.apps().deployments().inNamespace("default").resource(d).updateStatus();
        assertEquals(2, afterStatus.getStatus().getReplicas());
        assertEquals(1L, afterStatus.getMetadata().getGeneration(), "status writes do not bump generation");

        Deployment mainWrite = new DeploymentBuilder(afterStatus).editStatus().withReplicas(99).endStatus()
                .editMetadata().addToLabels("x", "y").endMetadata().build();
        Deployment afterMain = client.apps().deployments().inNamespace("default").resource(mainWrite).update();
        assertEquals(2, afterMain.getStatus().getReplicas(), "main writes keep the old status");
        assertEquals(1L, afterMain.getMetadata().getGeneration(), "metadata changes do not bump generation");

        Deployment specChange = new DeploymentBuilder(afterMain).editSpec().withReplicas(5).endSpec().build();
        Deployment afterSpec = client.apps().deployments().inNamespace("default").resource(specChange).update();
        assertEquals(2L, afterSpec.getMetadata().getGeneration());

        Deployment statusWithSpec = new DeploymentBuilder(afterSpec).editSpec().withReplicas(9).endSpec()
                .editStatus().withReplicas(3).endStatus().build();
        Deployment afterStatus2 = client.apps().deployments().inNamespace("default").resource(statusWithSpec).updateStatus();
        assertEquals(5, afterStatus2.getSpec().getReplicas(), "status writes change only status");
        assertEquals(3, afterStatus2.getStatus().getReplicas());
    }

    @Test
    void podStatusIsSeparated() {
        var pod = client.pods().inNamespace("default").resource(CrudTest.pod("ps")).create();
        pod.getStatus().setPhase("Running");
        client.pods().inNamespace("default").resource(pod).update();
        assertEquals("Pending", client.pods().inNamespace("default").withName("ps").get().getStatus().getPhase());
        pod = client.pods().inNamespace("default").withName("ps").get();
        pod.getStatus().setPhase("Running");
        client.pods().inNamespace("default").resource(pod).updateStatus();
        assertEquals("Running", client.pods().inNamespace("default").withName("ps").get().getStatus().getPhase());
    }

    /** As kube-apiserver's pod status strategy: pods/status keeps label and annotation changes, never the spec's. */
    @Test
    void podStatusWritesCarryLabelsAndAnnotations() {
        client.pods().inNamespace("default").resource(CrudTest.pod("psm")).create();
        Pod patched = client.pods().inNamespace("default").withName("psm").subresource("status")
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"metadata\":{\"annotations\":{\"a\":\"1\"},"
                        + "\"labels\":{\"l\":\"x\"}},\"spec\":{\"activeDeadlineSeconds\":5},"
                        + "\"status\":{\"phase\":\"Running\"}}");
        assertEquals("1", patched.getMetadata().getAnnotations().get("a"));
        assertEquals("x", patched.getMetadata().getLabels().get("l"));
        assertEquals("Running", patched.getStatus().getPhase());
        assertNull(patched.getSpec().getActiveDeadlineSeconds(), "the spec is not written through pods/status");

        Deployment d = client.apps().deployments().inNamespace("default").resource(deployment("dsm")).create();
        Deployment after = client.apps().deployments().inNamespace("default").withName("dsm").subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"annotations\":{\"a\":\"1\"}},"
                        + "\"status\":{\"replicas\":1}}");
        assertNull(after.getMetadata().getAnnotations() == null ? null : after.getMetadata().getAnnotations().get("a"),
                "other kinds' status writes change only the status");
        assertEquals(d.getMetadata().getUid(), after.getMetadata().getUid());
    }

    @Test
    void deploymentScaleSubresource() {
        client.apps().deployments().inNamespace("default").resource(deployment("sc")).create();
        Scale scale = client.apps().deployments().inNamespace("default").withName("sc").scale();
        assertEquals("Scale", scale.getKind());
        assertEquals(2, scale.getSpec().getReplicas());
        client.apps().deployments().inNamespace("default").withName("sc").scale(4);
        assertEquals(4, client.apps().deployments().inNamespace("default").withName("sc").get().getSpec().getReplicas());
    }

    static GenericKubernetesResource widget(String name, int replicas) {
        return new GenericKubernetesResourceBuilder().withApiVersion("test.kruise-vertx.dev/v1alpha1").withKind("Widget")
                .withNewMetadata().withName(name).withNamespace("default").endMetadata()
                .withAdditionalProperties(Map.of("spec", Map.of("replicas", replicas, "color", "blue"),
                        "status", Map.of("replicas", 42)))
                .build();
    }

    @Test
    void customResourceStatusScaleAndVersions() {
        GenericKubernetesResource w = client.genericKubernetesResources(WIDGETS).inNamespace("default").resource(widget("w1", 3)).create();
        assertNull(w.getAdditionalProperties().get("status"), "CRD with status subresource: create drops status");
        w.setAdditionalProperty("status", Map.of("replicas", 1, "labelSelector", "app=w1"));
        GenericKubernetesResource afterStatus = client.genericKubernetesResources(WIDGETS).inNamespace("default").resource(w).updateStatus();
        assertEquals(1L, afterStatus.getMetadata().getGeneration());

        Scale s = fixture.client().genericKubernetesResources(WIDGETS).inNamespace("default").withName("w1").scale();
        assertEquals(3, s.getSpec().getReplicas());
        assertEquals(1, s.getStatus().getReplicas());
        assertEquals("app=w1", s.getStatus().getSelector());

        Scale wanted = new ScaleBuilder(s).editSpec().withReplicas(6).endSpec().build();
        client.genericKubernetesResources(WIDGETS).inNamespace("default").withName("w1").scale(6);
        GenericKubernetesResource scaled = client.genericKubernetesResources(WIDGETS).inNamespace("default").withName("w1").get();
        assertEquals(6, ((Map<?, ?>) scaled.getAdditionalProperties().get("spec")).get("replicas"));
        assertEquals(2L, scaled.getMetadata().getGeneration());
        assertEquals(6, wanted.getSpec().getReplicas());

        GenericKubernetesResource beta = client.genericKubernetesResources(WIDGETS_BETA).inNamespace("default").withName("w1").get();
        assertEquals("test.kruise-vertx.dev/v1beta1", beta.getApiVersion());

        GenericKubernetesResource gadget = new GenericKubernetesResourceBuilder().withApiVersion("test.kruise-vertx.dev/v1").withKind("Gadget")
                .withNewMetadata().withName("g").endMetadata().withAdditionalProperties(Map.of("status", Map.of("kept", true))).build();
        GenericKubernetesResource g = client.resource(gadget).create();
        assertEquals(Map.of("kept", true), g.getAdditionalProperties().get("status"), "no status subresource: status is ordinary");
    }

    @Test
    void crdCreatedAtRuntimeIsServedAndRemovedWithItsObjects() {
        ResourceDefinitionContext things = new ResourceDefinitionContext.Builder().withGroup("rt.kruise-vertx.dev").withVersion("v1")
                .withPlural("things").withKind("Thing").withNamespaced(true).build();
        String crd = """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: things.rt.kruise-vertx.dev}
                spec:
                  group: rt.kruise-vertx.dev
                  scope: Namespaced
                  names: {plural: things, singular: thing, kind: Thing}
                  versions:
                  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
                """;
        dev.kruisevertx.sim.testing.ManifestApplier.apply(client, crd);
        dev.kruisevertx.sim.testing.ManifestApplier.apply(client, """
                apiVersion: rt.kruise-vertx.dev/v1
                kind: Thing
                metadata: {name: t1, namespace: default}
                spec: {a: 1}
                """);
        assertEquals(1, client.genericKubernetesResources(things).inNamespace("default").list().getItems().size());
        client.apiextensions().v1().customResourceDefinitions().withName("things.rt.kruise-vertx.dev").delete();
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> client.genericKubernetesResources(things).inNamespace("default").list());
        assertEquals(404, e.getCode());
    }
}
