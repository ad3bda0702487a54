package dev.kruisevertx.broadcastjob;

import dev.kruisevertx.scheduling.NodeMatching;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Whether a BroadcastJob pod fits a node, as OpenKruise's checkNodeFitness judges it: the pod's nodeName, its
 * nodeSelector and required node affinity, NoSchedule/NoExecute taints it does not tolerate, an unschedulable node,
 * and requests beyond the node's allocatable resources (the node's other pods are not counted, as in OpenKruise).
 * Unlike a DaemonSet, no daemon tolerations are added: a not-ready node's taints keep a BroadcastJob pod off it.
 */
final class BroadcastJobNodeFit {
    static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

    private BroadcastJobNodeFit() {
    }

    /** Empty when the existing pod fits, else why not (for the debug plan). */
    static Optional<String> problem(PodSpec spec, Node node) {
        String name = node.getMetadata().getName();
        if (spec.getNodeName() != null && !spec.getNodeName().isEmpty() && !spec.getNodeName().equals(name)) {
            return Optional.of("node(s) didn't match the requested node name");
        }
        return problemIgnoringNodeName(spec, node);
    }

    /**
     * Whether a new pod from {@code template} fits {@code node}. OpenKruise judges a copy of the template with
     * {@code nodeName} set to the node, so the template's own nodeName never counts; judging the template itself
     * spares a deep copy of the pod spec per node.
     */
    static Optional<String> problemIgnoringNodeName(PodSpec spec, Node node) {
        if (!NodeMatching.matchesNodeSelectorAndAffinity(spec, node)) {
            return Optional.of("node(s) didn't match Pod's node affinity/selector");
        }
        Optional<Taint> taint = NodeMatching.untoleratedTaint(spec, node);
        if (taint.isPresent()) {
            return Optional.of("node(s) had taint {" + taint.get().getKey() + ": "
                    + (taint.get().getValue() == null ? "" : taint.get().getValue()) + "}, that the pod didn't tolerate");
        }
        if (node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable())
                && !NodeMatching.tolerates(spec.getTolerations(), new Taint("NoSchedule", UNSCHEDULABLE_TAINT, null, null))) {
            return Optional.of("node(s) were unschedulable");
        }
        Map<String, Quantity> allocatable = node.getStatus() == null ? null : node.getStatus().getAllocatable();
        if (allocatable != null) {
            for (String resource : List.of("cpu", "memory", "ephemeral-storage")) {
                BigDecimal request = request(spec, resource);
                Quantity available = allocatable.get(resource);
                if (request.signum() > 0 && available != null
                        && request.compareTo(Quantity.getAmountInBytes(available)) > 0) {
                    return Optional.of("Insufficient " + resource);
                }
            }
        }
        return Optional.empty();
    }

    /** The pod's effective request: the sum over containers, or the largest init container's when larger. */
    private static BigDecimal request(PodSpec spec, String resource) {
        BigDecimal sum = sum(spec.getContainers(), resource, false);
        BigDecimal init = sum(spec.getInitContainers(), resource, true);
        return sum.max(init);
    }

    private static BigDecimal sum(List<Container> containers, String resource, boolean max) {
        BigDecimal total = BigDecimal.ZERO;
        if (containers == null) {
            return total;
        }
        for (Container c : containers) {
            Quantity q = c.getResources() == null || c.getResources().getRequests() == null ? null
                    : c.getResources().getRequests().get(resource);
            if (q == null) {
                continue;
            }
            BigDecimal v;
            try {
                v = Quantity.getAmountInBytes(q);
            } catch (RuntimeException e) {
                continue; // the webhook refuses malformed quantities; an old object's is not held against a node
            }
            total = max ? total.max(v) : total.add(v);
        }
        return total;
    }

}
