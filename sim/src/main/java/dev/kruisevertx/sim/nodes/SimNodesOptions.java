package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.sim.OptionChecks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Settings of the simulated nodes, kubelet and scheduler. Setters return this for chaining. */
public final class SimNodesOptions {
    private int nodes = 3;
    private String namePrefix = "sim-node-";
    private List<String> zones = List.of("zone-a", "zone-b", "zone-c");
    private String cpu = "8";
    private String memory = "32Gi";
    private int maxPods = 110;
    private Duration heartbeatInterval = Duration.ofSeconds(10);
    private double gracePeriodScale = 0.05;
    private Duration defaultStartDelay = Duration.ZERO;
    private Duration crashLoopInterval = Duration.ofSeconds(2);
    private Duration containerRestartDelay = Duration.ofSeconds(1);
    private boolean scheduler = true;
    private boolean nodeLifecycle = true;
    private double lifecycleTimeScale = 0.05;
    private double probeTimeScale = 0.05;
    private final List<ImageRule> imageRules = new ArrayList<>();
    private final List<ExitRule> exitRules = new ArrayList<>();
    private final List<ProbeRule> probeRules = new ArrayList<>();
    private final Map<String, String> extraNodeLabels = new TreeMap<>();

    public int nodes() {
        return nodes;
    }

    public SimNodesOptions setNodes(int nodes) {
        if (nodes < 0) {
            throw new IllegalArgumentException("nodes must be >= 0, got " + nodes);
        }
        this.nodes = nodes;
        return this;
    }

    public String namePrefix() {
        return namePrefix;
    }

    public SimNodesOptions setNamePrefix(String namePrefix) {
        this.namePrefix = namePrefix;
        return this;
    }

    /** Zones assigned round-robin to nodes ({@code topology.kubernetes.io/zone}). */
    public List<String> zones() {
        return zones;
    }

    public SimNodesOptions setZones(List<String> zones) {
        if (zones == null || zones.isEmpty()) {
            throw new IllegalArgumentException("at least one zone is needed");
        }
        this.zones = List.copyOf(zones);
        return this;
    }

    public String cpu() {
        return cpu;
    }

    public SimNodesOptions setCpu(String cpu) {
        this.cpu = cpu;
        return this;
    }

    public String memory() {
        return memory;
    }

    public SimNodesOptions setMemory(String memory) {
        this.memory = memory;
        return this;
    }

    public int maxPods() {
        return maxPods;
    }

    public SimNodesOptions setMaxPods(int maxPods) {
        this.maxPods = maxPods;
        return this;
    }

    /** How often each node renews its Lease and refreshes its Ready condition's heartbeat. */
    public Duration heartbeatInterval() {
        return heartbeatInterval;
    }

    public SimNodesOptions setHeartbeatInterval(Duration heartbeatInterval) {
        this.heartbeatInterval = heartbeatInterval;
        return this;
    }

    /** Factor applied to a pod's deletion grace period before the kubelet removes it (1.0 = real time). */
    public double gracePeriodScale() {
        return gracePeriodScale;
    }

    public SimNodesOptions setGracePeriodScale(double gracePeriodScale) {
        this.gracePeriodScale = OptionChecks.notNegative("gracePeriodScale", gracePeriodScale);
        return this;
    }

    /** Start delay of containers no image rule matches. */
    public Duration defaultStartDelay() {
        return defaultStartDelay;
    }

    public SimNodesOptions setDefaultStartDelay(Duration defaultStartDelay) {
        this.defaultStartDelay = defaultStartDelay;
        return this;
    }

    /** How often a crash-looping container restarts. */
    public Duration crashLoopInterval() {
        return crashLoopInterval;
    }

    public SimNodesOptions setCrashLoopInterval(Duration crashLoopInterval) {
        this.crashLoopInterval = crashLoopInterval;
        return this;
    }

    /** How long after a container is stopped (CRI StopContainer) the kubelet starts a new one. */
    public Duration containerRestartDelay() {
        return containerRestartDelay;
    }

