package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategyType;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.api.common.UpdateScatterTerm;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.updatesort.UpdateOrder;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which matched pods get the SidecarSet's new sidecar images in place next (OpenKruise v1.9's spreading strategy),
 * as a pure function: pods not yet on the SidecarSet's hash, selected by {@code updateStrategy.selector}, whose
 * other sidecar fields allow an in-place change (equal hash-without-image) and whose last sidecar upgrade is
 * complete; ordered not-ready first, then unscheduled, pending, by priority and scatter; {@code partition} pods are
 * kept back, and {@code maxUnavailable} (default 1) bounds the updated-but-unready pods plus the ready pods taken
 * now (an unready pod never counts against it). Nothing while paused or with type NotUpdate.
 */
public final class SidecarUpgradeSelection {
    /** The decision with its reason; pod names only. */
    public record Plan(List<Pod> upgrade, List<Pod> notUpgradable, int waiting, String reason,
                       List<BlockReason> reasons) {
        public Plan(List<Pod> upgrade, List<Pod> notUpgradable, int waiting, String reason) {
            this(upgrade, notUpgradable, waiting, reason, List.of());
        }

        public String debugSummary() {
            return "upgrade=" + upgrade.size() + " " + upgrade.stream().map(p -> p.getMetadata().getName()).toList()
                    + ", notUpgradable=" + notUpgradable.size() + ", waiting=" + waiting + ": " + reason;
        }
    }

    private SidecarUpgradeSelection() {
    }

    public static Plan next(SidecarSet set, List<Pod> pods) {
        SidecarSetUpdateStrategy strategy = set.getSpec().getUpdateStrategy() == null ? new SidecarSetUpdateStrategy()
                : set.getSpec().getUpdateStrategy();
        String hash = annotation(set, SidecarSetHash.HASH_ANNOTATION);
        if (strategy.typeValue().orElse(SidecarSetUpdateStrategyType.ROLLING_UPDATE)
                == SidecarSetUpdateStrategyType.NOT_UPDATE) {
            long old = pods.stream().filter(p -> !updated(set, hash, p)).count();
            return new Plan(List.of(), List.of(), 0, "updateStrategy is NotUpdate",
                    old == 0 ? List.of() : List.of(Reasons.notUpdate("updateStrategy.type", old)));
        }
        if (Boolean.TRUE.equals(strategy.getPaused())) {
            long old = pods.stream().filter(p -> !updated(set, hash, p)).count();
            return new Plan(List.of(), List.of(), 0, "updateStrategy is paused",
                    old == 0 ? List.of() : List.of(Reasons.paused("updateStrategy.paused", old)));
        }
        List<Integer> waiting = new ArrayList<>();
        List<Pod> notUpgradable = new ArrayList<>();
        for (int i = 0; i < pods.size(); i++) {
            Pod pod = pods.get(i);
            if (updated(set, hash, pod) || (strategy.getSelector() != null
                    && !LabelSelectors.matches(strategy.getSelector(), pod.getMetadata().getLabels()))) {
                continue;
            }
            SidecarPodState.Upgradable upgradable = SidecarPodState.upgradable(pod, set);
            if (!upgradable.canUpgrade()) {
                notUpgradable.add(pod);
            } else if (upgradable.consistent()) {
                waiting.add(i);
            }
        }
        waiting.sort(Comparator.comparingInt((Integer i) -> rank(pods.get(i))));
        List<UpdateScatterTerm> scatter = expandScatter(strategy.getScatterStrategy(), pods);
        List<Integer> order = UpdateOrder.sort(pods, waiting, strategy.getPriorityStrategy(), scatter);
        int total = pods.size();
        int partition = Math.min(total, Math.max(0, IntOrPercent.scaledValue(strategy.getPartition(), total, true)));
        if (order.size() - partition <= 0) {
            return new Plan(List.of(), notUpgradable, waiting.size(), "partition " + partition + " keeps the "
                    + order.size() + " remaining pod(s) on the old sidecars", order.isEmpty() ? List.of()
                    : List.of(Reasons.partition("updateStrategy.partition", partition, order.size())));
        }
        List<BlockReason> reasons = new ArrayList<>();
        if (partition > 0) {
            reasons.add(Reasons.partition("updateStrategy.partition", partition, partition));
        }
        order = order.subList(0, order.size() - partition);
        int maxUnavailable = strategy.getMaxUnavailable() == null ? 1
                : IntOrPercent.scaledValue(strategy.getMaxUnavailable(), total, true);
        int unavailable = 0;
        List<String> unavailableNames = new ArrayList<>();
        for (Pod pod : pods) {
            if (updated(set, hash, pod) && (!SidecarPodState.consistent(pod, set, null) || !ready(pod, set))) {
                unavailable++;
                unavailableNames.add(pod.getMetadata().getName());
            }
        }
        List<Pod> upgrade = new ArrayList<>();
        for (int i : order) {
            if (!ready(pods.get(i), set)) {
                upgrade.add(pods.get(i));
                continue;
            }
            if (unavailable >= maxUnavailable) {
                break;
            }
            unavailable++;
            unavailableNames.add(pods.get(i).getMetadata().getName());
            upgrade.add(pods.get(i));
        }
        String reason = upgrade.size() < order.size() ? "maxUnavailable " + maxUnavailable + " reached ("
                + unavailable + " unavailable)" : "every pod beyond the partition";
        if (upgrade.size() < order.size()) {
            reasons.add(Reasons.maxUnavailable("updateStrategy.maxUnavailable", maxUnavailable,
                    unavailableNames.subList(0, Math.min(unavailableNames.size(), BlockReason.MAX_OBJECTS)),
                    unavailable, order.size() - upgrade.size(), "upgraded"));
        }
        return new Plan(upgrade, notUpgradable, waiting.size(), reason, List.copyOf(reasons));
    }

