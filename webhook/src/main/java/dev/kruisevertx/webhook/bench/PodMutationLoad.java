package dev.kruisevertx.webhook.bench;

import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.pod.PodWebhooks;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.net.PemTrustOptions;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Load command for {@code /mutate-pod}: starts the HTTPS webhook on 127.0.0.1 (loopback only), sends pod
 * CREATE reviews for a CloneSet-owned pod at a fixed rate for a bounded number of requests, and prints
 * latency percentiles (send to full response) and achieved throughput.
 * Arguments: {@code [ratePerSecond=1000] [seconds=20] [warmupSeconds=20]}; the warm-up (for the JIT) runs at half the rate.
 */
public final class PodMutationLoad {
    private static final String REVIEW = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
            + "\"uid\":\"bench\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
            + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},\"namespace\":\"default\","
            + "\"operation\":\"CREATE\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{"
            + "\"generateName\":\"sample-\",\"namespace\":\"default\",\"labels\":{\"app\":\"sample\","
            + "\"apps.kruise.io/cloneset-instance-id\":\"abcde\"},\"ownerReferences\":[{\"apiVersion\":\"apps.kruise.io/v1alpha1\","
            + "\"kind\":\"CloneSet\",\"name\":\"sample\",\"uid\":\"11111111-2222-3333-4444-555555555555\",\"controller\":true,"
            + "\"blockOwnerDeletion\":true}]},\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx:1.27\","
            + "\"ports\":[{\"containerPort\":80,\"protocol\":\"TCP\"}],\"resources\":{\"requests\":{\"cpu\":\"100m\",\"memory\":\"128Mi\"}},"
            + "\"readinessProbe\":{\"httpGet\":{\"path\":\"/\",\"port\":80}}}],\"restartPolicy\":\"Always\"}}}}";

    private PodMutationLoad() {
    }

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 20;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 20;
        Vertx vertx = Vertx.vertx();
        try {
            CertBundle certs = new CertIssuer().issueAll("kruise-webhook-service.kruise-system.svc",
                    Duration.ofDays(1), Duration.ofDays(1));
            AdmissionRegistry registry = new AdmissionRegistry();
            PodWebhooks.register(registry, false);
            WebhookServerVerticle server = new WebhookServerVerticle("127.0.0.1", 0, 3L << 20, registry,
                    new ConversionRegistry(), new WebhookMetrics(new SimpleMeterRegistry()), certs);
            vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            HttpClient client = vertx.createHttpClient(new HttpClientOptions().setSsl(true).setVerifyHost(false)
                    .setKeepAlive(true).setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(certs.caCertPem()))),
                    new PoolOptions().setHttp1MaxSize(64));
            if (warmup > 0) {
                run(vertx, client, server.actualPort(), Math.max(1, rate / 2), warmup);
            }
            long[] latencies = run(vertx, client, server.actualPort(), rate, seconds);
            client.close();
            System.out.println(report(latencies, rate, seconds));
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /** Open-loop load: one request every 1/rate seconds whatever the responses do; latencies in nanoseconds. */
    static long[] run(Vertx vertx, HttpClient client, int port, int rate, int seconds) throws Exception {
        return run(vertx, client, port, rate, seconds, Buffer.buffer(REVIEW));
    }

    /** As {@link #run(Vertx, HttpClient, int, int, int)} with another AdmissionReview body. */
    static long[] run(Vertx vertx, HttpClient client, int port, int rate, int seconds, Buffer body) throws Exception {
        return run(vertx, client, port, rate, seconds, "/mutate-pod", body, "\"allowed\":true");
    }

    /**
     * Open-loop load of {@code body} to {@code path}; a response not containing {@code expect} counts as a failure.
     */
    static long[] run(Vertx vertx, HttpClient client, int port, int rate, int seconds, String path, Buffer body,
                      String expect) throws Exception {
        int total = rate * seconds;
        long[] latencies = new long[total];
        AtomicInteger done = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<String> firstFailure = new java.util.concurrent.atomic.AtomicReference<>();
        Promise<Long> finished = Promise.promise();
        long start = System.nanoTime();
        long periodNanos = TimeUnit.SECONDS.toNanos(1) / rate;
        AtomicInteger sent = new AtomicInteger();
        // Timers fire at most every millisecond: each tick sends the requests that are due by now.
        vertx.setPeriodic(1, id -> {
            long due = Math.min(total, (System.nanoTime() - start) / periodNanos + 1);
            while (sent.get() < due) {
                int i = sent.getAndIncrement();
                long t0 = System.nanoTime();
                client.request(HttpMethod.POST, port, "127.0.0.1", path)
                        .compose(req -> req.send(body).compose(resp -> resp.body()))
                        .onComplete(ar -> {
                            latencies[i] = System.nanoTime() - t0;
                            if (ar.failed() || !ar.result().toString().contains(expect)) {
                                failed.incrementAndGet();
                                firstFailure.compareAndSet(null, ar.failed() ? String.valueOf(ar.cause())
                                        : ar.result().getString(0, Math.min(300, ar.result().length())));
                            }
                            if (done.incrementAndGet() == total) {
                                finished.tryComplete(System.nanoTime() - start);
                            }
                        });
            }
            if (sent.get() >= total) {
                vertx.cancelTimer(id);
            }
        });
        long elapsed = finished.future().toCompletionStage().toCompletableFuture().get(seconds + 120L, TimeUnit.SECONDS);
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " of " + total + " requests failed, the first: "
                    + firstFailure.get());
        }
        lastElapsedNanos = elapsed;
        return latencies;
    }

    private static volatile long lastElapsedNanos;

    static String report(long[] latencies, int rate, int seconds) {
        return report("pod mutation", latencies, rate, seconds);
    }

    static String report(String what, long[] latencies, int rate, int seconds) {
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        double throughput = sorted.length / (lastElapsedNanos / 1e9);
        return String.format("%s over HTTPS on loopback: target %d req/s for %d s, %d requests, 0 failed%n"
                        + "throughput %.0f req/s%np50 %.3f ms  p90 %.3f ms  p99 %.3f ms  p99.9 %.3f ms  max %.3f ms",
                what, rate, seconds, sorted.length, throughput, pct(sorted, 0.50), pct(sorted, 0.90), pct(sorted, 0.99),
                pct(sorted, 0.999), sorted[sorted.length - 1] / 1e6);
    }

    private static double pct(long[] sorted, double q) {
        int idx = (int) Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1);
        return sorted[Math.max(0, idx)] / 1e6;
    }
}
