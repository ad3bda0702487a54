package dev.kruisevertx.sim;

import dev.kruisevertx.sim.controllers.BuiltinControllersOptions;
import dev.kruisevertx.sim.nodes.SimNodesOptions;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/** How to start an {@link EmbeddedCluster}. Setters return this for chaining. */
public final class EmbeddedClusterOptions {
    private String host = "127.0.0.1";
    private int port;
    private int nodes = 3;
    private boolean admission = true;
    private Path crdDirectory;
    private int eventLogSize = 10_000;
    private long bookmarkIntervalMs = 10_000;
    private SimNodesOptions nodeOptions = new SimNodesOptions();
    private boolean criServers;
    private Path criRoot;
    private final Map<String, String> serviceAddresses = new HashMap<>();
    private boolean builtinControllers = true;
    private BuiltinControllersOptions controllerOptions = new BuiltinControllersOptions();

    public String host() {
        return host;
    }

    public EmbeddedClusterOptions setHost(String host) {
        this.host = host;
        return this;
    }

    /** 0 picks a free port. */
    public int port() {
        return port;
    }

    public EmbeddedClusterOptions setPort(int port) {
        this.port = port;
        return this;
    }

    /** Simulated nodes to start (0 for none). */
    public int nodes() {
        return nodes;
    }

    public EmbeddedClusterOptions setNodes(int nodes) {
        this.nodes = nodes;
        return this;
    }

    /**
     * Whether writes call the webhooks of stored webhook configurations and CRDs with a "Webhook" conversion
     * strategy call their conversion webhook (when off, conversion only rewrites apiVersion).
     */
    public boolean admission() {
        return admission;
    }

    public EmbeddedClusterOptions setAdmission(boolean admission) {
        this.admission = admission;
        return this;
    }

    /** A directory of CRD YAML files installed at start (e.g. the repository's {@code crds/}); null for none. */
    public Path crdDirectory() {
        return crdDirectory;
    }

    public EmbeddedClusterOptions setCrdDirectory(Path crdDirectory) {
        this.crdDirectory = crdDirectory;
        return this;
    }

    /** Events kept per resource for watches resuming from a resourceVersion; older ones get 410 Gone. */
    public int eventLogSize() {
        return eventLogSize;
    }

    public EmbeddedClusterOptions setEventLogSize(int eventLogSize) {
        this.eventLogSize = eventLogSize;
        return this;
    }

    /** How often a watch that allows bookmarks gets one. */
    public long bookmarkIntervalMs() {
        return bookmarkIntervalMs;
    }

    public EmbeddedClusterOptions setBookmarkIntervalMs(long bookmarkIntervalMs) {
        this.bookmarkIntervalMs = bookmarkIntervalMs;
        return this;
    }

    public SimNodesOptions nodeOptions() {
        return nodeOptions;
    }

    public EmbeddedClusterOptions setNodeOptions(SimNodesOptions nodeOptions) {
        this.nodeOptions = nodeOptions;
        return this;
    }

    /**
     * Whether each simulated node also serves its container runtime as the CRI on a unix socket
     * ({@link dev.kruisevertx.sim.cri.SimCriServers}), for a node agent to work against. Needs the cluster's Vert.x
     * to have its native transport ({@code preferNativeTransport(true)}). Off by default.
     */
    public boolean criServers() {
        return criServers;
    }

    public EmbeddedClusterOptions setCriServers(boolean criServers) {
        this.criServers = criServers;
        return this;
    }

    /**
     * The directory of the nodes' CRI sockets ({@code <root>/<node>/containerd.sock}), which the caller owns and
     * removes; null (the default): a run directory of the cluster's own in the temp directory, removed on close.
     */
    public Path criRoot() {
        return criRoot;
    }

    public EmbeddedClusterOptions setCriRoot(Path criRoot) {
        this.criRoot = criRoot;
        return this;
    }

    /**
     * Where a webhook's {@code service} reference is reached: {@code "namespace/name"} (or
     * {@code "namespace/name:port"}) to {@code "host:port"}, e.g. the product's webhook on localhost.
     */
    public Map<String, String> serviceAddresses() {
        return serviceAddresses;
    }

    public EmbeddedClusterOptions mapService(String namespaceAndName, String hostAndPort) {
        serviceAddresses.put(namespaceAndName, hostAndPort);
        return this;
    }

    /**
     * Whether kube-controller-manager's workload controllers run (Deployment, ReplicaSet, Job with TTL after
     * finished, StatefulSet; see {@link dev.kruisevertx.sim.controllers.BuiltinControllers}). On by default.
     */
    public boolean builtinControllers() {
        return builtinControllers;
    }

    public EmbeddedClusterOptions setBuiltinControllers(boolean builtinControllers) {
        this.builtinControllers = builtinControllers;
        return this;
    }

    public BuiltinControllersOptions controllerOptions() {
        return controllerOptions;
    }

    public EmbeddedClusterOptions setControllerOptions(BuiltinControllersOptions controllerOptions) {
        this.controllerOptions = controllerOptions;
        return this;
    }
}
