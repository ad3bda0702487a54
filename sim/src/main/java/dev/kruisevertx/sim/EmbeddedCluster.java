package dev.kruisevertx.sim;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.sim.api.ApiServer;
import dev.kruisevertx.sim.controllers.BuiltinControllers;
import dev.kruisevertx.sim.cri.SimCriServers;
import dev.kruisevertx.sim.api.ResourceType;
import dev.kruisevertx.sim.nodes.SimNodes;
import dev.kruisevertx.sim.nodes.SimNodesOptions;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * A Kubernetes API server with real semantics plus simulated nodes, in process: for tests, the {@code demo}
 * command, and trying the product without a cluster. Serves plain HTTP on {@link #url()} to fabric8 clients and
 * kubectl ({@link #writeKubeconfig}).
 */
public final class EmbeddedCluster {
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedCluster.class);

    private final Vertx vertx;
    private final ApiVerticle verticle;
    private final String deploymentId;
    private final String url;
    private final KubernetesClient client;
    private SimNodes nodes;
    private SimCriServers criServers;
    private BuiltinControllers controllers;

    private EmbeddedCluster(Vertx vertx, ApiVerticle verticle, String deploymentId, String url, KubernetesClient client) {
        this.vertx = vertx;
        this.verticle = verticle;
        this.deploymentId = deploymentId;
        this.url = url;
        this.client = client;
    }

    /** Starts the API server, installs the CRDs of {@code options.crdDirectory()}, then starts the nodes. */
    public static Future<EmbeddedCluster> start(Vertx vertx, EmbeddedClusterOptions options) {
        ApiVerticle verticle = new ApiVerticle(options);
        return vertx.deployVerticle(verticle).compose(id -> {
            String url = "http://" + options.host() + ":" + verticle.port();
            // Building a client loads the TLS stack and reads the JDK's trust store: seconds on a busy machine,
            // so never on the event loop this continuation runs on.
            return vertx.executeBlocking(() -> KubeClients.forTest(config(url)))
                    .recover(e -> vertx.undeploy(id).transform(x -> Future.failedFuture(e)))
                    .map(client -> new EmbeddedCluster(vertx, verticle, id, url, client));
        }).compose(cluster -> cluster.installCrds(options.crdDirectory())
                .compose(v -> cluster.startNodes(options))
                .compose(v -> cluster.startControllers(options))
                .map(cluster)
                .recover(e -> cluster.close().transform(x -> Future.failedFuture(e))));
    }

    private Future<Void> installCrds(Path dir) {
        if (dir == null) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> Manifests.readDirectory(dir)).compose(this::installCrdDocuments);
    }

    /** Creates (or replaces) each CustomResourceDefinition among {@code docs}; other kinds are skipped. */
    public Future<Void> installCrdDocuments(List<JsonNode> docs) {
        Promise<Void> done = Promise.promise();
        verticle.api().context().runOnContext(v -> {
            ApiServer api = verticle.api();
            ResourceType crds = api.type("apiextensions.k8s.io", "v1", "customresourcedefinitions");
            List<Future<?>> steps = new ArrayList<>();
            for (JsonNode doc : docs) {
                if (!"CustomResourceDefinition".equals(doc.path("kind").asText())) {
                    LOG.info("skipping {} {} in the CRD directory", doc.path("kind").asText(), doc.path("metadata").path("name").asText());
                    continue;
                }
                steps.add(api.create(crds, "v1", null, doc, false));
            }
            Future.all(steps).<Void>mapEmpty().onComplete(done);
        });
        return done.future();
    }

    private Future<Void> startNodes(EmbeddedClusterOptions options) {
        if (options.nodes() <= 0) {
            return Future.succeededFuture();
        }
        SimNodesOptions nodeOptions = options.nodeOptions().copy().setNodes(options.nodes());
        return vertx.executeBlocking(() -> SimNodes.start(client, nodeOptions)).compose(n -> {
            nodes = n;
            dev.kruisevertx.sim.nodes.NodeControl control = new dev.kruisevertx.sim.nodes.NodeControl(n);
            verticle.http().setSimEndpoint((method, path, body) -> {
                dev.kruisevertx.sim.nodes.NodeControl.Reply r = control.handle(method, path, body);
                return new dev.kruisevertx.sim.api.ApiHttpServer.Reply(r.code(), r.body());
            });
            if (!options.criServers()) {
                return Future.succeededFuture();
            }
            return SimCriServers.start(vertx, n, options.criRoot()).map(servers -> {
                criServers = servers;
                return null;
            });
        });
    }

    private Future<Void> startControllers(EmbeddedClusterOptions options) {
        if (!options.builtinControllers()) {
            return Future.succeededFuture();
        }
        return vertx.executeBlocking(() -> BuiltinControllers.start(client, options.controllerOptions())).map(c -> {
            controllers = c;
            return null;
        });
    }

    /** The built-in workload controllers, or null when started with {@code builtinControllers(false)}. */
    public BuiltinControllers controllers() {
        return controllers;
    }

    private static Config config(String url) {
        return new ConfigBuilder(Config.empty()).withMasterUrl(url).withNamespace("default")
                .withRequestTimeout(30_000).withConnectionTimeout(10_000).withWatchReconnectInterval(200)
                .build();
    }

    public String url() {
        return url;
    }

    /** A fabric8 config for this cluster (no retries when used through {@code KubeClients.forTest}). */
    public Config clientConfig() {
        return config(url);
    }

    /** A new client the caller owns and closes. */
    public KubernetesClient newClient() {
        return KubeClients.forTest(clientConfig());
    }

    /** The cluster's own client (closed with the cluster). */
    public KubernetesClient client() {
        return client;
    }

    /**
     * The API server's service proxy ({@code /api/v1/namespaces/NS/services/NAME:PORT/proxy/...}): map a Service's
     * port to a process on this machine, such as the manager's metrics listener.
     */
    public dev.kruisevertx.sim.api.ServiceProxy serviceProxy() {
        return verticle.http().serviceProxy();
    }

    /** The simulated nodes, or null when started with {@code nodes(0)}. */
    public SimNodes nodes() {
        return nodes;
    }

    /** The nodes' CRI servers, or null unless started with {@code criServers(true)}. */
    public SimCriServers criServers() {
        return criServers;
    }

    /** The API server's state, for code that runs on {@link ApiServer#context()}. */
    public ApiServer apiServer() {
        return verticle.api();
    }

    /**
     * Restarts the API server in place, as a kube-apiserver restart looks to its clients: every connection and watch
     * is closed, requests are refused for {@code downtime}, then it serves again on the same URL with the same store
     * (objects, resourceVersions, the resourceVersion counter). Its event log starts afresh, so a watch resuming from
     * a resourceVersion older than the restart gets 410 Gone and its client must list again. Admission webhooks,
     * nodes and built-in controllers keep running (they are clients and reconnect).
     */
    public Future<Void> restartApiServer(java.time.Duration downtime) {
        LOG.info("restarting the API server on {} ({} ms down)", url, downtime.toMillis());
        return verticle.restart(downtime.toMillis());
    }

    /**
     * Makes every watch of {@code resource} (a plural with its group, e.g. {@code pods} or {@code clonesets.apps.kruise.io})
     * lag behind the objects in {@code namespace} until {@link #releaseWatchEvents released}: clients' caches then miss
     * their own writes there, as behind a slow watch. Completes once in force.
     */
    public Future<Void> holdWatchEvents(String resource, String namespace) {
        return onApiContext(() -> {
            verticle.api().watchHolds().hold(resource, namespace);
            return null;
        });
    }

    /** Ends {@link #holdWatchEvents}: the held events go out, in order. */
    public Future<Void> releaseWatchEvents(String resource, String namespace) {
        return onApiContext(() -> {
            verticle.api().watchHolds().release(resource, namespace);
            return null;
        });
    }

    /** Runs {@code action} on the API server's context (where the store may be read) and returns its result. */
    public <T> Future<T> onApiContext(Callable<T> action) {
        Promise<T> p = Promise.promise();
        verticle.api().context().runOnContext(v -> {
            try {
                p.complete(action.call());
            } catch (Exception e) {
                p.fail(e);
            }
        });
        return p.future();
    }

    /** Writes a kubeconfig for kubectl and other clients. Blocking file IO: call it off the event loop. */
    public void writeKubeconfig(Path path) {
        String text = """
                apiVersion: v1
                kind: Config
                clusters:
                - name: kruise-sim
                  cluster:
                    server: %s
                contexts:
                - name: kruise-sim
                  context:
                    cluster: kruise-sim
                    user: kruise-sim
                    namespace: default
                current-context: kruise-sim
                users:
                - name: kruise-sim
                  user: {}
                """.formatted(url);
        try {
            if (path.getParent() != null) {
                Files.createDirectories(path.getParent());
            }
            Files.writeString(path, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write kubeconfig " + path + ": " + e.getMessage(), e);
        }
    }

    /** Stops the nodes, the client and the API server. */
    public Future<Void> close() {
        Future<Void> cri = criServers == null ? Future.succeededFuture() : criServers.close();
        return cri.transform(c -> vertx.executeBlocking(() -> {
            if (controllers != null) {
                controllers.close();
            }
            if (nodes != null) {
                nodes.close();
            }
            client.close();
            return null;
        })).transform(x -> vertx.undeploy(deploymentId));
    }
}
