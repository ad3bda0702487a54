package dev.kruisevertx.webhook.admission;

import io.vertx.core.Future;

/**
 * Judges admission requests for one path. Called on the event loop for small requests and on the server's
 * large-request worker thread for large ones (their decoding and diffing would stall the event loop), so a handler
 * must be thread-safe and must not block; anything blocking goes through {@code vertx.executeBlocking}. A handler
 * with side effects must honour {@link AdmissionRequest#dryRun()} (see {@link DryRun}).
 */
@FunctionalInterface
public interface AdmissionHandler {
    Future<AdmissionResponse> handle(AdmissionRequest request);
}
