package dev.kruisevertx.demo;

import dev.kruisevertx.cli.GoDuration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/** Flags of {@code kruise-manager demo}. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start an embedded cluster (API server, simulated nodes and kubelet), the manager and the webhook, "
                + "apply the samples and show them converge.")
public final class DemoCommand {
    @Option(names = "--nodes", defaultValue = "3", description = "Simulated nodes. Default: ${DEFAULT-VALUE}")
    int nodes;

    @Option(names = "--kubeconfig-out", defaultValue = "./demo-kubeconfig",
            description = "Where to write a kubeconfig for the embedded API. Default: ${DEFAULT-VALUE}")
    Path kubeconfigOut;

    @Option(names = "--api-port", defaultValue = "0", description = "Port of the embedded API server (0 picks one).")
    int apiPort;

    // Loopback: the demo is for this machine only (the manager in a cluster binds all interfaces).
    @Option(names = "--metrics-addr", defaultValue = "127.0.0.1:8080", description = "As the manager's. Default: ${DEFAULT-VALUE}")
    String metricsAddr;

    @Option(names = "--health-probe-addr", defaultValue = "127.0.0.1:8000", description = "As the manager's. Default: ${DEFAULT-VALUE}")
    String healthProbeAddr;

    @Option(names = "--debug-addr", defaultValue = "127.0.0.1:8090", description = "As the manager's. Default: ${DEFAULT-VALUE}")
    String debugAddr;

    @Option(names = "--feature-gates", defaultValue = "", description = "As the manager's.")
    String featureGates;

    @Option(names = "--samples", description = "A folder of YAML files to apply instead of the built-in samples.")
    Path samples;

    @Option(names = "--until-ready", description = "Exit 0 once every sample has converged; non-zero after --timeout.")
    boolean untilReady;

    @Option(names = "--timeout", defaultValue = "120s", description = "With --until-ready. Default: ${DEFAULT-VALUE}")
    String timeout;

    @Option(names = "--log-format", defaultValue = "text", description = "text or json.")
    String logFormat;

    @Option(names = {"-v", "--v"}, defaultValue = "0", description = "Log verbosity as klog's.")
    int verbosity;

    DemoOptions toOptions() {
        if (nodes < 0) {
            throw new IllegalArgumentException("--nodes must not be negative, got " + nodes);
        }
        if (apiPort < 0 || apiPort > 65535) {
            throw new IllegalArgumentException("--api-port must be 0-65535, got " + apiPort);
        }
        java.time.Duration t;
        try {
            t = GoDuration.parse(timeout);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--timeout: " + e.getMessage(), e);
        }
        return new DemoOptions(nodes, kubeconfigOut, apiPort, metricsAddr, healthProbeAddr, debugAddr, featureGates,
                samples, untilReady, t);
    }
}
