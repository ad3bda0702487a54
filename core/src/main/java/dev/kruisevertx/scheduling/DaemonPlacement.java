package dev.kruisevertx.scheduling;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a daemon pod (one per node: Advanced DaemonSet, BroadcastJob) may run, as kube's DaemonSet controller decides
 * it: the tolerations every daemon pod gets, the required affinity that pins a pod to its node so the scheduler places
 * it there, and whether a node should run (or keep running) the pod of a template.
 *
 * <p>A placement is built once per template ({@link #of(PodSpec)}) and judges any number of nodes; it never changes
 * the template it was given.
 */
public final class DaemonPlacement {
    /** The field of a node a {@code matchFields} requirement can name: its name. */
    public static final String NODE_NAME_FIELD = "metadata.name";

    public static final String TAINT_NOT_READY = "node.kubernetes.io/not-ready";
    public static final String TAINT_UNREACHABLE = "node.kubernetes.io/unreachable";
    public static final String TAINT_DISK_PRESSURE = "node.kubernetes.io/disk-pressure";
    public static final String TAINT_MEMORY_PRESSURE = "node.kubernetes.io/memory-pressure";
    public static final String TAINT_PID_PRESSURE = "node.kubernetes.io/pid-pressure";
    public static final String TAINT_UNSCHEDULABLE = "node.kubernetes.io/unschedulable";
    public static final String TAINT_NETWORK_UNAVAILABLE = "node.kubernetes.io/network-unavailable";

    /** Why a node does or does not get the daemon pod. */
    public enum Fit {
        /** Everything holds: the node should run the pod. */
        FITS(true, true),
        /** The template names another node in {@code nodeName}. */
        OTHER_NODE_NAME(false, false),
        /** The nodeSelector or the required node affinity does not match the node. */
        SELECTOR_OR_AFFINITY(false, false),
        /** A NoSchedule taint is not tolerated: no new pod, but a running one stays. */
        UNTOLERATED_NO_SCHEDULE(false, true),
        /** A NoExecute taint is not tolerated: no pod at all. */
        UNTOLERATED_NO_EXECUTE(false, false);

        private final boolean shouldRun;
        private final boolean shouldContinueRunning;

        Fit(boolean shouldRun, boolean shouldContinueRunning) {
            this.shouldRun = shouldRun;
            this.shouldContinueRunning = shouldContinueRunning;
        }

        /** A node without the pod should get one. */
        public boolean shouldRun() {
            return shouldRun;
        }

        /** A node that has the pod should keep it. */
        public boolean shouldContinueRunning() {
            return shouldContinueRunning;
        }
    }

    private final PodSpec effective;

    private DaemonPlacement(PodSpec effective) {
        this.effective = effective;
    }

    /** The placement of pods made from {@code templateSpec}: the template as its pods will be, tolerations added. */
    public static DaemonPlacement of(PodSpec templateSpec) {
        Objects.requireNonNull(templateSpec, "templateSpec");
        // A shallow view carrying only what placement reads, so judging a node never copies the whole template.
        PodSpec view = new PodSpec();
        view.setNodeName(templateSpec.getNodeName());
        view.setNodeSelector(templateSpec.getNodeSelector());
        view.setAffinity(templateSpec.getAffinity());
        view.setHostNetwork(templateSpec.getHostNetwork());
        view.setTolerations(withDaemonTolerations(templateSpec.getTolerations(), Boolean.TRUE.equals(templateSpec.getHostNetwork())));
        return new DaemonPlacement(view);
    }

    /** Judges one node (upstream's nodeShouldRunDaemonPod). */
    public Fit fit(Node node) {
        String nodeName = node.getMetadata() == null ? null : node.getMetadata().getName();
        String wanted = effective.getNodeName();
        if (wanted != null && !wanted.isEmpty() && !wanted.equals(nodeName)) {
            return Fit.OTHER_NODE_NAME;
        }
        if (!NodeMatching.matchesNodeSelectorAndAffinity(effective, node)) {
            return Fit.SELECTOR_OR_AFFINITY;
        }
        Optional<Taint> untolerated = NodeMatching.untoleratedTaint(effective, node);
        if (untolerated.isEmpty()) {
            return Fit.FITS;
        }
        for (Taint t : node.getSpec().getTaints()) {
            if ("NoExecute".equals(t.getEffect()) && !NodeMatching.tolerates(effective.getTolerations(), t)) {
                return Fit.UNTOLERATED_NO_EXECUTE;
            }
        }
        return Fit.UNTOLERATED_NO_SCHEDULE;
    }

    /** The tolerations pods of this template carry (the template's plus the daemon ones). */
    public List<Toleration> tolerations() {
        return effective.getTolerations();
    }

    /** Shorthand for {@code of(templateSpec).fit(node)}. */
    public static Fit fit(PodSpec templateSpec, Node node) {
        return of(templateSpec).fit(node);
    }

    /**
     * The tolerations every daemon pod gets on top of its own (kube's AddOrUpdateDaemonPodTolerations): it survives
     * not-ready and unreachable nodes (NoExecute, without a time limit) and is placed on nodes under disk, memory or
     * pid pressure or cordoned; a host-network pod also on nodes whose network is not set up yet. A toleration of the
     * template with the same key, operator, value and effect is replaced, so a time limit on it goes away.
     */
    public static List<Toleration> withDaemonTolerations(List<Toleration> own, boolean hostNetwork) {
        List<Toleration> out = own == null ? new ArrayList<>() : new ArrayList<>(own);
        addOrReplace(out, exists(TAINT_NOT_READY, "NoExecute"));
        addOrReplace(out, exists(TAINT_UNREACHABLE, "NoExecute"));
        addOrReplace(out, exists(TAINT_DISK_PRESSURE, "NoSchedule"));
        addOrReplace(out, exists(TAINT_MEMORY_PRESSURE, "NoSchedule"));
        addOrReplace(out, exists(TAINT_PID_PRESSURE, "NoSchedule"));
        addOrReplace(out, exists(TAINT_UNSCHEDULABLE, "NoSchedule"));
        if (hostNetwork) {
            addOrReplace(out, exists(TAINT_NETWORK_UNAVAILABLE, "NoSchedule"));
        }
        return out;
    }

    /** Sets the daemon tolerations on a spec the caller owns (a pod about to be created). */
    public static void addDaemonTolerations(PodSpec spec) {
        spec.setTolerations(withDaemonTolerations(spec.getTolerations(), Boolean.TRUE.equals(spec.getHostNetwork())));
    }

    /**
     * The affinity that binds a pod to {@code nodeName} through the scheduler (kube's
     * ReplaceDaemonSetPodNodeNameNodeAffinity): the required node affinity becomes the one term
     * {@code matchFields metadata.name In [nodeName]}, replacing whatever required terms were there (the controller
     * has already checked the node matches them); preferred node affinity and pod (anti-)affinity are kept. Returns a
     * new object; {@code existing} is not changed.
     */
    public static Affinity pinnedAffinity(Affinity existing, String nodeName) {
        Objects.requireNonNull(nodeName, "nodeName");
        NodeSelectorTerm term = new NodeSelectorTerm(null,
                List.of(new NodeSelectorRequirement(NODE_NAME_FIELD, "In", List.of(nodeName))));
        AffinityBuilder b = existing == null ? new AffinityBuilder() : new AffinityBuilder(existing);
        if (!b.hasNodeAffinity()) {
            b.withNewNodeAffinity().endNodeAffinity();
        }
        return b.editNodeAffinity()
                .withNewRequiredDuringSchedulingIgnoredDuringExecution().withNodeSelectorTerms(term)
                .endRequiredDuringSchedulingIgnoredDuringExecution()
                .endNodeAffinity().build();
    }

    /** Pins a spec the caller owns to {@code nodeName} (see {@link #pinnedAffinity}). */
    public static void pinToNode(PodSpec spec, String nodeName) {
        spec.setAffinity(pinnedAffinity(spec.getAffinity(), nodeName));
    }

    /** The node a daemon pod is for: its {@code nodeName}, else the name its pinning affinity names, else empty. */
    public static Optional<String> targetNode(PodSpec spec) {
        if (spec.getNodeName() != null && !spec.getNodeName().isEmpty()) {
            return Optional.of(spec.getNodeName());
        }
        if (spec.getAffinity() == null || spec.getAffinity().getNodeAffinity() == null
                || spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution() == null
                || spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms() == null) {
            return Optional.empty();
        }
        for (NodeSelectorTerm term : spec.getAffinity().getNodeAffinity().getRequiredDuringSchedulingIgnoredDuringExecution().getNodeSelectorTerms()) {
            if (term.getMatchFields() == null) {
                continue;
            }
            for (NodeSelectorRequirement r : term.getMatchFields()) {
                if (NODE_NAME_FIELD.equals(r.getKey()) && "In".equals(r.getOperator())
                        && r.getValues() != null && r.getValues().size() == 1) {
                    return Optional.of(r.getValues().get(0));
                }
            }
        }
        return Optional.empty();
    }

    /** A copy of {@code spec} as a daemon pod for {@code nodeName} placed by the scheduler: tolerations and pin. */
    public static PodSpec forNode(PodSpec spec, String nodeName) {
        PodSpec copy = new PodSpecBuilder(spec).build();
        addDaemonTolerations(copy);
        pinToNode(copy, nodeName);
        return copy;
    }

    private static Toleration exists(String key, String effect) {
        Toleration t = new Toleration();
        t.setKey(key);
        t.setOperator("Exists");
        t.setEffect(effect);
        return t;
    }

    private static void addOrReplace(List<Toleration> list, Toleration wanted) {
        for (int i = 0; i < list.size(); i++) {
            Toleration have = list.get(i);
            if (same(have.getKey(), wanted.getKey()) && same(have.getOperator(), wanted.getOperator())
                    && same(have.getValue(), wanted.getValue()) && same(have.getEffect(), wanted.getEffect())) {
                if (!Objects.equals(have, wanted)) {
                    list.set(i, wanted);
                }
                return;
            }
        }
        list.add(wanted);
    }

    private static boolean same(String a, String b) {
        return Objects.equals(a == null ? "" : a, b == null ? "" : b);
    }
}
