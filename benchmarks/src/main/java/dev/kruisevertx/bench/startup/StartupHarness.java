package dev.kruisevertx.bench.startup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.manager.ManagerApp;
import dev.kruisevertx.manager.ManagerCommand;
import dev.kruisevertx.manager.ManagerConfig;
import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.RunDirectory;
import dev.kruisevertx.sim.api.ApiServer;
import dev.kruisevertx.sim.api.ResourceType;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import picocli.CommandLine;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What every start-up benchmark does around its workload: an embedded cluster without kubelets or admission (start-up
 * is measured, not admission) with the product installed as the chart installs it, ready pods written straight into
 * the API server, the whole manager started with one controller, and the figures: time until every workload was
 * reconciled once, reconciles per second, the manager's share of the heap (the API server's store lives in the same
 * JVM, so the share is the growth after the manager started). The manager's webhook certificates go to a run
 * directory ({@value #RUN_DIRECTORY_PREFIX}*) removed on close, or by the next run when this one was killed.
 */
public final class StartupHarness implements AutoCloseable {
    /** Loads one workload named {@code name} with {@code pods} ready pods; blocking. */
    public interface Loader {
        void load(StartupHarness harness, String name, int pods) throws Exception;
    }

    /** Counts, on the API server's context, the workloads whose status shows a reconcile that saw all their pods. */
    public interface Progress {
        int reconciled(ApiServer api);
    }

    /** What a start-up benchmark does with its harness. */
    public interface Body {
        void run(StartupHarness harness, Sizes sizes) throws Exception;
    }

    /**
     * A start-up benchmark's command line: the sizes read from {@code args} (else an error showing {@code usage}),
     * then {@code body} with a harness started for it and closed after.
     */
    public static void main(String[] args, String usage, Body body) throws Exception {
        Sizes sizes = Sizes.parse(args, usage);
        try (StartupHarness harness = start()) {
            body.run(harness, sizes);
        }
    }

    /** The prefix of the run directories under java.io.tmpdir (the name earlier versions used for the bare cert dir). */
    /** What every start-up benchmark is told on its command line: how many objects, how many pods each. */
    public record Sizes(int objects, int podsEach) {
        /** {@code [objects=200] [podsEach=50]}, both at least 1; else an error showing {@code usage}. */
        public static Sizes parse(String[] args, String usage) {
            int objects = args.length > 0 ? Integer.parseInt(args[0]) : 200;
            int podsEach = args.length > 1 ? Integer.parseInt(args[1]) : 50;
            if (objects < 1 || podsEach < 1) {
                throw new IllegalArgumentException("usage: " + usage);
            }
            return new Sizes(objects, podsEach);
        }
    }

    public static final String RUN_DIRECTORY_PREFIX = "bench-webhook-certs";

    private final Vertx vertx;
    private final RunDirectory runDir;
    private EmbeddedCluster cluster;
    private ManagerApp app;

    private StartupHarness(Vertx vertx, RunDirectory runDir) {
        this.vertx = vertx;
        this.runDir = runDir;
    }

    public static StartupHarness start() throws Exception {
        return start(Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** As {@link #start()}, with the run directory under {@code tmpParent}. */
    public static StartupHarness start(Path tmpParent) throws Exception {
        StartupHarness harness = new StartupHarness(Vertx.vertx(),
                RunDirectory.create(tmpParent, RUN_DIRECTORY_PREFIX, RunDirectory.OwnerCheck.PROCESSES));
        try {
            harness.cluster = EmbeddedCluster.start(harness.vertx,
                    new EmbeddedClusterOptions().setNodes(0).setAdmission(false)).await(60, TimeUnit.SECONDS);
            // The manager needs its webhook configurations, CRDs and namespace, as the chart installs them.
            EmbeddedProduct.install(harness.cluster);
            return harness;
        } catch (Exception | Error e) {
            try {
                harness.close();
            } catch (Exception suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** The run's directory (the manager's webhook certificates), gone once the harness is closed. */
    public Path runDirectory() {
        return runDir.path();
    }

    public EmbeddedCluster cluster() {
        return cluster;
    }

    public ApiServer api() {
        return cluster.apiServer();
    }

    /**
     * Loads {@code count} workloads named {@code prefix-<i>}, starts the manager with {@code controller}, waits until
     * {@code progress} counts all of them (at most 10 minutes) and prints the figures.
     */
    public void run(String kindPlural, String prefix, int count, int podsEach, Loader loader,
                    ControllerDefinition controller, Progress progress) throws Exception {
        load(kindPlural, prefix, count, podsEach, loader);
        long heapBefore = usedHeapAfterGc();
        long start = startManager(controller);
        long deadline = start + TimeUnit.MINUTES.toNanos(10);
        int done = 0;
        while (System.nanoTime() < deadline) {
            done = cluster.onApiContext(() -> progress.reconciled(api())).await(60, TimeUnit.SECONDS);
            if (done == count) {
                break;
            }
            Thread.sleep(100);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.println("controller: " + app.supervisor().status(controller.name()));
        double reconciles = reconciles(controller);
        long heapAfter = usedHeapAfterGc();
        System.out.printf("%s reconciled once: %d/%d%n", kindPlural, done, count);
        System.out.printf("time to every one reconciled once: %.1f s%n", seconds);
        System.out.printf("reconciles: %.0f (%.0f per second)%n", reconciles, reconciles / seconds);
        System.out.printf("heap used after GC: %d MiB before the manager, %d MiB after (manager share %d MiB)%n",
                heapBefore >> 20, heapAfter >> 20, (heapAfter - heapBefore) >> 20);
    }

    /**
     * A restart: the workloads are loaded as a previous manager left them (the {@code loader} writes their revisions
     * and current statuses too), then the manager starts with {@code controller}; measured until it has reconciled
     * every one at least once and its queue is empty (at most 10 minutes), with the number of objects written
     * meanwhile (the API server's resourceVersion moves on every write; after the manager's own start-up writes, such
     * as its webhook configurations, a no-op reconcile must add none).
     */
    public void runRestart(String kindPlural, String prefix, int count, int podsEach, Loader loader,
                           ControllerDefinition controller) throws Exception {
        load(kindPlural, prefix, count, podsEach, loader);
        long heapBefore = usedHeapAfterGc();
        long rvBefore = resourceVersion();
        long start = startManager(controller);
        long rvRunning = resourceVersion();
        long deadline = start + TimeUnit.MINUTES.toNanos(10);
        double reconciles = 0;
        while (System.nanoTime() < deadline) {
            reconciles = reconciles(controller);
            if (reconciles >= count && queueIdle(controller)) {
                break;
            }
            Thread.sleep(100);
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long rvAfter = resourceVersion();
        System.out.println("controller: " + app.supervisor().status(controller.name()));
        long heapAfter = usedHeapAfterGc();
        System.out.printf("reconciles: %.0f for %d %s (%.0f per second)%n", reconciles, count, kindPlural,
                reconciles / seconds);
        System.out.printf("time from manager start to every one reconciled, queue empty: %.1f s%n", seconds);
        System.out.printf("objects written: %d while the manager started, %d by the reconciles %s%n",
                rvRunning - rvBefore, rvAfter - rvRunning, writtenSince(rvRunning));
        System.out.printf("heap used after GC: %d MiB before the manager, %d MiB after (manager share %d MiB)%n",
                heapBefore >> 20, heapAfter >> 20, (heapAfter - heapBefore) >> 20);
    }

    private void load(String kindPlural, String prefix, int count, int podsEach, Loader loader) throws Exception {
        long loadStart = System.nanoTime();
        for (int i = 0; i < count; i++) {
            loader.load(this, prefix + "-" + i, podsEach);
        }
        System.out.printf("loaded %d %s x %d pods in %.1f s%n", count, kindPlural, podsEach,
                (System.nanoTime() - loadStart) / 1e9);
    }

    /** Starts the manager with {@code controller} and waits until it runs; returns the nanoTime of the start. */
    private long startManager(ControllerDefinition controller) throws Exception {
        List<ControllerDefinition> controllers = List.of(controller);
        long start = System.nanoTime();
        app = ManagerApp.start(managerConfig(controllers), cluster.newClient(), controllers).await(120, TimeUnit.SECONDS);
        long runningDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (!app.supervisor().status(controller.name()).state().name().equals("RUNNING")
                && System.nanoTime() < runningDeadline) {
            Thread.sleep(50);
        }
        System.out.printf("manager up, controller running after %.1f s%n", (System.nanoTime() - start) / 1e9);
        return start;
    }

    private double reconciles(ControllerDefinition controller) {
        double reconciles = 0;
        for (Counter c : app.registry().find("controller_runtime_reconcile").tag("controller", controller.name()).counters()) {
            reconciles += c.count();
        }
        return reconciles;
    }

    /** Nothing queued and nothing being reconciled. */
    private boolean queueIdle(ControllerDefinition controller) {
        for (Gauge g : app.registry().find("workqueue.depth").tag("controller", controller.name()).gauges()) {
            if (g.value() > 0) {
                return false;
            }
        }
        for (Gauge g : app.registry().find("workqueue.unfinished.work").tag("controller", controller.name()).gauges()) {
            if (g.value() > 0) {
                return false;
            }
        }
        return true;
    }

    /** Objects changed after {@code resourceVersion}, by type (deletions not counted). */
    private Map<String, Integer> writtenSince(long resourceVersion) throws Exception {
        return cluster.onApiContext(() -> {
            Map<String, Integer> out = new java.util.TreeMap<>();
            for (ResourceType type : api().registry().all()) {
                for (ObjectNode o : api().store().all(type)) {
                    if (Long.parseLong(o.path("metadata").path("resourceVersion").asText("0")) > resourceVersion) {
                        out.merge(type.key(), 1, Integer::sum);
                    }
                }
            }
            return out;
        }).await(60, TimeUnit.SECONDS);
    }

    private long resourceVersion() throws Exception {
        return cluster.onApiContext(() -> api().store().currentResourceVersion()).await(60, TimeUnit.SECONDS);
    }

    /** Creates {@code pod} and marks it Running and Ready since ten minutes ago, as a kubelet would have. */
    public Future<ObjectNode> createReadyPod(Pod pod) {
        ApiServer api = api();
        ResourceType podType = api.type("", "v1", "pods");
        String namespace = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        String readySince = Instant.now().minus(Duration.ofMinutes(10)).toString();
        JsonNode body = Serialization.jsonMapper().valueToTree(pod);
        return cluster.onApiContext(() -> api.create(podType, "v1", namespace, body, false)).compose(f -> f)
                .compose(created -> {
                    ObjectNode withStatus = created.deepCopy();
                    ObjectNode status = withStatus.putObject("status");
                    status.put("phase", "Running");
                    ObjectNode ready = status.putArray("conditions").addObject();
                    ready.put("type", "Ready").put("status", "True").put("lastTransitionTime", readySince);
                    return cluster.onApiContext(() -> api.update(podType, "v1", namespace, name, "status",
                            withStatus, false)).compose(f -> f);
                });
    }

    /** Creates an object of {@code type} and returns it as stored. */
    public Future<ObjectNode> create(ResourceType type, String version, String namespace, Object object) {
        JsonNode body = Serialization.jsonMapper().valueToTree(object);
        return cluster.onApiContext(() -> api().create(type, version, namespace, body, false)).compose(f -> f);
    }

    @Override
    public void close() throws Exception {
        try {
            if (app != null) {
                app.close().await(60, TimeUnit.SECONDS);
            }
            if (cluster != null) {
                cluster.close().await(60, TimeUnit.SECONDS);
            }
            vertx.close().await(60, TimeUnit.SECONDS);
        } finally {
            runDir.close();
        }
    }

    private ManagerConfig managerConfig(List<ControllerDefinition> controllers) {
        ManagerCommand command = new ManagerCommand();
        CommandLine cl = new CommandLine(command);
        cl.setOverwrittenOptionsAllowed(true);
        ManagerCommand.addWorkerFlags(cl.getCommandSpec(), controllers);
        cl.parseArgs("--metrics-addr=127.0.0.1:0", "--health-probe-addr=127.0.0.1:0", "--debug-addr=0", "--enable-leader-election=false");
        return command.toConfig(cl.getCommandSpec(), controllers,
                EmbeddedProduct.localWebhookEnv(Map.of(), runDir.subdirectory("webhook-certs")));
    }

    private static long usedHeapAfterGc() throws InterruptedException {
        Runtime rt = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return rt.totalMemory() - rt.freeMemory();
    }
}
