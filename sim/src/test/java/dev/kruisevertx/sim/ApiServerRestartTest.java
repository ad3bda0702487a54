package dev.kruisevertx.sim;

import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link EmbeddedCluster#restartApiServer}: the same URL and store afterwards, watches broken, old resumes 410. */
class ApiServerRestartTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    private static ConfigMap cm(String name) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("v", "1").build();
    }

    @Test
    void restartKeepsTheStoreBreaksWatchesAndAnswersOldResumesWithGone() throws Exception {
        try (ClusterFixture fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0))) {
            KubernetesClient client = fixture.client();
            String url = fixture.cluster().url();
            ConfigMap before = client.configMaps().inNamespace("default").resource(cm("kept")).create();
            String rvBefore = before.getMetadata().getResourceVersion();

            // A watch open across the restart is closed by it (the stream ends); an informer lists again and sees
            // what came after.
            // (Asynchronous: the server sends the answer's head with the first event.)
            CompletableFuture<Void> watchClosed = java.net.http.HttpClient.newHttpClient().sendAsync(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create(url
                            + "/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=" + rvBefore)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofInputStream()).thenAcceptAsync(response -> {
                        try (java.io.InputStream stream = response.body()) {
                            while (stream.read() >= 0) {
                                // events, until the server goes away
                            }
                        } catch (java.io.IOException e) {
                            // a reset is an end too
                        }
                    }).exceptionally(e -> null);
            Set<String> seen = ConcurrentHashMap.newKeySet();
            SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace("default")
                    .inform(new ResourceEventHandler<>() {
                        @Override
                        public void onAdd(ConfigMap obj) {
                            seen.add(obj.getMetadata().getName());
                        }

                        @Override
                        public void onUpdate(ConfigMap oldObj, ConfigMap newObj) {
                        }

                        @Override
                        public void onDelete(ConfigMap obj, boolean deletedFinalStateUnknown) {
                        }
                    });
            try {
                Await.waitFor("the informer saw the first object", TIMEOUT, () -> seen.contains("kept"));
                // A later write: resuming from "kept"'s resourceVersion then needs events the restart forgot.
                client.configMaps().inNamespace("default").resource(cm("later")).create();
                CompletableFuture<Void> restarted = fixture.cluster().restartApiServer(Duration.ofSeconds(3))
                        .toCompletionStage().toCompletableFuture();
                // Down: requests are refused until it is back.
                boolean refused = false;
                while (!refused && !restarted.isDone()) {
                    try {
                        client.configMaps().inNamespace("default").withName("kept").get();
                        Thread.sleep(50);
                    } catch (KubernetesClientException e) {
                        refused = true;
                    }
                }
                assertTrue(refused, "a request during the downtime was refused");
                watchClosed.get(30, TimeUnit.SECONDS);
                restarted.get(30, TimeUnit.SECONDS);

                assertEquals(url, fixture.cluster().url());
                ConfigMap after = client.configMaps().inNamespace("default").withName("kept").get();
                assertEquals(rvBefore, after.getMetadata().getResourceVersion(), "objects keep their resourceVersion");
                ConfigMap created = client.configMaps().inNamespace("default").resource(cm("after")).create();
                assertTrue(Long.parseLong(created.getMetadata().getResourceVersion()) > Long.parseLong(rvBefore),
                        "the resourceVersion counter goes on");

                // A watch resuming from before the last write before the restart is answered 410 Gone, as by a
                // restarted kube-apiserver whose watch cache starts at the current resourceVersion.
                CompletableFuture<WatcherException> gone = new CompletableFuture<>();
                client.configMaps().inNamespace("default").watch(rvBefore, new Watcher<>() {
                    @Override
                    public void eventReceived(Action action, ConfigMap resource) {
                    }

                    @Override
                    public void onClose(WatcherException cause) {
                        gone.complete(cause);
                    }
                });
                WatcherException e = gone.get(30, TimeUnit.SECONDS);
                assertTrue(e.isHttpGone(), "expected 410 Gone, got " + e);

                // The informer recovered (relisted) and sees the object created after the restart.
                Await.waitFor("the informer saw the object created after the restart", TIMEOUT,
                        () -> seen.contains("after"));
            } finally {
                informer.close();
            }
        }
    }
}
