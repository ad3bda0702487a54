package dev.kruisevertx.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The target workload of a WorkloadSpread as the controller reads it from the shared cache (OpenKruise's
 * {@code getPodsForWorkloadSpread} and {@code getWorkloadLatestVersion}): its pods (a Deployment's through its
 * ReplicaSets), its replicas ({@code targetFilter.replicasPathList} summed when set) and its latest version.
 * CloneSet, Deployment, ReplicaSet, Job, StatefulSet (apps and apps.kruise.io) and the custom kinds of the
 * {@code WorkloadSpread_Watch_Custom_Workload_WhiteList} (read from their run-time informers). Walks pods: worker
 * threads only.
 */
final class WorkloadSpreadTargets {
    record Target(List<Pod> pods, int replicas, String latestVersion) {
    }

    /** Reads a whitelisted custom workload (from its informer in the shared cache). */
    interface CustomReader {
        GenericKubernetesResource get(String namespace, String apiVersion, String kind, String name);
    }

    private final WatchCache cache;
    private final PodVersions versions;
    private final Supplier<CustomWorkloadWhiteList> customWorkloads;
    private final CustomReader customReader;

    WorkloadSpreadTargets(WatchCache cache, PodVersions versions, Supplier<CustomWorkloadWhiteList> customWorkloads,
                          CustomReader customReader) {
        this.cache = cache;
        this.versions = versions;
        this.customWorkloads = customWorkloads;
        this.customReader = customReader;
    }

    /** Null when the target is gone (or being deleted) or of a kind that is neither built in nor whitelisted. */
    Target of(WorkloadSpread ws) {
        TargetReference ref = ws.getSpec().getTargetRef();
        String ns = ws.getMetadata().getNamespace();
        String group = group(ref.getApiVersion());
        String kind = ref.getKind();
        HasMetadata workload;
        List<Pod> pods = new ArrayList<>();
        String latest = WorkloadSpreads.VERSION_IGNORED;
        List<String> defaultReplicasPath = List.of("spec.replicas");
        var podCache = cache.resource(Pod.class);
        if ("apps.kruise.io".equals(group) && CloneSet.KIND.equals(kind)) {
            CloneSet cs = cache.resource(CloneSet.class).get(ns, ref.getName());
            if (gone(cs)) {
                return null;
            }
            workload = cs;
            pods.addAll(podCache.controlledBy(cs.getMetadata().getUid()));
            if (versions.enabled(CloneSet.KIND) && cs.getStatus() != null && cs.getStatus().getUpdateRevision() != null) {
                latest = Pods.shortHash(cs.getStatus().getUpdateRevision());
            }
        } else if ("apps".equals(group) && "Deployment".equals(kind)) {
            Deployment d = cache.resource(Deployment.class).get(ns, ref.getName());
            if (gone(d)) {
                return null;
            }
            workload = d;
            latest = versions.enabled("Deployment") ? "" : WorkloadSpreads.VERSION_IGNORED;
            for (ReplicaSet rs : cache.resource(ReplicaSet.class).controlledBy(d.getMetadata().getUid())) {
                pods.addAll(podCache.controlledBy(rs.getMetadata().getUid()));
                if (versions.enabled("Deployment") && rs.getMetadata().getDeletionTimestamp() == null
                        && sameTemplateIgnoringHash(d, rs)) {
                    latest = rs.getMetadata().getLabels() == null ? ""
                            : rs.getMetadata().getLabels().getOrDefault(WellKnown.POD_TEMPLATE_HASH_LABEL, "");
                }
            }
        } else if ("apps".equals(group) && "ReplicaSet".equals(kind)) {
            ReplicaSet rs = cache.resource(ReplicaSet.class).get(ns, ref.getName());
            if (gone(rs)) {
                return null;
            }
            workload = rs;
            pods.addAll(podCache.controlledBy(rs.getMetadata().getUid()));
            if (versions.enabled("ReplicaSet")) {
                latest = rs.getMetadata().getLabels() == null ? ""
                        : rs.getMetadata().getLabels().getOrDefault(WellKnown.POD_TEMPLATE_HASH_LABEL, "");
            }
        } else if ("batch".equals(group) && "Job".equals(kind)) {
            // OpenKruise counts a Job's parallelism as its replicas.
            Job job = cache.resource(Job.class).get(ns, ref.getName());
            if (gone(job)) {
                return null;
            }
            workload = job;
            pods.addAll(podCache.controlledBy(job.getMetadata().getUid()));
            defaultReplicasPath = List.of("spec.parallelism");
        } else if ("apps".equals(group) && "StatefulSet".equals(kind)) {
            StatefulSet sts = cache.resource(StatefulSet.class).get(ns, ref.getName());
            if (gone(sts)) {
                return null;
            }
            workload = sts;
            pods.addAll(podCache.controlledBy(sts.getMetadata().getUid()));
        } else if ("apps.kruise.io".equals(group) && "StatefulSet".equals(kind)) {
            var asts = cache.resource(dev.kruisevertx.api.apps.v1beta1.StatefulSet.class).get(ns, ref.getName());
            if (gone(asts)) {
                return null;
            }
            workload = asts;
            pods.addAll(podCache.controlledBy(asts.getMetadata().getUid()));
        } else {
            CustomWorkloadWhiteList.Workload entry = customWorkloads.get().entry(group, kind).orElse(null);
            if (entry == null) {
                return null;
            }
            GenericKubernetesResource custom = customReader.get(ns, ref.getApiVersion(), kind, ref.getName());
            if (gone(custom)) {
                return null;
            }
            workload = custom;
            pods.addAll(customPods(custom));
            if (!entry.replicasPath().isEmpty()) {
                defaultReplicasPath = List.of(entry.replicasPath());
            }
        }
        return new Target(pods, replicas(ws, workload, defaultReplicasPath), latest);
    }

