package dev.kruisevertx.webhook;

import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.server.WebhookServerVerticle;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.net.PemTrustOptions;

import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * The manager's {@code /readyz} check {@code webhook-ready}: ready only once the first certificate sync has
 * finished and an HTTPS GET of the webhook's own {@code /healthz}, trusting the current CA, succeeds.
 */
public final class WebhookReadiness {
    private final Vertx vertx;
    private final IntSupplier port;
    private volatile CertBundle trusted;
    private HttpClient client;
    private String clientCa;
    private volatile boolean ready;
    private volatile String lastProblem = "the first webhook certificate sync has not finished";

    public WebhookReadiness(Vertx vertx, IntSupplier port) {
        this.vertx = vertx;
        this.port = port;
    }

    /** Called by the sync loop after each successful sync. */
    public void certificatesSynced(CertBundle bundle) {
        trusted = bundle;
    }

    /** Result of the last check; cheap, for frequent probes. */
    public boolean isReady() {
        return ready;
    }

    public String lastProblem() {
        return ready ? null : lastProblem;
    }

    /** Checks now: fails with the reason when not ready. */
    public synchronized Future<Void> check() {
        CertBundle bundle = trusted;
        if (bundle == null) {
            ready = false;
            return Future.failedFuture("webhook not ready: " + lastProblem);
        }
        int p = port.getAsInt();
        if (p <= 0) {
            ready = false;
            lastProblem = "the webhook server is not listening yet";
            return Future.failedFuture("webhook not ready: " + lastProblem);
        }
        HttpClient http = clientTrusting(bundle.caCertPem());
        return http.request(HttpMethod.GET, p, "localhost", WebhookServerVerticle.HEALTHZ)
                .compose(req -> req.send())
                .compose(HttpClientResponse::body, e -> Future.failedFuture(e))
                .transform(ar -> {
                    if (ar.succeeded()) {
                        ready = true;
                        return Future.<Void>succeededFuture();
                    }
                    ready = false;
                    lastProblem = "HTTPS GET https://localhost:" + p + WebhookServerVerticle.HEALTHZ + " failed: "
                            + ar.cause().getMessage();
                    return Future.<Void>failedFuture("webhook not ready: " + lastProblem);
                });
    }

    private HttpClient clientTrusting(String caPem) {
        if (client == null || !caPem.equals(clientCa)) {
            if (client != null) {
                client.close();
            }
            client = vertx.createHttpClient(new HttpClientOptions()
                    .setSsl(true)
                    .setVerifyHost(true)
                    .setKeepAlive(false)
                    .setConnectTimeout(5000)
                    .setTrustOptions(new PemTrustOptions().addCertValue(Buffer.buffer(caPem))));
            clientCa = caPem;
        }
        return client;
    }

    /**
     * Polls {@link #check()} until it passes; fails after {@code timeout} with the last reason, naming the
     * flag that sets the timeout.
     */
    public Future<Void> awaitReady(Duration timeout) {
        Promise<Void> result = Promise.promise();
        long deadline = System.nanoTime() + timeout.toNanos();
        poll(result, deadline, timeout);
        return result.future();
    }

    private void poll(Promise<Void> result, long deadline, Duration timeout) {
        check().onComplete(ar -> {
            if (ar.succeeded()) {
                result.tryComplete();
            } else if (System.nanoTime() >= deadline) {
                result.tryFail("webhook was not ready within " + timeout.toSeconds()
                        + "s (--webhook-initialize-timeout): " + lastProblem);
            } else {
                vertx.setTimer(200, id -> poll(result, deadline, timeout));
            }
        });
    }

    public synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
