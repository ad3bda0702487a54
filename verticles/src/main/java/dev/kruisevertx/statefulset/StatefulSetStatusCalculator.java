package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetCondition;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetStatus;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimStatus;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The status of an Advanced StatefulSet from its pods, counted as upstream: {@code replicas} every pod of the
 * set, {@code ready}/{@code available} running pods, current/updated only pods not terminating. The update is
 * complete, and {@code currentRevision} moves to {@code updateRevision}, once every desired pod is updated and ready.
 */
final class StatefulSetStatusCalculator {
    private StatefulSetStatusCalculator() {
    }

    /** The status after a decision: its pods counted against its revisions, as of the decision's time. */
    static StatefulSetStatus calculate(StatefulSetPlanner.Input in, int collisionCount,
                                       List<StatefulSetCondition> conditions, List<VolumeClaimStatus> volumeClaims) {
        StatefulSetOrdinalPlanner.State s = in.state();
        return calculate(in.set(), in.snapshot().owned(), s.revisionOf(), s.currentRevision(), s.updateRevision(),
                s.desired().size(), s.minReadySeconds(), s.now(), collisionCount, conditions, volumeClaims);
    }

    static StatefulSetStatus calculate(StatefulSet set, Collection<Pod> pods, Function<Pod, String> revisionOf,
                                       String currentRevision, String updateRevision, int desiredReplicas,
                                       int minReadySeconds, Instant now, int collisionCount,
                                       List<StatefulSetCondition> conditions, List<VolumeClaimStatus> volumeClaims) {
        StatefulSetStatus s = new StatefulSetStatus();
        s.setObservedGeneration(set.getMetadata().getGeneration() == null ? 0 : set.getMetadata().getGeneration());
        for (Pod p : pods) {
            s.setReplicas(s.getReplicas() + 1);
            boolean ready = Pods.isRunningAndReady(p);
            boolean available = ready && Pods.isAvailable(p, minReadySeconds, now);
            if (ready) {
                s.setReadyReplicas(s.getReadyReplicas() + 1);
            }
            if (available) {
                s.setAvailableReplicas(s.getAvailableReplicas() + 1);
            }
            if (Pods.isTerminating(p)) {
                continue;
            }
            String revision = revisionOf.apply(p);
            if (currentRevision.equals(revision)) {
                s.setCurrentReplicas(s.getCurrentReplicas() + 1);
            }
            if (updateRevision.equals(revision)) {
                s.setUpdatedReplicas(s.getUpdatedReplicas() + 1);
                if (ready) {
                    s.setUpdatedReadyReplicas(s.getUpdatedReadyReplicas() + 1);
                }
                if (available) {
                    s.setUpdatedAvailableReplicas(s.getUpdatedAvailableReplicas() + 1);
                }
            }
        }
        s.setCurrentRevision(currentRevision);
        s.setUpdateRevision(updateRevision);
        if (!currentRevision.equals(updateRevision) && s.getUpdatedReplicas() == desiredReplicas
                && s.getReplicas() == desiredReplicas && s.getUpdatedReadyReplicas() == desiredReplicas) {
            s.setCurrentRevision(updateRevision);
            s.setCurrentReplicas(s.getUpdatedReplicas());
        }
        s.setCollisionCount(collisionCount);
        s.setConditions(conditions);
        s.setVolumeClaims(volumeClaims);
        s.setLabelSelector(selectorString(set.getSpec().getSelector()));
        return s;
    }

    /** The selector as {@code kubectl} prints it: matchLabels sorted by key, then the expressions. */
    static String selectorString(LabelSelector selector) {
        if (selector == null) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        Map<String, String> labels = selector.getMatchLabels() == null ? Map.of()
                : new TreeMap<>(selector.getMatchLabels());
        labels.forEach((k, v) -> (b.isEmpty() ? b : b.append(',')).append(k).append('=').append(v));
        if (selector.getMatchExpressions() != null) {
            for (var e : selector.getMatchExpressions()) {
                if (!b.isEmpty()) {
                    b.append(',');
                }
                String values = e.getValues() == null ? "" : String.join(",", e.getValues().stream().sorted().toList());
                switch (e.getOperator()) {
                    case "In" -> b.append(e.getKey()).append(" in (").append(values).append(')');
                    case "NotIn" -> b.append(e.getKey()).append(" notin (").append(values).append(')');
                    case "Exists" -> b.append(e.getKey());
                    case "DoesNotExist" -> b.append('!').append(e.getKey());
                    default -> b.append(e.getKey());
                }
            }
        }
        return b.toString();
    }
}