    /** Whether the target is none of the built-in kinds (a whitelisted custom workload, or unsupported). */
    static boolean isCustom(WorkloadSpread ws) {
        TargetReference ref = ws.getSpec().getTargetRef();
        return isCustom(group(ref.getApiVersion()), ref.getKind());
    }

    static boolean isCustom(String group, String kind) {
        return switch (group + "/" + kind) {
            case "apps.kruise.io/CloneSet", "apps/Deployment", "apps/ReplicaSet", "batch/Job", "apps/StatefulSet",
                    "apps.kruise.io/StatefulSet" -> false;
            default -> true;
        };
    }

    /**
     * A whitelisted workload's pods: those it controls, else those of the objects it controls that the cache holds
     * (its sub-resources: ReplicaSets, CloneSets, StatefulSets, Jobs), else those its {@code spec.selector}'s
     * matchLabels select (OpenKruise falls back to the scale sub-resource's selector).
     */
    private List<Pod> customPods(GenericKubernetesResource custom) {
        var podCache = cache.resource(Pod.class);
        String uid = custom.getMetadata().getUid();
        List<Pod> pods = new ArrayList<>(podCache.controlledBy(uid));
        if (!pods.isEmpty()) {
            return pods;
        }
        List<HasMetadata> children = new ArrayList<>();
        children.addAll(cache.resource(ReplicaSet.class).controlledBy(uid));
        children.addAll(cache.resource(CloneSet.class).controlledBy(uid));
        children.addAll(cache.resource(StatefulSet.class).controlledBy(uid));
        children.addAll(cache.resource(dev.kruisevertx.api.apps.v1beta1.StatefulSet.class).controlledBy(uid));
        children.addAll(cache.resource(Job.class).controlledBy(uid));
        for (HasMetadata child : children) {
            pods.addAll(podCache.controlledBy(child.getMetadata().getUid()));
        }
        if (!pods.isEmpty()) {
            return pods;
        }
        JsonNode matchLabels = ApiJson.serialization().convertValue(custom, JsonNode.class)
                .path("spec").path("selector").path("matchLabels");
        if (!matchLabels.isObject() || matchLabels.isEmpty()) {
            return pods;
        }
        for (Pod p : podCache.list(custom.getMetadata().getNamespace())) {
            Map<String, String> labels = Pods.labels(p);
            boolean all = true;
            for (var it = matchLabels.fields(); it.hasNext() && all; ) {
                var e = it.next();
                all = e.getValue().isTextual() && e.getValue().asText().equals(labels.get(e.getKey()));
            }
            if (all) {
                pods.add(p);
            }
        }
        return pods;
    }

    private static boolean gone(HasMetadata workload) {
        return workload == null || workload.getMetadata().getDeletionTimestamp() != null;
    }

    /** {@code spec.replicas}, or the sum of the targetFilter's replicas paths. */
    static int replicas(WorkloadSpread ws, HasMetadata workload) {
        return replicas(ws, workload, List.of("spec.replicas"));
    }

    /**
     * The sum of the targetFilter's replicas paths when it names any, else of {@code defaults} (the kind's own:
     * {@code spec.replicas}, a Job's {@code spec.parallelism}, a whitelisted kind's {@code replicasPath}). A path that
     * does not lead to an integer counts 0; a negative value counts 0.
     */
    static int replicas(WorkloadSpread ws, HasMetadata workload, List<String> defaults) {
        JsonNode tree = ApiJson.serialization().convertValue(workload, JsonNode.class);
        List<String> paths = ws.getSpec().getTargetFilter() == null ? null
                : ws.getSpec().getTargetFilter().getReplicasPathList();
        if (paths == null || paths.isEmpty()) {
            paths = defaults;
        }
        long sum = 0;
        for (String p : paths) {
            sum += Math.max(0, intAt(tree, p));
        }
        return (int) Math.min(Integer.MAX_VALUE, sum);
    }

    static int intAt(JsonNode root, String path) {
        JsonNode node = root;
        for (String part : path.split("\\.")) {
            if (node == null) {
                return 0;
            }
            if (node.isArray()) {
                int index;
                try {
                    index = Integer.parseInt(part);
                } catch (NumberFormatException e) {
                    return 0;
                }
                node = node.get(index);
            } else {
                node = node.get(part);
            }
        }
        // Out of int range counts 0 like a wrong type: a hostile path must not wrap to a negative count.
        return node != null && node.isIntegralNumber() && node.canConvertToInt() ? node.asInt() : 0;
    }

    /** Kubernetes' EqualIgnoreHash: the templates equal once the pod-template-hash label is removed. */
    static boolean sameTemplateIgnoringHash(Deployment d, ReplicaSet rs) {
        JsonNode a = ApiJson.serialization().convertValue(d.getSpec().getTemplate(), JsonNode.class);
        JsonNode b = ApiJson.serialization().convertValue(rs.getSpec().getTemplate(), JsonNode.class);
        for (JsonNode t : List.of(a, b)) {
            JsonNode labels = t.path("metadata").path("labels");
            if (labels instanceof ObjectNode o) {
                o.remove(WellKnown.POD_TEMPLATE_HASH_LABEL);
                if (o.isEmpty()) {
                    ((ObjectNode) t.path("metadata")).remove("labels");
                }
            }
        }
        return a.equals(b);
    }

    static String group(String apiVersion) {
        int slash = apiVersion == null ? -1 : apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }
}
