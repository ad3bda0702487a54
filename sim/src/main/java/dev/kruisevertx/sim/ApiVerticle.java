package dev.kruisevertx.sim;

import dev.kruisevertx.sim.admission.WebhookAdmission;
import dev.kruisevertx.sim.api.ApiHttpServer;
import dev.kruisevertx.sim.api.ApiServer;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;

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
        api = new ApiServer(vertx, options.eventLogSize());
        if (options.admission()) {
            api.setAdmission(new WebhookAdmission(vertx, api, options.serviceAddresses()));
        }
        http = new ApiHttpServer(vertx, api, options.bookmarkIntervalMs());
        return http.listen(options.host(), options.port()).onSuccess(p -> port = p);
    }

    @Override
    public Future<?> stop() {
        return http == null ? Future.succeededFuture() : http.close();
    }

    ApiServer api() {
        return api;
    }

    int port() {
        return port;
    }
}
