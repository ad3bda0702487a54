package dev.kruisevertx.webhook.bench;

import dev.kruisevertx.webhook.WebhookDependencies;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.server.ServerLimits;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.PemTrustOptions;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Sends a seeded stream of hostile reviews ({@link HostileReviews}) to every webhook path over HTTPS and checks
 * every answer ({@link HostileAnswers}), then that a valid review still succeeds; measures the heap retained
 * across the storm. Used by {@code HostileInputStormTest} (a shorter run in the build) and by {@link #main} (the
 * full run, loopback only):
 * <pre>java -cp ... dev.kruisevertx.webhook.bench.HostileInputStorm [perPath=10000] [seed=random] [concurrency=16]</pre>
 */
public final class HostileInputStorm {
    /** The status counted for an oversized body whose connection the server closed before the client read the 413. */
    public static final int CLOSED = 0;
    /** The webhook as the manager runs it: every handler and converter, the default limits (8 MiB bodies). */
    /**
     * No other SidecarSets, and a kruise-configuration whitelist that lets the sample SidecarSet patch its
     * {@code example.com/} annotation, as a cluster using patchPodMetadata is configured.
     */
    static final dev.kruisevertx.webhook.sidecarset.SidecarSetLookup WHITELISTED =
            new dev.kruisevertx.webhook.sidecarset.SidecarSetLookup() {
                @Override
                public java.util.List<dev.kruisevertx.api.apps.v1beta1.SidecarSet> sidecarSets() {
                    return java.util.List.of();
                }

                @Override
                public boolean hasRevision(dev.kruisevertx.api.apps.v1beta1.SidecarSet set,
                                           dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevision revision) {
                    return false;
                }

                @Override
                public io.vertx.core.Future<Optional<String>> patchPodMetadataWhitelist() {
                    return io.vertx.core.Future.succeededFuture(Optional.of(
                            "{\"rules\":[{\"allowedAnnotationKeyExprs\":[\"^example\\\\.com/\"]}]}"));
                }
            };

