package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.scheduling.DaemonPlacement;
import dev.kruisevertx.scheduling.NodeMatching;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Taint;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * BroadcastJob's promises, from its pods, its jobs and the nodes: never two pods of one job for one node
 * ({@code bcj-one-pod-per-node}, terminating pods included: the controller waits for them), never more active pods
 * than {@code parallelism} ({@code bcj-parallelism}), and no pod created for a node its template does not fit
 * ({@code bcj-node-fit}: nodeSelector, required affinity, untolerated NoSchedule/NoExecute taints, unschedulable; a
 * node that changed in the last {@link #NODE_CHANGE_GRACE_MS} is not judged, the controller may not have seen it yet).
 */
public final class BroadcastJobInvariant extends RuleInvariant {
    public static final String ONE_POD_PER_NODE = "bcj-one-pod-per-node";
    public static final String PARALLELISM = "bcj-parallelism";
    public static final String NODE_FIT = "bcj-node-fit";
    static final long NODE_CHANGE_GRACE_MS = 5_000;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final Map<String, JsonNode> jobs = new HashMap<>();
    private final Map<String, Node> nodes = new HashMap<>();
    private final Map<String, Long> nodeChangedAt = new HashMap<>();
    /** Per job uid: pod uid to the node it is for. */
    private final Map<String, Map<String, String>> podNodes = new HashMap<>();
    /** Per job uid: uids of its active pods. */
    private final Map<String, Set<String>> active = new HashMap<>();

    /** The invariant that checks {@code rule} (one of the names above). */
    BroadcastJobInvariant(String rule) {
        super(rule);
    }

    /** Every rule, one invariant each (so each has its own count). */
    static java.util.List<Invariant> all() {
        return java.util.List.of(new BroadcastJobInvariant(ONE_POD_PER_NODE), new BroadcastJobInvariant(PARALLELISM), new BroadcastJobInvariant(NODE_FIT));
    }

    @Override
    public void onObject(PodEvent.Type type, JsonNode object, long atMillis, Violations out) {
        String kind = object.path("kind").asText();
        if ("Node".equals(kind)) {
            String name = object.at("/metadata/name").asText();
            if (type == PodEvent.Type.DELETED) {
                nodes.remove(name);
                return;
            }
            Node node = MAPPER.convertValue(object, Node.class);
            Node before = nodes.put(name, node);
            if (before == null || !java.util.Objects.equals(before.getMetadata().getLabels(), node.getMetadata().getLabels())
                    || !java.util.Objects.equals(before.getSpec(), node.getSpec())) {
                nodeChangedAt.put(name, atMillis);
            }
        } else if ("BroadcastJob".equals(kind) && object.path("apiVersion").asText().startsWith("apps.kruise.io/")) {
            String uid = ClusterView.uid(object);
            if (type == PodEvent.Type.DELETED) {
                jobs.remove(uid);
                podNodes.remove(uid);
                active.remove(uid);
            } else {
                jobs.put(uid, object);
            }
        }
    }

    @Override
    public void onPod(PodEvent event, ClusterView view, Violations out) {
        JsonNode pod = event.pod();
        String job = jobUid(pod);
        if (job == null) {
            return;
        }
        String uid = ClusterView.uid(pod);
        String key = ClusterView.key(pod);
        Map<String, String> byPod = podNodes.computeIfAbsent(job, k -> new HashMap<>());
        Set<String> activePods = active.computeIfAbsent(job, k -> new HashSet<>());
        if (event.type() == PodEvent.Type.DELETED) {
            byPod.remove(uid);
            activePods.remove(uid);
            return;
        }
        PodSpec spec = MAPPER.convertValue(pod.path("spec"), PodSpec.class);
        String node = DaemonPlacement.targetNode(spec == null ? new PodSpec() : spec).orElse("");
        boolean isNew = !byPod.containsKey(uid);
        byPod.put(uid, node);
        if (isNew) {
            long others = byPod.entrySet().stream().filter(e -> !e.getKey().equals(uid) && e.getValue().equals(node))
                    .count();
            if (others > 0) {
                report(out, new Violation(ONE_POD_PER_NODE, key, (others + 1) + " pods of one BroadcastJob for node "
                        + node, event.atMillis()));
            }
            Optional<String> misfit = misfit(spec, node, event.atMillis());
            misfit.ifPresent(m -> report(out, new Violation(NODE_FIT, key, "created for node " + node + ", which "
                    + m, event.atMillis())));
        }
        if (ClusterView.active(pod)) {
            if (activePods.add(uid)) {
                int limit = parallelism(jobs.get(job));
                if (activePods.size() > limit) {
                    report(out, new Violation(PARALLELISM, key, activePods.size() + " active pods, parallelism allows "
                            + limit, event.atMillis()));
                }
            }
        } else {
            activePods.remove(uid);
        }
    }

    /** Why a new pod must not be on {@code node}, if the node is known and did not change just now. */
    private Optional<String> misfit(PodSpec spec, String nodeName, long atMillis) {
        Node node = nodes.get(nodeName);
        Long changed = nodeChangedAt.get(nodeName);
        if (node == null || spec == null || changed == null || atMillis - changed < NODE_CHANGE_GRACE_MS) {
            return Optional.empty();
        }
        if (!NodeMatching.matchesNodeSelectorAndAffinity(spec, node)) {
            return Optional.of("does not match its node selector or affinity");
        }
        Optional<Taint> taint = NodeMatching.untoleratedTaint(spec, node);
        if (taint.isPresent()) {
            return Optional.of("has the untolerated taint " + taint.get().getKey());
        }
        if (node.getSpec() != null && Boolean.TRUE.equals(node.getSpec().getUnschedulable())
                && !NodeMatching.tolerates(spec.getTolerations(),
                new Taint("NoSchedule", DaemonPlacement.TAINT_UNSCHEDULABLE, null, null))) {
            return Optional.of("is unschedulable");
        }
        return Optional.empty();
    }

    /**
     * The job's parallelism; a percentage of the desired nodes, rounded up, taken of the larger of the status and
     * the nodes known (the lenient side, so only a real breach is reported). Unknown job or unset: unlimited.
     */
    private int parallelism(JsonNode job) {
        if (job == null) {
            return Integer.MAX_VALUE;
        }
        JsonNode p = job.at("/spec/parallelism");
        if (p.isMissingNode() || p.isNull()) {
            return Integer.MAX_VALUE;
        }
        if (p.isTextual() && p.asText().endsWith("%")) {
            int desired = Math.max(job.at("/status/desired").asInt(0), nodes.size());
            try {
                return WorkloadKind.scaled(p.asText(), desired);
            } catch (NumberFormatException e) {
                return Integer.MAX_VALUE;
            }
        }
        return p.isNumber() ? p.asInt() : Integer.MAX_VALUE;
    }

    private static String jobUid(JsonNode pod) {
        for (JsonNode ref : pod.at("/metadata/ownerReferences")) {
            if (ref.path("controller").asBoolean(false) && "BroadcastJob".equals(ref.path("kind").asText())
                    && ref.path("apiVersion").asText().startsWith("apps.kruise.io/")) {
                return ref.path("uid").asText();
            }
        }
        return null;
    }
}
