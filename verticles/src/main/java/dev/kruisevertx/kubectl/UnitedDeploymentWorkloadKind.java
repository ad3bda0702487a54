package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.List;

/**
 * OpenKruise's UnitedDeployment (apps.kruise.io/v1alpha1) for {@code why}: the controller's last plan and reasons,
 * and a state line from the status. It has no pause field, so the rollout and set commands refuse it (its subset
 * workloads have their own).
 */
public final class UnitedDeploymentWorkloadKind implements WorkloadKind {
    private static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("apps.kruise.io").withVersion("v1alpha1").withPlural("uniteddeployments")
            .withKind("UnitedDeployment").withNamespaced(true).build();

    @Override
    public String kind() {
        return "UnitedDeployment";
    }

    @Override
    public List<String> aliases() {
        // A type naming v1beta1 (uniteddeployments.v1beta1.apps.kruise.io) is the same object, read as the stored
        // v1alpha1, so both versions' spellings are accepted.
        return List.of("ud", "uds", "uniteddeployment", "uniteddeployments", "uniteddeployment.apps.kruise.io",
                "uniteddeployments.apps.kruise.io", "uniteddeployment.v1alpha1.apps.kruise.io",
                "uniteddeployments.v1alpha1.apps.kruise.io", "uniteddeployment.v1beta1.apps.kruise.io",
                "uniteddeployments.v1beta1.apps.kruise.io");
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

    /** Done when every wanted replica runs ready at the revision the subsets should be at. */
    @Override
    public RolloutState rolloutState(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        long generation = object.path("metadata").path("generation").asLong(0);
        JsonNode status = object.path("status");
        if (!status.isObject() || generation > status.path("observedGeneration").asLong(0)) {
            return new RolloutState(false, "Waiting for united deployment \"" + name + "\" spec update to be observed...");
        }
        int wanted = object.path("spec").path("replicas").asInt(0);
        int ready = status.path("readyReplicas").asInt(0);
        int updatedReady = status.path("updatedReadyReplicas").asInt(0);
        int subsets = status.path("subsetReplicas").size();
        String updated = status.path("updateStatus").path("updatedRevision").asText("");
        boolean current = updated.equals(status.path("currentRevision").asText(""));
        String counts = ready + " of " + wanted + " ready, " + updatedReady + " updated and ready, over " + subsets
                + " subset" + (subsets == 1 ? "" : "s");
        if (current && ready == wanted && status.path("replicas").asInt(0) == wanted) {
            return new RolloutState(true, "united deployment \"" + name + "\" successfully rolled out: " + counts);
        }
        return new RolloutState(false, "Waiting for united deployment \"" + name + "\": " + counts);
    }
}
