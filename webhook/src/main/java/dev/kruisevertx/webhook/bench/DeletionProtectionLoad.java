package dev.kruisevertx.webhook.bench;

import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.WebhookDependencies;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.deletionprotection.ClusterDeletionLookup;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.net.PemTrustOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Load command for deletion protection: starts the HTTPS webhook on 127.0.0.1 with ResourcesDeletionProtection on and
 * sends protected DELETE reviews at a fixed rate, printing latency percentiles of two cases: a CloneSet labelled
 * {@code Always} (decided from the old object alone) and a namespace labelled {@code Cascading} whose pods are counted
 * on a worker thread from an in-memory list standing in for the pod cache (the manager's path when the cache watches
 * the namespace; no API server is involved). Every answer must be the refusal.
 * Arguments: {@code [ratePerSecond=500] [seconds=20] [warmupSeconds=20] [podsInNamespace=200]}.
 */
public final class DeletionProtectionLoad {
    static final String CLONESET_DELETE = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
            + "\"uid\":\"bench\",\"kind\":{\"group\":\"apps.kruise.io\",\"version\":\"v1alpha1\",\"kind\":\"CloneSet\"},"
            + "\"resource\":{\"group\":\"apps.kruise.io\",\"version\":\"v1alpha1\",\"resource\":\"clonesets\"},"
            + "\"namespace\":\"default\",\"name\":\"sample\",\"operation\":\"DELETE\",\"userInfo\":{\"username\":\"bench\"},"
            + "\"oldObject\":{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\",\"metadata\":{\"name\":\"sample\","
            + "\"namespace\":\"default\",\"labels\":{\"app\":\"sample\",\"policy.kruise.io/delete-protection\":\"Always\"}},"
            + "\"spec\":{\"replicas\":5,\"selector\":{\"matchLabels\":{\"app\":\"sample\"}},\"template\":{\"metadata\":"
            + "{\"labels\":{\"app\":\"sample\"}},\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx:1.27\"}]}}}}}}";
    static final String NAMESPACE_DELETE = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
            + "\"uid\":\"bench\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Namespace\"},"
            + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"namespaces\"},\"name\":\"team-a\","
            + "\"operation\":\"DELETE\",\"userInfo\":{\"username\":\"bench\"},\"oldObject\":{\"apiVersion\":\"v1\","
            + "\"kind\":\"Namespace\",\"metadata\":{\"name\":\"team-a\",\"labels\":{\"kubernetes.io/metadata.name\":\"team-a\","
            + "\"policy.kruise.io/delete-protection\":\"Cascading\"}},\"spec\":{\"finalizers\":[\"kubernetes\"]},"
            + "\"status\":{\"phase\":\"Active\"}}}}";

    private DeletionProtectionLoad() {
    }

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        int podCount = args.length > 3 ? Integer.parseInt(args[3]) : 200;
        Vertx vertx = Vertx.vertx();
        try {
            CertBundle certs = new CertIssuer().issueAll("kruise-webhook-service.kruise-system.svc",
                    Duration.ofDays(1), Duration.ofDays(1));
            List<Pod> pods = new ArrayList<>();
            for (int i = 0; i < podCount; i++) {
                pods.add(new PodBuilder().withNewMetadata().withName("p" + i).withNamespace("team-a").endMetadata()
                        .withNewStatus().withPhase("Running").endStatus().build());
            }
            AdmissionRegistry registry = new AdmissionRegistry();
            // No API server: the client is never used while the "cache" holds the namespace.
            KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.parse(
                            "ResourcesDeletionProtection=true", Map.of()))
                    .withDeletionProtection(new ClusterDeletionLookup(vertx, null, ns -> Optional.of(pods))));
            WebhookServerVerticle server = new WebhookServerVerticle("127.0.0.1", 0, 3L << 20, registry,
                    new ConversionRegistry(), new WebhookMetrics(new SimpleMeterRegistry()), certs);
            vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            HttpClient client = vertx.createHttpClient(new HttpClientOptions().setSsl(true).setVerifyHost(false)
                    .setKeepAlive(true).setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))),
                    new PoolOptions().setHttp1MaxSize(64));
            String cloneSetPath = "/validate-apps-kruise-io-cloneset";
            String expectAlways = "policy.kruise.io/delete-protection=Always";
            String expectPods = "active pods " + podCount + ">0";
            if (warmup > 0) {
                PodMutationLoad.run(vertx, client, server.actualPort(), Math.max(1, rate / 2), warmup, cloneSetPath,
                        Buffer.buffer(CLONESET_DELETE), expectAlways);
                PodMutationLoad.run(vertx, client, server.actualPort(), Math.max(1, rate / 2), warmup,
                        "/validate-namespace", Buffer.buffer(NAMESPACE_DELETE), expectPods);
            }
            long[] always = PodMutationLoad.run(vertx, client, server.actualPort(), rate, seconds, cloneSetPath,
                    Buffer.buffer(CLONESET_DELETE), expectAlways);
            System.out.println(PodMutationLoad.report("refused CloneSet DELETE (Always)", always, rate, seconds));
            long[] cascading = PodMutationLoad.run(vertx, client, server.actualPort(), rate, seconds,
                    "/validate-namespace", Buffer.buffer(NAMESPACE_DELETE), expectPods);
            System.out.println(PodMutationLoad.report("refused namespace DELETE (Cascading, " + podCount
                    + " cached pods counted on a worker)", cascading, rate, seconds));
            client.close();
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
