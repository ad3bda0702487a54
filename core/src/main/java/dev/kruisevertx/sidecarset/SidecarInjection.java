package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.PodInjectPolicyType;
import dev.kruisevertx.api.apps.v1beta1.ShareVolumePolicyType;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainerUpgradeType;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.TransferEnvVar;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * The SidecarSet step of the pod mutating webhook for a pod being created, as a pure function (OpenKruise v1.9's
 * {@code sidecarsetMutatingPod} for CREATE): which SidecarSets match the pod (selector, namespaceSelector against
 * the namespace's labels, injection not paused), and the pod with their sidecars injected:
 * <ul>
 *   <li>init containers sorted by name after the pod's own; containers {@code BeforeAppContainer} in front of the
 *       pod's containers and {@code AfterAppContainer} behind them (sorted by name with gate
 *       EnableSortSidecarContainerByName); a sidecar whose name the pod already has replaces it in place;</li>
 *   <li>the SidecarSet volumes the sidecars mount (a pod volume of the same name wins); with
 *       {@code shareVolumePolicy: enabled} every mount of the pod's containers not clashing with the sidecar's own
 *       mount paths;</li>
 *   <li>{@code transferEnv} (sourceContainerName or a downward-API field naming it; envName and envNames), env
 *       {@code IS_INJECTED=true}; the sidecar's own env wins;</li>
 *   <li>imagePullSecrets (deduplicated by name);</li>
 *   <li>{@code HotUpgrade} containers as the pair {@code <name>-1} (working) and {@code <name>-2} (the empty image)
 *       with {@code SIDECARSET_VERSION}/{@code SIDECARSET_VERSION_ALT} from the version annotations, and the
 *       {@code kruise.io/sidecarset-working-hotupgrade-container} annotation;</li>
 *   <li>annotations {@code kruise.io/sidecarset-hash}, {@code kruise.io/sidecarset-hash-without-image} (JSON maps
 *       by SidecarSet name) and {@code kruise.io/sidecarset-injected-list};</li>
 *   <li>{@code patchPodMetadata} ({@link PodMetadataPatch}) before the sidecars;</li>
 *   <li>a sidecar's {@code resourcesPolicy} computed from the pod's containers ({@link SidecarResourcesPolicy}).</li>
 * </ul>
 * The revision to inject is chosen by the caller ({@link SidecarSetRevisionChoice}).
 */
public final class SidecarInjection {
    public static final String INJECTED_LIST_ANNOTATION = "kruise.io/sidecarset-injected-list";
    public static final String WORKING_HOT_UPGRADE_ANNOTATION = "kruise.io/sidecarset-working-hotupgrade-container";
    public static final String IS_INJECTED_ENV = "IS_INJECTED";
    public static final String VERSION_ENV = "SIDECARSET_VERSION";
    public static final String VERSION_ALT_ENV = "SIDECARSET_VERSION_ALT";

    /** What the step decided: the pod to admit (null when unchanged), the SidecarSets injected, and why. */
    public record Plan(Pod pod, List<String> injected, List<String> skipped, String reason) {
        public boolean changed() {
            return pod != null;
        }

        /** Names, counts and reasons only. */
        public String debugSummary() {
            return "sidecarsets injected=" + injected.size() + " " + injected + ", skipped=" + skipped.size()
                    + " " + skipped + ": " + reason;
        }
    }

    private SidecarInjection() {
    }

    /**
     * @param pod             the pod being created (not modified)
     * @param candidates      SidecarSets that may apply (the caller's index by namespace); in the revision to inject
     * @param namespaceLabels the labels of the pod's namespace (for namespaceSelector)
     * @param sortByName      feature gate EnableSortSidecarContainerByName
     * @param now             the update timestamp written into the hash annotations
     */
    public static Plan forCreate(Pod pod, List<SidecarSet> candidates, Map<String, String> namespaceLabels,
                                 boolean sortByName, Instant now) {
        if (!Pods.isActive(pod)) {
            return new Plan(null, List.of(), List.of(), "pod is not active");
        }
        List<SidecarSet> matched = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (SidecarSet set : candidates) {
            String why = mismatch(pod, set, namespaceLabels);
            if (why == null) {
                matched.add(set);
            } else if (!why.isEmpty()) {
                skipped.add(set.getMetadata().getName() + " (" + why + ")");
            }
        }
        if (matched.isEmpty()) {
            return new Plan(null, List.of(), skipped, "no SidecarSet matches the pod");
        }
        matched.sort(Comparator.comparing(s -> s.getMetadata().getName()));
        return inject(pod, matched, skipped, sortByName, now);
    }

