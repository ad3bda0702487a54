package dev.kruisevertx.sim.cri;

import dev.kruisevertx.sim.RunDirectory;
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
    /** Prefix of the run directories made when no root is given ({@link RunDirectory}). */
    public static final String RUN_DIRECTORY_PREFIX = "kruise-sim-cri-";
    private final Vertx vertx;
    private final Path root;
    /** The directory this instance made and removes on close; null when the caller gave the root. */
    private final RunDirectory owned;
    private final Map<String, SimCriServer> servers = new LinkedHashMap<>();

    private SimCriServers(Vertx vertx, Path root, RunDirectory owned) {
        this.vertx = vertx;
        this.root = root;
        this.owned = owned;
    }

    /**
     * Starts a server for every node of {@code nodes} under {@code root} (null: a new owner-only run directory in the
     * temp directory, removed on {@link #close()}, or by a later run if this process is killed).
     */
    public static Future<SimCriServers> start(Vertx vertx, SimNodes nodes, Path root) {
        Future<RunDirectory> made = root != null ? Future.succeededFuture()
                : vertx.executeBlocking(() -> RunDirectory.create(RUN_DIRECTORY_PREFIX));
        return made.compose(runDir -> {
            Path r = runDir == null ? root : runDir.path();
            SimCriServers all = new SimCriServers(vertx, r, runDir);
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
            if (owned != null) {
                owned.close();
                return null;
            }
            for (String node : servers.keySet()) {
                Files.deleteIfExists(root.resolve(node));
            }
            return null;
        })).mapEmpty();
    }
}
