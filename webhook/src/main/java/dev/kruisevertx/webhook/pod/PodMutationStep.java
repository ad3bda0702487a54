package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.webhook.admission.AdmissionRequest;
import io.fabric8.kubernetes.api.model.Pod;

/**
 * One step of the pod mutating pipeline. It changes {@code pod} (a private copy) in place and runs on the
 * event loop, so it reads only in-memory state (watch caches), never the API server directly. A step that
 * cannot decide throws; the request is then rejected with the step's message.
 */
@FunctionalInterface
public interface PodMutationStep {
    void mutate(AdmissionRequest request, Pod pod);
}
