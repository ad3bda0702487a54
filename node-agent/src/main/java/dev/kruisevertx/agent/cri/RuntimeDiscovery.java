package dev.kruisevertx.agent.cri;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.grpc.common.GrpcStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the node's container runtime the way OpenKruise's daemon does: an explicitly configured socket,
 * or else the first of the well-known sockets under the host's {@code /var/run} (mounted at
 * {@code /hostvarrun}) that answers both Version and ListImages. A socket file alone does not count: a
 * runtime that crashed leaves its socket behind.
 */
public final class RuntimeDiscovery {
    private static final Logger LOG = LoggerFactory.getLogger(RuntimeDiscovery.class);

    /** Where the DaemonSet mounts the host's /var/run. */
    public static final Path DEFAULT_ROOT = Path.of("/hostvarrun");

    /** Candidate sockets relative to the root, in OpenKruise's order. */
    public static final List<String> CANDIDATES = List.of(
            "containerd.sock",
            "containerd/containerd.sock",
            "crio.sock",
            "crio/crio.sock",
            "cri-dockerd.sock",
            "cri-dockerd/cri-dockerd.sock");

    private final Vertx vertx;
    private final Path root;
    private final Duration probeTimeout;

    public RuntimeDiscovery(Vertx vertx, Path root, Duration probeTimeout) {
        this.vertx = vertx;
        this.root = root;
        this.probeTimeout = probeTimeout;
    }

    /**
     * Resolves a configured endpoint: {@code unix:///abs/path} or an absolute path as given, a relative
     * path (OpenKruise's {@code --socket-file}) under the root.
     */
    public CriEndpoint resolve(String configured) {
        String s = configured.trim();
        if (s.startsWith("unix://") || s.startsWith("/") || s.contains("://")) {
            return CriEndpoint.parse(s);
        }
        return new CriEndpoint(root.resolve(s).normalize());
    }

    /**
     * The runtime to use. With {@code configured} set, only that socket is tried; otherwise the
     * candidates in order. Fails with a {@link CriException} (UNAVAILABLE) listing why each was refused.
     */
    public Future<DiscoveredRuntime> discover(String configured) {
        List<CriEndpoint> candidates = new ArrayList<>();
        if (configured != null && !configured.isBlank()) {
            try {
                candidates.add(resolve(configured));
            } catch (IllegalArgumentException e) {
                return Future.failedFuture(e);
            }
        } else {
            for (String name : CANDIDATES) {
                candidates.add(new CriEndpoint(root.resolve(name)));
            }
        }
        List<String> refusals = new ArrayList<>();
        return tryFrom(candidates, 0, refusals);
    }

    private Future<DiscoveredRuntime> tryFrom(List<CriEndpoint> candidates, int index, List<String> refusals) {
        if (index >= candidates.size()) {
            String where = candidates.size() == 1 ? candidates.get(0).toString() : "under " + root;
            CriEndpoint reported = candidates.size() == 1 ? candidates.get(0) : new CriEndpoint(root);
            return Future.failedFuture(new CriException("discovery", reported, GrpcStatus.UNAVAILABLE,
                    "no CRI runtime answers " + where + ": " + String.join("; ", refusals), null));
        }
        CriEndpoint candidate = candidates.get(index);
        return vertx.fileSystem().exists(candidate.socket().toString())
                .compose(exists -> exists
                        ? probe(candidate)
                        : Future.failedFuture(new IllegalStateException("no socket file")))
                .recover(err -> {
                    String why = err instanceof CriException e ? e.status().name() + " " + e.detail() : err.getMessage();
                    Path socket = candidate.socket();
                    refusals.add((socket.startsWith(root) ? root.relativize(socket) : socket) + ": " + why);
                    LOG.debug("CRI candidate {} refused: {}", candidate, why);
                    return tryFrom(candidates, index + 1, refusals);
                });
    }

    private Future<DiscoveredRuntime> probe(CriEndpoint candidate) {
        GrpcCriClient client = new GrpcCriClient(vertx, candidate, probeTimeout, null);
        Future<DiscoveredRuntime> found = client.version().compose(version -> client.listImages(null)
                .map(images -> new DiscoveredRuntime(candidate, version)));
        return found.andThen(ar -> client.close());
    }
}
