package dev.kruisevertx.webhook.admission;

import io.vertx.core.Future;

/**
 * Judges admission requests for one path. Called on the event loop: a handler must not block; anything
 * blocking goes through {@code vertx.executeBlocking}. A handler with side effects must honour
 * {@link AdmissionRequest#dryRun()} (see {@link DryRun}).
 */
@FunctionalInterface
public interface AdmissionHandler {
    Future<AdmissionResponse> handle(AdmissionRequest request);
}