    public SimNodesOptions setContainerRestartDelay(Duration containerRestartDelay) {
        this.containerRestartDelay = OptionChecks.notNegative("containerRestartDelay", containerRestartDelay);
        return this;
    }

    /** Whether to run the scheduler (turn off on a control plane that has its own kube-scheduler). */
    public boolean scheduler() {
        return scheduler;
    }

    public SimNodesOptions setScheduler(boolean scheduler) {
        this.scheduler = scheduler;
        return this;
    }

    /**
     * Whether to run the node lifecycle controller, taint eviction and pod garbage collection for these nodes (turn
     * off on a control plane whose kube-controller-manager does it).
     */
    public boolean nodeLifecycle() {
        return nodeLifecycle;
    }

    public SimNodesOptions setNodeLifecycle(boolean nodeLifecycle) {
        this.nodeLifecycle = nodeLifecycle;
        return this;
    }

    /**
     * Factor applied to the node lifecycle's times: the node monitor grace period (40 s) and pods'
     * {@code tolerationSeconds} for NoExecute taints (1.0 = real time).
     */
    public double lifecycleTimeScale() {
        return lifecycleTimeScale;
    }

    public SimNodesOptions setLifecycleTimeScale(double lifecycleTimeScale) {
        this.lifecycleTimeScale = OptionChecks.notNegative("lifecycleTimeScale", lifecycleTimeScale);
        return this;
    }

    /** Factor applied to probe timings (initialDelaySeconds, periodSeconds; 1.0 = real time). */
    public double probeTimeScale() {
        return probeTimeScale;
    }

    public SimNodesOptions setProbeTimeScale(double probeTimeScale) {
        this.probeTimeScale = OptionChecks.positive("probeTimeScale", probeTimeScale);
        return this;
    }

    public List<ImageRule> imageRules() {
        return imageRules;
    }

    /** Adds a rule; the first matching rule wins. */
    public SimNodesOptions addImageRule(ImageRule rule) {
        imageRules.add(rule);
        return this;
    }

    public List<ExitRule> exitRules() {
        return exitRules;
    }

    /**
     * Adds a rule for containers that end on their own (restartPolicy Never/OnFailure pods); the first matching rule
     * wins, and a pod's {@value ContainerExit#ANNOTATION} annotation wins over every rule.
     */
    public SimNodesOptions addExitRule(ExitRule rule) {
        exitRules.add(rule);
        return this;
    }

    public List<ProbeRule> probeRules() {
        return probeRules;
    }

    /** Adds a probe rule; the first matching rule wins; probes no rule matches succeed. */
    public SimNodesOptions addProbeRule(ProbeRule rule) {
        probeRules.add(rule);
        return this;
    }

    public Map<String, String> extraNodeLabels() {
        return extraNodeLabels;
    }

    public SimNodesOptions addNodeLabel(String key, String value) {
        extraNodeLabels.put(key, value);
        return this;
    }

    public SimNodesOptions copy() {
        SimNodesOptions c = new SimNodesOptions().setNodes(nodes).setNamePrefix(namePrefix).setZones(zones).setCpu(cpu)
                .setMemory(memory).setMaxPods(maxPods).setHeartbeatInterval(heartbeatInterval)
                .setGracePeriodScale(gracePeriodScale).setDefaultStartDelay(defaultStartDelay)
                .setCrashLoopInterval(crashLoopInterval).setContainerRestartDelay(containerRestartDelay).setScheduler(scheduler)
                .setNodeLifecycle(nodeLifecycle).setLifecycleTimeScale(lifecycleTimeScale).setProbeTimeScale(probeTimeScale);
        imageRules.forEach(c::addImageRule);
        exitRules.forEach(c::addExitRule);
        probeRules.forEach(c::addProbeRule);
        c.extraNodeLabels.putAll(extraNodeLabels);
        return c;
    }
}
