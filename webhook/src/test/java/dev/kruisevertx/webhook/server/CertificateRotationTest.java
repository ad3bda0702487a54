package dev.kruisevertx.webhook.server;

import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.TypedMutatingHandler;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.testing.TestCerts;
import io.fabric8.kubernetes.api.model.Pod;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.PemTrustOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Certificates rotate while admission requests stream in: no request fails, new connections see new certificates. */
class CertificateRotationTest {
    Vertx vertx = Vertx.vertx();

    @AfterEach
    void tearDown() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    @Test
    void rotationDuringAStreamOfRequestsFailsNothing() throws Exception {
        CertBundle first = TestCerts.localhost();
        List<CertBundle> rotations = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            rotations.add(TestCerts.renewed(first));
        }
        AdmissionRegistry admission = new AdmissionRegistry().register("/mutate-pod",
                new TypedMutatingHandler<>(Pod.class, (req, pod) -> pod.getMetadata().getLabels().put("x", "y")));
        WebhookServerVerticle server = new WebhookServerVerticle("localhost", 0, 1 << 20, admission,
                new ConversionRegistry(), new WebhookMetrics(new SimpleMeterRegistry()), first);
        vertx.deployVerticle(server).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);

        // Keep-alive off: every request opens a new TLS connection, so each one sees the certificate of its moment.
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setSsl(true).setVerifyHost(true)
                .setKeepAlive(false)
                .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(first.caCertPem()))), new io.vertx.core.http.PoolOptions().setHttp1MaxSize(8));
        String body = WebhookServerVerticleTest.review("admission.k8s.io/v1", "r");
        int total = 400;
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        Set<String> served = ConcurrentHashMap.newKeySet();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger started = new AtomicInteger();
        AtomicInteger rotated = new AtomicInteger();
        io.vertx.core.Promise<Void> done = io.vertx.core.Promise.promise();
        Runnable[] next = new Runnable[1];
        next[0] = () -> {
            int n = started.getAndIncrement();
            if (n >= total) {
                return;
            }
            // Rotate at fixed points of the stream, while other requests are in flight.
            if (n > 0 && n % 100 == 0 && rotated.get() < rotations.size()) {
                server.updateCertificates(rotations.get(rotated.getAndIncrement()));
            }
            client.request(HttpMethod.POST, server.actualPort(), "localhost", "/mutate-pod")
                    .compose(req -> req.send(Buffer.buffer(body)).compose(resp -> {
                        try {
                            X509Certificate peer = (X509Certificate) req.connection().peerCertificates().get(0);
                            served.add(peer.getSerialNumber().toString());
                        } catch (Exception e) {
                            return Future.failedFuture(e);
                        }
                        return resp.statusCode() == 200 ? resp.body() : Future.failedFuture("status " + resp.statusCode());
                    }))
                    .onComplete(ar -> {
                        if (ar.succeeded() && ar.result().toString().contains("\"allowed\":true")) {
                            ok.incrementAndGet();
                        } else {
                            failed.incrementAndGet();
                            errors.add(ar.cause());
                        }
                        if (ok.get() + failed.get() == total) {
                            done.tryComplete();
                        } else {
                            next[0].run();
                        }
                    });
        };
        vertx.runOnContext(v -> {
            for (int i = 0; i < 8; i++) {
                next[0].run();
            }
        });
        done.future().toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
        assertEquals(0, failed.get(), "failed requests: " + errors);
        assertEquals(total, ok.get());
        assertEquals(3, rotated.get());
        assertTrue(served.size() >= 3, "new connections must get the rotated certificates, saw " + served.size());
        assertEquals(rotations.get(2).certPem(), server.currentCertificates().certPem());
    }
}
