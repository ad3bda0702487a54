package dev.kruisevertx.e2e;

import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.manager.ControllerRegistry;
import dev.kruisevertx.manager.ManagerApp;
import dev.kruisevertx.manager.ManagerCommand;
import dev.kruisevertx.manager.ManagerConfig;
import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import picocli.CommandLine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The product as the end-to-end tests run it: one embedded cluster with the chart's objects installed and the whole
 * manager (webhook and controllers) per test class, and a fresh namespace per test so tests of a class cannot see
 * each other's objects. Register it as {@code @RegisterExtension static final EmbeddedManagerExtension product =
 * EmbeddedManagerExtension.builder()...build();} and use {@link #client()} and {@link #namespace()} in the tests.
 */
public final class EmbeddedManagerExtension implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
    /**
     * Longer than a loaded CI machine needs to sync the webhook configurations; the manager start is awaited three
     * times as long so a webhook failure surfaces with its own message rather than as a timed-out start.
     */
    public static final Duration WEBHOOK_INITIALIZE_TIMEOUT = Duration.ofSeconds(45);

    /** Work done before the cluster starts or after it stopped, such as a webhook server the cluster calls. */
    @FunctionalInterface
    public interface Step {
        void run() throws Exception;
    }

    /** What goes into the cluster before the manager starts. */
    @FunctionalInterface
    public interface Install {
        void into(EmbeddedCluster cluster) throws Exception;
    }

    private final Step before;
    private final Supplier<EmbeddedClusterOptions> clusterOptions;
    private final Install install;
    private final Supplier<List<ControllerDefinition>> controllers;
    private List<String> flags;
    private final Step after;
    private final AtomicInteger tests = new AtomicInteger();

    private ClusterFixture cluster;
    private KubernetesClient client;
    private ManagerApp app;
    private String namespace;

    private EmbeddedManagerExtension(Builder b) {
        this.before = b.before;
        this.clusterOptions = b.clusterOptions;
        this.install = b.install;
        this.controllers = b.controllers;
        this.flags = List.copyOf(b.flags);
        this.after = b.after;
    }

    public static Builder builder() {
        return new Builder();
    }

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        before.run();
        cluster = ClusterFixture.start(clusterOptions.get());
        install.into(cluster.cluster());
        client = KubeClients.forTest(http11());
        app = startManager();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        namespace = namespaceName(tests.incrementAndGet(), context.getRequiredTestMethod().getName());
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata()
                .build()).create();
    }

    /** The namespace made for the running test. */
    public String namespace() {
        return namespace;
    }

    /** A DNS label: the test's number keeps it unique, its method name makes the objects easy to place in a log. */
    static String namespaceName(int number, String method) {
        String name = "t" + number + "-" + method.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "-");
        name = name.length() > 63 ? name.substring(0, 63) : name;
        return name.replaceAll("-+$", "");
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        List<Exception> failures = new ArrayList<>();
        stopManager(failures);
        closeQuietly(failures, () -> {
            if (client != null) {
                client.close();
            }
        });
        closeQuietly(failures, () -> {
            if (cluster != null) {
                cluster.close();
            }
        });
        closeQuietly(failures, after);
        client = null;
        cluster = null;
        if (!failures.isEmpty()) {
            Exception first = failures.get(0);
            failures.stream().skip(1).forEach(first::addSuppressed);
            throw first;
        }
    }

    /** The running manager (a new one after {@link #restartManager}). */
    public ManagerApp app() {
        return app;
    }

    /** Stops the manager and starts a new one on the same cluster, as a restarted pod would. */
    public void restartManager() throws Exception {
        List<Exception> failures = new ArrayList<>();
        stopManager(failures);
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        app = startManager();
    }

    /**
     * Stops the manager and starts a new one with {@code flags} (on top of the test defaults) instead of the
     * builder's, for this and every later start: a class that starts in one mode (such as {@code
     * --takeover-dry-run}) and then runs for real.
     */
    public void restartManagerWithFlags(String... flags) throws Exception {
        this.flags = List.of(flags);
        restartManager();
    }

    private void stopManager(List<Exception> failures) {
        ManagerApp stopping = app;
        app = null;
        if (stopping != null) {
            closeQuietly(failures, () -> stopping.close().await(60, TimeUnit.SECONDS));
            closeQuietly(failures, () -> stopping.client().close());
        }
    }

    private static void closeQuietly(List<Exception> failures, Step step) {
        try {
            step.run();
        } catch (Exception e) {
            failures.add(e);
        }
    }

    private ManagerApp startManager() throws Exception {
        List<ControllerDefinition> list = controllers.get();
        ManagerApp started = ManagerApp.start(config(list), KubeClients.forTest(http11()), list)
                .await(3 * WEBHOOK_INITIALIZE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (started.metricsPort() > 0 && cluster.cluster().serviceProxy() != null) {
            // kubectl kruise why reaches the manager through the service proxy, as in a cluster.
            EmbeddedProduct.exposeManager(cluster.cluster(), started.metricsPort());
        }
        return started;
    }

    /**
     * The embedded API server speaks plain HTTP and accepts the h2c upgrade the JDK client tries by default; over
     * h2c a fresh client's first list now and then stalls mid-body (measured: 3 manager starts in 50 stalled on the
     * Pod list, none in 40 over HTTP/1.1). Real API servers negotiate HTTP/2 over TLS instead, so the tests'
     * clients stay on HTTP/1.1.
     */
    private Config http11() {
        return new ConfigBuilder(cluster.cluster().clientConfig()).withHttp2Disable(true).build();
    }

    /** The manager's flags as a user passes them: ports picked by the OS, no election, the webhook on loopback. */
    private ManagerConfig config(List<ControllerDefinition> list) {
        ManagerCommand command = new ManagerCommand();
        CommandLine cl = new CommandLine(command);
        cl.setOverwrittenOptionsAllowed(true);
        ManagerCommand.addWorkerFlags(cl.getCommandSpec(), list);
        List<String> args = new ArrayList<>(List.of("--metrics-addr=127.0.0.1:0", "--health-probe-addr=127.0.0.1:0",
                "--debug-addr=127.0.0.1:0", "--enable-leader-election=false",
                "--webhook-initialize-timeout=" + WEBHOOK_INITIALIZE_TIMEOUT.toSeconds() + "s"));
        args.addAll(flags);
        cl.parseArgs(args.toArray(String[]::new));
        try {
            return command.toConfig(cl.getCommandSpec(), list, EmbeddedProduct.localWebhookEnv(Map.of(),
                    Files.createTempDirectory("e2e-webhook-certs")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public EmbeddedCluster cluster() {
        return cluster.cluster();
    }

    /** A client of the test's own (HTTP/1.1), closed with the class. */
    public KubernetesClient client() {
        return client;
    }

    public static final class Builder {
        private Step before = () -> { };
        private Supplier<EmbeddedClusterOptions> clusterOptions = () -> new EmbeddedClusterOptions().setNodes(3);
        private Install install = EmbeddedProduct::install;
        private Supplier<List<ControllerDefinition>> controllers = ControllerRegistry::all;
        private final List<String> flags = new ArrayList<>();
        private Step after = () -> { };

        private Builder() {
        }

        /** Runs first, before the cluster starts (default: nothing). */
        public Builder before(Step step) {
            this.before = step;
            return this;
        }

        /** The cluster (default: 3 nodes, admission on); read after {@link #before(Step)} ran. */
        public Builder cluster(Supplier<EmbeddedClusterOptions> options) {
            this.clusterOptions = options;
            return this;
        }

        /** What is installed before the manager starts (default: as the chart installs it: CRDs, namespace, webhooks). */
        public Builder install(Install install) {
            this.install = install;
            return this;
        }

        /** The controllers the manager runs (default: all, as deployed). */
        public Builder controllers(Supplier<List<ControllerDefinition>> controllers) {
            this.controllers = controllers;
            return this;
        }

        /** Manager flags on top of the test defaults, such as {@code --feature-gates=...}. */
        public Builder flags(String... flags) {
            this.flags.addAll(List.of(flags));
            return this;
        }

        /** Runs last, after the cluster stopped (default: nothing). */
        public Builder after(Step step) {
            this.after = step;
            return this;
        }

        public EmbeddedManagerExtension build() {
            return new EmbeddedManagerExtension(this);
        }
    }
}
