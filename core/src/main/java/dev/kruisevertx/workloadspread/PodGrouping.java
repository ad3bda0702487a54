package dev.kruisevertx.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.kube.StrategicMergePatch;
import dev.kruisevertx.scheduling.NodeMatching;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which subset each of the workload's pods belongs to, as OpenKruise's controller groups them: a pod whose
 * {@value WorkloadSpreads#MATCHED_ANNOTATION} names this WorkloadSpread belongs to that subset (to
 * {@value WorkloadSpreads#FAKE_SUBSET_NAME} when the subset is gone); any other pod that is already on a node is
 * adopted by the subset whose required term and tolerations fit the node best (preferred-term weight × 100, + 10 when
 * the subset's patch is already on the pod, + 1 while the subset misses pods; the first subset wins a tie), and gets
 * the annotation and the subset patch's metadata (unless the WorkloadSpread is annotated
 * {@value WorkloadSpreads#IGNORE_PATCH_EXISTING_PODS_ANNOTATION}{@code =true}); pods not on a node, or fitting no
 * subset, are in no subset. Pods are grouped per version; the missing counts are per version too.
 */
public final class PodGrouping {
    private PodGrouping() {
    }

    /** A strategic merge patch of a pod's metadata the controller sends. */
    public record MetadataPatch(Pod pod, String subset, ObjectNode patch) {
    }

    /**
     * @param versioned  pods by version, then subset (every spec subset and the fake one present, maybe empty)
     * @param bySubset   the same pods by subset, all versions together
     * @param patches    adoptions to write
     */
    public record Result(Map<String, Map<String, List<Pod>>> versioned, Map<String, List<Pod>> bySubset,
                         List<MetadataPatch> patches) {
    }

    /** @param nodes a node by name; null when unknown */
    public static Result group(WorkloadSpread ws, List<Pod> pods, PodVersions versions, int workloadReplicas,
                               Function<String, Node> nodes) {
        Map<String, List<Pod>> byVersion = new LinkedHashMap<>();
        for (Pod p : pods) {
            byVersion.computeIfAbsent(versions.of(p), v -> new ArrayList<>()).add(p);
        }
        Map<String, Map<String, List<Pod>>> versioned = new LinkedHashMap<>();
        Map<String, List<Pod>> bySubset = new LinkedHashMap<>();
        List<MetadataPatch> patches = new ArrayList<>();
        for (Map.Entry<String, List<Pod>> e : byVersion.entrySet()) {
            Map<String, List<Pod>> podMap = groupBySubset(ws, e.getValue(), workloadReplicas, nodes, patches);
            podMap.forEach((subset, ps) -> bySubset.computeIfAbsent(subset, s -> new ArrayList<>()).addAll(ps));
            versioned.put(e.getKey(), podMap);
        }
        return new Result(versioned, bySubset, patches);
    }

    static Map<String, List<Pod>> groupBySubset(WorkloadSpread ws, List<Pod> pods, int workloadReplicas,
                                                Function<String, Node> nodes, List<MetadataPatch> patches) {
        String wsName = ws.getMetadata() == null ? "" : ws.getMetadata().getName();
        Map<String, List<Pod>> podMap = new LinkedHashMap<>();
        podMap.put(WorkloadSpreads.FAKE_SUBSET_NAME, new ArrayList<>());
        Map<String, Integer> missing = new LinkedHashMap<>();
        for (WorkloadSpreadSubset subset : ws.spec().subsets()) {
            podMap.put(subset.getName(), new ArrayList<>());
            IntOrString max = subset.getMaxReplicas() == null ? new IntOrString(Integer.MAX_VALUE)
                    : subset.getMaxReplicas();
            missing.put(subset.getName(), WorkloadSpreads.scaled(max, workloadReplicas, true).orElse(0));
        }
        for (Pod pod : pods) {
            Optional<MatchedWorkloadSpread> injected = MatchedWorkloadSpread.of(pod);
            if (injected.isPresent() && injected.get().matches(wsName) && podMap.containsKey(injected.get().subset())) {
                missing.merge(injected.get().subset(), -1, Integer::sum);
            }
        }
        for (Pod pod : pods) {
            Optional<MatchedWorkloadSpread> injected = MatchedWorkloadSpread.of(pod);
            String subsetName;
            if (injected.isPresent() && injected.get().matches(wsName)) {
                subsetName = injected.get().subset();
            } else {
                WorkloadSpreadSubset favorite = adopt(ws, pod, missing, nodes);
                if (favorite == null) {
                    subsetName = WorkloadSpreads.FAKE_SUBSET_NAME;
                } else {
                    subsetName = favorite.getName();
                    patches.add(new MetadataPatch(pod, subsetName, adoptionPatch(ws, favorite)));
                    missing.merge(subsetName, -1, Integer::sum);
                }
            }
            podMap.getOrDefault(subsetName, podMap.get(WorkloadSpreads.FAKE_SUBSET_NAME)).add(pod);
        }
        return podMap;
    }

    private static WorkloadSpreadSubset adopt(WorkloadSpread ws, Pod pod, Map<String, Integer> missing,
                                              Function<String, Node> nodes) {
        String nodeName = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
        if (nodeName == null || nodeName.isEmpty()) {
            return null;
        }
        Node node = nodes.apply(nodeName);
        if (node == null) {
            return null;
        }
        long best = -1;
        WorkloadSpreadSubset favorite = null;
        for (WorkloadSpreadSubset subset : ws.spec().subsets()) {
            long score = score(pod, node, subset, missing.getOrDefault(subset.getName(), 0));
            if (score > best) {
                best = score;
                favorite = subset;
            }
        }
        return favorite;
    }

    /** OpenKruise's matchesSubset: -1 when the subset cannot hold the pod on that node, else its preference. */
    static long score(Pod pod, Node node, WorkloadSpreadSubset subset, int missing) {
        if (!fits(pod, node, subset)) {
            return -1;
        }
        long nodeScore = 0;
        if (subset.getPreferredNodeSelectorTerms() != null) {
            for (PreferredSchedulingTerm t : subset.getPreferredNodeSelectorTerms()) {
                if (t.getWeight() != null && t.getWeight() != 0 && t.getPreference() != null
                        && NodeMatching.termMatches(t.getPreference(), node)) {
                    nodeScore += t.getWeight();
                }
            }
        }
        long podScore = subset.getPatch() != null && !subset.getPatch().isNull() && patchAlreadyApplied(pod, subset)
                ? 1 : 0;
        long quota = missing > 0 ? 1 : 0;
        return nodeScore * 100 + podScore * 10 + quota;
    }

    /** Every taint of the node (any effect) is tolerated by the pod or the subset, and the required terms match. */
    static boolean fits(Pod pod, Node node, WorkloadSpreadSubset subset) {
        PodSpec spec = pod.getSpec() == null ? new PodSpec() : pod.getSpec();
        List<Toleration> tolerations = new ArrayList<>();
        if (spec.getTolerations() != null) {
            tolerations.addAll(spec.getTolerations());
        }
        if (subset.getTolerations() != null) {
            tolerations.addAll(subset.getTolerations());
        }
        if (node.getSpec() != null && node.getSpec().getTaints() != null) {
            for (Taint taint : node.getSpec().getTaints()) {
                if (!NodeMatching.tolerates(tolerations, taint)) {
                    return false;
                }
            }
        }
        NodeSelectorTerm required = subset.getRequiredNodeSelectorTerm();
        if (required == null) {
            return true;
        }
        List<NodeSelectorTerm> terms = new ArrayList<>();
        if (spec.getAffinity() != null && spec.getAffinity().getNodeAffinity() != null
                && spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() != null
                && spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                .getNodeSelectorTerms() != null) {
            for (NodeSelectorTerm t : spec.getAffinity().getNodeAffinity()
                    .getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms()) {
                terms.add(ApiJson.serialization().clone(t));
            }
        }
        if (terms.isEmpty()) {
            terms.add(required);
        } else {
            for (NodeSelectorTerm t : terms) {
                List<io.fabric8.kubernetes.api.model.NodeSelectorRequirement> exprs = new ArrayList<>(
                        t.getMatchExpressions() == null ? List.of() : t.getMatchExpressions());
                if (required.getMatchExpressions() != null) {
                    exprs.addAll(required.getMatchExpressions());
                }
                t.setMatchExpressions(exprs);
                List<io.fabric8.kubernetes.api.model.NodeSelectorRequirement> fields = new ArrayList<>(
                        t.getMatchFields() == null ? List.of() : t.getMatchFields());
                if (required.getMatchFields() != null) {
                    fields.addAll(required.getMatchFields());
                }
                t.setMatchFields(fields);
            }
        }
        for (NodeSelectorTerm t : terms) {
            if (NodeMatching.termMatches(t, node)) {
                return true;
            }
        }
        return false;
    }

    /** The subset patch changes nothing on the pod but its annotations. */
    private static boolean patchAlreadyApplied(Pod pod, WorkloadSpreadSubset subset) {
        if (!subset.getPatch().isObject()) {
            return false;
        }
        ObjectNode before = ApiJson.serialization().convertValue(pod, ObjectNode.class);
        ObjectNode after = StrategicMergePatch.apply(before, (ObjectNode) subset.getPatch());
        JsonNode annotations = before.path("metadata").path("annotations");
        ObjectNode meta = (ObjectNode) after.path("metadata");
        if (annotations.isMissingNode()) {
            meta.remove("annotations");
        } else {
            meta.set("annotations", annotations);
        }
        return before.equals(after);
    }

    /**
     * {@code {"metadata":{...}}}: the subset patch's metadata (unless ignored) with the matched annotation (no id)
     * added to its annotations.
     */
    static ObjectNode adoptionPatch(WorkloadSpread ws, WorkloadSpreadSubset subset) {
        ObjectNode metadata = JsonNodeFactory.instance.objectNode();
        String ignore = ws.getMetadata() == null || ws.getMetadata().getAnnotations() == null ? null
                : ws.getMetadata().getAnnotations().get(WorkloadSpreads.IGNORE_PATCH_EXISTING_PODS_ANNOTATION);
        boolean ignored = ignore != null && ignore.toLowerCase(Locale.ROOT).equals("true");
        if (!ignored && subset.getPatch() != null && subset.getPatch().path("metadata").isObject()) {
            metadata = subset.getPatch().path("metadata").deepCopy();
        }
        String value = new MatchedWorkloadSpread(ws.getMetadata() == null ? "" : ws.getMetadata().getName(),
                subset.getName(), "").toAnnotationValue();
        if (metadata.path("annotations").isObject()) {
            ((ObjectNode) metadata.get("annotations")).put(WorkloadSpreads.MATCHED_ANNOTATION, value);
        } else {
            metadata.putObject("annotations").put(WorkloadSpreads.MATCHED_ANNOTATION, value);
        }
        ObjectNode patch = JsonNodeFactory.instance.objectNode();
        patch.set("metadata", metadata);
        return patch;
    }
}
