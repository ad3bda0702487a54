package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.List;
import java.util.Locale;

/**
 * A workload with {@code spec.replicas}, a partition and the usual replica counters in its status (CloneSet,
 * Advanced StatefulSet): the rollout is done once the generation is observed, {@code replicas - partition} pods
 * run the update revision and are ready, and no extra old pod is left.
 */
public record ReplicatedWorkloadKind(String kind, List<String> aliases, ResourceDefinitionContext context,
                                     List<String> pausedPath, List<String> partitionPath) implements WorkloadKind {
    public ReplicatedWorkloadKind {
        aliases = List.copyOf(aliases);
        pausedPath = List.copyOf(pausedPath);
        partitionPath = List.copyOf(partitionPath);
    }

    public ReplicatedWorkloadKind(String kind, List<String> aliases, String group, String version, String plural,
                                  List<String> pausedPath, List<String> partitionPath) {
        this(kind, aliases, new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version)
                .withPlural(plural).withKind(kind).withNamespaced(true).build(), pausedPath, partitionPath);
    }

    /**
     * OpenKruise's CloneSet, read and written as apps.kruise.io/v1alpha1 (the stored version); a type naming v1beta1
     * ({@code clonesets.v1beta1.apps.kruise.io}) is the same object, so both versions' spellings are accepted.
     */
    public static ReplicatedWorkloadKind cloneSet() {
        return new ReplicatedWorkloadKind("CloneSet",
                List.of("cloneset", "clonesets", "clone", "cloneset.apps.kruise.io", "clonesets.apps.kruise.io",
                        "cloneset.v1alpha1.apps.kruise.io", "clonesets.v1alpha1.apps.kruise.io",
                        "cloneset.v1beta1.apps.kruise.io", "clonesets.v1beta1.apps.kruise.io"),
                "apps.kruise.io", "v1alpha1", "clonesets",
                List.of("spec", "updateStrategy", "paused"), List.of("spec", "updateStrategy", "partition"));
    }

    /** OpenKruise's Advanced StatefulSet (apps.kruise.io/v1beta1). */
    public static ReplicatedWorkloadKind advancedStatefulSet() {
        return new ReplicatedWorkloadKind("StatefulSet",
                List.of("asts", "advancedstatefulset", "advancedstatefulsets", "statefulset.apps.kruise.io",
                        "statefulsets.apps.kruise.io"),
                "apps.kruise.io", "v1beta1", "statefulsets",
                List.of("spec", "updateStrategy", "rollingUpdate", "paused"),
                List.of("spec", "updateStrategy", "rollingUpdate", "partition"));
    }

    @Override
    public RolloutState rolloutState(JsonNode object) {
        String name = object.path("metadata").path("name").asText();
        long generation = object.path("metadata").path("generation").asLong(0);
        JsonNode status = object.path("status");
        long observed = status.path("observedGeneration").asLong(0);
        if (generation > observed) {
            return new RolloutState(false, "Waiting for " + kind + " spec update to be observed...");
        }
        int replicas = object.path("spec").path("replicas").isMissingNode() ? 1 : object.path("spec").path("replicas").asInt();
        int partition = partition(at(object, partitionPath), replicas);
        int expected = Math.max(0, replicas - partition);
        int updated = status.path("updatedReplicas").asInt(0);
        int current = status.path("replicas").asInt(0);
        int updatedReady = status.path("updatedReadyReplicas").asInt(0);
        boolean paused = at(object, pausedPath).asBoolean(false);
        String pausedNote = paused ? " (the rollout is paused; run 'kubectl-kruise rollout resume "
                + displayName(name) + "')" : "";
        if (updated < expected) {
            return new RolloutState(false, String.format("Waiting for rollout to finish: %d out of %d new replicas have been updated...%s",
                    updated, expected, pausedNote));
        }
        if (current > replicas) {
            return new RolloutState(false, String.format("Waiting for rollout to finish: %d old replicas are pending termination...%s",
                    current - replicas, pausedNote));
        }
        if (updatedReady < expected) {
            return new RolloutState(false, String.format("Waiting for rollout to finish: %d of %d updated replicas are ready...%s",
                    updatedReady, expected, pausedNote));
        }
        if (partition > 0) {
            return new RolloutState(true, String.format("partitioned roll out complete: %d new replicas have been updated (partition %d)...",
                    updated, partition));
        }
        return new RolloutState(true, kind.toLowerCase(Locale.ROOT) + " \"" + name + "\" successfully rolled out");
    }

    /** A partition is an int or a percentage of replicas rounded up, as OpenKruise scales it; capped at replicas. */
    static int partition(JsonNode value, int replicas) {
        if (value.isMissingNode() || value.isNull()) {
            return 0;
        }
        int result;
        if (value.isTextual() && value.asText().endsWith("%")) {
            String digits = value.asText().substring(0, value.asText().length() - 1);
            try {
                result = (int) Math.ceil(Integer.parseInt(digits) * replicas / 100.0);
            } catch (NumberFormatException e) {
                throw new CliException("partition \"" + value.asText() + "\" is not a number or percentage");
            }
        } else if (value.canConvertToInt()) {
            result = value.asInt();
        } else {
            throw new CliException("partition \"" + value.asText() + "\" is not a number or percentage");
        }
        return Math.max(0, Math.min(result, replicas));
    }

    static JsonNode at(JsonNode root, List<String> path) {
        JsonNode node = root;
        for (String p : path) {
            node = node.path(p);
        }
        return node;
    }
}
