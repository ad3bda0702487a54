package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code /validate-pod} (pod UPDATE and DELETE, eviction CREATE): runs the registered checks in order; the first
 * response a check gives ends the request, otherwise the request is allowed. A failed check is a 500 with its
 * message, as OpenKruise answers an error of its pod validating handler.
 */
public final class PodValidatingPipeline implements AdmissionHandler {
    public static final String PATH = "/validate-pod";

    private final List<PodValidationCheck> checks = new ArrayList<>();

    public PodValidatingPipeline register(PodValidationCheck check) {
        checks.add(check);
        return this;
    }

    public int size() {
        return checks.size();
    }

    @Override
    public Future<AdmissionResponse> handle(AdmissionRequest request) {
        return run(0, request).map(r -> r == null ? AdmissionResponse.allow() : r)
                .recover(e -> Future.succeededFuture(AdmissionResponse.errored(500, describe(e))));
    }

    /**
     * The message of a failed check, without the object's insides: a JSON mapping failure names the model's classes
     * and fields in its reference chain (found by the hostile-input storm: a 65,101-character map key), so only its
     * own words are kept.
     */
    static String describe(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof com.fasterxml.jackson.core.JsonProcessingException json) {
                return "cannot process the object: " + json.getOriginalMessage();
            }
            if (t.getCause() == t) {
                break;
            }
        }
        // A runtime failure without a message (a parser's NumberFormatException) would show only its class name.
        return e.getMessage() == null || e.getMessage().isBlank() ? "the check failed on a value it could not read"
                : e.getMessage();
    }

    private Future<AdmissionResponse> run(int i, AdmissionRequest request) {
        if (i >= checks.size()) {
            return Future.succeededFuture();
        }
        Future<AdmissionResponse> done;
        try {
            done = checks.get(i).check(request);
        } catch (RuntimeException e) {
            done = Future.failedFuture(e);
        }
        return done.compose(r -> r != null ? Future.succeededFuture(r) : run(i + 1, request));
    }
}
