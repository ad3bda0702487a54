package dev.kruisevertx.podprobemarker;

import dev.kruisevertx.api.apps.v1alpha1.NodePodProbeSpec;
import dev.kruisevertx.controller.PlanSummary;

import java.util.List;
import java.util.Map;

/**
 * What the podprobemarker controller does for one PodProbeMarker: its finalizer, the NodePodProbe specs to write (or
 * create), the marks of serverless pods, and the status; {@code reason} says why in one line, {@code holds} what
 * keeps it from doing anything (for {@code kubectl kruise why}).
 */
public record PodProbeMarkerPlan(boolean addFinalizer, boolean removeFinalizer, List<NodeWrite> nodeWrites,
                                 List<PodMarks> serverlessMarks, Status status, String reason,
                                 List<dev.kruisevertx.controller.reason.BlockReason> holds) {

    public PodProbeMarkerPlan(boolean addFinalizer, boolean removeFinalizer, List<NodeWrite> nodeWrites,
                              List<PodMarks> serverlessMarks, Status status, String reason) {
        this(addFinalizer, removeFinalizer, nodeWrites, serverlessMarks, status, reason, List.of());
    }

    /** A NodePodProbe to create (no resourceVersion) or to update over the resourceVersion it was computed from. */
    public record NodeWrite(String node, boolean create, String resourceVersion, NodePodProbeSpec spec) {
    }

    /** Labels and annotations to set on a serverless pod, from its condition and the marker policies. */
    public record PodMarks(String namespace, String name, Map<String, String> labels,
                           Map<String, String> annotations) {
    }

    /** The status to write. */
    public record Status(long observedGeneration, long matchedPods) {
    }

    public boolean isEmpty() {
        return !addFinalizer && !removeFinalizer && nodeWrites.isEmpty() && serverlessMarks.isEmpty() && status == null;
    }

    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(reason).reasons(holds)
                .count("nodePodProbeWrites", nodeWrites.size())
                .count("serverlessPodMarks", serverlessMarks.size());
        if (addFinalizer) {
            b.action("add finalizer");
        }
        nodeWrites.forEach(w -> b.action((w.create() ? "create" : "update") + " NodePodProbe " + w.node()));
        serverlessMarks.forEach(m -> b.action("mark serverless pod " + m.namespace() + "/" + m.name()));
        if (status != null) {
            b.action("status matchedPods=" + status.matchedPods());
        }
        if (removeFinalizer) {
            b.action("remove finalizer");
        }
        return b.build();
    }
}
