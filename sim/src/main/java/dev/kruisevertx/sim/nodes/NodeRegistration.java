package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import static dev.kruisevertx.sim.nodes.SimNodes.NODE_LEASE_NAMESPACE;
import static dev.kruisevertx.sim.nodes.SimNodes.SIMULATED_LABEL;
import static dev.kruisevertx.sim.nodes.SimNodes.reason;

/**
 * The node side of each simulated kubelet: registers its Node (labels, capacity, addresses, conditions), keeps
 * the Node's conditions fresh and renews its Lease in {@code kube-node-lease}, as a real kubelet's status and
 * lease loops do.
 */
final class NodeRegistration {
    private static final Logger LOG = LoggerFactory.getLogger(NodeRegistration.class);
    private static final int LEASE_DURATION_SECONDS = 40;
    private static final DateTimeFormatter MICRO_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);

    private final KubernetesClient client;
    private final SimNodesOptions options;
    /** Node name to its number, which picks its zone, pod CIDR and host IP; nodes come and go at run time. */
    private final Map<String, Integer> nodeIndex = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, NodeHealth> health = new java.util.concurrent.ConcurrentHashMap<>();
    /** Labels given when a node was added at run time, over the defaults. */
    private final Map<String, Map<String, String>> addedLabels = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.concurrent.atomic.AtomicInteger nextIndex = new java.util.concurrent.atomic.AtomicInteger();
    /** For patches, which carry no resourceVersion: conflicts are retried too. */
    private final ApiRetry retry = new ApiRetry(5, java.time.Duration.ofMillis(100), true);
    private final ApiRetry transientRetry;
    /** The node as the informer last saw it (null before it synced), for the conditions' transition times. */
    private final Function<String, Node> lastSeen;
    private final BooleanSupplier closed;

    NodeRegistration(KubernetesClient client, SimNodesOptions options, ApiRetry transientRetry,
                     Function<String, Node> lastSeen, BooleanSupplier closed) {
        this.client = client;
        this.options = options;
        this.transientRetry = transientRetry;
        this.lastSeen = lastSeen;
        this.closed = closed;
        for (int i = 0; i < options.nodes(); i++) {
            nodeIndex.put(options.namePrefix() + i, i);
            health.put(options.namePrefix() + i, NodeHealth.READY);
        }
        nextIndex.set(options.nodes());
    }

    Map<String, Integer> nodeIndex() {
        return nodeIndex;
    }

    /** The node names, in the order they were added. */
    List<String> names() {
        return nodeIndex.entrySet().stream().sorted(Map.Entry.comparingByValue()).map(Map.Entry::getKey).toList();
    }

    NodeHealth health(String node) {
        return health.getOrDefault(node, NodeHealth.READY);
    }

    /** Creates each node (or, when it exists from an earlier run, reports its status again) and its Lease. */
    void registerAll() {
        for (String name : names()) {
            register(name);
        }
    }

    /**
     * Adds a node at run time, as a new kubelet joining: {@code labels} go over the default ones (a null value
     * removes one). Blocking.
     *
     * @throws IllegalArgumentException when a node of that name is already simulated here
     */
    void add(String name, Map<String, String> labels) {
        int i = nextIndex.getAndIncrement();
        if (nodeIndex.putIfAbsent(name, i) != null) {
            throw new IllegalArgumentException("node " + name + " is already simulated");
        }
        health.put(name, NodeHealth.READY);
        addedLabels.put(name, new java.util.HashMap<>(labels));
        try {
            register(name);
        } catch (RuntimeException e) {
            forget(name);
            throw e;
        }
    }

    /** Stops simulating a node (its kubelet is gone); the caller deletes the Node. */
    void forget(String name) {
        nodeIndex.remove(name);
        health.remove(name);
        addedLabels.remove(name);
    }

    /** Changes how a node's kubelet behaves; a reachable node reports its new state at once. */
    void setHealth(String name, NodeHealth h) {
        if (!nodeIndex.containsKey(name)) {
            throw new IllegalArgumentException("no simulated node " + name);
        }
        health.put(name, h);
        if (h != NodeHealth.UNREACHABLE) {
            beat(name, Kubelet.ts(Instant.now()));
        }
    }

    private void register(String name) {
        int i = nodeIndex.get(name);
        Map<String, String> labels = new TreeMap<>(options.extraNodeLabels());
        labels.put("kubernetes.io/hostname", name);
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("topology.kubernetes.io/zone", options.zones().get(i % options.zones().size()));
        labels.put("topology.kubernetes.io/region", "sim-region");
        labels.put("node.kubernetes.io/instance-type", "sim");
        labels.put(SIMULATED_LABEL, "true");
        addedLabels.getOrDefault(name, Map.of()).forEach((k, v) -> {
            if (v == null) {
                labels.remove(k);
            } else {
                labels.put(k, v);
            }
        });
        NodeStatus status = nodeStatus(name, i, null);
        Node node = new NodeBuilder().withNewMetadata().withName(name).withLabels(labels)
                .addToAnnotations("node.alpha.kubernetes.io/ttl", "0").endMetadata()
                .withNewSpec().withPodCIDR("10.244." + i + ".0/24").withPodCIDRs("10.244." + i + ".0/24")
                .withProviderID("kruise-sim://" + name).endSpec()
                .withStatus(status).build();
        try {
            transientRetry.call("registering node " + name, () -> client.nodes().resource(node).create());
        } catch (KubernetesClientException ex) {
            if (!ApiErrors.isConflict(ex)) {
                throw ex;
            }
            // Registered before (an earlier run): as a restarted kubelet, report its status again, keeping the
            // transition times of conditions whose status stays.
            status = nodeStatus(name, i, client.nodes().withName(name).get());
        }
        // A patch, not read-modify-write: kube-controller-manager writes new nodes right away (taints, podCIDR,
        // annotations), and a PUT over the version just read would conflict with it.
        patchNodeStatus(name, status);
        renewLease(name);
    }

    private void patchNodeStatus(String name, NodeStatus status) {
        String body = Serialization.asJson(Map.of("status", status));
        retry.call("status of node " + name, () -> client.nodes().withName(name).subresource("status")
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), body));
    }

    /**
     * The node's status as its kubelet reports it; {@code current} (may be null) is the node as last seen, whose
     * conditions keep their transition times while their status stays.
     */
    private NodeStatus nodeStatus(String name, int i, Node current) {
        Map<String, Quantity> capacity = new TreeMap<>();
        capacity.put("cpu", new Quantity(options.cpu()));
        capacity.put("memory", new Quantity(options.memory()));
        capacity.put("pods", new Quantity(Integer.toString(options.maxPods())));
        capacity.put("ephemeral-storage", new Quantity("100Gi"));
        return new NodeStatusBuilder().withCapacity(capacity).withAllocatable(capacity)
                .withConditions(kubeletConditions(current, Kubelet.ts(Instant.now()), health(name)))
                .addNewAddress().withType("InternalIP").withAddress(hostIp(i)).endAddress()
                .addNewAddress().withType("Hostname").withAddress(name).endAddress()
                .withNewDaemonEndpoints().withNewKubeletEndpoint().withPort(10250).endKubeletEndpoint().endDaemonEndpoints()
                .withNewNodeInfo().withArchitecture("amd64").withOperatingSystem("linux").withOsImage("kruise-vertx simulated node")
                .withKernelVersion("6.1.0-sim").withKubeletVersion("v1.32.0-sim").withKubeProxyVersion("v1.32.0-sim")
                .withContainerRuntimeVersion("containerd://1.7.0-sim").withMachineID(name).withSystemUUID(name).withBootID(name)
                .endNodeInfo().build();
    }

    /**
     * The conditions a kubelet owns, as a healthy kubelet reports them on every status update: no pressure, Ready.
     * Written by type (strategic merge), so conditions other components own (NetworkUnavailable, ...) stay, and a
     * Ready=Unknown set by the node lifecycle controller is replaced, as a real kubelet's next update does.
     */
    private static List<NodeCondition> kubeletConditions(Node current, String now, NodeHealth health) {
        List<NodeCondition> out = new ArrayList<>();
        out.add(kubeletCondition(current, "MemoryPressure", "False", "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available", now));
        out.add(kubeletCondition(current, "DiskPressure", "False", "KubeletHasNoDiskPressure",
                "kubelet has no disk pressure", now));
        out.add(kubeletCondition(current, "PIDPressure", "False", "KubeletHasSufficientPID",
                "kubelet has sufficient PID available", now));
        if (health == NodeHealth.NOT_READY) {
            out.add(kubeletCondition(current, "Ready", "False", "KubeletNotReady",
                    "container runtime is down", now));
        } else {
            out.add(kubeletCondition(current, "Ready", "True", "KubeletReady", "kubelet is posting ready status", now));
        }
        return out;
    }

    private static NodeCondition kubeletCondition(Node current, String type, String status, String reason,
                                                  String message, String now) {
        NodeCondition old = current == null || current.getStatus() == null || current.getStatus().getConditions() == null
                ? null : current.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
        String transition = old != null && status.equals(old.getStatus()) && old.getLastTransitionTime() != null
                ? old.getLastTransitionTime() : now;
        return new NodeConditionBuilder().withType(type).withStatus(status).withReason(reason).withMessage(message)
                .withLastHeartbeatTime(now).withLastTransitionTime(transition).build();
    }

    /** The node's InternalIP. */
    static String hostIp(int i) {
        return "10.0." + (i / 250) + "." + (i % 250 + 10);
    }

    /**
     * Renews the node's Lease with a merge patch (no resourceVersion, so another writer of the Lease cannot make it
     * conflict), creating the Lease when it is missing.
     */
    private void renewLease(String node) {
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("holderIdentity", node);
        spec.put("leaseDurationSeconds", LEASE_DURATION_SECONDS);
        spec.put("renewTime", MICRO_TIME.format(Instant.now()));
        String patch = Serialization.asJson(Map.of("spec", spec));
        for (int attempt = 0; ; attempt++) {
            try {
                retry.call("renewing the lease of " + node, () -> client.leases().inNamespace(NODE_LEASE_NAMESPACE)
                        .withName(node).patch(PatchContext.of(PatchType.JSON_MERGE), patch));
                return;
            } catch (KubernetesClientException e) {
                if (!ApiErrors.isNotFound(e) || attempt > 0) {
                    throw e;
                }
            }
            if (createLease(node)) {
                return;
            }
            // Created by someone else in between: renew that one.
        }
    }

    /** Creates the node's Lease; false when one exists already. */
    private boolean createLease(String node) {
        Node n = client.nodes().withName(node).get();
        LeaseBuilder b = new LeaseBuilder().withNewMetadata().withName(node).withNamespace(NODE_LEASE_NAMESPACE).endMetadata()
                .withNewSpec().withHolderIdentity(node).withLeaseDurationSeconds(LEASE_DURATION_SECONDS)
                .withRenewTime(java.time.ZonedDateTime.now(ZoneOffset.UTC)).endSpec();
        if (n != null) {
            b.editMetadata().addNewOwnerReference().withApiVersion("v1").withKind("Node").withName(node)
                    .withUid(n.getMetadata().getUid()).endOwnerReference().endMetadata();
        }
        try {
            transientRetry.call("creating the lease of " + node, () -> client.leases().inNamespace(NODE_LEASE_NAMESPACE)
                    .resource(b.build()).create());
            return true;
        } catch (KubernetesClientException e) {
            if (!ApiErrors.isConflict(e)) {
                throw e;
            }
            return false;
        }
    }

    /** What each kubelet does every heartbeat interval: renew the Lease and report the node's conditions. */
    void heartbeat() {
        String now = Kubelet.ts(Instant.now());
        for (String name : names()) {
            if (closed.getAsBoolean()) {
                return;
            }
            if (health(name) != NodeHealth.UNREACHABLE) {
                beat(name, now);
            }
        }
    }

    private void beat(String name, String now) {
        try {
            renewLease(name);
            Node current = lastSeen.apply(name);
            String body = Serialization.asJson(Map.of("status", Map.of("conditions", kubeletConditions(current, now, health(name)))));
            retry.call("heartbeat of node " + name, () -> client.nodes().withName(name).subresource("status")
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), body));
        } catch (KubernetesClientException e) {
            if (closed.getAsBoolean()) {
                return;
            }
            if (ApiErrors.isNotFound(e)) {
                // Deleted by someone: as a real kubelet, it is not registered again until a restart.
                LOG.debug("sim-nodes: node {} is gone, no heartbeat", name);
            } else {
                LOG.warn("sim-nodes: heartbeat of node {} failed ({}): {}", name, e.getCode(), reason(e));
            }
        }
    }
}
