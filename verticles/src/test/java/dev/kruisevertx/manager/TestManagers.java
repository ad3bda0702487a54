package dev.kruisevertx.manager;

import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.client.KubernetesClient;
import picocli.CommandLine;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.fail;

/** Starting managers in tests: flags as a user would pass them, ports picked by the OS. */
final class TestManagers {
    private TestManagers() {
    }

    static ManagerConfig config(List<ControllerDefinition> controllers, String... extraArgs) {
        List<String> args = new ArrayList<>(List.of("--metrics-addr=127.0.0.1:0", "--health-probe-addr=127.0.0.1:0",
                "--debug-addr=127.0.0.1:0"));
        args.addAll(List.of(extraArgs));
        ManagerCommand command = new ManagerCommand();
        CommandLine cl = ManagerCommand.commandLine(command, controllers);
        cl.parseArgs(args.toArray(String[]::new));
        // Port 0: tests run several managers at once; the Secret writer works against the mock.
        return command.toConfig(cl.getCommandSpec(), controllers, Map.of("WEBHOOK_PORT", "0"));
    }

    static ManagerApp start(KubernetesClient mockClient, List<ControllerDefinition> controllers, String... args)
            throws Exception {
        KubernetesClient client = KubeClients.forTest(mockClient.getConfiguration());
        installWebhookConfigurations(mockClient);
        return ManagerApp.start(config(controllers, args), client, controllers)
                .toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
    }

    /** What the chart installs next to the manager: the webhook configurations its certificate sync patches. */
    static void installWebhookConfigurations(KubernetesClient client) {
        try (var in = TestManagers.class.getResourceAsStream("/demo/webhook-configurations.yaml")) {
            for (var object : client.load(in).items()) {
                client.resource(object).createOr(existing -> existing.update());
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static void stop(ManagerApp app) throws Exception {
        if (app != null) {
            app.close().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
        }
    }

    static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        // HTTP/1.1: the JDK client's h2c upgrade attempt on plain HTTP has been seen to hang under load.
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    }

    /** Waits for a condition, failing with the description and the last observed state. */
    static void await(String description, Duration timeout, BooleanSupplier condition, Supplier<Object> state)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (condition.getAsBoolean()) {
                return;
            }
            Thread.sleep(50);
        }
        fail("timed out after " + timeout + " waiting for: " + description + "; last state: " + state.get());
    }
}
