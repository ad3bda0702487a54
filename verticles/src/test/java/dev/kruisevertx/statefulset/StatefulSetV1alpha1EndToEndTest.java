package dev.kruisevertx.statefulset;

import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.kruisevertx.demo.EmbeddedProduct;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetConversion;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.crd.KruiseCrds;
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
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A v1alpha1 client and a v1beta1 client driving the same Advanced StatefulSet, with the API server converting
 * through the product's {@code /convert} webhook over HTTPS.
 */
class StatefulSetV1alpha1EndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String SERVICE = "kruise-system/kruise-webhook-service";
    static final CertBundle CERTS = new CertIssuer().issueAll("kruise-webhook-service.kruise-system.svc",
            Duration.ofDays(1), Duration.ofDays(1));

    /** Serves the product's conversions, as the manager's webhook would; the cluster maps the service to it. */
    static Vertx webhookVertx;
    static WebhookServerVerticle webhook;

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .before(StatefulSetV1alpha1EndToEndTest::startConversionWebhook)
            .cluster(() -> new EmbeddedClusterOptions().setNodes(2)
                    .mapService(SERVICE, "127.0.0.1:" + webhook.actualPort()))
            .install(StatefulSetV1alpha1EndToEndTest::installWithConversion)
            .flags(StatefulSetFixtures.FEATURE_GATES)
            .after(StatefulSetV1alpha1EndToEndTest::stopConversionWebhook).build();

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

    /** The StatefulSet CRD converting through the webhook above, then the chart's namespace and webhook configurations. */
    static void installWithConversion(EmbeddedCluster cluster) throws Exception {
        ObjectNode crd = ApiJson.serialization().convertValue(KruiseCrds.of(StatefulSet.class), ObjectNode.class);
        ((ObjectNode) crd.path("spec").path("conversion").path("webhook").path("clientConfig"))
                .put("caBundle", Base64.getEncoder().encodeToString(CERTS.caBundle()));
        cluster.installCrdDocuments(List.of(crd)).await(30, TimeUnit.SECONDS);
        EmbeddedProduct.installChartObjects(cluster);
    }

    @BeforeAll
    static void registerKinds() {
        KruiseCrds.registerKinds(product.client().getKubernetesSerialization());
    }

    static dev.kruisevertx.api.apps.v1alpha1.StatefulSet alphaGet(String name) {
        return product.client().resources(dev.kruisevertx.api.apps.v1alpha1.StatefulSet.class).inNamespace(product.namespace()).withName(name).get();
    }

    static StatefulSet betaGet(String name) {
        return product.client().resources(StatefulSet.class).inNamespace(product.namespace()).withName(name).get();
    }

    static Set<Integer> ordinals(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems().stream()
                .filter(p -> !Pods.isTerminating(p) && Pods.isReady(p))
                .map(p -> PodOrdinals.ordinalOf(app, p.getMetadata().getName()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @Test
    void aV1alpha1ClientCreatesReadsUpdatesAndWatchesTheSameObject() {
        String name = "alpha";
        List<String> alphaEvents = new CopyOnWriteArrayList<>();
        try (Watch watch = product.client().resources(dev.kruisevertx.api.apps.v1alpha1.StatefulSet.class).inNamespace(product.namespace())
                .withName(name).watch(new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, dev.kruisevertx.api.apps.v1alpha1.StatefulSet s) {
                        alphaEvents.add(action + " " + s.getApiVersion() + " replicas=" + s.getSpec().getReplicas());
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                        alphaEvents.add("closed " + cause);
                    }
                })) {
            StatefulSet template = StatefulSetFixtures.statefulSet(product.namespace(), name, 2, "nginx:1");
            template.getSpec().setPodManagementPolicy("Parallel");
            dev.kruisevertx.api.apps.v1alpha1.StatefulSet alpha = StatefulSetConversion.toV1alpha1(template);
            product.client().resources(dev.kruisevertx.api.apps.v1alpha1.StatefulSet.class).inNamespace(product.namespace()).resource(alpha).create();

            // Stored as v1beta1, read back in both versions; the controller (a v1beta1 client) runs the pods.
            Await.waitFor("pods 0,1 ready", WAIT, () -> ordinals(name).equals(Set.of(0, 1)));
            StatefulSet beta = betaGet(name);
            assertEquals("apps.kruise.io/v1beta1", beta.getApiVersion());
            assertEquals(2, beta.getSpec().getReplicas());
            Await.waitFor("status visible through v1alpha1", WAIT, () -> {
                dev.kruisevertx.api.apps.v1alpha1.StatefulSet a = alphaGet(name);
                return a.getStatus() != null && a.getStatus().getReadyReplicas() == 2;
            });

            // A v1beta1-only field set through v1beta1 survives a v1alpha1 read-modify-write.
            editBeta(name, s -> s.getSpec().setReserveOrdinals(List.of(new IntOrString(1))));
            dev.kruisevertx.api.apps.v1alpha1.StatefulSet read = alphaGet(name);
            assertEquals("apps.kruise.io/v1alpha1", read.getApiVersion());
            assertTrue(read.getMetadata().getAnnotations().containsKey(StatefulSetConversion.BETA_FIELDS_ANNOTATION),
                    read.getMetadata().toString());
            editAlpha(name, s -> s.getSpec().setReplicas(3));
            StatefulSet after = betaGet(name);
            assertEquals(3, after.getSpec().getReplicas());
            assertEquals(List.of(new IntOrString(1)), after.getSpec().getReserveOrdinals());
            assertFalse(after.getMetadata().getAnnotations() != null && after.getMetadata().getAnnotations()
                    .containsKey(StatefulSetConversion.BETA_FIELDS_ANNOTATION), "the stash never reaches storage");
            Await.waitFor("pods 0,2,3 ready", WAIT, () -> ordinals(name).equals(Set.of(0, 2, 3)));

            Await.waitFor("the v1alpha1 watch saw the object in v1alpha1, with the update", WAIT,
                    () -> alphaEvents.stream().anyMatch(e -> e.startsWith("MODIFIED apps.kruise.io/v1alpha1 replicas=3")));
            assertTrue(alphaEvents.stream().noneMatch(e -> e.startsWith("closed")), alphaEvents.toString());
            JsonNode stored = ApiJson.serialization().convertValue(after, JsonNode.class);
            assertEquals("apps.kruise.io/v1beta1", stored.path("apiVersion").asText());
        }
    }

    static void editBeta(String name, java.util.function.Consumer<StatefulSet> change) {
        retryConflicts(() -> product.client().resources(StatefulSet.class).inNamespace(product.namespace()).withName(name).edit(s -> {
            change.accept(s);
            return s;
        }));
    }

    static void editAlpha(String name, java.util.function.Consumer<dev.kruisevertx.api.apps.v1alpha1.StatefulSet> change) {
        retryConflicts(() -> product.client().resources(dev.kruisevertx.api.apps.v1alpha1.StatefulSet.class).inNamespace(product.namespace())
                .withName(name).edit(s -> {
                    change.accept(s);
                    return s;
                }));
    }

    static void retryConflicts(Runnable write) {
        for (int attempt = 1; ; attempt++) {
            try {
                write.run();
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 20) {
                    throw e;
                }
            }
        }
    }
}