    /**
     * Injects SidecarSets already matched (and already in the revision to inject, see
     * {@link SidecarSetRevisionChoice}), in the given order: their {@code patchPodMetadata} first, then the sidecars.
     *
     * @throws IllegalArgumentException the pod's {@code kruise.io/sidecarset-hash(-without-image)} annotation is not
     *                                  readable, a MergePatchJson value is not JSON, or a resourcesPolicy cannot be
     *                                  applied (no target container, a bad expression): OpenKruise refuses such a pod
     */
    public static Plan inject(Pod pod, List<SidecarSet> matched, List<String> skipped, boolean sortByName,
                              Instant now) {
        if (matched.isEmpty()) {
            return new Plan(null, List.of(), skipped, "no SidecarSet matches the pod");
        }
        Pod out = new PodBuilder(pod).build();
        Map<String, String> annotations = out.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(out.getMetadata().getAnnotations());
        for (SidecarSet set : matched) {
            PodMetadataPatch.apply(annotations, set.getSpec().getPatchPodMetadata());
        }
        out.getMetadata().setAnnotations(annotations);
        inject(out, matched, sortByName, now);
        return new Plan(out, matched.stream().map(s -> s.getMetadata().getName()).toList(), skipped,
                "injected " + matched.size() + " SidecarSet(s)");
    }

    /** Whether {@code set} applies to the pod: null when it does; "" when it is simply not meant for this pod. */
    public static String whyNotMatched(Pod pod, SidecarSet set, Map<String, String> namespaceLabels) {
        return mismatch(pod, set, namespaceLabels);
    }

    /** Why a SidecarSet does not apply: null when it does; "" when it is simply not meant for this pod. */
    static String mismatch(Pod pod, SidecarSet set, Map<String, String> namespaceLabels) {
        if (set.getSpec() == null || set.getSpec().getSelector() == null) {
            return "";
        }
        if (set.getSpec().getInjectionStrategy() != null
                && Boolean.TRUE.equals(set.getSpec().getInjectionStrategy().getPaused())) {
            return LabelSelectors.matches(set.getSpec().getSelector(), pod.getMetadata().getLabels())
                    ? "injection paused" : "";
        }
        if (set.getSpec().getNamespaceSelector() != null
                && !LabelSelectors.matches(set.getSpec().getNamespaceSelector(), namespaceLabels)) {
            return "";
        }
        boolean empty = (set.getSpec().getSelector().getMatchLabels() == null
                || set.getSpec().getSelector().getMatchLabels().isEmpty())
                && (set.getSpec().getSelector().getMatchExpressions() == null
                || set.getSpec().getSelector().getMatchExpressions().isEmpty());
        return !empty && LabelSelectors.matches(set.getSpec().getSelector(), pod.getMetadata().getLabels()) ? null : "";
    }

