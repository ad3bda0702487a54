package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * What one DaemonSet decision reads, from the shared cache (never copied, never modified).
 *
 * @param set              the DaemonSet (v1beta1)
 * @param nodes            every node of the cluster
 * @param pods             the pods the set controls, terminating ones included
 * @param updateRevision   the hash of the current template (the {@code controller-revision-hash} of new pods)
 * @param canUpdateInPlace whether an old pod can reach the update revision in place (its revision's template differs
 *                         only in what in-place update changes); asked only for InPlaceIfPossible
 * @param now              the decision's clock
 * @param failedPodBackoff how long a failed pod on a node must still wait before it is replaced (zero: now)
 * @param pruneIneligibleNodes gate DaemonSetPruneIneligibleNodes: nodes that should not run the pod are left out of
 *                         the rolling update (and its maxUnavailable count) instead of counting there
 */
public record DaemonSetSnapshot(DaemonSet set, List<Node> nodes, List<Pod> pods, String updateRevision,
                                Predicate<Pod> canUpdateInPlace, Instant now,
                                Function<String, Duration> failedPodBackoff, boolean pruneIneligibleNodes) {

    /** A snapshot in which failed pods are never held back, with the gate off. */
    public DaemonSetSnapshot(DaemonSet set, List<Node> nodes, List<Pod> pods, String updateRevision,
                             Predicate<Pod> canUpdateInPlace, Instant now) {
        this(set, nodes, pods, updateRevision, canUpdateInPlace, now, node -> Duration.ZERO, false);
    }
}
