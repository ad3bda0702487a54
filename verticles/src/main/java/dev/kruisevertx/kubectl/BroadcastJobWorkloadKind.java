package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * OpenKruise's BroadcastJob (apps.kruise.io/v1beta1) for {@code why} and the rollout commands: a job runs to an end,
 * so "done" is a finished job (completed or failed); {@code pause}/{@code resume} set {@code spec.paused}.
 */
public final class BroadcastJobWorkloadKind extends KruiseWorkloadKind {

    public BroadcastJobWorkloadKind() {
        super("BroadcastJob", "broadcastjobs",
                List.of("bcj", "broadcastjob", "broadcastjobs", "broadcastjob.apps.kruise.io",
                        "broadcastjobs.apps.kruise.io"),
                List.of("spec", "paused"));
    }

    @Override
    public RolloutState rolloutState(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        JsonNode status = object.path("status");
        String phase = status.path("phase").asText("");
        String counts = status.path("desired").asInt(0) + " desired, " + status.path("active").asInt(0) + " active, "
                + status.path("succeeded").asInt(0) + " succeeded, " + status.path("failed").asInt(0) + " failed";
        return switch (phase) {
            case "completed" -> new RolloutState(true, "broadcast job \"" + name + "\" completed: " + counts);
            case "failed" -> new RolloutState(true, "broadcast job \"" + name + "\" failed: " + counts);
            case "paused" -> new RolloutState(false, "broadcast job \"" + name + "\" is paused: " + counts);
            default -> new RolloutState(false, "Waiting for broadcast job \"" + name + "\" to finish: " + counts);
        };
    }
}
