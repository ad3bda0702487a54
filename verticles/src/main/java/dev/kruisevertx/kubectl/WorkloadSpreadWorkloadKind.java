package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.ArrayList;
import java.util.List;

/**
 * OpenKruise's WorkloadSpread (apps.kruise.io/v1alpha1) for {@code why} only: the controller's last decision (an
 * Adaptive subset marked unschedulable, its own pod writes not yet seen) and each subset's count. A WorkloadSpread
 * has nothing to roll out, so the rollout and set commands refuse it.
 */
public final class WorkloadSpreadWorkloadKind implements WorkloadKind {
    private static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("apps.kruise.io").withVersion("v1alpha1").withPlural("workloadspreads")
            .withKind("WorkloadSpread").withNamespaced(true).build();

    @Override
    public String kind() {
        return "WorkloadSpread";
    }

    @Override
    public List<String> aliases() {
        // Either served version names the same (stored v1alpha1) object; only status fields are read, which the
        // versions share.
        return List.of("ws", "workloadspread", "workloadspreads", "workloadspread.apps.kruise.io",
                "workloadspreads.apps.kruise.io", "workloadspread.v1alpha1.apps.kruise.io",
                "workloadspreads.v1alpha1.apps.kruise.io", "workloadspread.v1beta1.apps.kruise.io",
                "workloadspreads.v1beta1.apps.kruise.io");
    }

    @Override
    public ResourceDefinitionContext context() {
        return CONTEXT;
    }

    @Override
    public List<String> pausedPath() {
        return List.of();
    }

    @Override
    public boolean rollsOut() {
        return false;
    }

    /** Never "done": a WorkloadSpread keeps placing pods; tells each subset's pods and missing replicas. */
    @Override
    public RolloutState rolloutState(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        JsonNode subsets = object.path("status").path("subsetStatuses");
        if (!subsets.isArray() || subsets.isEmpty()) {
            return new RolloutState(false, "workload spread \"" + name + "\": not counted yet");
        }
        List<String> parts = new ArrayList<>();
        for (JsonNode s : subsets) {
            int missing = s.path("missingReplicas").asInt();
            parts.add(s.path("name").asText() + " " + s.path("replicas").asInt() + " "
                    + (s.path("replicas").asInt() == 1 ? "pod" : "pods")
                    + (missing < 0 ? " (no limit)" : " (" + missing + " missing)"));
        }
        return new RolloutState(false, "workload spread \"" + name + "\": " + String.join(", ", parts));
    }
}