    private static void inject(Pod pod, List<SidecarSet> sets, boolean sortByName, Instant now) {
        Map<String, String> annotations = pod.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(pod.getMetadata().getAnnotations());
        ObjectNode hashes = parseHashes(pod, SidecarSetHash.HASH_ANNOTATION, annotations);
        ObjectNode hashesWithoutImage = parseHashes(pod, SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION, annotations);
        ObjectNode working = parseMap(annotations.get(WORKING_HOT_UPGRADE_ANNOTATION));
        Set<String> names = new TreeSet<>();
        String existingList = annotations.get(INJECTED_LIST_ANNOTATION);
        if (existingList != null && !existingList.isEmpty()) {
            names.addAll(List.of(existingList.split(",")));
        }
        List<Container> appContainers = pod.getSpec().getContainers() == null ? List.of() : pod.getSpec().getContainers();
        List<SidecarContainer> initSidecars = new ArrayList<>();
        List<SidecarContainer> sidecars = new ArrayList<>();
        List<Volume> volumes = new ArrayList<>();
        List<LocalObjectReference> secrets = new ArrayList<>();
        String timestamp = now.truncatedTo(ChronoUnit.SECONDS).toString();
        Set<String> kruiseSidecars = new HashSet<>();
        for (SidecarSet set : sets) {
            list(set.getSpec().getInitContainers()).forEach(c -> kruiseSidecars.add(c.getName()));
            list(set.getSpec().getContainers()).forEach(c -> kruiseSidecars.add(c.getName()));
        }
        for (SidecarSet set : sets) {
            String name = set.getMetadata().getName();
            names.add(name);
            Map<String, Volume> own = new HashMap<>();
            for (Volume v : list(set.getSpec().getVolumes())) {
                own.put(v.getName(), v);
            }
            Set<String> sidecarList = new TreeSet<>();
            for (SidecarContainer init : list(set.getSpec().getInitContainers())) {
                SidecarContainer c = copy(init);
                applyResourcesPolicy(c, pod, kruiseSidecars);
                if (SidecarSetHash.isNativeSidecar(c)) {
                    sidecarList.add(c.getName());
                }
                prepare(c, pod, appContainers, own, volumes);
                if (SidecarSetHash.isNativeSidecar(c) && isHotUpgrade(c)) {
                    initSidecars.addAll(hotUpgradePair(c, annotations, working));
                } else {
                    initSidecars.add(c);
                }
            }
            secrets.addAll(list(set.getSpec().getImagePullSecrets()));
            for (SidecarContainer container : list(set.getSpec().getContainers())) {
                SidecarContainer c = copy(container);
                applyResourcesPolicy(c, pod, kruiseSidecars);
                sidecarList.add(c.getName());
                prepare(c, pod, appContainers, own, volumes);
                if (isHotUpgrade(c)) {
                    sidecars.addAll(hotUpgradePair(c, annotations, working));
                } else {
                    sidecars.add(c);
                }
            }
            hashes.set(name, upgradeSpec(timestamp, annotation(set, SidecarSetHash.HASH_ANNOTATION), name, sidecarList,
                    set.getStatus() == null ? null : set.getStatus().getLatestRevision()));
            hashesWithoutImage.set(name, upgradeSpec(timestamp, annotation(set,
                    SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION), name, sidecarList, null));
        }
        initSidecars.sort(Comparator.comparing(Container::getName));
        pod.getSpec().setInitContainers(merge(pod.getSpec().getInitContainers(), initSidecars));
        if (sortByName) {
            sidecars.sort(Comparator.comparing(Container::getName));
        }
        pod.getSpec().setContainers(merge(pod.getSpec().getContainers(), sidecars));
        pod.getSpec().setVolumes(mergeByName(pod.getSpec().getVolumes(), volumes, Volume::getName));
        List<LocalObjectReference> allSecrets = mergeByName(new ArrayList<>(list(pod.getSpec().getImagePullSecrets())),
                secrets, LocalObjectReference::getName);
        pod.getSpec().setImagePullSecrets(allSecrets.isEmpty() ? pod.getSpec().getImagePullSecrets() : allSecrets);
        annotations.put(SidecarSetHash.HASH_ANNOTATION, hashes.toString());
        annotations.put(SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION, hashesWithoutImage.toString());
        annotations.put(INJECTED_LIST_ANNOTATION, String.join(",", names));
        pod.getMetadata().setAnnotations(annotations);
    }

    /** The sidecar's resources from its resourcesPolicy, computed over the pod as created (before injection). */
    private static void applyResourcesPolicy(SidecarContainer c, Pod pod, Set<String> kruiseSidecars) {
        if (c.getResourcesPolicy() != null) {
            c.setResources(SidecarResourcesPolicy.resources(pod, c.getName(), c.getResourcesPolicy(), kruiseSidecars));
        }
    }

    /** Mounts, volumes and env of one sidecar, as OpenKruise prepares them before merging. */
    private static void prepare(SidecarContainer c, Pod pod, List<Container> appContainers, Map<String, Volume> own,
                                List<Volume> volumes) {
        List<VolumeMount> shared = new ArrayList<>();
        if (c.getShareVolumePolicy() != null
                && c.getShareVolumePolicy().typeValue().orElse(null) == ShareVolumePolicyType.ENABLED) {
            for (Container app : appContainers) {
                if (!isInjectedSidecar(app)) {
                    shared.addAll(list(app.getVolumeMounts()));
                }
            }
        }
        List<String> devices = new ArrayList<>();
        for (VolumeMount m : list(c.getVolumeMounts())) {
            if (own.containsKey(m.getName())) {
                volumes.add(own.get(m.getName()));
            }
        }
        for (var d : list(c.getVolumeDevices())) {
            devices.add(d.getDevicePath());
            if (own.containsKey(d.getName())) {
                volumes.add(own.get(d.getName()));
            }
        }
        Set<String> paths = new HashSet<>(devices);
        List<VolumeMount> mounts = new ArrayList<>();
        for (VolumeMount m : list(c.getVolumeMounts())) {
            paths.add(m.getMountPath());
            mounts.add(m);
        }
        for (VolumeMount m : shared) {
            if (paths.add(m.getMountPath())) {
                mounts.add(m);
            }
        }
        c.setVolumeMounts(mounts.isEmpty() ? c.getVolumeMounts() : mounts);
        List<EnvVar> env = new ArrayList<>(list(c.getEnv()));
        env.add(new EnvVar(IS_INJECTED_ENV, "true", null));
        c.setEnv(mergeByName(env, transferEnv(c, pod, appContainers), EnvVar::getName));
    }

