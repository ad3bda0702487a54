package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.cache.InformerHandlers;
import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.informers.cache.Cache;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Simulated nodes with a kubelet and a scheduler, talking to any API server through a fabric8 client: it
 * registers N Ready nodes, renews their Leases in {@code kube-node-lease}, binds pending pods to nodes that fit,
 * runs pods bound to its nodes (status written through {@code /status} like a real kubelet), and finishes
 * graceful deletions after a scaled grace period. All work happens on one thread of its own, never on a Vert.x
 * event loop.
 */
public final class SimNodes implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SimNodes.class);
    public static final String NODE_LEASE_NAMESPACE = "kube-node-lease";
    /** Label on every simulated node, so tools can tell them from real ones. */
    public static final String SIMULATED_LABEL = "kruise-vertx.dev/simulated-node";
    /** Pod status writes that meet a conflict are re-read and written again this many times before waiting for the informer. */
    private static final int POD_STATUS_CONFLICT_RETRIES = 3;

    private final KubernetesClient client;
    private final SimNodesOptions options;
    private final List<ImageRule> rules;
    private final List<ExitRule> exitRules;
    private final List<ProbeRule> probeRules;
    private final ScheduledExecutorService worker;
    private final Kubelet kubelet;
    private final NodeRegistration registration;
    /** For creates and writes over a version read earlier, where a conflict is an answer, not a hiccup. */
    private final ApiRetry transientRetry = new ApiRetry(5, java.time.Duration.ofMillis(100), false);
    private final Map<String, String> assumed = new ConcurrentHashMap<>();
    private final Set<String> pendingRemovals = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> podIpCounter = new HashMap<>();
    private final Map<String, String> podIps = new ConcurrentHashMap<>();
    private SharedIndexInformer<Pod> pods;
    private SharedIndexInformer<Node> nodes;
    private SharedIndexInformer<io.fabric8.kubernetes.api.model.coordination.v1.Lease> leases;
    private NodeLifecycle lifecycle;
    private SimImagePuller imagePuller;
    private volatile boolean closed;

    private SimNodes(KubernetesClient client, SimNodesOptions options) {
        this.client = client;
        this.options = options.copy();
        this.rules = new CopyOnWriteArrayList<>(this.options.imageRules());
        this.exitRules = new CopyOnWriteArrayList<>(this.options.exitRules());
        this.worker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sim-nodes");
            t.setDaemon(true);
            return t;
        });
        this.kubelet = new Kubelet(this::ruleFor, this.options.crashLoopInterval(), this.options.containerRestartDelay(),
                exitRules);
        this.probeRules = new CopyOnWriteArrayList<>(this.options.probeRules());
        this.kubelet.setProber(new Prober(() -> probeRules, this.options.probeTimeScale()));
        this.registration = new NodeRegistration(client, this.options, transientRetry,
                name -> nodes == null ? null : nodes.getStore().getByKey(name), () -> closed);
    }

    /**
     * Registers the nodes and starts the kubelet and scheduler. Blocks until the nodes exist and the informers
     * have synced: call it from a worker thread, not an event loop.
     */
    public static SimNodes start(KubernetesClient client, SimNodesOptions options) {
        SimNodes sim = new SimNodes(client, options);
        try {
            sim.registration.registerAll();
            sim.startInformers();
            sim.imagePuller = new SimImagePuller(client, sim.worker, sim::ruleFor, sim.kubelet::pull, sim::guard);
        } catch (RuntimeException e) {
            sim.close();
            throw e;
        }
        long beat = Math.max(100, sim.options.heartbeatInterval().toMillis());
        sim.worker.scheduleWithFixedDelay(sim.guard(sim.registration::heartbeat), beat, beat, TimeUnit.MILLISECONDS);
        sim.worker.scheduleWithFixedDelay(sim.guard(sim::sweep), 1000, 1000, TimeUnit.MILLISECONDS);
        // The NodeImage CRD may be installed after the nodes start (as the chart installs it): look until it is.
        sim.worker.scheduleWithFixedDelay(sim.guard(sim.imagePuller::startOnce), 0, 1000, TimeUnit.MILLISECONDS);
        if (sim.options.nodeLifecycle()) {
            sim.worker.scheduleWithFixedDelay(sim.guard(() -> sim.lifecycle.run(Instant.now())), 500, 500, TimeUnit.MILLISECONDS);
        }
        return sim;
    }

    /** The nodes this simulator runs, in the order they were added. */
    public List<String> nodeNames() {
        return registration.names();
    }

    // ------------------------------------------------------------------ nodes at run time

    /**
     * Adds a node at run time, as a kubelet joining the cluster: registered Ready with the usual labels (zone
     * round-robin over the configured zones) with {@code labels} over them (a null value removes one), and a Lease.
     * Blocking: call it off any event loop.
     *
     * @throws IllegalArgumentException when this simulator already runs a node of that name
     */
    public void addNode(String name, Map<String, String> labels) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a node needs a name");
        }
        registration.add(name, labels == null ? Map.of() : labels);
        worker.execute(guard(this::sweep));
    }

    /**
     * Removes a node: its kubelet stops, the Node and its Lease are deleted, and (with the node lifecycle on) the
     * pods bound to it are deleted at once, as the pod garbage collector deletes orphans. Blocking.
     *
     * @throws IllegalArgumentException when this simulator does not run that node
     */
    public void removeNode(String name) {
        requireOwn(name);
        registration.forget(name);
        if (lifecycle != null) {
            lifecycle.nodeRemoved(name);
        }
        try {
            client.leases().inNamespace(NODE_LEASE_NAMESPACE).withName(name).delete();
        } catch (KubernetesClientException e) {
            LOG.debug("sim-nodes: deleting the lease of {} failed ({})", name, e.getCode());
        }
        client.nodes().withName(name).delete();
    }

    /** Sets labels of a node (a null value removes the label); others stay. Blocking. */
    public void setNodeLabels(String name, Map<String, String> labels) {
        Map<String, Object> body = new HashMap<>();
        body.put("metadata", Map.of("labels", new HashMap<>(labels)));
        patchNode(name, body);
    }

    /**
     * Replaces the taints of a node with {@code taints}, keeping the node lifecycle's own
     * ({@code node.kubernetes.io/not-ready}, {@code node.kubernetes.io/unreachable}), which follow the node's Ready
     * condition. NoExecute taints without {@code timeAdded} get the current time. Blocking.
     */
    public void setNodeTaints(String name, List<io.fabric8.kubernetes.api.model.Taint> taints) {
        Node node = client.nodes().withName(name).get();
        if (node == null) {
            throw new IllegalArgumentException("no node " + name);
        }
        List<io.fabric8.kubernetes.api.model.Taint> next = new ArrayList<>();
        if (node.getSpec() != null && node.getSpec().getTaints() != null) {
            node.getSpec().getTaints().stream().filter(t -> NodeLifecycle.NOT_READY_TAINT.equals(t.getKey())
                    || NodeLifecycle.UNREACHABLE_TAINT.equals(t.getKey())).forEach(next::add);
        }
        for (io.fabric8.kubernetes.api.model.Taint t : taints) {
            io.fabric8.kubernetes.api.model.Taint copy = new io.fabric8.kubernetes.api.model.TaintBuilder(t).build();
            if ("NoExecute".equals(copy.getEffect()) && copy.getTimeAdded() == null) {
                copy.setTimeAdded(Kubelet.ts(Instant.now()));
            }
            next.add(copy);
        }
        Map<String, Object> body = new HashMap<>();
        body.put("metadata", Map.of("resourceVersion", node.getMetadata().getResourceVersion()));
        body.put("spec", Map.of("taints", next));
        patchNode(name, body);
    }

    private void patchNode(String name, Map<String, Object> body) {
        String json = io.fabric8.kubernetes.client.utils.Serialization.asJson(body);
        client.nodes().withName(name).patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), json);
    }

    /**
     * Makes a node's kubelet healthy, NotReady (reports Ready=False, keeps its Lease) or unreachable (no Lease
     * renewals, no status: the node lifecycle marks it Unknown after the grace period); see {@link NodeHealth}.
     * Back to READY, the kubelet reports Ready and syncs its pods again. Blocking.
     */
    public void setNodeHealth(String name, NodeHealth health) {
        requireOwn(name);
        registration.setHealth(name, health);
        if (health != NodeHealth.UNREACHABLE && pods != null) {
            for (Pod p : pods.getStore().list()) {
                if (name.equals(p.getSpec().getNodeName())) {
                    enqueue(p);
                }
            }
        }
    }

    public NodeHealth nodeHealth(String name) {
        requireOwn(name);
        return registration.health(name);
    }

    private void requireOwn(String name) {
        if (name == null || !registration.nodeIndex().containsKey(name)) {
            throw new IllegalArgumentException("no simulated node " + name);
        }
    }

    public SimNodesOptions options() {
        return options;
    }

    /**
     * The nodes' container runtime: what a CRI server for a simulated node serves
     * ({@code dev.kruisevertx.sim.cri.SimCriServer}). Safe to call from any thread, including an event loop: every
     * call is a short in-memory step.
     */
    public List<SimContainer> containers(String node) {
        return kubelet.containers(node, Instant.now());
    }

    public Optional<SimContainer> container(String node, String containerId) {
        return kubelet.container(node, containerId, Instant.now());
    }

    /**
     * Stops a container; the kubelet starts a new one (new id, restart count + 1) after
     * {@link SimNodesOptions#containerRestartDelay()} and reports both through the pod's status. Empty for an
     * unknown id.
     */
    public Optional<SimContainer> stopContainer(String node, String containerId) {
        Optional<SimContainer> stopped = kubelet.stop(node, containerId, Instant.now());
        stopped.ifPresent(c -> {
            String key = c.podNamespace() + "/" + c.podName();
            try {
                worker.execute(guard(() -> syncPod(key)));
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // Closing: nobody reports pod status any more.
            }
        });
        return stopped;
    }

    /** Runs a command in a container (recorded in {@link #execs()}); see {@link Kubelet#exec}. */
    public Optional<SimContainer> exec(String node, String containerId, List<String> command) {
        return kubelet.exec(node, containerId, command, Instant.now());
    }

    /** Every command run in a simulated container, oldest first (tests check preStop hooks with it). */
    public List<ExecRecord> execs() {
        return kubelet.execs();
    }

    private final Map<List<String>, Integer> execExitCodes = new ConcurrentHashMap<>();

    /**
     * Makes every later exec of exactly {@code command} exit with {@code exitCode} (0 restores success), as a probe
     * script that starts failing would; other commands keep succeeding.
     */
    public void setExecExitCode(List<String> command, int exitCode) {
        if (exitCode == 0) {
            execExitCodes.remove(List.copyOf(command));
        } else {
            execExitCodes.put(List.copyOf(command), exitCode);
        }
    }

    /** The exit code an exec of {@code command} ends with; see {@link #setExecExitCode}. */
    public int execExitCode(List<String> command) {
        return execExitCodes.getOrDefault(command, 0);
    }

    public Optional<String> pullImage(String node, String image) {
        return kubelet.pull(node, image);
    }

    public List<String> images(String node) {
        return kubelet.images(node);
    }

    public void removeImage(String node, String image) {
        kubelet.removeImage(node, image);
    }

    /** Adds an image rule at run time, ahead of the configured ones (tests inject failures this way). */
    public void addImageRule(ImageRule rule) {
        rules.add(0, rule);
    }

    /** Adds an exit rule at run time, ahead of the configured ones; it applies to containers started afterwards too. */
    public void addExitRule(ExitRule rule) {
        exitRules.add(0, rule);
    }

    /** Adds a probe rule at run time, ahead of the configured ones; pods are probed by it from their next sync. */
    public void addProbeRule(ProbeRule rule) {
        probeRules.add(0, rule);
        if (pods != null) {
            pods.getStore().list().forEach(this::enqueue);
        }
    }

    private ImageRule ruleFor(String image) {
        for (ImageRule r : rules) {
            if (r.matches(image)) {
                return r;
            }
        }
        return new ImageRule("*", options.defaultStartDelay(), ContainerFailure.NONE);
    }

    private Runnable guard(Runnable r) {
        return () -> {
            if (closed) {
                return;
            }
            try {
                r.run();
            } catch (KubernetesClientException e) {
                if (closed) {
                    return;
                }
                if (ApiErrors.isConflict(e) || ApiErrors.isNotFound(e)) {
                    // Someone else wrote or removed the object; the informer brings the news and the step runs again.
                    LOG.debug("sim-nodes: call failed ({}): {}", e.getCode(), reason(e));
                } else {
                    LOG.warn("sim-nodes: call failed ({}): {}", e.getCode(), reason(e));
                }
            } catch (RuntimeException e) {
                if (!closed) {
                    LOG.warn("sim-nodes step failed", e);
                }
            }
        };
    }

    static String reason(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
    }

    // ------------------------------------------------------------------ events

    private void startInformers() {
        nodes = client.nodes().inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Node obj) {
                worker.execute(guard(SimNodes.this::sweep));
            }

            @Override
            public void onUpdate(Node oldObj, Node newObj) {
            }

            @Override
            public void onDelete(Node obj, boolean deletedFinalStateUnknown) {
            }
        }, 0);
        pods = client.pods().inAnyNamespace().inform(InformerHandlers.changesAndDeletes(this::enqueue, obj -> {
            String uid = obj.getMetadata().getUid();
            worker.execute(() -> {
                kubelet.forget(uid);
                if (lifecycle != null) {
                    lifecycle.forgetPod(uid);
                }
                assumed.remove(uid);
                podIps.remove(uid);
                sweep();
            });
        }), 0);
        if (options.nodeLifecycle()) {
            leases = client.leases().inNamespace(NODE_LEASE_NAMESPACE).inform();
            lifecycle = new NodeLifecycle(client, options, registration::names, name -> nodes.getStore().getByKey(name),
                    name -> leases.getStore().getByKey(NODE_LEASE_NAMESPACE + "/" + name), () -> pods.getStore().list());
        }
    }

    private void enqueue(Pod pod) {
        String key = Cache.metaNamespaceKeyFunc(pod);
        if (!closed) {
            worker.execute(guard(() -> syncPod(key)));
        }
    }

    private void syncPod(String key) {
        Pod pod = pods.getStore().getByKey(key);
        if (pod == null) {
            return;
        }
        syncPod(pod, 0);
    }

    /** {@code conflicts}: how many status writes for this pod met a conflict in a row. */
    private void syncPod(Pod pod, int conflicts) {
        String nodeName = pod.getSpec().getNodeName();
        if (nodeName == null || nodeName.isEmpty()) {
            if (options.scheduler() && pod.getMetadata().getDeletionTimestamp() == null && isDefaultScheduler(pod)) {
                schedule(pod, conflicts);
            }
            return;
        }
        Integer nodeIdx = registration.nodeIndex().get(nodeName);
        if (nodeIdx == null || registration.health(nodeName) == NodeHealth.UNREACHABLE) {
            // Not ours, or its kubelet cannot reach the API server: nothing reports for the pod.
            return;
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            finishDeletion(pod);
            return;
        }
        runPod(pod, nodeIdx, conflicts);
    }

    private static boolean isDefaultScheduler(Pod pod) {
        String s = pod.getSpec().getSchedulerName();
        return s == null || s.isEmpty() || s.equals("default-scheduler");
    }

    /** Periodic retry of pending pods and pods waiting for a timed transition. */
    private void sweep() {
        if (pods == null) {
            return;
        }
        List<Pod> all = new ArrayList<>(pods.getStore().list());
        all.sort(Comparator.comparing(p -> p.getMetadata().getCreationTimestamp() == null ? "" : p.getMetadata().getCreationTimestamp()));
        for (Pod p : all) {
            if ((p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty()) && !assumed.containsKey(p.getMetadata().getUid())) {
                syncPod(Cache.metaNamespaceKeyFunc(p));
            } else if (p.getMetadata().getDeletionTimestamp() != null) {
                syncPod(Cache.metaNamespaceKeyFunc(p));
            }
        }
    }

    // ------------------------------------------------------------------ scheduler

    private void schedule(Pod pod, int conflicts) {
        String uid = pod.getMetadata().getUid();
        if (assumed.containsKey(uid)) {
            return;
        }
        Map<String, List<Pod>> byNode = new HashMap<>();
        for (Pod p : pods.getStore().list()) {
            String n = p.getSpec().getNodeName();
            if ((n == null || n.isEmpty()) && assumed.containsKey(p.getMetadata().getUid())) {
                n = assumed.get(p.getMetadata().getUid());
            }
            // Terminal pods leave kube-scheduler's cache: they neither take room nor count for (anti-)affinity.
            if (n != null && !n.isEmpty() && NodeFit.occupies(p)) {
                byNode.computeIfAbsent(n, k -> new ArrayList<>()).add(p);
            }
        }
        Map<String, Map<String, String>> namespaceLabels = new HashMap<>();
        ClusterSnapshot snapshot = new ClusterSnapshot(List.copyOf(nodes.getStore().list()), byNode,
                ns -> namespaceLabels.computeIfAbsent(ns, this::namespaceLabels));
        SchedulingCycle.Decision decision = SchedulingCycle.decide(pod, snapshot);
        if (decision.node().isEmpty()) {
            markUnschedulable(pod, decision.unschedulableMessage(), conflicts);
            return;
        }
        String target = decision.node().get();
        Binding binding = new BindingBuilder().withNewMetadata().withName(pod.getMetadata().getName())
                .withNamespace(pod.getMetadata().getNamespace()).endMetadata()
                .withNewTarget().withApiVersion("v1").withKind("Node").withName(target).endTarget().build();
        try {
            client.bindings().inNamespace(pod.getMetadata().getNamespace()).resource(binding).create();
            assumed.put(uid, target);
        } catch (KubernetesClientException e) {
            if (!ApiErrors.isConflict(e) && !ApiErrors.isNotFound(e)) {
                throw e;
            }
        }
    }

    /** Labels of a namespace, for pod affinity terms with a namespaceSelector (read only when one has). */
    private Map<String, String> namespaceLabels(String name) {
        io.fabric8.kubernetes.api.model.Namespace ns = client.namespaces().withName(name).get();
        return ns == null || ns.getMetadata().getLabels() == null ? Map.of() : ns.getMetadata().getLabels();
    }

    private void markUnschedulable(Pod pod, String message, int conflicts) {
        StringBuilder msg = new StringBuilder(message);
        PodCondition existing = Kubelet.condition(pod.getStatus() == null ? null : pod.getStatus().getConditions(), "PodScheduled");
        if (existing != null && "False".equals(existing.getStatus()) && msg.toString().equals(existing.getMessage())) {
            return;
        }
        Pod copy = new io.fabric8.kubernetes.api.model.PodBuilder(pod).build();
        PodStatus status = copy.getStatus() == null ? new PodStatus() : copy.getStatus();
        List<PodCondition> conditions = status.getConditions() == null ? new ArrayList<>() : new ArrayList<>(status.getConditions());
        conditions.removeIf(c -> "PodScheduled".equals(c.getType()));
        conditions.add(new PodConditionBuilder().withType("PodScheduled").withStatus("False").withReason("Unschedulable")
                .withMessage(msg.toString()).withLastTransitionTime(Kubelet.ts(Instant.now())).build());
        status.setConditions(conditions);
        status.setPhase("Pending");
        copy.setStatus(status);
        writeStatus(copy, conflicts);
    }

    // ------------------------------------------------------------------ kubelet

    private void runPod(Pod pod, int nodeIdx, int conflicts) {
        String uid = pod.getMetadata().getUid();
        String ip = podIps.computeIfAbsent(uid, u -> {
            int n = podIpCounter.merge(pod.getSpec().getNodeName(), 1, Integer::sum);
            return "10.244." + nodeIdx + "." + (n % 250 + 2);
        });
        // Env from ConfigMap keys (launch priority barriers) is read before a container is created: fetched here, on
        // the worker, never under the kubelet's lock.
        Kubelet.ConfigMapData configMaps = Kubelet.prefetch(pod, (ns, name) -> {
            io.fabric8.kubernetes.api.model.ConfigMap cm = client.configMaps().inNamespace(ns).withName(name).get();
            return cm == null ? null : cm.getData() == null ? java.util.Map.of() : cm.getData();
        });
        Kubelet.Sync sync = kubelet.sync(pod, NodeRegistration.hostIp(nodeIdx), ip, Instant.now(), configMaps);
        sync.recheckIn().ifPresent(d -> {
            String key = Cache.metaNamespaceKeyFunc(pod);
            worker.schedule(guard(() -> syncPod(key)), Math.max(10, d.toMillis()), TimeUnit.MILLISECONDS);
        });
        if (sync.status().equals(pod.getStatus())) {
            return;
        }
        Pod copy = new io.fabric8.kubernetes.api.model.PodBuilder(pod).withStatus(sync.status()).build();
        writeStatus(copy, conflicts);
    }

    /**
     * Writes a pod's status over the version it was computed from. A conflict means another writer (a controller
     * setting a readiness-gate condition, say) got there first: the pod is read again and its status computed and
     * written again, keeping what the other wrote; after a few conflicts in a row the informer's next event does it.
     */
    private void writeStatus(Pod pod, int conflicts) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        try {
            transientRetry.call("status of pod " + ns + "/" + name,
                    () -> client.pods().inNamespace(ns).resource(pod).updateStatus());
        } catch (KubernetesClientException e) {
            if (ApiErrors.isNotFound(e)) {
                return;
            }
            if (!ApiErrors.isConflict(e)) {
                throw e;
            }
            if (conflicts + 1 >= POD_STATUS_CONFLICT_RETRIES) {
                LOG.debug("sim-nodes: status of pod {}/{} conflicted {} times; the next event syncs it", ns, name, conflicts + 1);
                String key = Cache.metaNamespaceKeyFunc(pod);
                worker.schedule(guard(() -> syncPod(key)), 200, TimeUnit.MILLISECONDS);
                return;
            }
            Pod fresh = client.pods().inNamespace(ns).withName(name).get();
            if (fresh != null && pod.getMetadata().getUid().equals(fresh.getMetadata().getUid())) {
                syncPod(fresh, conflicts + 1);
            }
        }
    }

    private void finishDeletion(Pod pod) {
        String uid = pod.getMetadata().getUid();
        long grace = pod.getMetadata().getDeletionGracePeriodSeconds() == null ? 0 : pod.getMetadata().getDeletionGracePeriodSeconds();
        if (grace == 0 || !pendingRemovals.add(uid)) {
            // grace 0: the final delete was made; only finalizers keep the pod now.
            return;
        }
        long delayMs = (long) (grace * 1000 * options.gracePeriodScale());
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        worker.schedule(() -> {
            try {
                if (!closed) {
                    Pod current = client.pods().inNamespace(ns).withName(name).get();
                    if (current != null && uid.equals(current.getMetadata().getUid())) {
                        client.pods().inNamespace(ns).withName(name).withGracePeriod(0).delete();
                    }
                }
            } catch (KubernetesClientException e) {
                LOG.debug("removing pod {}/{} failed: {}", ns, name, e.getMessage());
            } finally {
                pendingRemovals.remove(uid);
            }
        }, delayMs, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        closed = true;
        if (pods != null) {
            pods.close();
        }
        if (nodes != null) {
            nodes.close();
        }
        if (leases != null) {
            leases.close();
        }
        if (imagePuller != null) {
            imagePuller.close();
        }
        worker.shutdownNow();
    }

}
