package dev.kruisevertx.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KubeClientsTest {
    private static final Config CONFIG = new ConfigBuilder(Config.empty()).withMasterUrl("http://127.0.0.1:1").build();
    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private <T> T await(Future<T> f) throws Exception {
        return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
    }

    /** Runs {@code action} on an event loop. */
    private <T> Future<T> onEventLoop(Callable<T> action) {
        Promise<T> p = Promise.promise();
        vertx.getOrCreateContext().runOnContext(v -> {
            try {
                p.complete(action.call());
            } catch (Exception | Error e) {
                p.fail(e);
            }
        });
        return p.future();
    }

    @Test
    void refusesToBuildAClientOnTheEventLoop() {
        for (Callable<KubernetesClient> build : List.<Callable<KubernetesClient>>of(
                () -> KubeClients.forTest(CONFIG), () -> KubeClients.create(CONFIG, 5, 10))) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> await(onEventLoop(build)));
            IllegalStateException refused = assertInstanceOf(IllegalStateException.class, e.getCause());
            assertTrue(refused.getMessage().contains("event loop"), refused.getMessage());
        }
    }

    @Test
    void buildsAClientOnAWorkerAndOnAPlainThread() throws Exception {
        try (KubernetesClient onWorker = await(vertx.executeBlocking(() -> KubeClients.forTest(CONFIG)));
             KubernetesClient onTestThread = KubeClients.create(CONFIG, 5, 10)) {
            assertEquals(0, onWorker.getConfiguration().getRequestRetryBackoffLimit());
            assertEquals(3, onTestThread.getConfiguration().getRequestRetryBackoffLimit());
            assertEquals(10, onTestThread.getConfiguration().getMaxConcurrentRequests());
        }
    }

    @Test
    void aKubeconfigNamedByTheEnvironmentIsCheckedAsTheFlagIs(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path empty = java.nio.file.Files.createFile(dir.resolve("empty"));
        dev.kruisevertx.cli.InvalidConfigurationException e = assertThrows(
                dev.kruisevertx.cli.InvalidConfigurationException.class,
                () -> KubeClients.configFor(null, empty.toString()));
        // fabric8 alone would quietly fall back to https://kubernetes.default.svc for this file.
        assertTrue(e.getMessage().startsWith("$KUBECONFIG " + empty + ": the file is empty"), e.getMessage());

        java.nio.file.Path noContexts = dir.resolve("no-contexts");
        java.nio.file.Files.writeString(noContexts, "apiVersion: v1\nkind: Config\nclusters: []\n");
        e = assertThrows(dev.kruisevertx.cli.InvalidConfigurationException.class,
                () -> KubeClients.configFor(null, noContexts.toString()));
        assertTrue(e.getMessage().startsWith("$KUBECONFIG " + noContexts + ": has no contexts"), e.getMessage());

        // The flag wins over the environment and is named as the flag.
        e = assertThrows(dev.kruisevertx.cli.InvalidConfigurationException.class,
                () -> KubeClients.configFor(empty, noContexts.toString()));
        assertTrue(e.getMessage().startsWith("--kubeconfig " + empty + ": "), e.getMessage());

        java.nio.file.Path good = dir.resolve("good");
        java.nio.file.Files.writeString(good, """
                apiVersion: v1
                kind: Config
                clusters: [{name: c, cluster: {server: "https://127.0.0.1:6443"}}]
                users: [{name: u, user: {token: t}}]
                contexts: [{name: x, context: {cluster: c, user: u}}]
                current-context: x
                """);
        assertEquals("https://127.0.0.1:6443/", KubeClients.configFor(null, good.toString()).getMasterUrl());
    }
}
