package dev.kruisevertx.cloneset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetCondition;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetConditionType;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/** The CloneSet status OpenKruise reports, computed from the pods the reconcile saw. */
public final class CloneSetStatusCalculator {
    private CloneSetStatusCalculator() {
    }

    /**
     * @param failureType the step that ran (FailedScale or FailedUpdate), null when neither ran
     * @param failure     that step's error, or null when it succeeded (its condition is then removed)
     */
    public static CloneSetStatus calculate(CloneSet cs, List<Pod> pods, String currentRevision, String updateRevision,
                                           Integer collisionCount, CloneSetConditionType failureType, String failure,
                                           Instant now) {
        CloneSetStatus old = cs.getStatus();
        CloneSetStatus s = new CloneSetStatus();
        int minReady = cs.getSpec().getMinReadySeconds();
        for (Pod p : pods) {
            s.setReplicas(s.getReplicas() + 1);
            boolean ready = Pods.isUpdateReady(p, 0, now);
            boolean available = Pods.isServing(p, minReady, now);
            if (ready) {
                s.setReadyReplicas(s.getReadyReplicas() + 1);
            }
            if (available) {
                s.setAvailableReplicas(s.getAvailableReplicas() + 1);
            }
            if (Pods.atRevision(p, updateRevision)) {
                s.setUpdatedReplicas(s.getUpdatedReplicas() + 1);
                if (ready) {
                    s.setUpdatedReadyReplicas(s.getUpdatedReadyReplicas() + 1);
                }
                if (available) {
                    s.setUpdatedAvailableReplicas(s.getUpdatedAvailableReplicas() + 1);
                }
            }
        }
        int replicas = CloneSetDiff.Limits.of(cs).replicas();
        s.setUpdateRevision(updateRevision);
        s.setCurrentRevision(currentRevision);
        // Every pod at the update revision and as many as wanted: the update revision becomes the current one,
        // without waiting for readiness.
        if (currentRevision == null || (s.getUpdatedReplicas() == s.getReplicas() && s.getReplicas() == replicas)) {
            s.setCurrentRevision(updateRevision);
        }
        CloneSetUpdateStrategy us = cs.getSpec().getUpdateStrategy();
        s.setExpectedUpdatedReplicas(PartitionCalculator.expectedUpdatedReplicas(us == null ? null : us.getPartition(), replicas));
        s.setObservedGeneration(cs.getMetadata().getGeneration() == null ? 0 : cs.getMetadata().getGeneration());
        s.setCollisionCount(collisionCount);
        s.setLabelSelector(selectorString(cs.getSpec().getSelector()));
        s.setConditions(conditions(old == null ? null : old.getConditions(), failureType, failure, now));
        return s;
    }

    private static List<CloneSetCondition> conditions(List<CloneSetCondition> old, CloneSetConditionType failureType,
                                                      String failure, Instant now) {
        List<CloneSetCondition> out = new ArrayList<>();
        if (old != null) {
            for (CloneSetCondition c : old) {
                // The step that ran replaces its own condition: set on failure, dropped on success.
                if (failureType == null || !failureType.value().equals(c.getType())) {
                    out.add(c);
                }
            }
        }
        if (failureType != null && failure != null) {
            CloneSetCondition previous = old == null ? null : old.stream()
                    .filter(c -> failureType.value().equals(c.getType())).findFirst().orElse(null);
            String since = previous != null && "True".equals(previous.getStatus()) && Objects.equals(previous.getMessage(), failure)
                    ? previous.getLastTransitionTime() : now.toString();
            out.add(new CloneSetCondition(failureType.value(), "True", since, null, failure));
        }
        return out.isEmpty() ? null : out;
    }

    /**
     * The selector as apimachinery prints it, for the scale subresource: requirements sorted by key,
     * {@code a=b,c in (d,e),!f}.
     */
    public static String selectorString(LabelSelector selector) {
        if (selector == null) {
            return null;
        }
        TreeMap<String, List<String>> byKey = new TreeMap<>();
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                byKey.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(e.getKey() + "=" + e.getValue());
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                List<String> values = r.getValues() == null ? List.of() : r.getValues().stream().sorted().toList();
                String text = switch (r.getOperator()) {
                    case "In" -> r.getKey() + " in (" + String.join(",", values) + ")";
                    case "NotIn" -> r.getKey() + " notin (" + String.join(",", values) + ")";
                    case "Exists" -> r.getKey();
                    case "DoesNotExist" -> "!" + r.getKey();
                    default -> r.getKey() + " " + r.getOperator();
                };
                byKey.computeIfAbsent(r.getKey(), k -> new ArrayList<>()).add(text);
            }
        }
        List<String> parts = new ArrayList<>();
        byKey.values().forEach(parts::addAll);
        return String.join(",", parts);
    }
}
