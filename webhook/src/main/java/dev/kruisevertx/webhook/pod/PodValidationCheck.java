package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import io.vertx.core.Future;

/**
 * One check of {@code /validate-pod}. Called on the event loop; anything blocking goes to a worker. Completes with
 * null to let the next check run, or with the response that ends the request (a denial).
 */
@FunctionalInterface
public interface PodValidationCheck {
    Future<AdmissionResponse> check(AdmissionRequest request);
}
