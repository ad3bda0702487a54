package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * OpenKruise's AdvancedCronJob (apps.kruise.io/v1beta1) for {@code why} and the rollout commands: a schedule has no
 * end, so its state is never "done"; it tells the active runs and the last scheduled time. {@code pause}/{@code resume}
 * set {@code spec.paused}.
 */
public final class AdvancedCronJobWorkloadKind extends KruiseWorkloadKind {

    public AdvancedCronJobWorkloadKind() {
        super("AdvancedCronJob", "advancedcronjobs",
                List.of("acj", "advancedcronjob", "advancedcronjobs", "advancedcronjob.apps.kruise.io",
                        "advancedcronjobs.apps.kruise.io"),
                List.of("spec", "paused"));
    }

    @Override
    public RolloutState rolloutState(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        JsonNode status = object.path("status");
        int active = status.path("active").size();
        String last = status.path("lastScheduleTime").asText("");
        String paused = object.path("spec").path("paused").asBoolean(false) ? " (paused)" : "";
        return new RolloutState(false, "advanced cron job \"" + name + "\"" + paused + ": " + active + " active, "
                + (last.isEmpty() ? "never scheduled" : "last scheduled at " + last));
    }
}
