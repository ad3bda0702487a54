package dev.kruisevertx.pub;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.TargetReference;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which budget protects a pod (OpenKruise's GetPubForPod), pure: the first budget of the pod's namespace whose
 * targetRef names the pod's workload (same API group, kind and name; any version), or whose non-empty selector matches
 * the pod's labels. A budget with a targetRef never matches by labels, and an empty or invalid selector matches
 * nothing rather than everything.
 */
public final class PubForPod {
    /** The workload owning a pod: its controller reference, or a Deployment above the pod's ReplicaSet. */
    public record Workload(String apiVersion, String kind, String name) {
    }

    private PubForPod() {
    }

    public static Optional<PodUnavailableBudget> find(List<PodUnavailableBudget> budgets, Pod pod,
                                                      Optional<Workload> workload) {
        for (PodUnavailableBudget pub : budgets) {
            TargetReference ref = pub.spec().getTargetRef();
            if (ref != null) {
                if (workload.isPresent() && sameWorkload(ref, workload.get())) {
                    return Optional.of(pub);
                }
                continue;
            }
            if (selects(pub.spec().getSelector(), pod)) {
                return Optional.of(pub);
            }
        }
        return Optional.empty();
    }

    /** The pod's workload as its controller reference names it (a ReplicaSet is resolved by the caller). */
    public static Optional<Workload> controllerOf(Pod pod) {
        return Pods.controllerOf(pod).map(o -> new Workload(o.getApiVersion(), o.getKind(), o.getName()));
    }

    /** The budget name a pod carries, under either key (v1.9.0's {@code kruise.io/related-pub} first). */
    public static Optional<String> relatedName(Pod pod) {
        var annotations = Pods.annotations(pod);
        String name = annotations.get(WellKnown.PUB_RELATED_ANNOTATION_OLD);
        if (name == null || name.isEmpty()) {
            name = annotations.get(WellKnown.PUB_RELATED_ANNOTATION);
        }
        return name == null || name.isEmpty() ? Optional.empty() : Optional.of(name);
    }

    static boolean sameWorkload(TargetReference ref, Workload w) {
        return Objects.equals(group(ref.getApiVersion()), group(w.apiVersion()))
                && Objects.equals(ref.getKind(), w.kind()) && Objects.equals(ref.getName(), w.name());
    }

    private static boolean selects(LabelSelector selector, Pod pod) {
        if (selector == null || ((selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
                && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty()))) {
            return false;
        }
        try {
            return LabelSelectors.matches(selector, Pods.labels(pod));
        } catch (IllegalArgumentException invalid) {
            return false;
        }
    }

    static String group(String apiVersion) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