    /** @param vertx where the PodUnavailableBudget guard of {@code /validate-pod} sets its conflict-retry timers */
    public static WebhookServerVerticle server(io.vertx.core.Vertx vertx, CertBundle certs, ServerLimits limits) {
        Pod pod = new PodBuilder().withNewMetadata().withName("web-0").withNamespace("default").withUid("pod-uid")
                .endMetadata().withNewSpec().withNodeName("node-a").addNewContainer().withName("app").withImage("nginx")
                .endContainer().endSpec().withNewStatus().withPhase("Running").addNewContainerStatus().withName("app")
                .withContainerID("containerd://aaa").withRestartCount(1).endContainerStatus().endStatus().build();
        Pod protectedPod = HostileTarget.protectedPod();
        AdmissionRegistry registry = new AdmissionRegistry();
        KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.parse(
                "KruisePodReadinessGate=true,TemplateNoDefaults=false,KruiseDaemon=true,"
                        + "StatefulSetAutoDeletePVC=true,StatefulSetAutoResizePVCGate=true,"
                        + "ResourcesDeletionProtection=true,DeletionProtectionForCRDCascadingGate=true,"
                        + "PodUnavailableBudgetUpdateGate=true,ResourceDistributionGate=true"
                        + ",ImagePullJobGate=true", Map.of()))
                .withPods((ns, name) -> "web-0".equals(name) ? Optional.of(pod)
                        : "web-1".equals(name) ? Optional.of(protectedPod) : Optional.empty())
                .withPubGuard(new InMemoryBudgets().put(HostileTarget.protectingBudget()).guard(vertx))
                .withSidecarSets(WHITELISTED));
        return new WebhookServerVerticle("127.0.0.1", 0, limits, registry,
                KruiseWebhooks.registerConversions(new ConversionRegistry()),
                new WebhookMetrics(new SimpleMeterRegistry()), certs);
    }

    /** Per path: requests, answers by HTTP status and by category, and what went wrong. */
    public static final class PathReport {
        public final HostileTarget target;
        public final AtomicLong sent = new AtomicLong();
        public final Map<Integer, AtomicLong> statuses = new ConcurrentHashMap<>();
        public final Map<String, AtomicLong> categories = new ConcurrentHashMap<>();
        public final List<String> problems = Collections.synchronizedList(new ArrayList<>());
        public final AtomicLong problemCount = new AtomicLong();

        PathReport(HostileTarget target) {
            this.target = target;
        }

        void problem(String what) {
            problemCount.incrementAndGet();
            if (problems.size() < 20) {
                problems.add(what);
            }
        }
    }

    /** The outcome of a storm. */
    public record Report(long seed, int perPath, List<PathReport> paths, long millis, long heapBefore, long heapAfter,
                         boolean validAfterwards) {
        public long problems() {
            return paths.stream().mapToLong(p -> p.problemCount.get()).sum();
        }

        public long sent() {
            return paths.stream().mapToLong(p -> p.sent.get()).sum();
        }

        public long fiveHundreds() {
            return paths.stream().flatMap(p -> p.statuses.entrySet().stream()).filter(e -> e.getKey() >= 500)
                    .mapToLong(e -> e.getValue().get()).sum();
        }

        public long retainedGrowth() {
            return heapAfter - heapBefore;
        }

        public String summary() {
            StringBuilder out = new StringBuilder();
            out.append(String.format("seed %d: %,d requests (%,d per path) in %.1f s (%.0f/s); problems %d; 5xx %d; "
                            + "retained heap %+.1f MiB (%.1f -> %.1f MiB); valid review afterwards: %s%n", seed, sent(),
                    perPath, millis / 1000.0, sent() * 1000.0 / Math.max(1, millis), problems(), fiveHundreds(),
                    retainedGrowth() / 1048576.0, heapBefore / 1048576.0, heapAfter / 1048576.0,
                    validAfterwards ? "allowed" : "FAILED"));
            for (PathReport p : paths) {
                out.append(String.format("  %-34s %-52s sent %,7d statuses %s problems %d%n", p.target.name(),
                        p.target.path(), p.sent.get(), new TreeMap<>(p.statuses), p.problemCount.get()));
                for (String problem : p.problems) {
                    out.append("      ").append(problem).append('\n');
                }
            }
            return out.toString();
        }

        public String categories() {
            Map<String, Long> all = new TreeMap<>();
            for (PathReport p : paths) {
                p.categories.forEach((k, v) -> all.merge(k, v.get(), Long::sum));
            }
            return all.toString();
        }
    }

    private HostileInputStorm() {
    }

    /**
     * Sends {@code perPath} requests to each target, at most {@code concurrency} in flight, from the calling thread
     * (blocks until all are answered). Heap is measured after full collections before and after.
     */
    public static Report run(HttpClient client, int port, List<HostileTarget> targets, int perPath, long seed,
                             long maxBodyBytes, int concurrency) throws Exception {
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long heapBefore = settledHeap(memory);
        long start = System.nanoTime();
        List<PathReport> reports = new ArrayList<>();
        Semaphore slots = new Semaphore(concurrency);
        for (HostileTarget target : targets) {
            PathReport report = new PathReport(target);
            reports.add(report);
            HostileReviews reviews = new HostileReviews(target, seed, maxBodyBytes);
            for (int i = 0; i < perPath; i++) {
                HostileReviews.HostileRequest request = reviews.next();
                if (!slots.tryAcquire(120, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("no answer within 120 s; in flight: " + concurrency);
                }
                report.sent.incrementAndGet();
                report.categories.computeIfAbsent(request.category(), k -> new AtomicLong()).incrementAndGet();
                send(client, port, target, request).onComplete(ar -> {
                    try {
                        if (ar.failed()) {
                            // The server closes the connection after refusing an oversized body; the client may
                            // see that before the 413 it was sent.
                            if (request.body().length <= maxBodyBytes) {
                                report.problem("no answer (" + ar.cause() + ") to " + replay(seed, target, request));
                            } else {
                                report.statuses.computeIfAbsent(CLOSED, k -> new AtomicLong()).incrementAndGet();
                            }
                            return;
                        }
                        Answer answer = ar.result();
                        report.statuses.computeIfAbsent(answer.status, k -> new AtomicLong()).incrementAndGet();
                        HostileAnswers.check(request, target.conversion(), answer.status, answer.body, maxBodyBytes)
                                .ifPresent(p -> report.problem(p + " <- " + replay(seed, target, request)));
                    } finally {
                        slots.release();
                    }
                });
            }
        }
        if (!slots.tryAcquire(concurrency, 120, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the last requests got no answer within 120 s");
        }
        slots.release(concurrency);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        boolean validAfterwards = validStillAllowed(client, port, targets, seed, maxBodyBytes);
        long heapAfter = settledHeap(memory);
        return new Report(seed, perPath, reports, millis, heapBefore, heapAfter, validAfterwards);
    }

    /** How to replay one request: its target, seed and index. */
    static String replay(long seed, HostileTarget target, HostileReviews.HostileRequest request) {
        return "replay with HostileReviews.nth(" + target.name() + ", seed " + seed + ", index " + request.index()
                + "): " + request.describe();
    }

    private record Answer(int status, byte[] body) {
    }

    private static Future<Answer> send(HttpClient client, int port, HostileTarget target,
                                       HostileReviews.HostileRequest request) {
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port)
                .setURI(target.path()).setTimeout(60_000);
        if (request.contentType() != null) {
            options.putHeader(HttpHeaders.CONTENT_TYPE, request.contentType());
        }
        return client.request(options).compose(req -> req.send(Buffer.buffer(request.body()))
                .compose(resp -> resp.body().map(b -> new Answer(resp.statusCode(), b.getBytes()))));
    }

    /** After the storm every path still allows (or converts) its valid sample. */
    private static boolean validStillAllowed(HttpClient client, int port, List<HostileTarget> targets, long seed,
                                             long maxBodyBytes) throws Exception {
        for (HostileTarget target : targets) {
            HostileReviews reviews = new HostileReviews(target, seed, maxBodyBytes);
            HostileReviews.HostileRequest valid;
            do {
                valid = reviews.next();
            } while (!valid.valid());
            Answer answer = send(client, port, target, valid).toCompletionStage().toCompletableFuture()
                    .get(60, TimeUnit.SECONDS);
            if (answer.status != 200 || HostileAnswers.check(valid, target.conversion(), answer.status, answer.body,
                    maxBodyBytes).isPresent()) {
                return false;
            }
        }
        return true;
    }

    /** Heap in use after the collector has settled (a few full collections). */
    static long settledHeap(MemoryMXBean memory) throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    public static HttpClient client(Vertx vertx, CertBundle certs, int concurrency) {
        return vertx.createHttpClient(new HttpClientOptions().setSsl(true).setVerifyHost(false).setKeepAlive(true)
                        .setMaxInitialLineLength(1 << 16)
                        .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))),
                new PoolOptions().setHttp1MaxSize(concurrency));
    }

    public static void main(String[] args) throws Exception {
        int perPath = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : System.nanoTime();
        int concurrency = args.length > 2 ? Integer.parseInt(args[2]) : 16;
        Vertx serverVertx = Vertx.vertx();
        Vertx clientVertx = Vertx.vertx();
        try {
            CertBundle certs = new CertIssuer().issueAll("kruise-webhook-service.kruise-system.svc",
                    Duration.ofDays(1), Duration.ofDays(1));
            ServerLimits limits = ServerLimits.defaults();
            WebhookServerVerticle server = server(serverVertx, certs, limits);
            serverVertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            HttpClient client = client(clientVertx, certs, concurrency);
            System.out.printf("Hostile input storm: %,d requests per path, seed %d, %d in flight, body limit %,d bytes,"
                    + " max heap %d MiB%n", perPath, seed, concurrency, limits.maxBodyBytes(),
                    Runtime.getRuntime().maxMemory() >> 20);
            Report report = run(client, server.actualPort(), HostileTarget.all(true), perPath, seed,
                    limits.maxBodyBytes(), concurrency);
            System.out.print(report.summary());
            System.out.println("categories: " + report.categories());
            if (report.problems() > 0 || !report.validAfterwards()) {
                System.out.println("FAILED: replay with seed " + seed);
                System.exit(1);
            }
        } finally {
            clientVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            serverVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
