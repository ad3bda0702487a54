package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.pub.PubStatusCalculator;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * PodUnavailableBudget's promise ({@value #UNAVAILABLE_ALLOWED}), checked on every pod event: of the pods naming a
 * budget (its related-pub annotation, either key), those the manager or an admitted request made unavailable never
 * exceed what the budget allows ({@code total - desiredAvailable}, total being {@code status.totalReplicas}, or the
 * pods seen while the status has none). Made unavailable means: seen Ready once, now not Ready (an
 * {@code unavailable-pod.kruise.io/} label counts) or terminating. Pods the run deletes itself
 * ({@link InvariantChecker#expectDeletion}) and pods annotated {@code pub.kruise.io/no-protect=true} do not count, nor
 * do new pods not Ready yet (a replacement is not a disruption). Watch {@link InvariantChecker#PUB_OBJECTS} for it.
 */
public final class PodUnavailableBudgetInvariant implements Invariant {
    public static final String UNAVAILABLE_ALLOWED = "pub-unavailable-allowed";

    private final Set<String> expectedDeletions;
    /** Budgets by namespace/name. */
    private final Map<String, PodUnavailableBudget> budgets = new HashMap<>();
    /** Pods by uid, and the uids seen Ready at least once. */
    private final Map<String, Pod> pods = new HashMap<>();
    private final Set<String> wasReady = new HashSet<>();

    public PodUnavailableBudgetInvariant(Set<String> expectedDeletions) {
        this.expectedDeletions = expectedDeletions;
    }

    @Override
    public String name() {
        return UNAVAILABLE_ALLOWED;
    }

    @Override
    public void onObject(PodEvent.Type type, JsonNode object, long atMillis, Violations out) {
        if (!"PodUnavailableBudget".equals(object.path("kind").asText())) {
            return;
        }
        String key = ClusterView.key(object);
        if (type == PodEvent.Type.DELETED) {
            budgets.remove(key);
        } else {
            budgets.put(key, ApiJson.serialization().convertValue(object, PodUnavailableBudget.class));
        }
    }

    @Override
    public void onPod(PodEvent event, ClusterView view, Violations out) {
        String uid = ClusterView.uid(event.pod());
        if (event.type() == PodEvent.Type.DELETED) {
            pods.remove(uid);
            wasReady.remove(uid);
            return;
        }
        Pod pod = ApiJson.serialization().convertValue(event.pod(), Pod.class);
        pods.put(uid, pod);
        if (PubStatusCalculator.isReady(pod) && pod.getMetadata().getDeletionTimestamp() == null) {
            wasReady.add(uid);
        }
        String budget = budgetOf(pod);
        if (budget != null) {
            PodUnavailableBudget pub = budgets.get(pod.getMetadata().getNamespace() + "/" + budget);
            if (pub != null) {
                check(pub, event.atMillis(), out);
            }
        }
    }

    private static String budgetOf(Pod pod) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        if (a == null) {
            return null;
        }
        String name = a.get(WellKnown.PUB_RELATED_ANNOTATION_OLD);
        return name != null && !name.isEmpty() ? name : a.get(WellKnown.PUB_RELATED_ANNOTATION);
    }

    private void check(PodUnavailableBudget pub, long at, Violations out) {
        String ns = pub.getMetadata().getNamespace();
        String name = pub.getMetadata().getName();
        int seen = 0;
        List<String> disrupted = new ArrayList<>();
        for (Map.Entry<String, Pod> e : pods.entrySet()) {
            Pod p = e.getValue();
            if (!ns.equals(p.getMetadata().getNamespace()) || !name.equals(budgetOf(p))) {
                continue;
            }
            boolean terminating = p.getMetadata().getDeletionTimestamp() != null;
            String phase = p.getStatus() == null ? "" : String.valueOf(p.getStatus().getPhase());
            if (!terminating && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
                seen++;
            }
            Map<String, String> a = p.getMetadata().getAnnotations();
            boolean exempt = "true".equals(a.get(WellKnown.PUB_NO_PROTECT_ANNOTATION))
                    || expectedDeletions.contains(ns + "/" + p.getMetadata().getName());
            if (!exempt && wasReady.contains(e.getKey()) && (terminating || !PubStatusCalculator.isReady(p))) {
                disrupted.add(p.getMetadata().getName());
            }
        }
        int total = pub.status().getTotalReplicas() > 0 ? pub.status().getTotalReplicas() : seen;
        int allowed;
        try {
            allowed = total - PubStatusCalculator.desiredAvailable(pub.spec(), total);
        } catch (IllegalArgumentException badBudget) {
            return;
        }
        if (disrupted.size() > allowed) {
            disrupted.sort(null);
            out.report(new Violation(UNAVAILABLE_ALLOWED, ns + "/" + name, disrupted.size()
                    + " of its pods made unavailable, the budget allows " + allowed + " of " + total + " ("
                    + String.join(", ", disrupted) + ")", at));
        }
    }
}
