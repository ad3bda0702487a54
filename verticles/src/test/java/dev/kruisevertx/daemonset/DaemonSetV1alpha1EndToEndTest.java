package dev.kruisevertx.daemonset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetConversion;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.crd.KruiseCrds;
import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A v1alpha1 client and the controller (a v1beta1 client) driving the same Advanced DaemonSet, with the API server
 * converting through the product's {@code /convert} webhook over HTTPS: the v1alpha1 progressive-create annotation
 * reaches the controller as scaleStrategy.partitionedScaling, and the status reads back as daemonSetHash.
 */
class DaemonSetV1alpha1EndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String SERVICE = "kruise-system/kruise-webhook-service";
    static final CertBundle CERTS = new CertIssuer().issueAll("kruise-webhook-service.kruise-system.svc",
            Duration.ofDays(1), Duration.ofDays(1));

    static Vertx webhookVertx;
    static WebhookServerVerticle webhook;

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .before(DaemonSetV1alpha1EndToEndTest::startConversionWebhook)
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3)
                    .mapService(SERVICE, "127.0.0.1:" + webhook.actualPort()))
            .install(DaemonSetV1alpha1EndToEndTest::installWithConversion)
            .controllers(() -> List.of(new DaemonSetController()))
            .after(DaemonSetV1alpha1EndToEndTest::stopConversionWebhook).build();

    static void startConversionWebhook() throws Exception {
        webhookVertx = Vertx.vertx();
        webhook = new WebhookServerVerticle("127.0.0.1", 0, 3 << 20, new AdmissionRegistry(),
                KruiseWebhooks.registerConversions(new ConversionRegistry()),
                new WebhookMetrics(new SimpleMeterRegistry()), CERTS);
        webhookVertx.deployVerticle(webhook).await(30, TimeUnit.SECONDS);
    }

    static void stopConversionWebhook() throws Exception {
        if (webhookVertx != null) {
            webhookVertx.close().await(30, TimeUnit.SECONDS);
        }
    }

    static void installWithConversion(EmbeddedCluster cluster) throws Exception {
        ObjectNode crd = ApiJson.serialization().convertValue(KruiseCrds.of(DaemonSet.class), ObjectNode.class);
        ((ObjectNode) crd.path("spec").path("conversion").path("webhook").path("clientConfig"))
                .put("caBundle", Base64.getEncoder().encodeToString(CERTS.caBundle()));
        cluster.installCrdDocuments(List.of(crd)).await(30, TimeUnit.SECONDS);
        EmbeddedProduct.installChartObjects(cluster);
    }

    @BeforeAll
    static void registerKinds() {
        KruiseCrds.registerKinds(product.client().getKubernetesSerialization());
    }

    static List<Pod> livePods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems().stream()
                .filter(p -> !Pods.isTerminating(p)).toList();
    }

    @Test
    void aV1alpha1ProgressiveCreateStaysWithinThePartition() {
        DaemonSet template = DaemonSetEndToEndTest.daemonSetIn(product.namespace(), "progressive", "nginx:1", s -> {
            s.getUpdateStrategy().getRollingUpdate().setPartition(new IntOrString(2));
            s.getTemplate().getSpec().setNodeSelector(null);
        });
        dev.kruisevertx.api.apps.v1alpha1.DaemonSet alpha = DaemonSetConversion.toV1alpha1(template);
        alpha.getMetadata().setAnnotations(new java.util.HashMap<>(java.util.Map.of(
                DaemonSetConversion.PROGRESSIVE_CREATE_POD_ANNOTATION, "true")));
        product.client().resources(dev.kruisevertx.api.apps.v1alpha1.DaemonSet.class).inNamespace(product.namespace())
                .resource(alpha).create();

        DaemonSet beta = Await.waitFor("stored and converted", WAIT, () -> product.client().resources(DaemonSet.class)
                .inNamespace(product.namespace()).withName("progressive").get(), d -> d != null);
        assertTrue(beta.getSpec().getScaleStrategy().isPartitionedScaling(), "annotation -> partitionedScaling");
        assertNull(beta.getMetadata().getAnnotations() == null ? null
                : beta.getMetadata().getAnnotations().get(DaemonSetConversion.PROGRESSIVE_CREATE_POD_ANNOTATION));

        // 3 nodes, partition 2: progressive create makes one pod and stops there
        Await.waitFor("one pod", WAIT, () -> livePods("progressive").size() == 1);
        dev.kruisevertx.api.apps.v1alpha1.DaemonSet read = Await.waitFor("status through v1alpha1", WAIT,
                () -> product.client().resources(dev.kruisevertx.api.apps.v1alpha1.DaemonSet.class)
                        .inNamespace(product.namespace()).withName("progressive").get(),
                a -> a.getStatus() != null && a.getStatus().getDesiredNumberScheduled() == 3
                        && a.getStatus().getDaemonSetHash() != null);
        assertEquals("true", read.getMetadata().getAnnotations().get(DaemonSetConversion.PROGRESSIVE_CREATE_POD_ANNOTATION));
        assertEquals(1, livePods("progressive").size());

        // the v1alpha1 client lowers the partition: the rest of the nodes get their pods
        // (the controller writes the status meanwhile: a 409 is retried, as any client does)
        Await.waitFor("the partition lowered", WAIT, () -> {
            try {
                product.client().resources(dev.kruisevertx.api.apps.v1alpha1.DaemonSet.class).inNamespace(product.namespace())
                        .withName("progressive").edit(a -> {
                            a.getSpec().getUpdateStrategy().getRollingUpdate().setPartition(new IntOrString(0));
                            return a;
                        });
                return true;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (!dev.kruisevertx.kube.ApiErrors.isConflict(e)) {
                    throw e;
                }
                return false;
            }
        });
        Await.waitFor("three pods", WAIT, () -> livePods("progressive").size() == 3);
    }
}
