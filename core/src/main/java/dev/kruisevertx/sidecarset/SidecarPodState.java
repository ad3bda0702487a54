package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainerUpgradeType;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a SidecarSet's controller asks about one pod, as pure functions (OpenKruise v1.9's sidecarcontrol): which of
 * the pod's containers are the SidecarSet's sidecars (a hot-upgrade sidecar is its {@code -1}/{@code -2} pair), which
 * container of a pair works and which is idle, whether the sidecars run what their spec says (consistent), whether
 * the pod is ready for the SidecarSet (running and ready, every idle hot-upgrade container on the empty image), and
 * whether it may be upgraded in place at all (equal hash-without-image).
 */
public final class SidecarPodState {
    public static final String INPLACE_UPDATE_STATE_ANNOTATION = "kruise.io/sidecarset-inplace-update-state";
    public static final String UPGRADABLE_CONDITION = "SidecarSetUpgradable";

    private SidecarPodState() {
    }

    public static boolean isHotUpgrade(SidecarContainer c) {
        return c.getUpgradeStrategy() != null && c.getUpgradeStrategy().upgradeTypeValue().orElse(null)
                == SidecarContainerUpgradeType.HOT_UPGRADE;
    }

    public static List<SidecarContainer> containers(SidecarSet set) {
        return set.getSpec() == null || set.getSpec().getContainers() == null ? List.of() : set.getSpec().getContainers();
    }

    /** The names the SidecarSet's sidecars have in a pod: {@code name}, or {@code name-1} and {@code name-2}. */
    public static Set<String> sidecarNamesInPod(SidecarSet set) {
        Set<String> names = new TreeSet<>();
        for (SidecarContainer c : containers(set)) {
            if (isHotUpgrade(c)) {
                names.add(c.getName() + "-1");
                names.add(c.getName() + "-2");
            } else {
                names.add(c.getName());
            }
        }
        return names;
    }

    /** The JSON map {@code sidecar -> working container} of the working-hot-upgrade annotation (empty when unreadable). */
    public static Map<String, String> workingContainers(Pod pod) {
        Map<String, String> out = new LinkedHashMap<>();
        String json = Pods.annotations(pod).get(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION);
        if (json == null || json.isEmpty()) {
            return out;
        }
        try {
            ApiJson.serialization().unmarshal(json, JsonNode.class).fields()
                    .forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        } catch (RuntimeException e) {
            // Unreadable: as OpenKruise, no container is known to work, so -2 counts as working.
        }
        return out;
    }

    /** {@code [working, other]} of a hot-upgrade sidecar: the annotation names the working one, else {@code -2}. */
    public static String[] hotUpgradePair(String sidecar, Pod pod) {
        String one = sidecar + "-1";
        String two = sidecar + "-2";
        return one.equals(workingContainers(pod).get(sidecar)) ? new String[]{one, two} : new String[]{two, one};
    }

    /** Whether the pod was injected by this SidecarSet (its name is in the injected-list annotation). */
    public static boolean injected(Pod pod, String setName) {
        String list = Pods.annotations(pod).get(SidecarInjection.INJECTED_LIST_ANNOTATION);
        if (list == null || list.isEmpty()) {
            return false;
        }
        for (String n : list.split(",")) {
            if (n.equals(setName)) {
                return true;
            }
        }
        return false;
    }

