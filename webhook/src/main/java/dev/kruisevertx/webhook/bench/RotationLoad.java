package dev.kruisevertx.webhook.bench;

import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.pod.PodWebhooks;
import dev.kruisevertx.webhook.server.WebhookMetrics;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.PemTrustOptions;

import java.math.BigInteger;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Admission requests at a fixed rate while the webhook's certificate rotates, as kube-apiserver sends them: most
 * over kept-alive connections (a pool), some over a new connection each (as after an idle close or on another API
 * server), so both open connections and new handshakes cross the rotation. Counts failures and the serving
 * certificates new connections saw. Used by {@code CertificateRotationUnderLoadTest} (rotation through the Secret
 * and the sync loop) and by {@link #main} (longer, rotating directly with {@code updateCertificates}):
 * <pre>java -cp ... dev.kruisevertx.webhook.bench.RotationLoad [rate=1000] [seconds=60] [rotateEverySeconds=5]</pre>
 */
public final class RotationLoad {
    /** A pod CREATE review for a CloneSet-owned pod: the pod pipeline answers with a patch. */
    public static final String REVIEW = "{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":{"
            + "\"uid\":\"rotation\",\"kind\":{\"group\":\"\",\"version\":\"v1\",\"kind\":\"Pod\"},"
            + "\"resource\":{\"group\":\"\",\"version\":\"v1\",\"resource\":\"pods\"},\"namespace\":\"default\","
            + "\"operation\":\"CREATE\",\"object\":" + HostileTarget.POD.strip() + "}}";

    private static final int FRESH_CONNECTIONS = 64;

    private final Vertx vertx;
    private final Supplier<String> trust;
    private final int keptAliveConnections;
    /** Clients per trusted CA text, as kube-apiserver keeps one client per webhook clientConfig. */
    private final Map<String, HttpClient[]> clients = new ConcurrentHashMap<>();
    private final int port;
    public final AtomicLong sent = new AtomicLong();
    public final AtomicLong succeeded = new AtomicLong();
    public final AtomicLong failed = new AtomicLong();
    public final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    /** Serial numbers of the serving certificates new connections saw, in order of first sight. */
    public final Set<BigInteger> servedSerials = ConcurrentHashMap.newKeySet();
    public final List<BigInteger> servedOrder = Collections.synchronizedList(new ArrayList<>());

    /** @param trustPem the CA certificates clients trust (kube-apiserver: the caBundle) */
    public RotationLoad(Vertx vertx, int port, String trustPem, int keptAliveConnections) {
        this(vertx, port, () -> trustPem, keptAliveConnections);
    }

    /**
     * @param trustPem read before every request: the CA certificates (PEM, one or more) to trust. When it changes,
     *                 requests go through new clients trusting the new text, so even kept-alive traffic opens new
     *                 connections verified against it, as kube-apiserver does when a webhook's caBundle changes.
     */
    public RotationLoad(Vertx vertx, int port, Supplier<String> trustPem, int keptAliveConnections) {
        this.vertx = vertx;
        this.port = port;
        this.trust = trustPem;
        this.keptAliveConnections = keptAliveConnections;
    }

    private HttpClient[] clientsTrusting(String pem) {
        return clients.computeIfAbsent(pem, p -> {
            PemTrustOptions trustOptions = new PemTrustOptions().addCertValue(Buffer.buffer(p));
            HttpClient pooled = vertx.createHttpClient(new HttpClientOptions().setSsl(true).setVerifyHost(true)
                    .setKeepAlive(true).setTrustOptions(trustOptions), new PoolOptions().setHttp1MaxSize(keptAliveConnections));
            // kube-apiserver (Go's transport) dials at once for each such request, with no cap on connections: a
            // small pool would queue requests for seconds on a loaded machine, so they would connect long after they
            // were sent, with a trust that was current then.
            HttpClient fresh = vertx.createHttpClient(new HttpClientOptions().setSsl(true).setVerifyHost(true)
                    .setKeepAlive(false).setTrustOptions(trustOptions), new PoolOptions().setHttp1MaxSize(FRESH_CONNECTIONS));
            return new HttpClient[]{pooled, fresh};
        });
    }

    /**
     * Sends {@code rate} requests a second for {@code seconds}, every {@code freshEvery}-th one on a new connection;
     * completes when all are answered.
     */
    public Future<Void> run(int rate, int seconds, int freshEvery) {
        Promise<Void> done = Promise.promise();
        long total = (long) rate * seconds;
        long start = System.nanoTime();
        AtomicLong answered = new AtomicLong();
        // Open loop: every millisecond, catch up with the schedule whatever the answers do.
        long timer = vertx.setPeriodic(1, id -> {
            long due = Math.min(total, (System.nanoTime() - start) * rate / 1_000_000_000L);
            while (sent.get() < due) {
                long n = sent.incrementAndGet();
                boolean newConnection = n % freshEvery == 0;
                String trustedNow = trust.get();
                long sentAt = (System.nanoTime() - start) / 1_000_000;
                HttpClient[] pair = clientsTrusting(trustedNow);
                send(newConnection ? pair[1] : pair[0], newConnection).onComplete(ar -> {
                    if (ar.succeeded()) {
                        succeeded.incrementAndGet();
                    } else {
                        failed.incrementAndGet();
                        if (failures.size() < 20) {
                            Throwable cause = ar.cause();
                            failures.add("sent at " + sentAt + " ms, failed at " + (System.nanoTime() - start) / 1_000_000
                                    + " ms, trusting " + (trustedNow.split("BEGIN CERTIFICATE").length - 1) + " certificate(s)"
                                    + (newConnection ? " (new connection): " : ": ") + cause
                                    + (cause.getCause() == null ? "" : " caused by " + cause.getCause()));
                        }
                    }
                    if (answered.incrementAndGet() == total) {
                        done.tryComplete();
                    }
                });
            }
        });
        return done.future().onComplete(v -> vertx.cancelTimer(timer));
    }

    private Future<Void> send(HttpClient client, boolean recordCertificate) {
        return client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("localhost").setPort(port)
                        .setURI("/mutate-pod").setTimeout(60_000).putHeader("content-type", "application/json"))
                .compose(req -> req.send(Buffer.buffer(REVIEW)).compose(resp -> {
                    if (recordCertificate) {
                        try {
                            BigInteger serial = ((X509Certificate) req.connection().peerCertificates().get(0))
                                    .getSerialNumber();
                            if (servedSerials.add(serial)) {
                                servedOrder.add(serial);
                            }
                        } catch (Exception e) {
                            return Future.failedFuture(e);
                        }
                    }
                    return resp.statusCode() == 200 ? resp.body() : Future.failedFuture("HTTP " + resp.statusCode());
                }))
                .compose(body -> body.toString().contains("\"allowed\":true") ? Future.<Void>succeededFuture()
                        : Future.failedFuture("not allowed: " + body));
    }

    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        clients.values().forEach(pair -> {
            closing.add(pair[0].close());
            closing.add(pair[1].close());
        });
        return Future.join(closing).mapEmpty();
    }

    public static void main(String[] args) throws Exception {
        int rate = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        int every = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Vertx serverVertx = Vertx.vertx();
        Vertx clientVertx = Vertx.vertx();
        try {
            CertIssuer issuer = new CertIssuer();
            String dns = "kruise-webhook-service.kruise-system.svc";
            CertBundle first = issuer.issueAll(dns, Duration.ofDays(1), Duration.ofDays(1));
            AdmissionRegistry registry = new AdmissionRegistry();
            PodWebhooks.register(registry, false);
            WebhookServerVerticle server = new WebhookServerVerticle("127.0.0.1", 0, 8L << 20, registry,
                    new ConversionRegistry(), new WebhookMetrics(new SimpleMeterRegistry()), first);
            serverVertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            RotationLoad load = new RotationLoad(clientVertx, server.actualPort(), first.caCertPem(), 16);
            AtomicLong rotations = new AtomicLong();
            // Certificates are made ahead: issuing one takes a worker a few hundred milliseconds.
            List<CertBundle> renewed = new ArrayList<>();
            for (int i = 0; i < seconds / every + 1; i++) {
                renewed.add(issuer.issueServing(first, dns, Duration.ofDays(1)));
            }
            long timer = serverVertx.setPeriodic(every * 1000L, id -> {
                int n = (int) rotations.getAndIncrement();
                if (n < renewed.size()) {
                    server.updateCertificates(renewed.get(n));
                }
            });
            long start = System.nanoTime();
            load.run(rate, seconds, 20).toCompletionStage().toCompletableFuture().get(seconds + 300L, TimeUnit.SECONDS);
            serverVertx.cancelTimer(timer);
            double took = (System.nanoTime() - start) / 1e9;
            System.out.printf("%,d requests at %d/s for %d s (answered in %.1f s), %d rotations: %,d succeeded, %,d failed; "
                            + "new connections saw %d serving certificates%n", load.sent.get(), rate, seconds, took,
                    rotations.get(), load.succeeded.get(), load.failed.get(), load.servedSerials.size());
            load.failures.forEach(f -> System.out.println("  " + f));
            load.close();
            if (load.failed.get() > 0) {
                System.exit(1);
            }
        } finally {
            clientVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
            serverVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }
}