    /**
     * Kubernetes' active-pod order: unscheduled < scheduled, then Pending < Unknown < Running, then not ready < ready:
     * the pods that lose least go first.
     */
    private static int rank(Pod pod) {
        int r = Pods.isAssigned(pod) ? 100 : 0;
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        r += "Running".equals(phase) ? 20 : "Unknown".equals(phase) ? 10 : 0;
        r += Pods.isReady(pod) ? 1 : 0;
        return r;
    }

    /** Running and ready, and every hot-upgrade idle container already on the empty image. */
    static boolean ready(Pod pod, SidecarSet set) {
        return SidecarPodState.ready(pod, set);
    }

    static boolean updated(SidecarSet set, String hash, Pod pod) {
        return hash.equals(podHash(pod, SidecarSetHash.HASH_ANNOTATION, set.getMetadata().getName()));
    }

    /** A scatter term with value {@code *} stands for every value of its key among the pods. */
    static List<UpdateScatterTerm> expandScatter(List<UpdateScatterTerm> terms, List<Pod> pods) {
        if (terms == null) {
            return null;
        }
        List<UpdateScatterTerm> out = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (UpdateScatterTerm t : terms) {
            if (!"*".equals(t.getValue())) {
                if (seen.add(t.getKey() + "=" + t.getValue())) {
                    out.add(t);
                }
                continue;
            }
            for (Pod p : pods) {
                Map<String, String> labels = p.getMetadata().getLabels();
                if (labels != null && labels.containsKey(t.getKey()) && seen.add(t.getKey() + "=" + labels.get(t.getKey()))) {
                    UpdateScatterTerm term = new UpdateScatterTerm();
                    term.setKey(t.getKey());
                    term.setValue(labels.get(t.getKey()));
                    out.add(term);
                }
            }
        }
        return out;
    }

    /** The hash a pod's annotation records for a SidecarSet (the JSON map written at injection, or the older form). */
    static String podHash(Pod pod, String annotation, String sidecarSet) {
        Map<String, String> a = pod.getMetadata().getAnnotations();
        String json = a == null ? null : a.get(annotation);
        if (json == null || json.isEmpty()) {
            return "";
        }
        try {
            JsonNode entry = ApiJson.serialization().unmarshal(json, JsonNode.class).path(sidecarSet);
            return entry.isTextual() ? entry.asText() : entry.path("hash").asText("");
        } catch (RuntimeException e) {
            return "";
        }
    }

    private static String annotation(SidecarSet set, String key) {
        Map<String, String> a = set.getMetadata().getAnnotations();
        return a == null || a.get(key) == null ? "" : a.get(key);
    }
}
