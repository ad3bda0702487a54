package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.podutil.PodConditions;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The pod edits of a SidecarSet's in-place upgrade, as pure functions returning changed copies (OpenKruise v1.9's
 * {@code updatePodSidecarContainer}, {@code flipPodSidecarContainerDo} and {@code updatePodSidecarSetUpgradableCondition}):
 * <ul>
 *   <li>{@link #upgrade}: only images change (Kubernetes allows nothing else in place); a hot-upgrade sidecar gets the
 *       new image in the container of its pair that is idle (on the empty image), else not ready, else the older
 *       one, which then becomes the working one; the pod's {@code kruise.io/sidecarset-hash} entry is renewed and the
 *       imageIDs before the change go to {@code kruise.io/sidecarset-inplace-update-state}; the SidecarSet's
 *       {@code patchPodMetadata} is applied again (as OpenKruise's updatePodSidecarAndHash);</li>
 *   <li>{@link #resetIdle}: after a hot upgrade, the container that stopped working gets the empty image back;</li>
 *   <li>{@link #upgradableCondition}: the {@code SidecarSetUpgradable} pod condition, its message a JSON map of
 *       SidecarSet name to upgradable.</li>
 * </ul>
 */
public final class SidecarPodUpgrade {
    private SidecarPodUpgrade() {
    }

    /** The pod with the SidecarSet's current images and hash; {@code changed} names the containers given a new image. */
    public record Upgraded(Pod pod, List<String> changed) {
    }

    public static Upgraded upgrade(SidecarSet set, Pod cached, Instant now) {
        Pod pod = new PodBuilder(cached).build();
        Map<String, String> annotations = new LinkedHashMap<>(Pods.annotations(pod));
        Map<String, Container> byName = SidecarPodState.containersByName(pod);
        List<String> changed = new ArrayList<>();
        for (SidecarContainer sidecar : SidecarPodState.containers(set)) {
            String target;
            String other = null;
            if (SidecarPodState.isHotUpgrade(sidecar)) {
                String[] pick = hotUpgradeTarget(sidecar, cached, set);
                target = pick[0];
                other = pick[1];
            } else {
                target = sidecar.getName();
            }
            Container current = byName.get(other != null ? other : target);
            Container toChange = byName.get(target);
            if (current == null || toChange == null || Objects.equals(sidecar.getImage(), current.getImage())) {
                continue;
            }
            toChange.setImage(sidecar.getImage());
            changed.add(target);
            if (other != null) {
                Map<String, String> working = new TreeMap<>(SidecarPodState.workingContainers(cached));
                working.put(sidecar.getName(), target);
                annotations.put(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION, json(working));
                String version = set.getMetadata().getResourceVersion() == null ? ""
                        : set.getMetadata().getResourceVersion();
                annotations.put(SidecarInjection.versionAnnotation(target), version);
                annotations.put(SidecarInjection.versionAltAnnotation(target),
                        annotations.getOrDefault(SidecarInjection.versionAnnotation(other), ""));
                annotations.put(SidecarInjection.versionAltAnnotation(other), version);
            }
        }
        annotations.put(SidecarSetHash.HASH_ANNOTATION, renewHash(annotations.get(SidecarSetHash.HASH_ANNOTATION), set, now));
        if (!SidecarPodState.injected(cached, set.getMetadata().getName())) {
            // Pods injected before the list annotation existed get it, so pod events find their SidecarSets.
            String list = annotations.get(SidecarInjection.INJECTED_LIST_ANNOTATION);
            annotations.put(SidecarInjection.INJECTED_LIST_ANNOTATION, list == null || list.isEmpty()
                    ? set.getMetadata().getName() : list + "," + set.getMetadata().getName());
        }
        recordImageIds(annotations, set, cached, changed, now);
        // OpenKruise v1.9 patches the pod's metadata on every sidecar upgrade too, not only at injection.
        PodMetadataPatch.apply(annotations, set.getSpec().getPatchPodMetadata());
        pod.getMetadata().setAnnotations(annotations);
        return new Upgraded(pod, changed);
    }

    /** {@code [container to upgrade, the other one]} of a hot-upgrade sidecar (OpenKruise's findContainerToHotUpgrade). */
    static String[] hotUpgradeTarget(SidecarContainer sidecar, Pod pod, SidecarSet set) {
        String one = sidecar.getName() + "-1";
        String two = sidecar.getName() + "-2";
        Map<String, Container> byName = SidecarPodState.containersByName(pod);
        String empty = sidecar.getUpgradeStrategy().getHotUpgradeEmptyImage();
        if (byName.get(one) != null && Objects.equals(byName.get(one).getImage(), empty)) {
            return new String[]{one, two};
        }
        if (byName.get(two) != null && Objects.equals(byName.get(two).getImage(), empty)) {
            return new String[]{two, one};
        }
        boolean oneReady = containerReady(pod, one) && SidecarPodState.consistent(pod, set, java.util.Set.of(one));
        boolean twoReady = containerReady(pod, two) && SidecarPodState.consistent(pod, set, java.util.Set.of(two));
        if (oneReady && !twoReady) {
            return new String[]{two, one};
        }
        if (!oneReady && twoReady) {
            return new String[]{one, two};
        }
        String[] pair = SidecarPodState.hotUpgradePair(sidecar.getName(), pod);
        return new String[]{pair[1], pair[0]};
    }

    /**
     * The pod with each hot-upgrade pair's idle container back on the empty image, or null when every idle container
     * already runs it.
     */
    public static Pod resetIdle(SidecarSet set, Pod cached, Instant now) {
        Pod pod = new PodBuilder(cached).build();
        Map<String, String> annotations = new LinkedHashMap<>(Pods.annotations(pod));
        Map<String, Container> byName = SidecarPodState.containersByName(pod);
        List<String> changed = new ArrayList<>();
        for (SidecarContainer sidecar : SidecarPodState.containers(set)) {
            if (!SidecarPodState.isHotUpgrade(sidecar)) {
                continue;
            }
            String[] pair = SidecarPodState.hotUpgradePair(sidecar.getName(), cached);
            Container idle = byName.get(pair[1]);
            String empty = sidecar.getUpgradeStrategy().getHotUpgradeEmptyImage();
            if (idle == null || Objects.equals(idle.getImage(), empty)) {
                continue;
            }
            idle.setImage(empty);
            changed.add(idle.getName());
            annotations.put(SidecarInjection.versionAnnotation(idle.getName()), "0");
            annotations.put(SidecarInjection.versionAltAnnotation(pair[0]), "0");
        }
        if (changed.isEmpty()) {
            return null;
        }
        recordImageIds(annotations, set, cached, changed, now);
        pod.getMetadata().setAnnotations(annotations);
        return pod;
    }

    /**
     * The {@code SidecarSetUpgradable} condition after recording {@code upgradable} for this SidecarSet, or null when
     * the pod's condition would not change. True only when every SidecarSet recorded in its message is upgradable.
     */
    public static PodCondition upgradableCondition(Pod pod, String setName, boolean upgradable, Instant now) {
        PodCondition old = PodConditions.get(pod.getStatus(), SidecarPodState.UPGRADABLE_CONDITION);
        Map<String, Boolean> kv = new TreeMap<>();
        if (old != null && old.getMessage() != null && !old.getMessage().isEmpty()) {
            try {
                ApiJson.serialization().unmarshal(old.getMessage(), JsonNode.class).fields()
                        .forEachRemaining(e -> kv.put(e.getKey(), e.getValue().asBoolean()));
            } catch (RuntimeException e) {
                // An unreadable message is replaced by this SidecarSet's entry.
            }
        }
        kv.put(setName, upgradable);
        boolean all = !kv.containsValue(false);
        String status = all ? "True" : "False";
        String reason = all ? "AllSidecarsetUpgradable" : "UpdateImmutableField";
        String message = json(kv);
        if (old != null && status.equals(old.getStatus()) && reason.equals(old.getReason())
                && message.equals(old.getMessage())) {
            return null;
        }
        String transition = old != null && status.equals(old.getStatus()) ? old.getLastTransitionTime()
                : Pods.formatTime(now.truncatedTo(ChronoUnit.SECONDS));
        return new PodConditionBuilder().withType(SidecarPodState.UPGRADABLE_CONDITION).withStatus(status)
                .withReason(reason).withMessage(message).withLastTransitionTime(transition)
                .withLastProbeTime(old == null ? null : old.getLastProbeTime()).build();
    }

    /** The pod's hash annotation with this SidecarSet's entry renewed (other SidecarSets' entries kept). */
    static String renewHash(String json, SidecarSet set, Instant now) {
        ObjectNode all = JsonNodeFactory.instance.objectNode();
        if (json != null && !json.isEmpty()) {
            try {
                JsonNode node = ApiJson.serialization().unmarshal(json, JsonNode.class);
                if (node instanceof ObjectNode o) {
                    // The older form (name -> hash) is read as OpenKruise reads it.
                    o.fields().forEachRemaining(e -> {
                        if (e.getValue().isTextual()) {
                            ObjectNode spec = all.putObject(e.getKey());
                            spec.put("hash", e.getValue().asText());
                            spec.put("sidecarSetName", e.getKey());
                        } else {
                            all.set(e.getKey(), e.getValue());
                        }
                    });
                }
            } catch (RuntimeException e) {
                // Unreadable: replaced by this SidecarSet's entry.
            }
        }
        ObjectNode spec = JsonNodeFactory.instance.objectNode();
        spec.put("updateTimestamp", Pods.formatTime(now.truncatedTo(ChronoUnit.SECONDS)));
        spec.put("hash", SidecarPodState.annotation(set, SidecarSetHash.HASH_ANNOTATION));
        spec.put("sidecarSetName", set.getMetadata().getName());
        var list = spec.putArray("sidecarList");
        sidecarList(set).forEach(list::add);
        String revision = set.getStatus() == null ? null : set.getStatus().getLatestRevision();
        if (revision != null && !revision.isEmpty()) {
            spec.put("controllerRevision", revision);
        }
        all.set(set.getMetadata().getName(), spec);
        // Go marshals a map with sorted keys.
        ObjectNode sorted = JsonNodeFactory.instance.objectNode();
        new TreeSet<String>(keys(all)).forEach(k -> sorted.set(k, all.get(k)));
        return sorted.toString();
    }

    /** The SidecarSet's containers and native-sidecar init containers, sorted by name. */
    static TreeSet<String> sidecarList(SidecarSet set) {
        TreeSet<String> names = new TreeSet<>();
        if (set.getSpec() != null && set.getSpec().getInitContainers() != null) {
            set.getSpec().getInitContainers().stream().filter(SidecarSetHash::isNativeSidecar)
                    .forEach(c -> names.add(c.getName()));
        }
        SidecarPodState.containers(set).forEach(c -> names.add(c.getName()));
        return names;
    }

    /**
     * Records in {@code kruise.io/sidecarset-inplace-update-state} the imageID each changed container ran before the
     * change: a new imageID in its status later shows the upgrade is done. The SidecarSet's entry keeps its revision
     * and timestamp once written, as OpenKruise's.
     */
    static void recordImageIds(Map<String, String> annotations, SidecarSet set, Pod before, List<String> changed,
                               Instant now) {
        ObjectNode states = JsonNodeFactory.instance.objectNode();
        String json = annotations.get(SidecarPodState.INPLACE_UPDATE_STATE_ANNOTATION);
        if (json != null && !json.isEmpty()) {
            try {
                JsonNode node = ApiJson.serialization().unmarshal(json, JsonNode.class);
                if (node instanceof ObjectNode o) {
                    states = o.deepCopy();
                }
            } catch (RuntimeException e) {
                // Unreadable: started afresh.
            }
        }
        String name = set.getMetadata().getName();
        ObjectNode state = states.get(name) instanceof ObjectNode o ? o : states.putObject(name);
        if (!state.has("revision")) {
            state.put("revision", SidecarPodState.annotation(set, SidecarSetHash.HASH_ANNOTATION));
            state.put("updateTimestamp", Pods.formatTime(now.truncatedTo(ChronoUnit.SECONDS)));
        }
        ObjectNode last = state.get("lastContainerStatuses") instanceof ObjectNode o ? o
                : state.putObject("lastContainerStatuses");
        Map<String, String> imageIds = new HashMap<>();
        if (before.getStatus() != null && before.getStatus().getContainerStatuses() != null) {
            for (ContainerStatus s : before.getStatus().getContainerStatuses()) {
                imageIds.put(s.getName(), s.getImageID() == null ? "" : s.getImageID());
            }
        }
        for (String c : changed) {
            last.putObject(c).put("imageID", imageIds.getOrDefault(c, ""));
        }
        annotations.put(SidecarPodState.INPLACE_UPDATE_STATE_ANNOTATION, states.toString());
    }

    private static boolean containerReady(Pod pod, String name) {
        return Pods.containerStatus(pod, name).map(s -> Boolean.TRUE.equals(s.getReady())).orElse(false);
    }

    private static List<String> keys(ObjectNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    private static String json(Map<String, ?> map) {
        ObjectNode node = JsonNodeFactory.instance.objectNode();
        new TreeMap<>(map).forEach((k, v) -> {
            if (v instanceof Boolean b) {
                node.put(k, b);
            } else {
                node.put(k, String.valueOf(v));
            }
        });
        return node.toString();
    }
}
