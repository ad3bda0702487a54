package dev.kruisevertx.sim.testing;

import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Vertx;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A running embedded cluster with its own Vert.x, for tests that manage lifecycles themselves
 * ({@code try (ClusterFixture c = ClusterFixture.start()) {...}}). {@link EmbeddedClusterExtension} wraps it for JUnit.
 *
 * @param client a client owned by the fixture (closed with it)
 */
public record ClusterFixture(Vertx vertx, EmbeddedCluster cluster, KubernetesClient client) implements AutoCloseable {
    /** System property naming a CRD directory to install; else the nearest {@code crds/} up from the working directory. */
    public static final String CRD_DIRECTORY_PROPERTY = "kruise.sim.crds";

    /** 3 nodes, admission on, the project's CRDs when found. */
    public static ClusterFixture start() {
        return start(new EmbeddedClusterOptions().setCrdDirectory(findCrdDirectory()));
    }

    public static ClusterFixture start(EmbeddedClusterOptions options) {
        // Native transport: simulated nodes serve the CRI on unix sockets when asked to (criServers).
        Vertx vertx = Vertx.vertx(new io.vertx.core.VertxOptions().setPreferNativeTransport(true));
        try {
            EmbeddedCluster cluster = EmbeddedCluster.start(vertx, options).await(60, TimeUnit.SECONDS);
            return new ClusterFixture(vertx, cluster, cluster.newClient());
        } catch (Exception e) {
            vertx.close();
            throw new IllegalStateException("the embedded cluster did not start: " + e.getMessage(), e);
        }
    }

    /** The repository's {@code crds/} directory if the property or a parent of the working directory has one. */
    public static Path findCrdDirectory() {
        String prop = System.getProperty(CRD_DIRECTORY_PROPERTY);
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop);
        }
        Path dir = Path.of("").toAbsolutePath();
        for (int i = 0; i < 4 && dir != null; i++) {
            Path crds = dir.resolve("crds");
            if (Files.isDirectory(crds)) {
                return crds;
            }
            dir = dir.getParent();
        }
        return null;
    }

    @Override
    public void close() {
        try {
            client.close();
            cluster.close().await(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("the embedded cluster did not stop cleanly: " + e.getMessage(), e);
        } finally {
            try {
                vertx.close().await(30, TimeUnit.SECONDS);
            } catch (Exception ignored) {
                // Closing Vert.x is best effort at the end of a test.
            }
        }
    }
}
