package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategyType;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.api.common.UpdateScatterTerm;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.updatesort.UpdateOrder;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
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
    public record Plan(List<Pod> upgrade, List<Pod> notUpgradable, int waiting, String reason) {
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
        if (strategy.typeValue().orElse(SidecarSetUpdateStrategyType.ROLLING_UPDATE)
                == SidecarSetUpdateStrategyType.NOT_UPDATE) {
            return new Plan(List.of(), List.of(), 0, "updateStrategy is NotUpdate");
        }
        if (Boolean.TRUE.equals(strategy.getPaused())) {
            return new Plan(List.of(), List.of(), 0, "updateStrategy is paused");
        }
        String hash = annotation(set, SidecarSetHash.HASH_ANNOTATION);
        String withoutImage = annotation(set, SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION);
        Set<String> sidecars = sidecarNames(set);
        List<Integer> waiting = new ArrayList<>();
        List<Pod> notUpgradable = new ArrayList<>();
        for (int i = 0; i < pods.size(); i++) {
            Pod pod = pods.get(i);
            if (updated(set, hash, pod) || (strategy.getSelector() != null
                    && !LabelSelectors.matches(strategy.getSelector(), pod.getMetadata().getLabels()))) {
                continue;
            }
            if (!withoutImage.equals(podHash(pod, SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION, set.getMetadata().getName()))) {
                notUpgradable.add(pod);
            } else if (!upgradeInProgress(pod, sidecars)) {
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
                    + order.size() + " remaining pod(s) on the old sidecars");
        }
        order = order.subList(0, order.size() - partition);
        int maxUnavailable = strategy.getMaxUnavailable() == null ? 1
                : IntOrPercent.scaledValue(strategy.getMaxUnavailable(), total, true);
        int unavailable = 0;
        for (Pod pod : pods) {
            if (updated(set, hash, pod) && (!ready(pod, set) || upgradeInProgress(pod, sidecars))) {
                unavailable++;
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
            upgrade.add(pods.get(i));
        }
        String reason = upgrade.size() < order.size() ? "maxUnavailable " + maxUnavailable + " reached ("
                + unavailable + " unavailable)" : "every pod beyond the partition";
        return new Plan(upgrade, notUpgradable, waiting.size(), reason);
    }

    /** Not ready < ready, unscheduled < scheduled, pending < running: the pods that lose least go first. */
    private static int rank(Pod pod) {
        int r = Pods.isReady(pod) ? 4 : 0;
        r += Pods.isAssigned(pod) ? 2 : 0;
        r += pod.getStatus() != null && "Running".equals(pod.getStatus().getPhase()) ? 1 : 0;
        return r;
    }

    /** Running and ready, and every hot-upgrade idle container already on the empty image. */
    static boolean ready(Pod pod, SidecarSet set) {
        return Pods.isRunningAndReady(pod);
    }

    static boolean updated(SidecarSet set, String hash, Pod pod) {
        return hash.equals(podHash(pod, SidecarSetHash.HASH_ANNOTATION, set.getMetadata().getName()));
    }

    /** A sidecar whose status is ready but still runs another image than its spec: the last upgrade is under way. */
    static boolean upgradeInProgress(Pod pod, Set<String> sidecars) {
        Map<String, ContainerStatus> status = new HashMap<>();
        if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
            pod.getStatus().getContainerStatuses().forEach(s -> status.put(s.getName(), s));
        }
        for (Container c : pod.getSpec().getContainers()) {
            ContainerStatus s = status.get(c.getName());
            if (sidecars.contains(c.getName()) && s != null && Boolean.TRUE.equals(s.getReady())
                    && s.getImage() != null && !s.getImage().equals(c.getImage())) {
                return true;
            }
        }
        return false;
    }

    private static Set<String> sidecarNames(SidecarSet set) {
        Set<String> names = new LinkedHashSet<>();
        for (SidecarContainer c : set.getSpec().getContainers() == null ? List.<SidecarContainer>of()
                : set.getSpec().getContainers()) {
            names.add(c.getName());
        }
        return names;
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
