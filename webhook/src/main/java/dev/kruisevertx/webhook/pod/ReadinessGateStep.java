package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.webhook.admission.AdmissionRequest;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.PodSpec;

import java.util.ArrayList;
import java.util.List;

/**
 * Step 1 of the pipeline: on CREATE, pods controlled by an {@code apps.kruise.io} workload (or every pod
 * with gate KruisePodReadinessGate) get the readiness gate {@code KruisePodReady}, which the podreadiness
 * controller sets to True and kruise workloads flip to False before disruptive operations.
 */
public final class ReadinessGateStep implements PodMutationStep {
    public static final String KRUISE_POD_READY = "KruisePodReady";
    public static final String KRUISE_GROUP = "apps.kruise.io";

    private final boolean allPods;

    /** @param kruisePodReadinessGate feature gate KruisePodReadinessGate */
    public ReadinessGateStep(boolean kruisePodReadinessGate) {
        this.allPods = kruisePodReadinessGate;
    }

    @Override
    public void mutate(AdmissionRequest request, Pod pod) {
        if (!request.isCreate()) {
            return;
        }
        if (!allPods && !ownedByKruise(pod)) {
            return;
        }
        if (pod.getSpec() == null) {
            pod.setSpec(new PodSpec());
        }
        List<PodReadinessGate> gates = pod.getSpec().getReadinessGates() == null
                ? new ArrayList<>() : new ArrayList<>(pod.getSpec().getReadinessGates());
        if (gates.stream().anyMatch(g -> KRUISE_POD_READY.equals(g.getConditionType()))) {
            return;
        }
        gates.add(new PodReadinessGate(KRUISE_POD_READY));
        pod.getSpec().setReadinessGates(gates);
    }

    /** Whether the pod's controller reference points at a kind in apps.kruise.io. */
    public static boolean ownedByKruise(Pod pod) {
        if (pod.getMetadata() == null || pod.getMetadata().getOwnerReferences() == null) {
            return false;
        }
        for (OwnerReference ref : pod.getMetadata().getOwnerReferences()) {
            if (Boolean.TRUE.equals(ref.getController()) && ref.getApiVersion() != null) {
                String apiVersion = ref.getApiVersion();
                int slash = apiVersion.indexOf('/');
                String group = slash < 0 ? "" : apiVersion.substring(0, slash);
                if (KRUISE_GROUP.equals(group)) {
                    return true;
                }
            }
        }
        return false;
    }
}
