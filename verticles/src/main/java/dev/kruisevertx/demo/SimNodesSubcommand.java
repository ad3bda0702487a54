package dev.kruisevertx.demo;

import dev.kruisevertx.cli.InvalidConfigurationException;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.sim.controllers.BuiltinControllers;
import dev.kruisevertx.sim.controllers.BuiltinControllersOptions;
import dev.kruisevertx.sim.nodes.NodeControl;
import dev.kruisevertx.sim.nodes.NodeControlServer;
import dev.kruisevertx.sim.nodes.SimNodes;
import dev.kruisevertx.sim.nodes.SimNodesOptions;
import dev.kruisevertx.agent.cri.Backoff;
import dev.kruisevertx.sim.cri.SimCriServers;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code kruise-manager sim-nodes}: simulated nodes, scheduler and kubelet against any API server, so the product
 * can be tried on a real control plane that has no real nodes.
 */
@Command(name = "sim-nodes", mixinStandardHelpOptions = true,
        description = "Run simulated nodes (kubelet heartbeat, scheduler, pod lifecycle) against an API server.")
public final class SimNodesSubcommand {
    @Option(names = "--kubeconfig", paramLabel = "PATH", description = "Kubeconfig of the API server; $KUBECONFIG or ~/.kube/config when unset.")
    Path kubeconfig;

    @Option(names = "--nodes", defaultValue = "3", description = "Number of nodes. Default: ${DEFAULT-VALUE}")
    int nodes;

    @Option(names = "--name-prefix", defaultValue = "sim-node-", description = "Node name prefix. Default: ${DEFAULT-VALUE}")
    String namePrefix;

    @Option(names = "--scheduler", arity = "0..1", defaultValue = "true", fallbackValue = "true",
            description = "Also bind pending pods to the simulated nodes; turn off where kube-scheduler runs. Default: ${DEFAULT-VALUE}")
    boolean scheduler;

    @Option(names = "--node-agents", arity = "0..1", defaultValue = "true", fallbackValue = "true",
            description = "Also give each node a simulated container runtime (the CRI on a unix socket) and run the node"
                    + " agent's ContainerRecreateRequest job against it, as kruise-daemon would. Default: ${DEFAULT-VALUE}")
    boolean nodeAgents;

    @Option(names = "--builtin-controllers", arity = "0..1", defaultValue = "false", fallbackValue = "true",
            description = "Also run kube-controller-manager's Deployment, ReplicaSet, Job (with TTL after finished) and"
                    + " StatefulSet controllers; leave off where a kube-controller-manager runs. Default: ${DEFAULT-VALUE}")
    boolean builtinControllers;

    @Option(names = "--node-lifecycle", arity = "0..1", defaultValue = "false", fallbackValue = "true",
            description = "Also act as kube-controller-manager's node lifecycle for the simulated nodes (Unknown after a"
                    + " silent Lease, not-ready/unreachable taints, NoExecute eviction); leave off where kube-controller-manager runs."
                    + " Default: ${DEFAULT-VALUE}")
    boolean nodeLifecycle;

    @Option(names = "--control-addr", paramLabel = "HOST:PORT", defaultValue = "",
            description = "Serve the /sim/nodes endpoint (add or remove nodes, change labels, taints, health) on this"
                    + " address, e.g. 127.0.0.1:10260. Off when empty (the default).")
    String controlAddr;

    private final CommandLine commandLine = new CommandLine(this);
    private final java.util.concurrent.atomic.AtomicBoolean stopping = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile BuiltinControllers controllers;

    public CommandLine commandLine() {
        return commandLine;
    }

    public int run(PrintStream out, PrintStream err, boolean waitForSignal) {
        if (nodes < 1) {
            err.println("error: --nodes must be at least 1, got " + nodes);
            return 2;
        }
        KubernetesClient client;
        SimNodes simNodes;
        try {
            client = KubeClients.create(kubeconfig, 30, 50);
            simNodes = SimNodes.start(client, new SimNodesOptions().setNodes(nodes).setNamePrefix(namePrefix)
                    .setScheduler(scheduler).setNodeLifecycle(nodeLifecycle));
        } catch (RuntimeException e) {
            // A setting the operator fixes (an unusable kubeconfig) exits 2, as the manager does.
            return InvalidConfigurationException.report(e, "cannot start simulated nodes", err);
        }
        out.println("sim-nodes: running " + simNodes.nodeNames());
        BuiltinControllers controllers = null;
        if (builtinControllers) {
            try {
                controllers = BuiltinControllers.start(client, new BuiltinControllersOptions());
            } catch (RuntimeException e) {
                err.println("error: cannot start the built-in controllers: " + e.getMessage());
                stop(null, null, null, simNodes, client);
                return 1;
            }
            out.println("sim-nodes: built-in controllers running (Deployment, ReplicaSet, Job, StatefulSet)");
        }
        this.controllers = controllers;
        Vertx vertx = null;
        if (!controlAddr.isEmpty()) {
            vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
            try {
                int port = NodeControlServer.start(vertx, simNodes, controlAddr).await(30, TimeUnit.SECONDS);
                out.println("sim-nodes: node control on http://" + controlAddr.substring(0, controlAddr.lastIndexOf(':') + 1) + port
                        + NodeControl.PREFIX);
            } catch (Exception e) {
                err.println("error: cannot serve --control-addr " + controlAddr + ": " + e.getMessage());
                stop(null, null, vertx, simNodes, client);
                return 2;
            }
        }
        SimCriServers servers = null;
        Future<SimNodeAgents> agents = Future.succeededFuture();
        if (nodeAgents) {
            if (vertx == null) {
                vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
            }
            try {
                servers = SimCriServers.start(vertx, simNodes, null).await(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                err.println("error: cannot start the simulated container runtimes: " + e.getMessage());
                stop(null, null, vertx, simNodes, client);
                return 1;
            }
            SimCriServers started = servers;
            Vertx v = vertx;
            // The ContainerRecreateRequest CRD may be installed later (or never): keep trying in the background.
            agents = Backoff.DEFAULT.retry(vertx, "starting the node agents",
                    () -> SimNodeAgents.start(v, client, started, Duration.ofSeconds(1)), e -> !stopping.get(), 0);
            out.println("sim-nodes: node agents (ContainerRecreateRequest) start once the CRD is served; CRI sockets under "
                    + servers.root());
        }
        if (!waitForSignal) {
            stop(agents, servers, vertx, simNodes, client);
            return 0;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Future<SimNodeAgents> runningAgents = agents;
        SimCriServers runningServers = servers;
        Vertx runningVertx = vertx;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stop(runningAgents, runningServers, runningVertx, simNodes, client);
            stopped.countDown();
        }, "sim-nodes-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private void stop(Future<SimNodeAgents> agents, SimCriServers servers, Vertx vertx, SimNodes simNodes,
            KubernetesClient client) {
        stopping.set(true);
        try {
            if (agents != null && agents.succeeded()) {
                agents.result().close().await(30, TimeUnit.SECONDS);
            }
            if (servers != null) {
                servers.close().await(30, TimeUnit.SECONDS);
            }
            if (vertx != null) {
                vertx.close().await(30, TimeUnit.SECONDS);
            }
        } catch (Exception e) {
            // Best effort on the way out; the nodes and the client are released below either way.
        } finally {
            if (controllers != null) {
                controllers.close();
            }
            simNodes.close();
            client.close();
        }
    }
}
