package dev.kruisevertx.webhook.workloadspread;

import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.pod.AsyncPodMutationStep;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Future;

/**
 * Step 2 of {@code /mutate-pod} (gate WorkloadSpread): on CREATE, not dry-run, the matching WorkloadSpread picks the
 * pod's subset, records the creation in its status, and the pod gets the subset's scheduling terms, patch and the
 * {@code apps.kruise.io/matched-workloadspread} annotation. Other operations pass.
 */
public final class WorkloadSpreadPodStep implements AsyncPodMutationStep {
    private final WorkloadSpreadPodAdmission admission;

    public WorkloadSpreadPodStep(WorkloadSpreadPodAdmission admission) {
        this.admission = admission;
    }

    @Override
    public Future<Void> mutate(AdmissionRequest request, Pod pod) {
        if (!request.isCreate() || request.dryRun() || pod.getMetadata() == null) {
            return Future.succeededFuture();
        }
        return admission.onCreate(pod).map(placed -> {
            placed.ifPresent(p -> {
                pod.setMetadata(p.getMetadata());
                pod.setSpec(p.getSpec());
            });
            return null;
        });
    }
}
