package dev.kruisevertx.bench.pub;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetSpec;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import dev.kruisevertx.api.policy.v1alpha1.TargetReference;
import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.kube.KubeExecutor;
import dev.kruisevertx.pub.PubGuard;
import dev.kruisevertx.pub.PubStatusStore;
import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.pod.PodValidatingHandler;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.net.PemTrustOptions;

import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Load command for a protected pod DELETE on {@code /validate-pod}: the HTTPS webhook on 127.0.0.1 with the
 * PodUnavailableBudget check, over an embedded API server (in this JVM) holding the budget. Open-loop DELETE reviews
 * of distinct Running and Ready pods naming the budget, at a fixed rate, in three phases: warm-up (refused, for the
 * JIT), admitted (each answer waits for the budget's status PUT; at most 1,900 so the budget stays under OpenKruise's
 * 2,000 records) and refused (nothing left allowed: decision only). Prints latency percentiles per phase.
 * Arguments: {@code [ratePerSecond=500] [refusedSeconds=20] [warmupSeconds=10] [admitted=1900]}.
 */
public final class PubDeleteAdmissionLoad {
    private static final String NS = "default";
    private static final String PUB = "bench-pub";

    private PubDeleteAdmissionLoad() {
    }

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 500;
        int refusedSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        int admitted = args.length > 3 ? Integer.parseInt(args[3]) : 1900;
        Vertx vertx = Vertx.vertx();
        EmbeddedCluster cluster = EmbeddedCluster.start(vertx, new EmbeddedClusterOptions().setNodes(0)
                .setAdmission(false)).await(60, TimeUnit.SECONDS);
        KubeExecutor kube = new KubeExecutor(vertx, "bench-pub-writes", 8);
        try {
            EmbeddedProduct.install(cluster);
            KubernetesClient client = cluster.client();
            createBudget(client);
            SharedIndexInformer<PodUnavailableBudget> informer = client.resources(PodUnavailableBudget.class)
                    .inNamespace(NS).inform();
            PubGuard guard = new PubGuard(vertx, PubStatusStore.of(client, kube::call),
                    (ns, name) -> informer.getStore().getByKey(ns + "/" + name), pod -> true, false,
                    Clock.systemUTC(), new SimpleMeterRegistry(), null);
            CertBundle certs = new CertIssuer().issueAll("kruise-webhook-service.kruise-system.svc",
                    Duration.ofDays(1), Duration.ofDays(1));
            AdmissionRegistry registry = new AdmissionRegistry();
            registry.register(PodValidatingHandler.PATH, new PodValidatingHandler(true, false, false,
                    (ns, name) -> Optional.empty(), guard));
            WebhookServerVerticle server = new WebhookServerVerticle("127.0.0.1", 0, 3L << 20, registry,
                    new ConversionRegistry(), new WebhookMetrics(new SimpleMeterRegistry()), certs);
            vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            HttpClient http = vertx.createHttpClient(new HttpClientOptions().setSsl(true).setVerifyHost(false)
                    .setKeepAlive(true).setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))),
                    new PoolOptions().setHttp1MaxSize(64));
            int port = server.actualPort();
            AtomicInteger names = new AtomicInteger();

            setAllowed(client, 0);
            if (warmup > 0) {
                run(vertx, http, port, Math.max(1, rate / 2), warmup * Math.max(1, rate / 2), names, false);
            }
            setAllowed(client, admitted + 10);
            awaitCached(informer, admitted + 10);
            long[] ok = run(vertx, http, port, rate, admitted, names, true);
            System.out.println(report("admitted (status PUT over the decided resourceVersion)", ok, rate));
            setAllowed(client, 0);
            awaitCached(informer, 0);
            long[] no = run(vertx, http, port, rate, rate * refusedSeconds, names, false);
            System.out.println(report("refused (nothing allowed: decision only)", no, rate));
            http.close();
            informer.close();
        } finally {
            kube.close();
            cluster.close().await(60, TimeUnit.SECONDS);
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    private static void createBudget(KubernetesClient client) {
        PodUnavailableBudget pub = new PodUnavailableBudget();
        pub.setMetadata(new ObjectMetaBuilder().withName(PUB).withNamespace(NS).build());
        PodUnavailableBudgetSpec spec = new PodUnavailableBudgetSpec();
        spec.setTargetRef(new TargetReference("apps.kruise.io/v1alpha1", "CloneSet", "bench"));
        spec.setMaxUnavailable(new IntOrString(1));
        pub.setSpec(spec);
        client.resource(pub).create();
    }

    /** The budget's status as its controller would leave it, with {@code allowed} disruptions and no records. */
    private static void setAllowed(KubernetesClient client, int allowed) {
        PodUnavailableBudget live = client.resources(PodUnavailableBudget.class).inNamespace(NS).withName(PUB).get();
        PodUnavailableBudgetStatus s = new PodUnavailableBudgetStatus();
        s.setDesiredAvailable(1);
        s.setCurrentAvailable(allowed + 1);
        s.setUnavailableAllowed(allowed);
        s.setTotalReplicas(allowed + 1);
        live.setStatus(s);
        client.resources(PodUnavailableBudget.class).inNamespace(NS).resource(live).updateStatus();
    }

    private static void awaitCached(SharedIndexInformer<PodUnavailableBudget> informer, int allowed) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            PodUnavailableBudget pub = informer.getStore().getByKey(NS + "/" + PUB);
            if (pub != null && pub.status().getUnavailableAllowed() == allowed
                    && pub.status().getDisruptedPods() == null) {
                return;
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the informer did not show the budget's new status within 30 s");
    }

    private static Buffer review(int i) {
        Pod pod = new PodBuilder().withNewMetadata().withName("bench-" + i).withNamespace(NS)
                .addToLabels("app", "bench").addToAnnotations("kruise.io/related-pub", PUB)
                .addNewOwnerReference().withApiVersion("apps.kruise.io/v1alpha1").withKind("CloneSet")
                .withName("bench").withUid("11111111-2222-3333-4444-555555555555").withController(true)
                .endOwnerReference().endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1.27").endContainer().endSpec()
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True")
                .endCondition().endStatus().build();
        ObjectNode r = Json.MAPPER.createObjectNode();
        r.put("apiVersion", "admission.k8s.io/v1").put("kind", "AdmissionReview");
        ObjectNode q = r.putObject("request");
        q.put("uid", "bench-" + i).put("operation", "DELETE").put("namespace", NS).put("name", "bench-" + i);
        q.putObject("kind").put("group", "").put("version", "v1").put("kind", "Pod");
        q.putObject("resource").put("group", "").put("version", "v1").put("resource", "pods");
        q.putObject("userInfo").put("username", "bench");
        q.set("oldObject", Json.toTree(pod));
        return Buffer.buffer(r.toString());
    }

    /** Open-loop: one request every 1/rate seconds whatever the answers do; latencies in nanoseconds. */
    private static long[] run(Vertx vertx, HttpClient http, int port, int rate, int total, AtomicInteger names,
                              boolean expectAllowed) throws Exception {
        long[] latencies = new long[total];
        Buffer[] bodies = new Buffer[total];
        for (int i = 0; i < total; i++) {
            bodies[i] = review(names.incrementAndGet());
        }
        AtomicInteger done = new AtomicInteger();
        AtomicInteger wrong = new AtomicInteger();
        AtomicReference<String> firstWrong = new AtomicReference<>();
        Promise<Void> finished = Promise.promise();
        String want = "\"allowed\":" + expectAllowed;
        long start = System.nanoTime();
        long periodNanos = TimeUnit.SECONDS.toNanos(1) / rate;
        AtomicInteger sent = new AtomicInteger();
        vertx.setPeriodic(1, id -> {
            long due = Math.min(total, (System.nanoTime() - start) / periodNanos + 1);
            while (sent.get() < due) {
                int i = sent.getAndIncrement();
                long t0 = System.nanoTime();
                http.request(HttpMethod.POST, port, "127.0.0.1", PodValidatingHandler.PATH)
                        .compose(req -> req.send(bodies[i]).compose(resp -> resp.body()))
                        .onComplete(ar -> {
                            latencies[i] = System.nanoTime() - t0;
                            if (ar.failed() || !ar.result().toString().contains(want)) {
                                wrong.incrementAndGet();
                                firstWrong.compareAndSet(null, ar.failed() ? String.valueOf(ar.cause())
                                        : ar.result().getString(0, Math.min(300, ar.result().length())));
                            }
                            if (done.incrementAndGet() == total) {
                                finished.tryComplete();
                            }
                        });
            }
            if (sent.get() >= total) {
                vertx.cancelTimer(id);
            }
        });
        finished.future().toCompletionStage().toCompletableFuture().get(total / rate + 300L, TimeUnit.SECONDS);
        if (wrong.get() > 0) {
            throw new IllegalStateException(wrong.get() + " of " + total + " answers were not " + want
                    + ", the first: " + firstWrong.get());
        }
        return latencies;
    }

    private static String report(String phase, long[] latencies, int rate) {
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        return String.format("protected pod DELETE, %s: %d requests at %d/s%n"
                        + "p50 %.3f ms  p90 %.3f ms  p99 %.3f ms  p99.9 %.3f ms  max %.3f ms",
                phase, sorted.length, rate, pct(sorted, 0.50), pct(sorted, 0.90), pct(sorted, 0.99),
                pct(sorted, 0.999), sorted[sorted.length - 1] / 1e6);
    }

    private static double pct(long[] sorted, double q) {
        int idx = (int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
        return sorted[Math.max(0, idx)] / 1e6;
    }
}
