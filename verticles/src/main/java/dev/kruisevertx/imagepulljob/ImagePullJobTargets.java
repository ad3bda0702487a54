package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJobNodeSelector;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobTemplate;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.podutil.LabelSelectors;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The NodeImages an image pull job targets, as OpenKruise's GetNodeImagesForJob picks them: with a {@code podSelector},
 * the nodes of the job namespace's active, scheduled pods that match (in pod order, each node once); without a
 * selector every NodeImage; with {@code selector.names} those that exist, in the order given; else those whose labels
 * (the node's, copied by the nodeimage controller) match. A node without a NodeImage is not a target.
 */
public final class ImagePullJobTargets {
    private ImagePullJobTargets() {
    }

    /**
     * @param nodeImages every NodeImage, by name
     * @param pods       the pods of the job's namespace (read only with a podSelector)
     */
    public static List<NodeImage> of(ImagePullJobTemplate spec, String namespace, Map<String, NodeImage> nodeImages,
                                     List<Pod> pods) {
        if (spec.getPodSelector() != null) {
            Predicate<Map<String, String>> matches = LabelSelectors.compile(spec.getPodSelector().labelSelector());
            Set<String> nodes = new LinkedHashSet<>();
            for (Pod pod : pods) {
                if (!namespace.equals(pod.getMetadata().getNamespace()) || !active(pod)
                        || !matches.test(pod.getMetadata().getLabels())) {
                    continue;
                }
                nodes.add(pod.getSpec().getNodeName());
            }
            List<NodeImage> out = new ArrayList<>();
            for (String node : nodes) {
                NodeImage image = nodeImages.get(node);
                if (image != null) {
                    out.add(image);
                }
            }
            return out;
        }
        ImagePullJobNodeSelector selector = spec.getSelector();
        if (selector == null) {
            return sorted(nodeImages.values(), n -> true);
        }
        if (selector.getNames() != null) {
            List<NodeImage> out = new ArrayList<>();
            for (String name : new LinkedHashSet<>(selector.getNames())) {
                NodeImage image = nodeImages.get(name);
                if (image != null) {
                    out.add(image);
                }
            }
            return out;
        }
        Predicate<Map<String, String>> matches = LabelSelectors.compile(selector.labelSelector());
        return sorted(nodeImages.values(), n -> matches.test(n.getMetadata().getLabels()));
    }

    /** OpenKruise's IsPodActive plus a node: not finished, not being deleted, scheduled. */
    static boolean active(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return !"Succeeded".equals(phase) && !"Failed".equals(phase)
                && pod.getMetadata().getDeletionTimestamp() == null
                && pod.getSpec() != null && pod.getSpec().getNodeName() != null
                && !pod.getSpec().getNodeName().isEmpty();
    }

    private static List<NodeImage> sorted(Iterable<NodeImage> all, Predicate<NodeImage> keep) {
        List<NodeImage> out = new ArrayList<>();
        for (NodeImage n : all) {
            if (keep.test(n)) {
                out.add(n);
            }
        }
        // A list call returns names in order; the cache does not, and the parallelism picks the first ones.
        out.sort(Comparator.comparing(n -> n.getMetadata().getName()));
        return out;
    }
}
