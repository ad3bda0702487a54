package dev.kruisevertx.revision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * What every workload reads from and does to its ControllerRevisions: the pod template a revision holds, and which
 * old revisions to delete to keep the history within {@code revisionHistoryLimit}.
 */
public final class RevisionHistory {
    /** The strategic-merge directive OpenKruise stores in the template ({@code "$patch":"replace"}). */
    public static final String PATCH_DIRECTIVE = "$patch";

    private RevisionHistory() {
    }

    /**
     * The pod template a revision holds as JSON: its {@code data.spec.template} as OpenKruise's CloneSet and Advanced
     * StatefulSet store it (without the {@code $patch} directive), or {@code data} itself when it is a template.
     *
     * @throws IllegalArgumentException naming the revision when its data holds no template
     */
    public static ObjectNode templateJson(ControllerRevision revision) {
        String name = revision.getMetadata() == null ? null : revision.getMetadata().getName();
        Object data = revision.getData();
        if (data == null) {
            throw new IllegalArgumentException("ControllerRevision " + name + " has no data");
        }
        JsonNode node;
        try {
            node = data instanceof String s ? ApiJson.serialization().unmarshal(s, JsonNode.class)
                    : ApiJson.serialization().convertValue(data, JsonNode.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("ControllerRevision " + name + " data is not JSON: " + e.getMessage(), e);
        }
        JsonNode template = node.path("spec").path("template");
        if (!template.isObject()) {
            if (node.path("spec").path("containers").isArray()) {
                template = node;
            } else {
                throw new IllegalArgumentException("ControllerRevision " + name + " data has no spec.template");
            }
        }
        ObjectNode copy = ((ObjectNode) template).deepCopy();
        copy.remove(PATCH_DIRECTIVE);
        dropEmptyResources(copy.path("spec"));
        return copy;
    }

    /**
     * Go writes {@code resources: {}} for every container without resources (revision data in OpenKruise's form);
     * the template read back leaves it out, as the workload's own template does.
     */
    private static void dropEmptyResources(JsonNode spec) {
        for (String list : new String[]{"containers", "initContainers", "ephemeralContainers"}) {
            for (JsonNode c : spec.path(list)) {
                if (c instanceof ObjectNode o && o.path("resources").isObject() && o.path("resources").isEmpty()) {
                    o.remove("resources");
                }
            }
        }
    }

    /** {@link #templateJson} as a pod template. */
    public static PodTemplateSpec templateOf(ControllerRevision revision) {
        ObjectNode json = templateJson(revision);
        try {
            return ApiJson.serialization().convertValue(json, PodTemplateSpec.class);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("ControllerRevision " + revision.getMetadata().getName()
                    + " holds an invalid pod template: " + e.getMessage(), e);
        }
    }

    /**
     * The revisions to delete so that at most {@code limit} non-live revisions remain, oldest first: OpenKruise's
     * {@code truncateHistory} for CloneSet and Advanced StatefulSet alike. What counts as live (the current and
     * update revisions, those pods run) is the workload's rule.
     *
     * @param sorted the history in the workload's order, oldest first
     */
    public static List<ControllerRevision> toPrune(List<ControllerRevision> sorted, Predicate<ControllerRevision> live,
                                                   int limit) {
        List<ControllerRevision> history = new ArrayList<>();
        for (ControllerRevision r : sorted) {
            if (!live.test(r)) {
                history.add(r);
            }
        }
        int excess = history.size() - Math.max(limit, 0);
        return excess <= 0 ? List.of() : history.subList(0, excess);
    }
}