    private static List<EnvVar> transferEnv(SidecarContainer c, Pod pod, List<Container> appContainers) {
        Map<String, EnvVar> inPod = new HashMap<>();
        for (Container app : appContainers) {
            for (EnvVar e : list(app.getEnv())) {
                inPod.put(app.getName() + "/" + e.getName(), e);
            }
        }
        List<EnvVar> out = new ArrayList<>();
        for (TransferEnvVar t : list(c.getTransferEnv())) {
            Set<String> wanted = new TreeSet<>(list(t.getEnvNames()));
            if (t.getEnvName() != null && !t.getEnvName().isEmpty()) {
                wanted.add(t.getEnvName());
            }
            String source = t.getSourceContainerName();
            if (t.getSourceContainerNameFrom() != null && t.getSourceContainerNameFrom().getFieldRef() != null) {
                source = fieldValue(pod, t.getSourceContainerNameFrom().getFieldRef().getFieldPath());
                if (source == null) {
                    continue;
                }
            }
            for (String n : wanted) {
                EnvVar e = inPod.get(source + "/" + n);
                if (e != null) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    /** The downward-API fields a transferEnv may name its source container by. */
    static String fieldValue(Pod pod, String path) {
        if (path == null) {
            return null;
        }
        if (path.equals("metadata.name")) {
            return pod.getMetadata().getName();
        }
        for (String base : List.of("metadata.labels", "metadata.annotations")) {
            if (path.startsWith(base + "['") && path.endsWith("']")) {
                String key = path.substring(base.length() + 2, path.length() - 2);
                Map<String, String> m = base.endsWith("labels") ? pod.getMetadata().getLabels()
                        : pod.getMetadata().getAnnotations();
                return m == null ? null : m.get(key);
            }
        }
        return null;
    }

    private static boolean isHotUpgrade(SidecarContainer c) {
        return c.getUpgradeStrategy() != null
                && c.getUpgradeStrategy().upgradeTypeValue().orElse(null) == SidecarContainerUpgradeType.HOT_UPGRADE;
    }

    private static List<SidecarContainer> hotUpgradePair(SidecarContainer c, Map<String, String> annotations,
                                                         ObjectNode working) {
        SidecarContainer first = copy(c);
        SidecarContainer second = copy(c);
        first.setName(c.getName() + "-1");
        second.setName(c.getName() + "-2");
        second.setImage(c.getUpgradeStrategy().getHotUpgradeEmptyImage());
        for (SidecarContainer x : List.of(first, second)) {
            List<EnvVar> env = new ArrayList<>(list(x.getEnv()));
            env.add(new EnvVarBuilder().withName(VERSION_ENV).withNewValueFrom().withNewFieldRef()
                    .withFieldPath("metadata.annotations['" + versionAnnotation(x.getName()) + "']").endFieldRef()
                    .endValueFrom().build());
            env.add(new EnvVarBuilder().withName(VERSION_ALT_ENV).withNewValueFrom().withNewFieldRef()
                    .withFieldPath("metadata.annotations['" + versionAltAnnotation(x.getName()) + "']").endFieldRef()
                    .endValueFrom().build());
            x.setEnv(env);
        }
        annotations.put(versionAnnotation(first.getName()), "1");
        annotations.put(versionAltAnnotation(first.getName()), "0");
        annotations.put(versionAnnotation(second.getName()), "0");
        annotations.put(versionAltAnnotation(second.getName()), "1");
        working.put(c.getName(), first.getName());
        annotations.put(WORKING_HOT_UPGRADE_ANNOTATION, working.toString());
        return List.of(first, second);
    }

    public static String versionAnnotation(String container) {
        return "version.sidecarset.kruise.io/" + container;
    }

    public static String versionAltAnnotation(String container) {
        return "versionalt.sidecarset.kruise.io/" + container;
    }

    /** OpenKruise's merge: a sidecar the pod already names replaces it in place; others go before or after. */
    private static List<Container> merge(List<Container> origins, List<SidecarContainer> injected) {
        List<Container> pod = origins == null ? new ArrayList<>() : new ArrayList<>(origins);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < pod.size(); i++) {
            index.put(pod.get(i).getName(), i);
        }
        List<Container> before = new ArrayList<>();
        List<Container> after = new ArrayList<>();
        for (SidecarContainer s : injected) {
            Container plain = new ContainerBuilder(s).build();
            Integer at = index.get(s.getName());
            if (at != null) {
                pod.set(at, plain);
            } else if (s.podInjectPolicyValue().orElse(null) == PodInjectPolicyType.BEFORE_APP_CONTAINER) {
                before.add(plain);
            } else {
                after.add(plain);
            }
        }
        List<Container> out = new ArrayList<>(before);
        out.addAll(pod);
        out.addAll(after);
        return out.isEmpty() ? origins : out;
    }

    private static <T> List<T> mergeByName(List<T> original, List<T> additional, java.util.function.Function<T, String> name) {
        List<T> out = original == null ? new ArrayList<>() : new ArrayList<>(original);
        Set<String> seen = new HashSet<>();
        out.forEach(x -> seen.add(name.apply(x)));
        for (T x : additional) {
            if (seen.add(name.apply(x))) {
                out.add(x);
            }
        }
        return out.isEmpty() ? original : out;
    }

    private static boolean isInjectedSidecar(Container c) {
        return list(c.getEnv()).stream().anyMatch(e -> IS_INJECTED_ENV.equals(e.getName()) && "true".equals(e.getValue()));
    }

    private static ObjectNode upgradeSpec(String timestamp, String hash, String name, Set<String> sidecars,
                                          String revision) {
        ObjectNode spec = JsonNodeFactory.instance.objectNode();
        spec.put("updateTimestamp", timestamp);
        spec.put("hash", hash == null ? "" : hash);
        spec.put("sidecarSetName", name);
        ArrayNode list = spec.putArray("sidecarList");
        sidecars.forEach(list::add);
        if (revision != null && !revision.isEmpty()) {
            spec.put("controllerRevision", revision);
        }
        return spec;
    }

    /**
     * The pod's hash annotation as OpenKruise reads it: a JSON object of upgrade specs by SidecarSet name, or the
     * older form of hashes by name; anything else refuses the pod (OpenKruise's "invalid annotations[...]" error).
     */
    private static ObjectNode parseHashes(Pod pod, String key, Map<String, String> annotations) {
        String json = annotations.get(key);
        if (json == null || json.isEmpty()) {
            return JsonNodeFactory.instance.objectNode();
        }
        JsonNode node;
        try {
            node = dev.kruisevertx.api.common.ApiJson.serialization().unmarshal(json, JsonNode.class);
        } catch (RuntimeException e) {
            node = null;
        }
        if (node != null && node.isNull()) {
            return JsonNodeFactory.instance.objectNode();
        }
        boolean specs = node instanceof ObjectNode && allValues(node, v -> v.isObject() || v.isNull());
        boolean older = node instanceof ObjectNode && allValues(node, v -> v.isTextual() || v.isNull());
        if (!specs && !older) {
            throw new IllegalArgumentException("pod(" + pod.getMetadata().getNamespace() + "/"
                    + pod.getMetadata().getName() + ") invalid annotations[" + key + "] value, unmarshal failed");
        }
        return parseMap(json);
    }

    private static boolean allValues(JsonNode object, java.util.function.Predicate<JsonNode> ok) {
        for (JsonNode v : object) {
            if (!ok.test(v)) {
                return false;
            }
        }
        return true;
    }

    private static ObjectNode parseMap(String json) {
        if (json == null || json.isEmpty()) {
            return JsonNodeFactory.instance.objectNode();
        }
        try {
            JsonNode node = dev.kruisevertx.api.common.ApiJson.serialization().unmarshal(json, JsonNode.class);
            if (node instanceof ObjectNode o) {
                // OpenKruise also reads an older form, name -> hash string.
                ObjectNode out = JsonNodeFactory.instance.objectNode();
                o.fields().forEachRemaining(e -> {
                    if (e.getValue().isTextual()) {
                        ObjectNode spec = out.putObject(e.getKey());
                        spec.put("hash", e.getValue().asText());
                        spec.put("sidecarSetName", e.getKey());
                    } else {
                        out.set(e.getKey(), e.getValue());
                    }
                });
                return out;
            }
        } catch (RuntimeException e) {
            // An unreadable annotation is replaced, as nothing can be kept from it.
        }
        return JsonNodeFactory.instance.objectNode();
    }

    private static String annotation(SidecarSet set, String key) {
        Map<String, String> a = set.getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    private static SidecarContainer copy(SidecarContainer c) {
        return dev.kruisevertx.api.common.ApiJson.serialization().convertValue(c, SidecarContainer.class);
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }

    static boolean sameName(Container a, Container b) {
        return Objects.equals(a.getName(), b.getName());
    }
}
