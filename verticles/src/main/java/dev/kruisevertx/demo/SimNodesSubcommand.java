package dev.kruisevertx.demo;

import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.sim.nodes.SimNodes;
import dev.kruisevertx.sim.nodes.SimNodesOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

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

    private final CommandLine commandLine = new CommandLine(this);

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
                    .setScheduler(scheduler));
        } catch (RuntimeException e) {
            err.println("error: cannot start simulated nodes: " + e.getMessage());
            return 1;
        }
        out.println("sim-nodes: running " + simNodes.nodeNames());
        if (!waitForSignal) {
            simNodes.close();
            client.close();
            return 0;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simNodes.close();
            client.close();
            stopped.countDown();
        }, "sim-nodes-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }
}
