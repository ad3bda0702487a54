package dev.kruisevertx.sim.cri;

import dev.kruisevertx.sim.nodes.SimNodes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@link SimCriServer} per simulated node, each on {@code <root>/<node>/containerd.sock}: the layout a node
 * agent finds by runtime discovery when given {@code <root>/<node>} as its {@code /hostvarrun}.
 */
public final class SimCriServers {
    private final Vertx vertx;
    private final Path root;
    private final boolean ownsRoot;
    private final Map<String, SimCriServer> servers = new LinkedHashMap<>();

    private SimCriServers(Vertx vertx, Path root, boolean ownsRoot) {
        this.vertx = vertx;
        this.root = root;
        this.ownsRoot = ownsRoot;
    }

    /**
     * Starts a server for every node of {@code nodes} under {@code root} (null: a new temporary directory, removed on
     * {@link #close()}).
     */
    public static Future<SimCriServers> start(Vertx vertx, SimNodes nodes, Path root) {
        Future<Path> dir = root != null ? Future.succeededFuture(root)
                : vertx.executeBlocking(() -> Files.createTempDirectory("kruise-sim-cri"));
        return dir.compose(r -> {
            SimCriServers all = new SimCriServers(vertx, r, root == null);
            List<Future<SimCriServer>> started = new ArrayList<>();
            for (String node : nodes.nodeNames()) {
                SimCriServer server = new SimCriServer(vertx, nodes, node, r.resolve(node).resolve("containerd.sock"));
                all.servers.put(node, server);
                started.add(server.start());
            }
            return Future.all(started).map(all).recover(err -> all.close().transform(x -> Future.failedFuture(err)));
        });
    }

    public Map<String, SimCriServer> servers() {
        return Collections.unmodifiableMap(servers);
    }

    public SimCriServer server(String node) {
        SimCriServer s = servers.get(node);
        if (s == null) {
            throw new IllegalArgumentException("no simulated CRI server for node " + node + "; nodes: " + servers.keySet());
        }
        return s;
    }

    public Path root() {
        return root;
    }

    public Future<Void> close() {
        List<Future<Void>> closing = new ArrayList<>();
        servers.values().forEach(s -> closing.add(s.close()));
        return Future.join(closing).transform(ar -> vertx.executeBlocking(() -> {
            for (String node : servers.keySet()) {
                Files.deleteIfExists(root.resolve(node));
            }
            if (ownsRoot) {
                Files.deleteIfExists(root);
            }
            return null;
        })).mapEmpty();
    }
}
