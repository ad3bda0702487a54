package dev.kruisevertx.webhook.bench;

import dev.kruisevertx.webhook.WebhookDependencies;
import java.util.Map;
import dev.kruisevertx.features.FeatureGates;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.AdmissionReviews;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.cloneset.CloneSetWebhooks;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.server.ServerLimits;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import io.fabric8.zjsonpatch.JsonPatch;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.net.PemTrustOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Unrelated pod admissions while 3 MiB CloneSets are admitted: the {@link PodMutationLoad} pod stream at a fixed
 * rate, first alone (baseline), then while a second client sends 3 MiB CloneSet CREATE reviews to the mutating and
 * then the validating webhook, one after the other without pause. Prints the pod latency percentiles of both runs and
 * the CloneSet admission times. Loopback only, bounded in count and time; the server runs with the default
 * {@link ServerLimits}.
 * <p>
 * Arguments: {@code [ratePerSecond=1000] [seconds=20] [warmupSeconds=20] [shape=dense|sparse]}. {@code dense}: 110,000
 * undefaulted one-line containers, the worst case (every container gets three defaults, so the patch is larger than
 * the object); {@code sparse}: 20 defaulted containers whose env values make up the 3 MiB (the patch is a few
 * spec-level defaults).
 */
public final class LargeObjectLoad {
    private LargeObjectLoad() {
    }

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        String shape = args.length > 3 ? args[3] : "dense";
        ObjectNode cloneSet = switch (shape) {
            case "dense" -> dense();
            case "sparse" -> defaulted(sparse());
            default -> throw new IllegalArgumentException("shape must be dense or sparse, got " + shape);
        };
        Buffer large = Buffer.buffer(review(cloneSet));
        // Three Vert.x instances, so that no event loop is shared: the server's keeps the default blocked-thread check
        // (any "has been blocked" warning printed is the server's); the CloneSet client encrypts 3 MB and decrypts up
        // to 20 MB per request on its own event loop, which must not delay the pod client's.
        Vertx server = Vertx.vertx();
        Vertx vertx = Vertx.vertx();
        Vertx bigVertx = Vertx.vertx(new VertxOptions().setMaxEventLoopExecuteTime(1)
                .setMaxEventLoopExecuteTimeUnit(TimeUnit.HOURS));
        try {
            CertBundle certs = new CertIssuer().issueAll("kruise-webhook-service.kruise-system.svc",
                    Duration.ofDays(1), Duration.ofDays(1));
            AdmissionRegistry registry = new AdmissionRegistry();
            KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.parse(
                "KruisePodReadinessGate=false,TemplateNoDefaults=false,KruiseDaemon=false,"
                        + "StatefulSetAutoDeletePVC=false,StatefulSetAutoResizePVCGate=false", Map.of()))
                .withPods((ns, name) -> Optional.empty()));
            WebhookServerVerticle webhook = new WebhookServerVerticle("127.0.0.1", 0, ServerLimits.defaults(), registry,
                    new ConversionRegistry(), new WebhookMetrics(new SimpleMeterRegistry()), certs);
            server.deployVerticle(webhook).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            PemTrustOptions trust = new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()));
            HttpClient pods = vertx.createHttpClient(new HttpClientOptions().setSsl(true).setVerifyHost(false)
                    .setKeepAlive(true).setTrustOptions(trust), new PoolOptions().setHttp1MaxSize(64));
            HttpClient big = bigVertx.createHttpClient(new HttpClientOptions().setSsl(true).setVerifyHost(false)
                    .setKeepAlive(true).setTrustOptions(trust), new PoolOptions().setHttp1MaxSize(1));
            int port = webhook.actualPort();
            System.out.printf("CloneSet review: %s, %,d bytes%n", shape, large.length());
            if (warmup > 0) {
                LargeRun warm = LargeRun.start(big, port, large);
                PodMutationLoad.run(vertx, pods, port, Math.max(1, rate / 2), warmup);
                warm.stop().toCompletionStage().toCompletableFuture().get(300, TimeUnit.SECONDS);
            }
            // The warm-up's garbage is collected before the baseline, so neither run inherits it.
            System.gc();
            long[] gc = gcTotals();
            long[] baseline = PodMutationLoad.run(vertx, pods, port, rate, seconds);
            System.out.println("baseline (no CloneSet in flight):");
            System.out.println(PodMutationLoad.report(baseline, rate, seconds));
            System.out.println(gcSince(gc));

            System.gc();
            gc = gcTotals();
            LargeRun run = LargeRun.start(big, port, large);
            long[] loaded = PodMutationLoad.run(vertx, pods, port, rate, seconds);
            run.stop().toCompletionStage().toCompletableFuture().get(300, TimeUnit.SECONDS);
            System.out.println("while 3 MiB CloneSets are admitted back to back:");
            System.out.println(PodMutationLoad.report(loaded, rate, seconds));
            System.out.println(gcSince(gc));
            System.out.println(run.report());
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            bigVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            server.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /** Sends the CloneSet to the mutating, then the validating webhook, again and again until stopped. */
    private static final class LargeRun {
        final HttpClient client;
        final int port;
        final Buffer body;
        final AtomicBoolean stopping = new AtomicBoolean();
        final Promise<Void> stopped = Promise.promise();
        final List<long[]> times = new ArrayList<>();
        final java.util.concurrent.atomic.AtomicInteger refused = new java.util.concurrent.atomic.AtomicInteger();

        private LargeRun(HttpClient client, int port, Buffer body) {
            this.client = client;
            this.port = port;
            this.body = body;
        }

        static LargeRun start(HttpClient client, int port, Buffer body) {
            LargeRun run = new LargeRun(client, port, body);
            run.next();
            return run;
        }

        private void next() {
            if (stopping.get()) {
                stopped.tryComplete();
                return;
            }
            long t0 = System.nanoTime();
            send(CloneSetWebhooks.MUTATE_PATH).compose(t1 -> t1 < 0 ? Future.succeededFuture((long[]) null)
                            : send(CloneSetWebhooks.VALIDATE_PATH).map(t2 -> new long[]{t1 - t0, t2 - t1}))
                    .onComplete(ar -> {
                        if (ar.failed()) {
                            stopped.tryFail(ar.cause());
                            return;
                        }
                        if (ar.result() == null) {
                            refused.incrementAndGet();
                            // Refused without being judged: answered at once, so pace the retries.
                            client.request(HttpMethod.GET, port, "127.0.0.1", "/healthz")
                                    .compose(req -> req.send().compose(resp -> resp.body()))
                                    .onComplete(x -> next());
                            return;
                        }
                        synchronized (times) {
                            times.add(ar.result());
                        }
                        next();
                    });
        }

        private Future<Long> send(String path) {
            return client.request(HttpMethod.POST, port, "127.0.0.1", path)
                    .compose(req -> req.send(body).compose(resp -> resp.body().compose(b -> {
                        // The decision is at the start of the answer; the rest can be a 20 MB patch.
                        String head = b.getString(0, Math.min(300, b.length()));
                        if (resp.statusCode() == 200 && head.contains("\"code\":413")) {
                            return Future.succeededFuture(-1L);
                        }
                        return resp.statusCode() == 200 && head.contains("\"allowed\":true")
                                ? Future.succeededFuture(System.nanoTime())
                                : Future.failedFuture(path + " answered " + resp.statusCode() + ": " + head);
                    })));
        }

        Future<Void> stop() {
            stopping.set(true);
            return stopped.future();
        }

        String report() {
            synchronized (times) {
                long[] mutate = times.stream().mapToLong(t -> t[0]).sorted().toArray();
                long[] validate = times.stream().mapToLong(t -> t[1]).sorted().toArray();
                long[] both = times.stream().mapToLong(t -> t[0] + t[1]).sorted().toArray();
                return String.format("3 MiB CloneSet admissions: %d judged, %d refused as too large for the heap; mutate p50 "
                                + "%.0f ms max %.0f ms; validate p50 %.0f ms max %.0f ms; mutate+validate p50 %.0f ms "
                                + "max %.0f ms", times.size(), refused.get(),
                        pct(mutate, 0.5), max(mutate), pct(validate, 0.5), max(validate), pct(both, 0.5), max(both));
            }
        }
    }

    /** Collections and milliseconds spent in them so far, over all collectors. */
    private static long[] gcTotals() {
        long count = 0;
        long millis = 0;
        for (java.lang.management.GarbageCollectorMXBean gc : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            millis += Math.max(0, gc.getCollectionTime());
        }
        return new long[]{count, millis};
    }

    private static String gcSince(long[] before) {
        long[] now = gcTotals();
        return String.format("GC during the run: %d collections, %d ms", now[0] - before[0], now[1] - before[1]);
    }

    private static double pct(long[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int idx = (int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
        return sorted[Math.max(0, idx)] / 1e6;
    }

    private static double max(long[] sorted) {
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1] / 1e6;
    }

    static ObjectNode cloneSet(ArrayNode containers) {
        ObjectNode cs = Json.MAPPER.createObjectNode();
        cs.put("apiVersion", "apps.kruise.io/v1alpha1").put("kind", "CloneSet");
        cs.putObject("metadata").put("name", "big").put("namespace", "default");
        ObjectNode spec = cs.putObject("spec");
        spec.put("replicas", 5);
        spec.putObject("selector").putObject("matchLabels").put("app", "big");
        ObjectNode template = spec.putObject("template");
        template.putObject("metadata").putObject("labels").put("app", "big");
        template.putObject("spec").set("containers", containers);
        return cs;
    }

    /**
     * 110,000 containers of one name and one image: 3.3 MB. The spec-level defaults are set so the same object also
     * passes validation; the containers' are not (defaulted, the object would be 13.7 MB).
     */
    static ObjectNode dense() {
        ArrayNode containers = Json.MAPPER.createArrayNode();
        for (int i = 0; i < 110_000; i++) {
            containers.addObject().put("name", "c" + i).put("image", "x");
        }
        ObjectNode cs = cloneSet(containers);
        ObjectNode spec = (ObjectNode) cs.get("spec");
        spec.put("revisionHistoryLimit", 10);
        spec.putObject("scaleStrategy");
        spec.putObject("updateStrategy").put("type", "ReCreate").put("partition", 0).put("maxUnavailable", "20%")
                .put("maxSurge", 0);
        return cs;
    }

    /** 20 containers with 32 env vars of 5,000 characters each: 3.2 MB. */
    static ObjectNode sparse() {
        ArrayNode containers = Json.MAPPER.createArrayNode();
        String value = "v".repeat(5_000);
        for (int i = 0; i < 20; i++) {
            ObjectNode c = containers.addObject().put("name", "c" + i).put("image", "registry.example/app:1." + i);
            ArrayNode env = c.putArray("env");
            for (int j = 0; j < 32; j++) {
                env.addObject().put("name", "VAR_" + j).put("value", value);
            }
        }
        return cloneSet(containers);
    }

    /** The object as stored after the mutating webhook ran once (an UPDATE by a controller looks like this). */
    static ObjectNode defaulted(ObjectNode cloneSet) {
        AdmissionRequest request = AdmissionReviews.parse(review(cloneSet).getBytes(java.nio.charset.StandardCharsets.UTF_8));
        AdmissionResponse response = CloneSetWebhooks.mutating(false).handle(request).result();
        JsonNode patched = response.hasPatch() ? JsonPatch.apply(response.patch(), cloneSet) : cloneSet;
        return (ObjectNode) patched;
    }

    static String review(ObjectNode cloneSet) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("apiVersion", AdmissionReviews.V1).put("kind", "AdmissionReview");
        ObjectNode r = root.putObject("request");
        r.put("uid", "large").put("operation", "CREATE").put("namespace", "default").put("name", "big");
        r.putObject("kind").put("group", "apps.kruise.io").put("version", "v1alpha1").put("kind", "CloneSet");
        r.putObject("resource").put("group", "apps.kruise.io").put("version", "v1alpha1").put("resource", "clonesets");
        r.set("object", cloneSet);
        return root.toString();
    }
}
