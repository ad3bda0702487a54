package dev.kruisevertx.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.vertx.core.Context;

import java.io.File;
import java.nio.file.Path;

/**
 * Builds fabric8 clients on the JDK HTTP client. fabric8's default HTTP client is built on Vert.x 4,
 * which cannot share a JVM with this project's Vert.x 5, so every client in the project comes from here.
 * Building a client blocks (it loads the TLS stack and reads the JDK trust store: seconds on a busy machine), so
 * these methods refuse to run on a Vert.x event loop: call them from a worker ({@code vertx.executeBlocking}) or a
 * plain thread.
 */
public final class KubeClients {
    private KubeClients() {
    }

    /**
     * A client from a kubeconfig file, or from the usual discovery (in-cluster, $KUBECONFIG, ~/.kube/config) when
     * null. A file that is missing, empty or incomplete is an {@link dev.kruisevertx.cli.InvalidConfigurationException}
     * saying what is wrong with it.
     */
    public static KubernetesClient create(Path kubeconfig, double qps, int burst) {
        requireOffEventLoop();
        return create(configFor(kubeconfig, System.getenv("KUBECONFIG")), qps, burst);
    }

    /**
     * The configuration the manager and node agent use: {@code --kubeconfig}, else one file named by $KUBECONFIG
     * (checked as strictly as the flag: fabric8 would fall back to in-cluster defaults for a file without contexts),
     * else fabric8's discovery (in-cluster, a list in $KUBECONFIG, ~/.kube/config).
     */
    static Config configFor(Path kubeconfig, String kubeconfigEnv) {
        if (kubeconfig != null) {
            return KubeconfigFile.load(kubeconfig);
        }
        if (kubeconfigEnv != null && !kubeconfigEnv.isBlank() && !kubeconfigEnv.contains(File.pathSeparator)) {
            return KubeconfigFile.load(Path.of(kubeconfigEnv), "$KUBECONFIG");
        }
        return Config.autoConfigure(null);
    }

    public static KubernetesClient create(Config base, double qps, int burst) {
        requireOffEventLoop();
        Config config = new ConfigBuilder(base)
                .withRequestRetryBackoffLimit(3)
                .build();
        // fabric8 has no client-side token bucket like client-go's rest-config-qps; the values are
        // kept on the config so callers that throttle can read them.
        config.setMaxConcurrentRequests(Math.max(burst, 1));
        return new KubernetesClientBuilder()
                .withConfig(config)
                .withHttpClientFactory(new JdkHttpClientFactory())
                .build();
    }

    /** A client for tests and the embedded cluster: no retries, so failures surface at once. */
    public static KubernetesClient forTest(Config base) {
        requireOffEventLoop();
        Config config = new ConfigBuilder(base).withRequestRetryBackoffLimit(0).build();
        return new KubernetesClientBuilder()
                .withConfig(config)
                .withHttpClientFactory(new JdkHttpClientFactory())
                .build();
    }

    private static void requireOffEventLoop() {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException("a Kubernetes client was built on the event loop thread "
                    + Thread.currentThread().getName() + ": building one blocks, build it on a worker (executeBlocking)");
        }
    }
}
