package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.daemonset.DaemonSetPlan.DeleteReason;
import dev.kruisevertx.daemonset.DaemonSetPlan.Deletion;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.scheduling.DaemonPlacement;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The manage step (upstream's manage and podsShouldBeOnNode): every node that should run the daemon pod gets one,
 * failed pods and pods the preDelete hook released go, a node runs one pod (two only during a surge, while the new
 * one is not yet available), and nodes that no longer fit lose their pods. Pure.
 */
final class DaemonSetManagePlanner {
    private DaemonSetManagePlanner() {
    }

    record Result(List<String> createOnNodes, List<Deletion> deletions, Duration requeueAfter, int newPodNodes) {
    }

    static Result plan(DaemonSet set, DaemonNodes nodes, String updateRevision, boolean surge, Instant now,
                       java.util.function.Function<String, Duration> failedPodBackoff) {
        List<String> create = new ArrayList<>();
        List<Deletion> delete = new ArrayList<>();
        Duration requeue = Duration.ZERO;
        int minReady = set.getSpec().getMinReadySeconds();
        int newPodNodes = 0;
        for (String node : nodes.nodes.keySet()) {
            DaemonPlacement.Fit fit = nodes.fit.get(node);
            List<Pod> pods = nodes.podsOn(node);
            boolean exists = nodes.podsByNode.containsKey(node);
            DaemonNodes.NewAndOld no = DaemonNodes.newAndOld(pods, updateRevision);
            if (no != null && no.newPod() != null) {
                newPodNodes++;
            }
            if (fit.shouldRun() && !exists) {
                create.add(node);
            } else if (fit.shouldContinueRunning()) {
                List<Pod> running = new ArrayList<>();
                for (Pod p : pods) {
                    if (Pods.isTerminating(p)) {
                        continue;
                    }
                    if (Pods.PHASE_FAILED.equals(Pods.phase(p))) {
                        Duration wait = failedPodBackoff.apply(node);
                        if (wait.isZero()) {
                            delete.add(new Deletion(p, node, DeleteReason.FAILED));
                        } else if (requeue.isZero() || wait.compareTo(requeue) < 0) {
                            // kube's hot-loop guard: the kubelet may keep failing it; look again when the wait ends
                            requeue = wait;
                        }
                    } else if (Pods.isPreparingDelete(p)) {
                        delete.add(new Deletion(p, node, DeleteReason.PREPARING_DELETE));
                    } else {
                        running.add(p);
                    }
                }
                if (!surge) {
                    for (int i = 1; i < running.size(); i++) {
                        delete.add(new Deletion(running.get(i), node, DeleteReason.EXCESS));
                    }
                    continue;
                }
                if (running.isEmpty()) {
                    if (fit.shouldRun()) {
                        create.add(node);
                    }
                    continue;
                }
                if (running.size() == 1) {
                    continue;
                }
                // Surge: at most the oldest new and the oldest old pod stay, and the old one only while it is ready
                // and the new one is not yet available.
                Pod oldestNew = null;
                Pod oldestOld = null;
                for (Pod p : running) {
                    boolean isNew = Pods.atRevision(p, updateRevision);
                    if (isNew && oldestNew == null) {
                        oldestNew = p;
                    } else if (!isNew && oldestOld == null) {
                        oldestOld = p;
                    } else {
                        delete.add(new Deletion(p, node, DeleteReason.EXCESS));
                    }
                }
                if (oldestNew != null && oldestOld != null) {
                    if (!Pods.isReady(oldestOld) || nodes.available(oldestNew)) {
                        delete.add(new Deletion(oldestOld, node, DeleteReason.SURGE_REPLACED));
                    } else if (Pods.isReady(oldestNew) && minReady > 0) {
                        Duration wait = Pods.availableIn(oldestNew, minReady, now).orElse(Duration.ZERO);
                        if (!wait.isZero() && (requeue.isZero() || wait.compareTo(requeue) < 0)) {
                            requeue = wait;
                        }
                    }
                }
            } else if (exists) {
                for (Pod p : pods) {
                    if (!Pods.isTerminating(p)) {
                        delete.add(new Deletion(p, node, DeleteReason.NODE_NOT_ELIGIBLE));
                    }
                }
            }
        }
        // Pods for nodes that do not exist and were never scheduled: nothing else will remove them.
        for (Map.Entry<String, List<Pod>> e : new java.util.TreeMap<>(nodes.podsByNode).entrySet()) {
            if (!nodes.nodes.containsKey(e.getKey())) {
                for (Pod p : e.getValue()) {
                    if (!Pods.isAssigned(p) && !Pods.isTerminating(p)) {
                        delete.add(new Deletion(p, e.getKey(), DeleteReason.NODE_GONE));
                    }
                }
            }
        }
        List<String> allowed = progressiveCreate(set, create, newPodNodes, nodes.desired());
        return new Result(allowed, delete, requeue, newPodNodes);
    }

    /**
     * With a partition, progressive create (scaleStrategy.partitionedScaling) only creates pods until the nodes with
     * a new pod reach desired - partition (upstream's GetNodesNeedingPods); without it every node gets its pod.
     * The partition is scaled on the last status' desiredNumberScheduled, as upstream.
     */
    static List<String> progressiveCreate(DaemonSet set, List<String> nodesNeeding, int newPodNodes, int desired) {
        var strategy = set.getSpec().getUpdateStrategy();
        RollingUpdateDaemonSet ru = strategy == null ? null : strategy.getRollingUpdate();
        boolean progressive = set.getSpec().getScaleStrategy() != null && set.getSpec().getScaleStrategy().isPartitionedScaling();
        if (!progressive || ru == null || ru.getPartition() == null
                || strategy.typeValue().orElse(null) != DaemonSetUpdateStrategyType.ROLLING_UPDATE) {
            return nodesNeeding;
        }
        int lastDesired = set.getStatus() == null ? 0 : set.getStatus().getDesiredNumberScheduled();
        int partition;
        try {
            partition = IntOrPercent.scaledValue(ru.getPartition(), lastDesired, false);
        } catch (IllegalArgumentException e) {
            return nodesNeeding;
        }
        if (partition == 0) {
            return nodesNeeding;
        }
        partition = Math.max(Math.min(partition, desired), 0);
        int maxCreate = Math.min(Math.max(desired - newPodNodes - partition, 0), nodesNeeding.size());
        return new ArrayList<>(nodesNeeding.subList(0, maxCreate));
    }
}
