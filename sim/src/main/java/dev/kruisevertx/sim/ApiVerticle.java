package dev.kruisevertx.sim;

import dev.kruisevertx.sim.admission.CrdConversion;
import dev.kruisevertx.sim.admission.WebhookAdmission;
import dev.kruisevertx.sim.admission.WebhookClient;
import dev.kruisevertx.sim.api.ApiHttpServer;
import dev.kruisevertx.sim.api.ApiServer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;

import java.util.concurrent.TimeUnit;

/** Owns the embedded API server's state: its context is the one thread that touches the object store. */
final class ApiVerticle extends VerticleBase {
    private final EmbeddedClusterOptions options;
    private ApiServer api;
    private ApiHttpServer http;
    private int port;

    ApiVerticle(EmbeddedClusterOptions options) {
        this.options = options;
    }

    @Override
    public Future<?> start() {
        // Loading and initialising the JSON, patch and HTTP classes takes long on a busy machine: do it on a
        // worker so the event loop never stalls on it.
        return vertx.executeBlocking(this::warmUp).compose(v -> startOnContext());
    }

    private Void warmUp() throws Exception {
        ClassLoader loader = ApiVerticle.class.getClassLoader();
        for (String name : new String[]{"dev.kruisevertx.sim.api.ApiHttpServer", "dev.kruisevertx.sim.api.ApiServer",
                "dev.kruisevertx.sim.api.Patches", "io.fabric8.zjsonpatch.JsonPatch", "dev.kruisevertx.sim.api.Tables",
                "dev.kruisevertx.sim.api.Watch", "dev.kruisevertx.sim.api.LabelSelector", "dev.kruisevertx.sim.api.FieldSelector",
                "dev.kruisevertx.sim.admission.WebhookAdmission", "com.fasterxml.jackson.databind.ObjectMapper"}) {
            Class.forName(name, true, loader);
        }
        new com.fasterxml.jackson.databind.ObjectMapper().readTree("{\"warm\":[1,\"up\",{\"a\":null}]}");
        java.util.UUID.randomUUID();
        // The JVM's first server socket loads Netty's channel, pipeline and buffer-pool classes and Vert.x's TLS
        // engine options inside listen(), on the calling thread: bind and close a throwaway server here, on the
        // worker, so the real listen() on the event loop finds them loaded.
        HttpServer probe = vertx.createHttpServer(new HttpServerOptions().setHost("127.0.0.1").setPort(0)
                        .setHttp2ClearTextEnabled(false))
                .requestHandler(req -> req.response().setStatusCode(503).end());
        probe.listen().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        probe.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        return null;
    }

    private Future<?> startOnContext() {
        api = new ApiServer(vertx, context, options.eventLogSize());
        if (options.admission()) {
            WebhookClient webhooks = new WebhookClient(vertx, options.serviceAddresses());
            api.setAdmission(new WebhookAdmission(api, webhooks));
            api.setConverter(new CrdConversion(api, webhooks));
        }
        http = new ApiHttpServer(vertx, api, options.bookmarkIntervalMs());
        return http.listen(options.host(), options.port()).onSuccess(p -> port = p);
    }

    /**
     * Stops serving (every connection and watch closed), waits {@code downtimeMillis}, then listens again on the same
     * host and port with the same store; the event log is compacted as a restarted kube-apiserver's watch cache is.
     * Runs on this verticle's context.
     */
    Future<Void> restart(long downtimeMillis) {
        io.vertx.core.Promise<Void> done = io.vertx.core.Promise.promise();
        context.runOnContext(v -> http.close()
                .compose(closed -> {
                    api.store().compactEventLogs();
                    io.vertx.core.Promise<Void> waited = io.vertx.core.Promise.promise();
                    vertx.setTimer(Math.max(1, downtimeMillis), t -> waited.complete());
                    return waited.future();
                })
                .compose(w -> http.listen(options.host(), port))
                .<Void>mapEmpty()
                .onComplete(done));
        return done.future();
    }

    @Override
    public Future<?> stop() {
        return http == null ? Future.succeededFuture() : http.close();
    }

    ApiServer api() {
        return api;
    }

    dev.kruisevertx.sim.api.ApiHttpServer http() {
        return http;
    }

    int port() {
        return port;
    }
}
