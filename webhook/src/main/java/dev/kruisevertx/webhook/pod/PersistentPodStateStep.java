package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PodState;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.persistentpodstate.PpsWorkloads;
import dev.kruisevertx.persistentpodstate.TopologyInjection;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.persistentpodstate.PersistentPodStateLookup;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.Optional;

/**
 * Step 6 of the pod pipeline (OpenKruise's persistentPodStateMutatingPod): on CREATE of a pod whose controller is a
 * StatefulSet (apps or apps.kruise.io) or a whitelisted workload, and whose name has a recorded state in that
 * workload's PersistentPodState, the recorded topology becomes required {@code nodeSelector} labels and preferred
 * node-affinity terms, and the pod is annotated {@code kruise.io/injected-persistent-pod-state: <name>}. A pod with
 * no recorded state (its first creation) passes unchanged.
 */
public final class PersistentPodStateStep implements PodMutationStep {
    private final PersistentPodStateLookup lookup;

    public PersistentPodStateStep(PersistentPodStateLookup lookup) {
        this.lookup = lookup;
    }

    @Override
    public void mutate(AdmissionRequest request, Pod pod) {
        if (!request.isCreate() || (request.subResource() != null && !request.subResource().isEmpty())
                || (request.resource() != null && !"pods".equals(request.resource()))) {
            return;
        }
        Optional<OwnerReference> owner = Pods.controllerOf(pod);
        if (owner.isEmpty()) {
            return;
        }
        // A whitelist that does not parse fails the pod, as OpenKruise answers 500: the step's message says why.
        CustomWorkloadWhiteList whiteList = lookup.customWorkloads();
        OwnerReference ref = owner.get();
        if (!PpsWorkloads.supported(ref.getApiVersion(), ref.getKind(), whiteList)) {
            return;
        }
        String namespace = pod.getMetadata().getNamespace() != null ? pod.getMetadata().getNamespace()
                : request.namespace();
        Optional<PersistentPodState> pps = PpsWorkloads.select(lookup.inNamespace(namespace),
                new TargetReference(ref.getApiVersion(), ref.getKind(), ref.getName()));
        if (pps.isEmpty() || pod.getMetadata().getName() == null) {
            return;
        }
        PodState state = pps.get().status().states().get(pod.getMetadata().getName());
        TopologyInjection.decide(pps.get().spec(), state).ifPresent(injection ->
                TopologyInjection.apply(pod, pps.get().getMetadata().getName(), injection));
    }
}
