package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.pub.PubForPod;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.podunavailablebudget.PodUnavailableBudgetWebhooks.BudgetLookup;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Pipeline step {@link PodMutationStage#POD_UNAVAILABLE_BUDGET}: a pod created under a PodUnavailableBudget gets the
 * budget's name in {@code kruise.io/related-pub} (v1.9.0's key, the one {@code /validate-pod} looks for) and in
 * {@code pub.kruise.io/related-pub} (OpenKruise master's). The budget is found by the pod's controller reference (a
 * budget's targetRef) or labels (its selector). A pod of a Deployment is controlled by a ReplicaSet, which no
 * targetRef names: the podunavailablebudget controller annotates those pods once it sees them.
 */
public final class RelatedPubStep implements PodMutationStep {
    private final BudgetLookup budgets;

    public RelatedPubStep(BudgetLookup budgets) {
        this.budgets = budgets;
    }

    @Override
    public void mutate(AdmissionRequest request, Pod pod) {
        if (!request.isCreate() || pod.getMetadata() == null) {
            return;
        }
        Optional<PodUnavailableBudget> pub = PubForPod.find(budgets.inNamespace(pod.getMetadata().getNamespace()),
                pod, PubForPod.controllerOf(pod));
        if (pub.isEmpty()) {
            return;
        }
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? new HashMap<>()
                : new HashMap<>(pod.getMetadata().getAnnotations());
        annotations.put(WellKnown.PUB_RELATED_ANNOTATION_OLD, pub.get().getMetadata().getName());
        annotations.put(WellKnown.PUB_RELATED_ANNOTATION, pub.get().getMetadata().getName());
        pod.getMetadata().setAnnotations(annotations);
    }
}
