package dev.kruisevertx.agent;

import dev.kruisevertx.cli.InvalidConfigurationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code java -jar kruise-node-agent.jar}: parses the flags, starts the agent and stops it cleanly on
 * SIGTERM. Exit codes: 0 after a clean stop or --help, 2 for a bad command line or configuration (an
 * --addr in use, a missing, empty or incomplete --kubeconfig), 1 when the agent could not start otherwise.
 */
public final class NodeAgentMain {
    static {
        // The agent logs its own orderly stop from a shutdown hook; log4j's hook would end logging first.
        // Set before the first logger exists, so whichever log4j2 configuration is found honours it.
        System.setProperty("log4j.shutdownHookEnabled", "false");
    }

    private static final Logger LOG = LoggerFactory.getLogger(NodeAgentMain.class);
    private static final long STOP_SECONDS = 30;

    private NodeAgentMain() {
    }

    public static void main(String[] args) {
        AgentOptions options;
        try {
            options = AgentOptions.parse(Arrays.asList(args), System.getenv());
        } catch (AgentOptions.HelpRequested help) {
            System.out.println(AgentOptions.USAGE);
            return;
        } catch (AgentOptions.BadFlagException e) {
            System.err.println("kruise-node-agent: " + e.getMessage());
            System.err.println("Run with --help for the flags.");
            System.exit(2);
            return;
        }

        NodeAgent agent = new NodeAgent(options);
        // The hook goes in before start-up: a SIGTERM that arrives while the agent starts must still stop it
        // cleanly (and registering a hook once shutdown has begun throws).
        // Vert.x's non-daemon threads keep the JVM alive until SIGTERM (kubelet stopping the pod) or SIGINT.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                agent.stop().toCompletionStage().toCompletableFuture().get(STOP_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                System.err.println("kruise-node-agent: unclean stop: " + e);
            }
        }, "node-agent-shutdown"));
        try {
            agent.start().toCompletionStage().toCompletableFuture().get();
        } catch (ExecutionException e) {
            InvalidConfigurationException configuration = InvalidConfigurationException.in(e.getCause());
            LOG.error("node agent could not start: {}", e.getCause().getMessage());
            System.err.println("kruise-node-agent: cannot start: " + e.getCause().getMessage());
            // A setting to change (taken port, bad kubeconfig) is reported like a bad flag.
            System.exit(configuration != null ? 2 : 1);
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            System.exit(1);
        }
    }
}
