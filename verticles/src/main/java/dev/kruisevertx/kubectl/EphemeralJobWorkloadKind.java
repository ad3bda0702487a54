package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.List;

/**
 * OpenKruise's EphemeralJob (apps.kruise.io/v1alpha1) for {@code why} only: the ephemeraljob controller's last
 * decision (pods to inject, finalizer, TTL) and the status counts. A job has no rollout, so the rollout and set
 * commands refuse it; it is done once its phase is Succeeded, Failed or Error.
 */
public final class EphemeralJobWorkloadKind implements WorkloadKind {
    private static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder()
            .withGroup("apps.kruise.io").withVersion("v1alpha1").withPlural("ephemeraljobs")
            .withKind("EphemeralJob").withNamespaced(true).build();

    @Override
    public String kind() {
        return "EphemeralJob";
    }

    @Override
    public List<String> aliases() {
        return List.of("ejob", "ephemeraljob", "ephemeraljobs", "ephemeraljob.apps.kruise.io",
                "ephemeraljobs.apps.kruise.io");
    }

    @Override
    public ResourceDefinitionContext context() {
        return CONTEXT;
    }

    @Override
    public List<String> pausedPath() {
        return List.of("spec", "paused");
    }

    @Override
    public boolean rollsOut() {
        return false;
    }

    @Override
    public RolloutState rolloutState(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        JsonNode status = object.path("status");
        String phase = status.path("phase").asText("");
        if (phase.isEmpty()) {
            return new RolloutState(false, "ephemeral job \"" + name + "\": not started yet");
        }
        boolean done = phase.equals("Succeeded") || phase.equals("Failed") || phase.equals("Error");
        return new RolloutState(done, "ephemeral job \"" + name + "\": " + phase + ", " + status.path("match").asInt()
                + " matched, " + status.path("running").asInt() + " running, " + status.path("waiting").asInt()
                + " waiting, " + status.path("succeeded").asInt() + " succeeded, " + status.path("failed").asInt()
                + " failed");
    }
}
