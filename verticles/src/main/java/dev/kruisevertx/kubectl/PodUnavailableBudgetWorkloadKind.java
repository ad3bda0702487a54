package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.List;

/**
 * OpenKruise's PodUnavailableBudget (policy.kruise.io/v1alpha1) for {@code why} only: the controller's last decision
 * (its counts) and the budget's state. A budget has nothing to roll out, so the rollout and set commands refuse it.
 * Read as v1alpha1 (the stored version); a type naming v1beta1 ({@code podunavailablebudgets.v1beta1.policy.kruise.io})
 * is the same object, so both versions' spellings are accepted.
 */
public final class PodUnavailableBudgetWorkloadKind implements WorkloadKind {
    private static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("policy.kruise.io").withVersion("v1alpha1").withPlural("podunavailablebudgets")
            .withKind("PodUnavailableBudget").withNamespaced(true).build();

    @Override
    public String kind() {
        return "PodUnavailableBudget";
    }

    @Override
    public List<String> aliases() {
        return List.of("pub", "pubs", "podunavailablebudget", "podunavailablebudgets",
                "podunavailablebudget.policy.kruise.io", "podunavailablebudgets.policy.kruise.io",
                "podunavailablebudget.v1alpha1.policy.kruise.io", "podunavailablebudgets.v1alpha1.policy.kruise.io",
                "podunavailablebudget.v1beta1.policy.kruise.io", "podunavailablebudgets.v1beta1.policy.kruise.io");
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

    /** Never "done": a budget keeps guarding; tells what it allows now. */
    @Override
    public RolloutState rolloutState(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        JsonNode s = object.path("status");
        if (!s.isObject()) {
            return new RolloutState(false, "pod unavailable budget \"" + name + "\": not counted yet");
        }
        return new RolloutState(false, "pod unavailable budget \"" + name + "\": " + s.path("unavailableAllowed").asInt()
                + " unavailable allowed (desired available " + s.path("desiredAvailable").asInt() + ", current "
                + s.path("currentAvailable").asInt() + " of " + s.path("totalReplicas").asInt() + " replicas; "
                + s.path("disruptedPods").size() + " disrupted, " + s.path("unavailablePods").size()
                + " unavailable recorded)");
    }
}
