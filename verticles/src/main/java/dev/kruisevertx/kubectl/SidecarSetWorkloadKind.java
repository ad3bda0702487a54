package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.List;

/**
 * OpenKruise's SidecarSet (apps.kruise.io/v1beta1, cluster-scoped) for {@code why} only: the sidecarset
 * controller's last decision and the sidecar upgrade's counts. Its in-place sidecar upgrade is driven by the
 * SidecarSet's own spec (images, partition, paused), not by the rollout commands, which refuse it.
 */
public final class SidecarSetWorkloadKind implements WorkloadKind {
    private static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("apps.kruise.io").withVersion("v1beta1").withPlural("sidecarsets")
            .withKind("SidecarSet").withNamespaced(false).build();

    @Override
    public String kind() {
        return "SidecarSet";
    }

    @Override
    public List<String> aliases() {
        return List.of("sidecarset", "sidecarsets", "sidecarset.apps.kruise.io", "sidecarsets.apps.kruise.io");
    }

    @Override
    public ResourceDefinitionContext context() {
        return CONTEXT;
    }

    @Override
    public List<String> pausedPath() {
        return List.of("spec", "updateStrategy", "paused");
    }

    @Override
    public boolean rollsOut() {
        return false;
    }

    /** Done when every matched pod runs the current sidecars and is ready, for the generation last observed. */
    @Override
    public RolloutState rolloutState(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        JsonNode s = object.path("status");
        if (!s.isObject()) {
            return new RolloutState(false, "sidecarset \"" + name + "\": not counted yet");
        }
        long generation = object.path("metadata").path("generation").asLong();
        boolean observed = s.path("observedGeneration").asLong() >= generation;
        int matched = s.path("matchedPods").asInt();
        int updatedReady = s.path("updatedReadyPods").asInt();
        String counts = matched + " matched pods, " + s.path("updatedPods").asInt() + " updated, "
                + s.path("readyPods").asInt() + " ready, " + updatedReady + " updated and ready";
        if (!observed) {
            return new RolloutState(false, "sidecarset \"" + name + "\": waiting for the controller to observe "
                    + "generation " + generation + " (" + counts + ")");
        }
        return new RolloutState(updatedReady == matched, "sidecarset \"" + name + "\": " + counts);
    }
}
