package dev.kruisevertx.bench.cloneset;

import dev.kruisevertx.bench.startup.StartupHarness;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.manager.ManagerApp;
import dev.kruisevertx.manager.ManagerCommand;
import dev.kruisevertx.manager.ManagerConfig;
import dev.kruisevertx.sim.faults.FaultPlan;
import dev.kruisevertx.sim.faults.FaultProxy;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.vertx.core.Vertx;
import picocli.CommandLine;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * One manager replica of a sharded start-up benchmark: a whole manager whose client reaches the embedded API server
 * through a fault-free {@link FaultProxy} of its own, so that {@link FaultProxy#partition} can cut it off as a killed
 * process is (its lease releases never arrive).
 */
record Replica(int index, FaultProxy proxy, KubernetesClient client, ManagerApp app, RequestCounts requests)
        implements AutoCloseable {

    /** Blocking: call from a plain thread. */
    static Replica start(Vertx proxies, StartupHarness h, int index, List<ControllerDefinition> controllers,
                         List<String> flags) throws Exception {
        FaultProxy proxy = FaultProxy.start(proxies, h.cluster().url(), index, FaultPlan.none())
                .await(30, TimeUnit.SECONDS);
        KubernetesClient client = null;
        try {
            // As KubeClients.forTest (no retries), with this replica's requests counted.
            RequestCounts requests = new RequestCounts();
            client = new KubernetesClientBuilder().withConfig(new ConfigBuilder(h.cluster().clientConfig())
                            .withMasterUrl(proxy.url()).withHttp2Disable(true).withRequestRetryBackoffLimit(0).build())
                    .withHttpClientFactory(new JdkHttpClientFactory())
                    .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("request-counts", requests))
                    .build();
            Path certs = Files.createDirectories(h.runDirectory().resolve("webhook-certs-" + index));
            ManagerApp app = ManagerApp.start(config(controllers, flags, certs), client, controllers)
                    .await(10, TimeUnit.MINUTES);
            return new Replica(index, proxy, client, app, requests);
        } catch (Exception e) {
            if (client != null) {
                client.close();
            }
            proxy.close();
            throw e;
        }
    }

    private static ManagerConfig config(List<ControllerDefinition> controllers, List<String> flags, Path certs) {
        ManagerCommand command = new ManagerCommand();
        CommandLine cl = new CommandLine(command);
        cl.setOverwrittenOptionsAllowed(true);
        ManagerCommand.addWorkerFlags(cl.getCommandSpec(), controllers);
        List<String> args = new ArrayList<>(List.of("--metrics-addr=127.0.0.1:0", "--health-probe-addr=127.0.0.1:0",
                "--debug-addr=0", "--webhook-initialize-timeout=120s"));
        args.addAll(flags);
        cl.parseArgs(args.toArray(String[]::new));
        // As replicas in a cluster: one certificate Secret shared by all, configurations pointing at the Service (not
        // at one replica's port; per-replica local endpoints would have the replicas rewrite the configurations and
        // CRDs in turn for ever). Admission is off in the benchmark's API server, so nothing calls the webhooks.
        return command.toConfig(cl.getCommandSpec(), controllers, Map.of("WEBHOOK_PORT", "0",
                "WEBHOOK_CERT_WRITER", "secret", "WEBHOOK_CERT_DIR", certs.toString()));
    }

    double reconciles() {
        return ShardedStartupBenchmark.reconcileCount(app.registry());
    }

    @Override
    public void close() {
        try {
            app.close().await(60, TimeUnit.SECONDS);
        } catch (Exception ignored) {
            // best effort: the run is ending, or this replica was cut off on purpose
        }
        client.close();
        proxy.close();
    }
}
