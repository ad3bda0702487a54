package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.Toleration;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * kube-controller-manager's node lifecycle, taint eviction and pod garbage collection for the simulated nodes: a node
 * whose Lease is older than the grace period gets Ready (and the pressure conditions) {@code Unknown} and its pods
 * Ready=False; a node that is Ready=False or Unknown gets the {@code node.kubernetes.io/not-ready} or
 * {@code node.kubernetes.io/unreachable} taints (NoSchedule and NoExecute), removed when it is Ready again; a pod on
 * a node with a NoExecute taint it does not tolerate is deleted (with a DisruptionTarget condition), one that
 * tolerates it for {@code tolerationSeconds} is deleted that long (× the lifecycle time scale) after the taint came;
 * pods bound to a node removed through {@link SimNodes#removeNode} are deleted at once. Runs on the simulator's
 * thread; only nodes this simulator runs are judged.
 */
final class NodeLifecycle {
    private static final Logger LOG = LoggerFactory.getLogger(NodeLifecycle.class);
    static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";
    static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
    /** kube-controller-manager's --node-monitor-grace-period. */
    static final Duration NODE_MONITOR_GRACE_PERIOD = Duration.ofSeconds(40);

    private final KubernetesClient client;
    private final SimNodesOptions options;
    private final Supplier<Collection<String>> ownNodes;
    private final Function<String, Node> nodes;
    private final Function<String, Lease> leases;
    private final Supplier<Collection<Pod>> pods;
    /** When a NoExecute taint without timeAdded was first seen, per node and taint. */
    private final Map<String, Instant> taintSeen = new ConcurrentHashMap<>();
    private final Set<String> removedNodes = ConcurrentHashMap.newKeySet();
    private final Set<String> evicting = ConcurrentHashMap.newKeySet();

    NodeLifecycle(KubernetesClient client, SimNodesOptions options, Supplier<Collection<String>> ownNodes,
                  Function<String, Node> nodes, Function<String, Lease> leases, Supplier<Collection<Pod>> pods) {
        this.client = client;
        this.options = options;
        this.ownNodes = ownNodes;
        this.nodes = nodes;
        this.leases = leases;
        this.pods = pods;
    }

    /** How long a Lease may go unrenewed: the grace period × the time scale, but never under two heartbeats. */
    Duration gracePeriod() {
        Duration scaled = Duration.ofMillis((long) (NODE_MONITOR_GRACE_PERIOD.toMillis() * options.lifecycleTimeScale()));
        Duration floor = options.heartbeatInterval().multipliedBy(2);
        return scaled.compareTo(floor) < 0 ? floor : scaled;
    }

    void nodeRemoved(String name) {
        removedNodes.add(name);
    }

    /** One pass of the controllers. */
    void run(Instant now) {
        for (String name : ownNodes.get()) {
            Node node = nodes.apply(name);
            if (node == null) {
                continue;
            }
            try {
                node = monitor(node, now);
                reconcileTaints(node, now);
            } catch (KubernetesClientException e) {
                LOG.debug("sim-nodes: node lifecycle of {} failed ({}): {}", name, e.getCode(), SimNodes.reason(e));
            }
        }
        for (Pod pod : pods.get()) {
            try {
                evictIfTainted(pod, now);
            } catch (KubernetesClientException e) {
                LOG.debug("sim-nodes: taint eviction of {}/{} failed ({}): {}", pod.getMetadata().getNamespace(),
                        pod.getMetadata().getName(), e.getCode(), SimNodes.reason(e));
            }
        }
    }

    /** Marks the node Unknown when its Lease is stale; returns the node as it now is. */
    private Node monitor(Node node, Instant now) {
        String name = node.getMetadata().getName();
        Lease lease = leases.apply(name);
        Instant renewed = lease == null || lease.getSpec() == null || lease.getSpec().getRenewTime() == null
                ? null : lease.getSpec().getRenewTime().toInstant();
        if (renewed == null || Duration.between(renewed, now).compareTo(gracePeriod()) <= 0) {
            return node;
        }
        NodeCondition ready = readyCondition(node);
        if (ready != null && "Unknown".equals(ready.getStatus())) {
            return node;
        }
        String ts = Kubelet.ts(now);
        List<NodeCondition> unknown = new ArrayList<>();
        for (String type : List.of("Ready", "MemoryPressure", "DiskPressure", "PIDPressure")) {
            NodeCondition old = condition(node, type);
            unknown.add(new NodeConditionBuilder().withType(type).withStatus("Unknown").withReason("NodeStatusUnknown")
                    .withMessage("Kubelet stopped posting node status.").withLastTransitionTime(ts)
                    .withLastHeartbeatTime(old == null ? ts : old.getLastHeartbeatTime()).build());
        }
        String body = Serialization.asJson(Map.of("status", Map.of("conditions", unknown)));
        Node updated = client.nodes().withName(name).subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), body);
        LOG.info("sim-nodes: node {} stopped posting status; marked Unknown", name);
        markPodsNotReady(name, ts);
        return updated == null ? node : updated;
    }

    private void markPodsNotReady(String node, String ts) {
        for (Pod pod : pods.get()) {
            if (!node.equals(pod.getSpec().getNodeName()) || pod.getStatus() == null || pod.getStatus().getConditions() == null) {
                continue;
            }
            PodCondition ready = Kubelet.condition(pod.getStatus().getConditions(), "Ready");
            if (ready == null || "False".equals(ready.getStatus())) {
                continue;
            }
            Pod copy = new PodBuilder(pod).build();
            copy.getStatus().getConditions().replaceAll(c -> "Ready".equals(c.getType())
                    ? new PodConditionBuilder(c).withStatus("False").withLastTransitionTime(ts).build() : c);
            try {
                client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(copy).updateStatus();
            } catch (KubernetesClientException e) {
                // A newer version exists: the next pass looks again only if the node is still Unknown (it is not
                // judged again), so a missed pod keeps its last reported state, as after a lost kcm write.
                LOG.debug("sim-nodes: marking {} not ready failed ({})", pod.getMetadata().getName(), e.getCode());
            }
        }
    }

    /** Sets the lifecycle taints the node's Ready condition calls for, leaving every other taint alone. */
    private void reconcileTaints(Node node, Instant now) {
        NodeCondition ready = readyCondition(node);
        String status = ready == null ? "Unknown" : ready.getStatus();
        String wantKey = switch (status) {
            case "True" -> null;
            case "False" -> NOT_READY_TAINT;
            default -> UNREACHABLE_TAINT;
        };
        List<Taint> current = node.getSpec() == null || node.getSpec().getTaints() == null ? List.of() : node.getSpec().getTaints();
        List<Taint> next = new ArrayList<>();
        for (Taint t : current) {
            boolean lifecycle = NOT_READY_TAINT.equals(t.getKey()) || UNREACHABLE_TAINT.equals(t.getKey());
            if (!lifecycle || t.getKey().equals(wantKey)) {
                next.add(t);
            }
        }
        if (wantKey != null) {
            for (String effect : List.of("NoSchedule", "NoExecute")) {
                if (next.stream().noneMatch(t -> wantKey.equals(t.getKey()) && effect.equals(t.getEffect()))) {
                    TaintBuilder b = new TaintBuilder().withKey(wantKey).withEffect(effect);
                    if (effect.equals("NoExecute")) {
                        b.withTimeAdded(Kubelet.ts(now));
                    }
                    next.add(b.build());
                }
            }
        }
        if (next.equals(current)) {
            return;
        }
        String body = Serialization.asJson(Map.of("metadata", Map.of("resourceVersion", node.getMetadata().getResourceVersion()),
                "spec", Map.of("taints", next)));
        // A merge patch carrying the resourceVersion: a conflict means someone changed the taints meanwhile, and the
        // next pass works from their version.
        client.nodes().withName(node.getMetadata().getName()).patch(PatchContext.of(PatchType.JSON_MERGE), body);
        LOG.info("sim-nodes: node {} is Ready={}: lifecycle taints now {}", node.getMetadata().getName(), status,
                next.stream().filter(t -> Objects.equals(t.getKey(), wantKey)).map(t -> t.getKey() + ":" + t.getEffect()).toList());
    }

    private void evictIfTainted(Pod pod, Instant now) {
        String nodeName = pod.getSpec().getNodeName();
        if (nodeName == null || nodeName.isEmpty() || pod.getMetadata().getDeletionTimestamp() != null) {
            return;
        }
        if (removedNodes.contains(nodeName) && nodes.apply(nodeName) == null) {
            // The pod garbage collector's orphan rule: the node is gone, so is the pod, at once.
            delete(pod, 0L, "PodGC", "PodGC: node no longer exists");
            return;
        }
        if (!ownNodes.get().contains(nodeName)) {
            return;
        }
        Node node = nodes.apply(nodeName);
        if (node == null || node.getSpec() == null || node.getSpec().getTaints() == null) {
            return;
        }
        Instant deadline = null;
        for (Taint t : node.getSpec().getTaints()) {
            if (!"NoExecute".equals(t.getEffect())) {
                continue;
            }
            Toleration tol = toleration(pod, t);
            if (tol == null) {
                delete(pod, null, "DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint");
                return;
            }
            if (tol.getTolerationSeconds() != null) {
                Instant added = added(nodeName, t, now);
                long ms = (long) (Math.max(0, tol.getTolerationSeconds()) * 1000 * options.lifecycleTimeScale());
                Instant d = added.plusMillis(ms);
                deadline = deadline == null || d.isBefore(deadline) ? d : deadline;
            }
        }
        if (deadline != null && !now.isBefore(deadline)) {
            delete(pod, null, "DeletionByTaintManager", "Taint manager: deleting due to NoExecute taint");
        }
    }

    private Instant added(String node, Taint t, Instant now) {
        if (t.getTimeAdded() != null) {
            try {
                return Instant.parse(t.getTimeAdded());
            } catch (java.time.format.DateTimeParseException e) {
                // Fall through to when it was first seen.
            }
        }
        return taintSeen.computeIfAbsent(node + "/" + t.getKey() + "=" + t.getValue(), k -> now);
    }

    /** The pod's toleration that matches a NoExecute taint, preferring one without a time limit. */
    private static Toleration toleration(Pod pod, Taint taint) {
        if (pod.getSpec().getTolerations() == null) {
            return null;
        }
        Toleration found = null;
        for (Toleration t : pod.getSpec().getTolerations()) {
            Pod one = new PodBuilder().withNewSpec().withTolerations(t).endSpec().build();
            if (NodeFit.tolerates(one, taint)) {
                if (t.getTolerationSeconds() == null) {
                    return t;
                }
                if (found == null || t.getTolerationSeconds() > found.getTolerationSeconds()) {
                    found = t;
                }
            }
        }
        return found;
    }

    private void delete(Pod pod, Long grace, String reason, String message) {
        String uid = pod.getMetadata().getUid();
        if (!evicting.add(uid)) {
            return;
        }
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        try {
            Map<String, Object> condition = Map.of("type", "DisruptionTarget", "status", "True", "reason", reason,
                    "message", message, "lastTransitionTime", Kubelet.ts(Instant.now()));
            client.pods().inNamespace(ns).withName(name).subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                    Serialization.asJson(Map.of("status", Map.of("conditions", List.of(condition)))));
            var op = client.pods().inNamespace(ns).withName(name);
            if (grace != null) {
                op.withGracePeriod(grace).delete();
            } else {
                op.delete();
            }
            LOG.info("sim-nodes: {} deleted pod {}/{}", reason, ns, name);
        } catch (KubernetesClientException e) {
            if (!ApiErrors.isNotFound(e)) {
                evicting.remove(uid);
                throw e;
            }
        }
    }

    void forgetPod(String uid) {
        evicting.remove(uid);
    }

    private static NodeCondition readyCondition(Node node) {
        return condition(node, "Ready");
    }

    private static NodeCondition condition(Node node, String type) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return null;
        }
        return node.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }
}
