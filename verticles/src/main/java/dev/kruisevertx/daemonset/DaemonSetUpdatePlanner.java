package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.daemonset.DaemonSetPlan.DeleteReason;
import dev.kruisevertx.daemonset.DaemonSetPlan.Deletion;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.scheduling.NodeMatching;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.List;

/**
 * One step of a RollingUpdate (upstream's rollingUpdate): which nodes may update (partition, node selector), then
 * within maxUnavailable (old pods deleted, or with InPlaceIfPossible updated in place) or within maxSurge (a new pod
 * next to the old one; the manage step removes the old one once the new one is available). Pure.
 */
final class DaemonSetUpdatePlanner {
    private DaemonSetUpdatePlanner() {
    }

    record Limits(int maxSurge, int maxUnavailable, int partition) {
    }

    /**
     * @param waiting      old, available pods on nodes the update may touch that this step leaves for later (the
     *                     maxUnavailable or maxSurge budget is used up)
     * @param holding      names of the pods using the budget: new ones not available yet, and the old ones this step
     *                     takes down
     * @param budgetUsed   how much of maxUnavailable (or maxSurge) is used once this step is applied
     */
    record Result(List<String> createOnNodes, List<Deletion> deletions, List<Pod> replace, Limits limits,
                  int updatable, int unavailable, int waiting, List<String> holding, int budgetUsed) {
    }

    /** maxSurge and maxUnavailable of the desired nodes (both rounded up; 1 unavailable when both are 0). */
    static Limits limits(DaemonSet set, int desired) {
        RollingUpdateDaemonSet ru = set.getSpec().getUpdateStrategy().getRollingUpdate();
        int maxUnavailable = scaled(ru == null ? null : ru.getMaxUnavailable(), desired, true);
        int maxSurge = scaled(ru == null ? null : ru.getMaxSurge(), desired, true);
        if (desired > 0 && maxUnavailable == 0 && maxSurge == 0) {
            maxUnavailable = 1;
        }
        int lastDesired = set.getStatus() == null ? 0 : set.getStatus().getDesiredNumberScheduled();
        int partition = scaled(ru == null ? null : ru.getPartition(), lastDesired, false);
        return new Limits(Math.max(maxSurge, 0), Math.max(maxUnavailable, 0), Math.max(partition, 0));
    }

    private static int scaled(io.fabric8.kubernetes.api.model.IntOrString v, int total, boolean roundUp) {
        try {
            return IntOrPercent.scaledValue(v, total, roundUp);
        } catch (IllegalArgumentException e) {
            // The webhook refuses malformed values; one that got in anyway counts as unset.
            return 0;
        }
    }

