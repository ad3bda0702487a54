package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.List;

/**
 * OpenKruise's PodProbeMarker (apps.kruise.io/v1alpha1) for {@code why} only: the podprobemarker controller's last
 * decision (matched pods, NodePodProbes to write, serverless pods to mark) and the matched-pod count. A marker has
 * nothing to roll out, so the rollout and set commands refuse it.
 */
public final class PodProbeMarkerWorkloadKind implements WorkloadKind {
    private static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("apps.kruise.io").withVersion("v1alpha1").withPlural("podprobemarkers")
            .withKind("PodProbeMarker").withNamespaced(true).build();

    @Override
    public String kind() {
        return "PodProbeMarker";
    }

    @Override
    public List<String> aliases() {
        return List.of("podprobemarker", "podprobemarkers", "podprobemarker.apps.kruise.io",
                "podprobemarkers.apps.kruise.io");
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

    /** Never "done": a marker keeps probing; tells how many pods it matches. */
    @Override
    public RolloutState rolloutState(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        JsonNode status = object.path("status");
        if (!status.has("observedGeneration")) {
            return new RolloutState(false, "pod probe marker \"" + name + "\": not seen by the controller yet");
        }
        long matched = status.path("matchedPods").asLong();
        return new RolloutState(false, "pod probe marker \"" + name + "\": " + matched + " matched "
                + (matched == 1 ? "pod" : "pods"));
    }
}
