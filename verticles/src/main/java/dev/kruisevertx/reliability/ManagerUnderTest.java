package dev.kruisevertx.reliability;

import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.manager.ManagerApp;
import dev.kruisevertx.manager.ManagerCommand;
import dev.kruisevertx.manager.ManagerConfig;
import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.faults.FaultPlan;
import dev.kruisevertx.sim.faults.FaultProxy;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Vertx;
import picocli.CommandLine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One whole manager (webhook and controllers) whose every request to the API server goes through a {@link FaultProxy}
 * of its own, so the proxy's log tells what this replica wrote.
 */
record ManagerUnderTest(FaultProxy proxy, KubernetesClient client, ManagerApp app) implements AutoCloseable {

    /** Blocking: call from a plain thread. {@code flags} come on top of loopback ports and no metrics security. */
    static ManagerUnderTest start(Vertx vertx, EmbeddedCluster cluster, long seed, FaultPlan plan,
                                  List<ControllerDefinition> controllers, List<String> flags) throws Exception {
        FaultProxy proxy = FaultProxy.start(vertx, cluster.url(), seed, plan).await(30, TimeUnit.SECONDS);
        KubernetesClient client = null;
        try {
            // HTTP/1.1 as the embedded-manager tests use (see EmbeddedManagerExtension#http11).
            client = KubeClients.forTest(new ConfigBuilder(cluster.clientConfig()).withMasterUrl(proxy.url())
                    .withHttp2Disable(true).build());
            ManagerApp app = ManagerApp.start(config(controllers, flags), client, controllers)
                    .await(180, TimeUnit.SECONDS);
            return new ManagerUnderTest(proxy, client, app);
        } catch (Exception e) {
            if (client != null) {
                client.close();
            }
            proxy.close();
            throw e;
        }
    }

    private static ManagerConfig config(List<ControllerDefinition> list, List<String> flags) {
        ManagerCommand command = new ManagerCommand();
        CommandLine cl = new CommandLine(command);
        cl.setOverwrittenOptionsAllowed(true);
        ManagerCommand.addWorkerFlags(cl.getCommandSpec(), list);
        List<String> args = new ArrayList<>(List.of("--metrics-addr=127.0.0.1:0", "--health-probe-addr=127.0.0.1:0",
                "--debug-addr=127.0.0.1:0", "--enable-leader-election=false", "--webhook-initialize-timeout=60s"));
        args.addAll(flags);
        cl.parseArgs(args.toArray(String[]::new));
        try {
            return command.toConfig(cl.getCommandSpec(), list, EmbeddedProduct.localWebhookEnv(Map.of(),
                    Files.createTempDirectory("reliability-webhook-certs")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    boolean isLeader() {
        return app.isLeader();
    }

    /**
     * Stops without a graceful drain, as close to kill -9 as one process allows: the proxy cuts every connection and
     * refuses every request first, so nothing the stopping manager still tries (releasing its lease, status writes)
     * reaches the API server; then the manager and its client are closed.
     */
    void killHard() {
        proxy.partition(Duration.ofDays(1));
        close();
    }

    @Override
    public void close() {
        try {
            app.close().await(60, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // best effort: the run goes on with a new manager
        }
        client.close();
        proxy.close();
    }
}