    /** Every sidecar of the SidecarSet is in the pod (a hot-upgrade one as its pair with the working annotation). */
    public static boolean hasSidecars(Pod pod, SidecarSet set) {
        Map<String, Container> byName = containersByName(pod);
        Map<String, String> working = null;
        for (SidecarContainer c : containers(set)) {
            if (isHotUpgrade(c)) {
                working = working == null ? workingContainers(pod) : working;
                if (!working.containsKey(c.getName()) || !byName.containsKey(c.getName() + "-1")
                        || !byName.containsKey(c.getName() + "-2")) {
                    return false;
                }
            } else if (!byName.containsKey(c.getName())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the named sidecars (null: all of the SidecarSet's) run what the pod's spec says: a status for every
     * container, and for each sidecar the image of the spec (a digest compared with the imageID, a tag with the status
     * image, normalised as the kubelet reports it) and, when the last in-place upgrade recorded the imageID before
     * it, a new imageID since (OpenKruise's {@code IsPodStateConsistent}).
     */
    public static boolean consistent(Pod pod, SidecarSet set, Set<String> names) {
        List<Container> specs = pod.getSpec().getContainers() == null ? List.of() : pod.getSpec().getContainers();
        List<ContainerStatus> statuses = pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null
                ? List.of() : pod.getStatus().getContainerStatuses();
        if (specs.size() != statuses.size()) {
            return false;
        }
        Set<String> sidecars = names == null || names.isEmpty() ? sidecarNamesInPod(set) : names;
        Map<String, ContainerStatus> byName = new HashMap<>();
        statuses.forEach(s -> byName.put(s.getName(), s));
        Map<String, String> lastImageIds = null;
        for (Container c : specs) {
            if (!sidecars.contains(c.getName())) {
                continue;
            }
            ContainerStatus s = byName.get(c.getName());
            if (s == null) {
                return false;
            }
            if (!sameImage(c.getImage(), s)) {
                return false;
            }
            lastImageIds = lastImageIds == null ? lastImageIds(pod, set.getMetadata().getName()) : lastImageIds;
            String before = lastImageIds.get(c.getName());
            if (before != null && before.equals(s.getImageID()) && !c.getImage().equals(s.getImage())) {
                return false;
            }
        }
        return true;
    }

    /** The image a container status reports is the spec's image. */
    static boolean sameImage(String spec, ContainerStatus status) {
        if (spec == null) {
            return true;
        }
        int at = spec.indexOf("@sha256:");
        if (at >= 0) {
            return status.getImageID() != null && status.getImageID().endsWith(spec.substring(at + 1));
        }
        if (status.getImage() == null || status.getImage().isEmpty()) {
            return false;
        }
        return normalise(spec).equals(normalise(status.getImage()));
    }

    /** {@code nginx:1} and {@code docker.io/library/nginx:1} name the same image; no tag means latest. */
    static String normalise(String image) {
        String s = image;
        int slash = s.indexOf('/');
        String first = slash < 0 ? "" : s.substring(0, slash);
        if (slash < 0 || !(first.contains(".") || first.contains(":") || first.equals("localhost"))) {
            s = "docker.io/" + (slash < 0 ? "library/" : "") + s;
        }
        int lastSlash = s.lastIndexOf('/');
        if (s.indexOf(':', lastSlash) < 0) {
            s = s + ":latest";
        }
        return s;
    }

    /** {@code container -> imageID} recorded before the last in-place upgrade of this SidecarSet. */
    static Map<String, String> lastImageIds(Pod pod, String setName) {
        Map<String, String> out = new HashMap<>();
        String json = Pods.annotations(pod).get(INPLACE_UPDATE_STATE_ANNOTATION);
        if (json == null || json.isEmpty()) {
            return out;
        }
        try {
            ApiJson.serialization().unmarshal(json, JsonNode.class).path(setName).path("lastContainerStatuses").fields()
                    .forEachRemaining(e -> out.put(e.getKey(), e.getValue().path("imageID").asText("")));
        } catch (RuntimeException e) {
            // OpenKruise treats an unreadable state as "not complete"; here it is left out and the images decide.
        }
        return out;
    }

    /** Running and ready, and every idle hot-upgrade container runs the empty image (OpenKruise's {@code IsPodReady}). */
    public static boolean ready(Pod pod, SidecarSet set) {
        Map<String, String> emptyImages = idleContainers(pod, set);
        if (!emptyImages.isEmpty()) {
            for (Container c : pod.getSpec().getContainers()) {
                String empty = emptyImages.get(c.getName());
                if (empty != null && !empty.isEmpty() && !empty.equals(c.getImage())) {
                    return false;
                }
            }
        }
        return Pods.isRunningAndReady(pod);
    }

    /** {@code idle container -> empty image} of each hot-upgrade sidecar. */
    public static Map<String, String> idleContainers(Pod pod, SidecarSet set) {
        Map<String, String> out = new LinkedHashMap<>();
        for (SidecarContainer c : containers(set)) {
            if (isHotUpgrade(c)) {
                out.put(hotUpgradePair(c.getName(), pod)[1], c.getUpgradeStrategy().getHotUpgradeEmptyImage());
            }
        }
        return out;
    }

    /** A hot-upgrade pair whose idle container does not run the empty image: the swap is not finished. */
    public static boolean inHotUpgrading(Pod pod, SidecarSet set) {
        Map<String, Container> byName = containersByName(pod);
        for (Map.Entry<String, String> e : idleContainers(pod, set).entrySet()) {
            Container idle = byName.get(e.getKey());
            if (idle != null && !java.util.Objects.equals(idle.getImage(), e.getValue())) {
                return true;
            }
        }
        return false;
    }

    /** Running and ready, or every container but the idle hot-upgrade ones ready. */
    public static boolean hotUpgradingReady(Pod pod, SidecarSet set) {
        if (Pods.isRunningAndReady(pod)) {
            return true;
        }
        Set<String> idle = idleContainers(pod, set).keySet();
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) {
            return false;
        }
        for (ContainerStatus s : pod.getStatus().getContainerStatuses()) {
            if (!idle.contains(s.getName()) && !Boolean.TRUE.equals(s.getReady())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the pod may be upgraded in place ({@code canUpgrade}: its hash-without-image is the SidecarSet's) and
     * whether its last upgrade is complete ({@code consistent}: no ready sidecar still runs another image).
     */
    public record Upgradable(boolean canUpgrade, boolean consistent) {
    }

    public static Upgradable upgradable(Pod pod, SidecarSet set) {
        String withoutImage = annotation(set, SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION);
        if (!withoutImage.equals(SidecarUpgradeSelection.podHash(pod, SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION,
                set.getMetadata().getName()))) {
            return new Upgradable(false, false);
        }
        Map<String, Boolean> ready = new HashMap<>();
        if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
            pod.getStatus().getContainerStatuses().forEach(s -> ready.put(s.getName(), Boolean.TRUE.equals(s.getReady())));
        }
        for (String sidecar : sidecarNamesInPod(set)) {
            if (ready.getOrDefault(sidecar, false) && !consistent(pod, set, Set.of(sidecar))) {
                return new Upgradable(true, false);
            }
        }
        return new Upgradable(true, true);
    }

    /** The ControllerRevision the pod's hash annotation records for the SidecarSet ("" when none). */
    public static String controllerRevision(Pod pod, String setName) {
        String json = Pods.annotations(pod).get(SidecarSetHash.HASH_ANNOTATION);
        if (json == null || json.isEmpty()) {
            return "";
        }
        try {
            return ApiJson.serialization().unmarshal(json, JsonNode.class).path(setName).path("controllerRevision")
                    .asText("");
        } catch (RuntimeException e) {
            return "";
        }
    }

    /** Whether the pod records the SidecarSet's current hash. */
    public static boolean updated(Pod pod, SidecarSet set) {
        return SidecarUpgradeSelection.updated(set, annotation(set, SidecarSetHash.HASH_ANNOTATION), pod);
    }

    static String annotation(SidecarSet set, String key) {
        Map<String, String> a = set.getMetadata().getAnnotations();
        return a == null || a.get(key) == null ? "" : a.get(key);
    }

    static Map<String, Container> containersByName(Pod pod) {
        Map<String, Container> out = new HashMap<>();
        if (pod.getSpec() != null && pod.getSpec().getContainers() != null) {
            pod.getSpec().getContainers().forEach(c -> out.put(c.getName(), c));
        }
        return out;
    }
}
