package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.webhook.admission.AdmissionRequest;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Future;

/**
 * A step of the pod mutating pipeline that must wait for something off the event loop (an API write) before it can
 * change the pod. It is called on the event loop and changes {@code pod} when its future completes, on the same
 * context; a failed future rejects the request with the failure's message.
 */
@FunctionalInterface
public interface AsyncPodMutationStep {
    Future<Void> mutate(AdmissionRequest request, Pod pod);

    /** A synchronous step as an asynchronous one. */
    static AsyncPodMutationStep of(PodMutationStep step) {
        return (request, pod) -> {
            step.mutate(request, pod);
            return Future.succeededFuture();
        };
    }
}
