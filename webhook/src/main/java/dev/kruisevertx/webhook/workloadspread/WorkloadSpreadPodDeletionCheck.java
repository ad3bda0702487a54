package dev.kruisevertx.webhook.workloadspread;

import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.cloneset.PodLookup;
import dev.kruisevertx.webhook.pod.PodValidationCheck;
import dev.kruisevertx.workloadspread.AdmissionOperation;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Future;

/**
 * The WorkloadSpread part of {@code /validate-pod} (OpenKruise v1.9's {@code workloadSpreadValidatingPod}, gate
 * WorkloadSpread): a pod DELETE (no sub-resource) or an eviction, not dry-run, of a pod a WorkloadSpread admitted is
 * recorded in that subset's {@code deletingPods}. Never denies; an error recording it fails the request (500), as in
 * OpenKruise. The evicted pod is read from the shared cache; one the cache does not hold fails the eviction with
 * "not found", as OpenKruise's cached read does.
 */
public final class WorkloadSpreadPodDeletionCheck implements PodValidationCheck {
    private final WorkloadSpreadPodAdmission admission;
    private final PodLookup pods;

    public WorkloadSpreadPodDeletionCheck(WorkloadSpreadPodAdmission admission, PodLookup pods) {
        this.admission = admission;
        this.pods = pods;
    }

    @Override
    public Future<AdmissionResponse> check(AdmissionRequest request) {
        if (request.dryRun()) {
            return Future.succeededFuture();
        }
        if (request.isDelete() && request.subResource().isEmpty() && request.oldObject() != null) {
            Pod pod;
            try {
                pod = Json.toModel(request.oldObject(), Pod.class);
            } catch (IllegalArgumentException e) {
                return Future.succeededFuture(AdmissionResponse.errored(400, "cannot decode the pod"));
            }
            if (pod.getMetadata() == null) {
                return Future.succeededFuture();
            }
            if (pod.getMetadata().getNamespace() == null || pod.getMetadata().getNamespace().isEmpty()) {
                pod.getMetadata().setNamespace(request.namespace());
            }
            return admission.onDeletion(pod, AdmissionOperation.DELETE).map(v -> null);
        }
        if (request.isCreate() && "eviction".equals(request.subResource())) {
            return pods.findAsync(request.namespace(), request.name()).compose(found -> {
                Pod pod = found.orElse(null);
                if (pod == null) {
                    return Future.failedFuture(new IllegalStateException("pods \"" + request.name() + "\" not found"));
                }
                return admission.onDeletion(pod, AdmissionOperation.EVICTION).map(v -> null);
            });
        }
        return Future.succeededFuture();
    }
}
