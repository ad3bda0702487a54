package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.List;

/**
 * OpenKruise's Advanced DaemonSet (apps.kruise.io/v1beta1) for the rollout commands. Its counters are per node, as
 * kubectl's DaemonSet status viewer reads them: the rollout is done once the generation is observed and
 * {@code desiredNumberScheduled - partition} nodes run an updated pod that is available. {@code daemonset} and
 * {@code ds} stay kubectl's own DaemonSet; this one is {@code ads}, {@code daemon} or {@code daemonset.apps.kruise.io}.
 */
public final class DaemonSetWorkloadKind extends KruiseWorkloadKind {
    static final List<String> PARTITION_PATH = List.of("spec", "updateStrategy", "rollingUpdate", "partition");

    public DaemonSetWorkloadKind() {
        super("DaemonSet", "daemonsets",
                List.of("ads", "daemon", "advanceddaemonset", "advanceddaemonsets", "daemonset.apps.kruise.io",
                        "daemonsets.apps.kruise.io"),
                List.of("spec", "updateStrategy", "rollingUpdate", "paused"));
    }

    @Override
    public RolloutState rolloutState(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        long generation = object.path("metadata").path("generation").asLong(0);
        JsonNode status = object.path("status");
        if (generation > status.path("observedGeneration").asLong(0)) {
            return new RolloutState(false, "Waiting for daemon set spec update to be observed...");
        }
        int desired = status.path("desiredNumberScheduled").asInt(0);
        // OpenKruise scales a percentage partition on the desired count rounding down.
        JsonNode p = ReplicatedWorkloadKind.at(object, PARTITION_PATH);
        int partition = p.isTextual() && p.asText().endsWith("%")
                ? percentDown(p.asText(), desired) : ReplicatedWorkloadKind.partition(p, desired);
        int expected = Math.max(0, desired - partition);
        int updated = status.path("updatedNumberScheduled").asInt(0);
        int available = status.path("numberAvailable").asInt(0);
        boolean paused = ReplicatedWorkloadKind.at(object, pausedPath()).asBoolean(false);
        String pausedNote = paused ? " (the rollout is paused; run 'kubectl-kruise rollout resume "
                + displayName(name) + "')" : "";
        if (updated < expected) {
            return new RolloutState(false, String.format("Waiting for daemon set \"%s\" rollout to finish: %d out of %d new pods have been updated...%s",
                    name, updated, expected, pausedNote));
        }
        if (available < desired) {
            return new RolloutState(false, String.format("Waiting for daemon set \"%s\" rollout to finish: %d of %d updated pods are available...%s",
                    name, available, desired, pausedNote));
        }
        if (partition > 0) {
            return new RolloutState(true, String.format("partitioned roll out complete: %d new pods have been updated (partition %d)...",
                    updated, partition));
        }
        return new RolloutState(true, "daemon set \"" + name + "\" successfully rolled out");
    }

    private static int percentDown(String value, int total) {
        try {
            int percent = Integer.parseInt(value.substring(0, value.length() - 1));
            return Math.max(0, Math.min(total, percent * total / 100));
        } catch (NumberFormatException e) {
            throw new CliException("partition \"" + value + "\" is not a number or percentage");
        }
    }
}
