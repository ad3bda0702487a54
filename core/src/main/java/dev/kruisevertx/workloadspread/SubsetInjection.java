package dev.kruisevertx.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.kube.StrategicMergePatch;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.NodeAffinity;
import io.fabric8.kubernetes.api.model.NodeSelector;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Toleration;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a pod admitted into a subset gets, in OpenKruise's order: the subset's tolerations and preferred node terms
 * appended; its required term as the pod's only required term, or its expressions and fields appended to each of
 * the pod's own required terms; then the subset's {@code patch} applied as a strategic merge patch (a changed
 * {@code priorityClassName} drops the resolved {@code priority}); last the
 * {@value WorkloadSpreads#MATCHED_ANNOTATION} annotation. Like OpenKruise, the pod always ends up with an
 * {@code affinity.nodeAffinity}, empty when the subset has no node terms.
 */
public final class SubsetInjection {
    private SubsetInjection() {
    }

    /**
     * The pod with the subset applied; the given pod is not modified. Returns the pod unchanged (a copy, no
     * annotation) when the WorkloadSpread has no subset of that name.
     *
     * @param generatedUid the id the creation was recorded under, "" when recorded by name or not at all
     * @throws IllegalArgumentException when the patch is not a JSON object or the patched pod is not a valid pod
     */
    public static Pod apply(WorkloadSpread ws, Pod pod, String subsetName, String generatedUid) {
        Pod out = ApiJson.serialization().clone(pod);
        WorkloadSpreadSubset subset = WorkloadSpreads.subset(ws, subsetName);
        if (subset == null) {
            return out;
        }
        if (out.getSpec() == null) {
            out.setSpec(new PodSpec());
        }
        PodSpec spec = out.getSpec();
        if (subset.getTolerations() != null && !subset.getTolerations().isEmpty()) {
            List<Toleration> tolerations = spec.getTolerations() == null ? new ArrayList<>()
                    : new ArrayList<>(spec.getTolerations());
            tolerations.addAll(copy(subset.getTolerations()));
            spec.setTolerations(tolerations);
        }
        if (spec.getAffinity() == null) {
            spec.setAffinity(new Affinity());
        }
        if (spec.getAffinity().getNodeAffinity() == null) {
            spec.getAffinity().setNodeAffinity(new NodeAffinity());
        }
        NodeAffinity nodeAffinity = spec.getAffinity().getNodeAffinity();
        if (subset.getPreferredNodeSelectorTerms() != null && !subset.getPreferredNodeSelectorTerms().isEmpty()) {
            List<PreferredSchedulingTerm> preferred = nodeAffinity.getPreferredDuringSchedulingIgnoredDuringExecution()
                    == null ? new ArrayList<>()
                    : new ArrayList<>(nodeAffinity.getPreferredDuringSchedulingIgnoredDuringExecution());
            preferred.addAll(copy(subset.getPreferredNodeSelectorTerms()));
            nodeAffinity.setPreferredDuringSchedulingIgnoredDuringExecution(preferred);
        }
        if (subset.getRequiredNodeSelectorTerm() != null) {
            addRequiredTerm(nodeAffinity, subset.getRequiredNodeSelectorTerm());
        }
        if (subset.getPatch() != null && !subset.getPatch().isNull()) {
            out = patched(out, subset.getPatch());
        }
        ObjectMeta meta = out.getMetadata() == null ? new ObjectMeta() : out.getMetadata();
        out.setMetadata(meta);
        Map<String, String> annotations = meta.getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(meta.getAnnotations());
        annotations.put(WorkloadSpreads.MATCHED_ANNOTATION,
                new MatchedWorkloadSpread(wsName(ws), subsetName, generatedUid).toAnnotationValue());
        meta.setAnnotations(annotations);
        return out;
    }

    /** The subset's required term joined into the pod's: every pod term must also satisfy the subset's. */
    static void addRequiredTerm(NodeAffinity nodeAffinity, NodeSelectorTerm subsetTerm) {
        NodeSelector required = nodeAffinity.getRequiredDuringSchedulingIgnoredDuringExecution();
        if (required == null) {
            required = new NodeSelector();
            nodeAffinity.setRequiredDuringSchedulingIgnoredDuringExecution(required);
        }
        List<NodeSelectorTerm> terms = required.getNodeSelectorTerms();
        if (terms == null || terms.isEmpty()) {
            required.setNodeSelectorTerms(new ArrayList<>(List.of(copy(subsetTerm))));
            return;
        }
        for (NodeSelectorTerm term : terms) {
            term.setMatchExpressions(joined(term.getMatchExpressions(), subsetTerm.getMatchExpressions()));
            term.setMatchFields(joined(term.getMatchFields(), subsetTerm.getMatchFields()));
        }
    }

    private static List<NodeSelectorRequirement> joined(List<NodeSelectorRequirement> own,
                                                        List<NodeSelectorRequirement> added) {
        List<NodeSelectorRequirement> out = own == null ? new ArrayList<>() : new ArrayList<>(own);
        if (added != null) {
            out.addAll(copy(added));
        }
        return out;
    }

    private static Pod patched(Pod pod, JsonNode patch) {
        if (!patch.isObject()) {
            throw new IllegalArgumentException("the subset patch must be a JSON object");
        }
        JsonNode before = ApiJson.serialization().convertValue(pod, JsonNode.class);
        ObjectNode after = StrategicMergePatch.apply(before, (ObjectNode) patch);
        Pod result;
        try {
            result = ApiJson.serialization().convertValue(after, Pod.class);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the subset patch does not give a valid pod: " + e.getMessage(), e);
        }
        String oldClass = pod.getSpec() == null ? null : pod.getSpec().getPriorityClassName();
        if (result.getSpec() != null && !Objects.equals(nullToEmpty(oldClass),
                nullToEmpty(result.getSpec().getPriorityClassName()))) {
            result.getSpec().setPriority(null);
        }
        return result;
    }

    private static String wsName(WorkloadSpread ws) {
        return ws.getMetadata() == null ? "" : ws.getMetadata().getName();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    private static <T> T copy(T value) {
        return ApiJson.serialization().clone(value);
    }

    private static <T> List<T> copy(List<T> values) {
        List<T> out = new ArrayList<>(values.size());
        for (T v : values) {
            out.add(copy(v));
        }
        return out;
    }
}