    static Result plan(DaemonSet set, DaemonNodes nodes, String updateRevision, boolean pruneIneligible) {
        Limits limits = limits(set, nodes.desired());
        List<String> candidates = nodesToUpdate(set, nodes, updateRevision, limits.partition(), pruneIneligible);
        List<Deletion> deletions = new ArrayList<>();
        List<String> create = new ArrayList<>();
        if (limits.maxSurge() == 0) {
            int unavailable = 0;
            int oldAvailable = 0;
            List<String> holding = new ArrayList<>();
            List<Pod> allowed = new ArrayList<>();
            List<Pod> candidatePods = new ArrayList<>();
            for (String node : candidates) {
                DaemonNodes.NewAndOld no = DaemonNodes.newAndOld(nodes.podsOn(node), updateRevision);
                if (no == null) {
                    unavailable++;
                    continue;
                }
                boolean oldGone = DaemonNodes.nilOrPreDeleting(no.oldPod());
                boolean newGone = DaemonNodes.nilOrPreDeleting(no.newPod());
                if (oldGone == newGone) {
                    // no pod at all, or an old and a new one side by side: either way the node is not served yet
                    unavailable++;
                    Pod named = no.newPod() != null ? no.newPod() : no.oldPod();
                    if (named != null) {
                        holding.add(named.getMetadata().getName());
                    }
                } else if (no.newPod() != null) {
                    if (!nodes.available(no.newPod())) {
                        unavailable++;
                        holding.add(no.newPod().getMetadata().getName());
                    }
                    if (Pods.isPreparingDelete(no.newPod())) {
                        unavailable++;
                    }
                } else if (!nodes.available(no.oldPod())) {
                    allowed.add(no.oldPod());
                } else {
                    oldAvailable++;
                    if (unavailable < limits.maxUnavailable()) {
                        candidatePods.add(no.oldPod());
                    }
                }
            }
            int remaining = Math.min(Math.max(limits.maxUnavailable() - unavailable, 0), candidatePods.size());
            List<Pod> replace = new ArrayList<>(allowed);
            replace.addAll(candidatePods.subList(0, remaining));
            candidatePods.subList(0, remaining).forEach(p -> holding.add(p.getMetadata().getName()));
            holding.sort(null);
            return new Result(create, deletions, replace, limits, candidates.size(), unavailable,
                    oldAvailable - remaining, holding, unavailable + remaining);
        }
        int surging = 0;
        int oldAvailable = 0;
        List<String> holding = new ArrayList<>();
        List<String> allowedNodes = new ArrayList<>();
        List<String> candidateNodes = new ArrayList<>();
        for (String node : candidates) {
            DaemonNodes.NewAndOld no = DaemonNodes.newAndOld(nodes.podsOn(node), updateRevision);
            if (no == null) {
                surging++;
                continue;
            }
            if (DaemonNodes.nilOrPreDeleting(no.oldPod())) {
                continue;
            }
            if (no.newPod() == null) {
                if (!nodes.available(no.oldPod())) {
                    allowedNodes.add(node);
                } else {
                    oldAvailable++;
                    if (surging < limits.maxSurge()) {
                        candidateNodes.add(node);
                    }
                }
                continue;
            }
            if (!nodes.available(no.newPod()) || Pods.isPreparingDelete(no.newPod())) {
                surging++;
                holding.add(no.newPod().getMetadata().getName());
                continue;
            }
            deletions.add(new Deletion(no.oldPod(), node, DeleteReason.SURGE_REPLACED));
        }
        int remaining = Math.min(Math.max(limits.maxSurge() - surging, 0), candidateNodes.size());
        create.addAll(allowedNodes);
        create.addAll(candidateNodes.subList(0, remaining));
        holding.sort(null);
        return new Result(create, deletions, List.of(), limits, candidates.size(), surging, oldAvailable - remaining,
                holding, surging + remaining);
    }

    /**
     * The nodes the update may touch, in upstream's order (filterDaemonPodsNodeToUpdate): nodes already at the
     * update revision, then nodes being updated, then nodes with an old pod (only those matching the update's node
     * selector when there is one), each group by name from last to first; cut to all - partition. Nodes that should
     * not run the pod but still have one count too, unless gate DaemonSetPruneIneligibleNodes leaves them out.
     */
    static List<String> nodesToUpdate(DaemonSet set, DaemonNodes nodes, String updateRevision, int partition,
                                      boolean pruneIneligible) {
        List<String> all = new ArrayList<>();
        for (String node : nodes.nodes.keySet()) {
            if (nodes.shouldRun(node) || (!pruneIneligible && nodes.podsByNode.containsKey(node))) {
                all.add(node);
            }
        }
        RollingUpdateDaemonSet ru = set.getSpec().getUpdateStrategy().getRollingUpdate();
        LabelSelector selector = ru == null ? null : ru.getSelector();
        List<String> updated = new ArrayList<>();
        List<String> updating = new ArrayList<>();
        List<String> selected = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        for (int i = all.size() - 1; i >= 0; i--) {
            String name = all.get(i);
            DaemonNodes.NewAndOld no = DaemonNodes.newAndOld(nodes.podsOn(name), updateRevision);
            if (no == null || no.newPod() != null) {
                updated.add(name);
            } else if (DaemonNodes.nilOrPreDeleting(no.oldPod())) {
                updating.add(name);
            } else if (selector != null && selects(selector, nodes.nodes.get(name))) {
                selected.add(name);
            } else {
                rest.add(name);
            }
        }
        List<String> sorted = new ArrayList<>(updated);
        sorted.addAll(updating);
        sorted.addAll(selector != null ? selected : rest);
        int maxUpdate = all.size() - partition;
        if (maxUpdate <= 0) {
            return List.of();
        }
        return maxUpdate < sorted.size() ? new ArrayList<>(sorted.subList(0, maxUpdate)) : sorted;
    }

    private static boolean selects(LabelSelector selector, Node node) {
        try {
            boolean empty = (selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
                    && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty());
            return !empty && LabelSelectors.matches(selector, NodeMatching.labels(node));
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
