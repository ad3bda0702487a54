package dev.kruisevertx.demo;

import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.manager.ControllerRegistry;
import dev.kruisevertx.manager.ManagerApp;
import dev.kruisevertx.manager.ManagerCommand;
import dev.kruisevertx.manager.ManagerConfig;
import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.RunDirectory;
import dev.kruisevertx.sim.progress.Readiness;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import picocli.CommandLine;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the product on an embedded cluster: API server and simulated nodes, the whole manager, the samples, and a
 * progress line per change. Used by {@code kruise-manager demo} and by the test that runs it in CI.
 */
public final class DemoRunner implements AutoCloseable {
    /** Prefix of the demo's run directories in the temp directory. */
    public static final String RUN_DIRECTORY_PREFIX = "kruise-demo-run-";
    /** How often the node agents look at a pod whose request is in progress. */
    private static final Duration AGENT_POLL = Duration.ofMillis(500);
    /**
     * Gates the demo turns on before the user's {@code --feature-gates} (which can still turn them off): the
     * ImagePullJob sample needs ImagePullJobGate (alpha, off by default) and KruiseDaemon (NodeImages).
     */
    static final String DEMO_FEATURE_GATES = "KruiseDaemon=true,ImagePullJobGate=true";
    /**
     * NodeImages appear this long after a node turned Ready (the manager's default is 30s): the simulated nodes are
     * Ready from the start, so the NodeImages exist before the ImagePullJob sample looks for its nodes.
     */
    static final String DEMO_NODEIMAGE_CREATION_DELAY = "1s";
    private final DemoOptions options;
    private final PrintStream out;
    // Blocked-thread warnings carry a stack trace, so a blocked event loop can be traced to its cause.
    // Native transport: each simulated node serves the CRI on a unix socket for its node agent.
    private final Vertx clusterVertx = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true)
            .setWarningExceptionTime(2).setWarningExceptionTimeUnit(TimeUnit.SECONDS));
    private EmbeddedCluster cluster;
    private KubernetesClient managerClient;
    private ManagerApp manager;
    private KubernetesClient agentClient;
    private SimNodeAgents nodeAgents;
    private final List<HasMetadata> applied = new ArrayList<>();
    private boolean closed;
    // The last line printed per sample, across steps, so a line is printed only when it changes.
    private final Map<String, String> lastLines = new LinkedHashMap<>();
    /**
     * This run's private directory: the webhook's certificates and CA key, and the nodes' CRI sockets. Removed on
     * close; a killed run's is removed by the next run.
     */
    private final RunDirectory runDir;
    private final Path certDir;
    private final Path criRoot;

    public DemoRunner(DemoOptions options, PrintStream out) {
        this.options = options;
        this.out = out;
        this.runDir = RunDirectory.create(RUN_DIRECTORY_PREFIX);
        this.certDir = runDir.subdirectory("webhook-certs");
        this.criRoot = runDir.subdirectory("cri");
    }

    /** The run's directory (certificates, CA key, CRI sockets), gone once the runner is closed. */
    public Path runDirectory() {
        return runDir.path();
    }

    /** Starts everything and applies the samples. Blocking: call from a plain thread, never an event loop. */
    public void start() throws Exception {
        out.println("demo: run directory " + runDir.path() + " (webhook certificates, CRI sockets; removed on exit)");
        EmbeddedClusterOptions clusterOptions = new EmbeddedClusterOptions().setNodes(options.nodes())
                .setPort(options.apiPort()).setCriServers(true).setCriRoot(criRoot);
        cluster = await(EmbeddedCluster.start(clusterVertx, clusterOptions), "embedded cluster start");
        EmbeddedProduct.install(cluster);
        cluster.writeKubeconfig(options.kubeconfigOut());
        out.println("demo: embedded API server at " + cluster.url() + " with " + options.nodes()
                + " simulated nodes; kubeconfig written to " + options.kubeconfigOut());

        List<ControllerDefinition> controllers = ControllerRegistry.all();
        ManagerConfig config = managerConfig(controllers);
        managerClient = cluster.newClient();
        manager = await(ManagerApp.start(config, managerClient, controllers), "manager start");
        EmbeddedProduct.exposeManager(cluster, manager.metricsPort());
        out.println("demo: manager running; webhook on https://127.0.0.1:" + manager.webhookPort()
                + ", /metrics on port " + manager.metricsPort() + ", /healthz on port " + manager.healthPort()
                + ", /debug/plans on port " + manager.debugPort());

        agentClient = cluster.newClient();
        nodeAgents = await(SimNodeAgents.start(clusterVertx, agentClient, cluster.criServers(), AGENT_POLL),
                "node agents start");
        out.println("demo: node agent (ContainerRecreateRequest) running on each simulated node; CRI sockets under "
                + cluster.criServers().root());

    }

    /**
     * Applies the samples one file at a time, waiting for everything applied so far to converge before the next
     * (so a rollout sample shows its partition steps), within {@code timeout} overall (null: no limit).
     * Returns false, after naming what is stuck, when the time runs out.
     */
    public boolean runSamples(Duration timeout) throws InterruptedException {
        long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        List<Samples.Sample> samples = Samples.load(options.samplesDir());
        for (int i = 0; i < samples.size(); i++) {
            Samples.Sample sample = samples.get(i);
            out.println("demo: step " + (i + 1) + "/" + samples.size() + ": applying " + sample.source());
            for (HasMetadata o : ManifestApplier.apply(cluster.client(), sample.yaml())) {
                if (applied.stream().noneMatch(a -> describe(a).equals(describe(o)))) {
                    applied.add(o);
                }
                out.println("demo: applied " + describe(o));
            }
            Duration left = timeout == null ? null : Duration.ofNanos(Math.max(0, deadline - System.nanoTime()));
            if (!watchUntilReady(left)) {
                return false;
            }
        }
        out.println("demo: all " + applied.size() + " samples converged. Try: kubectl --kubeconfig "
                + options.kubeconfigOut() + " get pods,clonesets -A");
        return true;
    }

    private ManagerConfig managerConfig(List<ControllerDefinition> controllers) {
        ManagerCommand command = new ManagerCommand();
        CommandLine cl = new CommandLine(command);
        ManagerCommand.addWorkerFlags(cl.getCommandSpec(), controllers);
        cl.parseArgs("--metrics-addr=" + options.metricsAddr(), "--health-probe-addr=" + options.healthProbeAddr(),
                "--debug-addr=" + options.debugAddr(), "--enable-leader-election=false",
                "--nodeimage-creation-delay=" + DEMO_NODEIMAGE_CREATION_DELAY,
                "--feature-gates=" + DEMO_FEATURE_GATES
                        + (options.featureGates() == null || options.featureGates().isBlank() ? "" : "," + options.featureGates()));
        // The webhook runs on localhost next to the embedded API server, which reaches it by URL.
        return command.toConfig(cl.getCommandSpec(), controllers,
                EmbeddedProduct.localWebhookEnv(System.getenv(), certDir));
    }

    /**
     * Prints a line whenever a sample's state changes, until every sample converged (returns true) or the timeout
     * passed (returns false, after naming the samples that are stuck). A null timeout waits forever.
     */
    public boolean watchUntilReady(Duration timeout) throws InterruptedException {
        Map<String, String> last = lastLines;
        long deadline = timeout == null ? Long.MAX_VALUE : System.nanoTime() + timeout.toNanos();
        while (true) {
            boolean allReady = true;
            Map<String, String> notReady = new LinkedHashMap<>();
            for (HasMetadata sample : applied) {
                GenericKubernetesResource current = fetch(sample);
                Readiness view = current == null ? new Readiness(false, "not found")
                        : Readiness.of(Serialization.jsonMapper().valueToTree(current));
                String line = view.summary() + (view.ready() ? " (converged)" : "");
                String key = describe(sample);
                if (!line.equals(last.get(key))) {
                    out.println("demo: " + key + ": " + line);
                    last.put(key, line);
                }
                if (!view.ready()) {
                    allReady = false;
                    notReady.put(key, line);
                }
            }
            if (allReady) {
                return true;
            }
            if (System.nanoTime() > deadline) {
                notReady.forEach((k, v) -> out.println("demo: STUCK " + k + ": " + v));
                return false;
            }
            Thread.sleep(250);
        }
    }

    private GenericKubernetesResource fetch(HasMetadata sample) {
        try {
            String namespace = sample.getMetadata().getNamespace();
            if (namespace == null) {
                // A cluster-scoped sample (the SidecarSet): the generic client would look in its default namespace.
                String apiVersion = sample.getApiVersion();
                int slash = apiVersion.indexOf('/');
                var context = new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
                        .withGroup(slash < 0 ? "" : apiVersion.substring(0, slash))
                        .withVersion(apiVersion.substring(slash + 1)).withKind(sample.getKind())
                        .withPlural(io.fabric8.kubernetes.api.Pluralize.toPlural(
                                sample.getKind().toLowerCase(java.util.Locale.ROOT)))
                        .withNamespaced(false).build();
                return cluster.client().genericKubernetesResources(context)
                        .withName(sample.getMetadata().getName()).get();
            }
            return cluster.client().genericKubernetesResources(sample.getApiVersion(), sample.getKind())
                    .inNamespace(namespace).withName(sample.getMetadata().getName()).get();
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String describe(HasMetadata o) {
        String ns = o.getMetadata().getNamespace();
        return o.getKind().toLowerCase() + " " + (ns == null ? "" : ns + "/") + o.getMetadata().getName();
    }

    public EmbeddedCluster cluster() {
        return cluster;
    }

    public ManagerApp manager() {
        return manager;
    }

    @Override
    public synchronized void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        try {
            if (nodeAgents != null) {
                nodeAgents.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            }
            if (agentClient != null) {
                agentClient.close();
            }
            if (manager != null) {
                manager.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            }
            if (managerClient != null) {
                managerClient.close();
            }
            if (cluster != null) {
                cluster.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
            }
            clusterVertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } finally {
            // Whatever failed above, the CA key and the sockets do not outlive the run.
            runDir.close();
        }
    }

    private static <T> T await(Future<T> future, String what) throws Exception {
        try {
            return future.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException(what + " failed: " + e.getCause().getMessage(), e.getCause());
        }
    }
}
