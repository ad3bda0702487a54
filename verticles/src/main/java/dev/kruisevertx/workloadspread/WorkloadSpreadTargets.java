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
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;

import java.util.ArrayList;
import java.util.List;

/**
 * The target workload of a WorkloadSpread as the controller reads it from the shared cache (OpenKruise's
 * {@code getPodsForWorkloadSpread} and {@code getWorkloadLatestVersion}): its pods (a Deployment's through its
 * ReplicaSets), its replicas ({@code targetFilter.replicasPathList} summed when set) and its latest version.
 * CloneSet, Deployment and ReplicaSet targets; other kinds are not read yet. Walks pods: worker threads only.
 */
final class WorkloadSpreadTargets {
    record Target(List<Pod> pods, int replicas, String latestVersion) {
    }

    private final WatchCache cache;
    private final PodVersions versions;

    WorkloadSpreadTargets(WatchCache cache, PodVersions versions) {
        this.cache = cache;
        this.versions = versions;
    }

    /** Null when the target is gone or of a kind not read yet. */
    Target of(WorkloadSpread ws) {
        TargetReference ref = ws.getSpec().getTargetRef();
        String ns = ws.getMetadata().getNamespace();
        String group = group(ref.getApiVersion());
        HasMetadata workload;
        List<Pod> pods = new ArrayList<>();
        String latest = WorkloadSpreads.VERSION_IGNORED;
        var podCache = cache.resource(Pod.class);
        if ("apps.kruise.io".equals(group) && CloneSet.KIND.equals(ref.getKind())) {
            CloneSet cs = cache.resource(CloneSet.class).get(ns, ref.getName());
            if (cs == null) {
                return null;
            }
            workload = cs;
            pods.addAll(podCache.controlledBy(cs.getMetadata().getUid()));
            if (versions.enabled(CloneSet.KIND) && cs.getStatus() != null && cs.getStatus().getUpdateRevision() != null) {
                latest = Pods.shortHash(cs.getStatus().getUpdateRevision());
            }
        } else if ("apps".equals(group) && "Deployment".equals(ref.getKind())) {
            Deployment d = cache.resource(Deployment.class).get(ns, ref.getName());
            if (d == null) {
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
        } else if ("apps".equals(group) && "ReplicaSet".equals(ref.getKind())) {
            ReplicaSet rs = cache.resource(ReplicaSet.class).get(ns, ref.getName());
            if (rs == null) {
                return null;
            }
            workload = rs;
            pods.addAll(podCache.controlledBy(rs.getMetadata().getUid()));
            if (versions.enabled("ReplicaSet")) {
                latest = rs.getMetadata().getLabels() == null ? ""
                        : rs.getMetadata().getLabels().getOrDefault(WellKnown.POD_TEMPLATE_HASH_LABEL, "");
            }
        } else {
            return null;
        }
        return new Target(pods, replicas(ws, workload), latest);
    }

    /** {@code spec.replicas}, or the sum of the targetFilter's replicas paths. */
    static int replicas(WorkloadSpread ws, HasMetadata workload) {
        JsonNode tree = ApiJson.serialization().convertValue(workload, JsonNode.class);
        List<String> paths = ws.getSpec().getTargetFilter() == null ? null
                : ws.getSpec().getTargetFilter().getReplicasPathList();
        if (paths == null || paths.isEmpty()) {
            return intAt(tree, "spec.replicas");
        }
        int sum = 0;
        for (String p : paths) {
            sum += intAt(tree, p);
        }
        return sum;
    }

    static int intAt(JsonNode root, String path) {
        JsonNode node = root;
        for (String part : path.split("\\.")) {
            if (node == null) {
                return 0;
            }
            node = node.isArray() && !part.isEmpty() && part.chars().allMatch(Character::isDigit)
                    ? node.get(Integer.parseInt(part)) : node.get(part);
        }
        return node != null && node.isIntegralNumber() ? node.asInt() : 0;
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
