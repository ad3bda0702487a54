package dev.kruisevertx.statefulset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.demo.EmbeddedProduct;
import dev.kruisevertx.manager.ManagerApp;
import dev.kruisevertx.manager.ManagerCommand;
import dev.kruisevertx.manager.ManagerConfig;
import dev.kruisevertx.sim.EmbeddedCluster;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.api.ApiServer;
import dev.kruisevertx.sim.api.ResourceType;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.Counter;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import picocli.CommandLine;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Start-up of the Advanced StatefulSet controller in a populated cluster, the counterpart of
 * {@code CloneSetStartupBenchmark}: N StatefulSets (Parallel) with M running, ready pods each — built by the
 * controller's own pod factory, at the set's revision — are loaded into the embedded API server (in process, no
 * kubelets, admission off), then the whole manager starts with the StatefulSet controller. Reported: the time until
 * every set was reconciled once (its status shows generation 1 and M replicas), the reconciles per second over that
 * time, and the manager's share of the heap (used heap after GC before and after it started; the API server's store
 * lives in the same JVM).
 *
 * <p>Run: {@code java -Xmx6g -cp benchmarks/target/benchmarks.jar dev.kruisevertx.statefulset.StatefulSetStartupBenchmark 2000 50}
 *
 * <p>In the controller's package (in this module) for the pod factory and revision naming, which are
 * package-private there.
 */
public final class StatefulSetStartupBenchmark {
    private StatefulSetStartupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int sets = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int podsEach = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        if (sets < 1 || podsEach < 1) {
            throw new IllegalArgumentException("usage: StatefulSetStartupBenchmark <sets >= 1> <pods per set >= 1>");
        }
        Vertx vertx = Vertx.vertx();
        EmbeddedCluster cluster = EmbeddedCluster.start(vertx, new EmbeddedClusterOptions().setNodes(0)
                        // Start-up is measured, not admission: objects are loaded before any webhook runs.
                        .setAdmission(false))
                .await(60, TimeUnit.SECONDS);
        ManagerApp app = null;
        try {
            // As the chart installs it (CRDs, namespace, webhook configurations): the manager needs its webhook.
            EmbeddedProduct.install(cluster);
            long loadStart = System.nanoTime();
            ApiServer api = cluster.apiServer();
            ResourceType setType = api.type(StatefulSet.GROUP, StatefulSet.VERSION, StatefulSet.PLURAL);
            ResourceType podType = api.type("", "v1", "pods");
            for (int i = 0; i < sets; i++) {
                load(cluster, api, setType, podType, "db-" + i, podsEach);
            }
            System.out.printf("loaded %d StatefulSets x %d pods in %.1f s%n", sets, podsEach,
                    (System.nanoTime() - loadStart) / 1e9);
            long heapBefore = usedHeapAfterGc();

            List<ControllerDefinition> controllers = List.of(new StatefulSetController());
            long start = System.nanoTime();
            app = ManagerApp.start(config(controllers), cluster.newClient(), controllers).await(120, TimeUnit.SECONDS);
            long startupDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!app.supervisor().status(StatefulSetController.NAME).state().name().equals("RUNNING")
                    && System.nanoTime() < startupDeadline) {
                Thread.sleep(50);
            }
            System.out.printf("manager up, controller running after %.1f s%n", (System.nanoTime() - start) / 1e9);
            long deadline = start + TimeUnit.MINUTES.toNanos(10);
            Progress progress = new Progress(0, 0);
            while (System.nanoTime() < deadline) {
                progress = cluster.onApiContext(() -> progress(api, setType, podsEach)).await(60, TimeUnit.SECONDS);
                if (progress.reconciled() == sets) {
                    break;
                }
                Thread.sleep(100);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.println("controller: " + app.supervisor().status(StatefulSetController.NAME));
            double reconciles = 0;
            for (Counter c : app.registry().find("controller_runtime_reconcile").tag("controller", StatefulSetController.NAME).counters()) {
                reconciles += c.count();
            }
            long heapAfter = usedHeapAfterGc();
            System.out.printf("StatefulSets reconciled once: %d/%d (with every pod at the update revision: %d)%n",
                    progress.reconciled(), sets, progress.allUpdated());
            System.out.printf("time to every StatefulSet reconciled once: %.1f s%n", seconds);
            System.out.printf("reconciles: %.0f (%.0f per second)%n", reconciles, reconciles / seconds);
            System.out.printf("heap used after GC: %d MiB before the manager, %d MiB after (manager share %d MiB)%n",
                    heapBefore >> 20, heapAfter >> 20, (heapAfter - heapBefore) >> 20);
        } finally {
            if (app != null) {
                app.close().await(60, TimeUnit.SECONDS);
            }
            cluster.close().await(60, TimeUnit.SECONDS);
            vertx.close().await(60, TimeUnit.SECONDS);
        }
    }

    private static ManagerConfig config(List<ControllerDefinition> controllers) {
        ManagerCommand command = new ManagerCommand();
        CommandLine cl = new CommandLine(command);
        cl.setOverwrittenOptionsAllowed(true);
        ManagerCommand.addWorkerFlags(cl.getCommandSpec(), controllers);
        cl.parseArgs("--metrics-addr=127.0.0.1:0", "--health-probe-addr=127.0.0.1:0", "--enable-leader-election=false");
        try {
            return command.toConfig(cl.getCommandSpec(), controllers,
                    EmbeddedProduct.localWebhookEnv(Map.of(), java.nio.file.Files.createTempDirectory("bench-webhook-certs")));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static void load(EmbeddedCluster cluster, ApiServer api, ResourceType setType, ResourceType podType,
                             String name, int pods) throws Exception {
        StatefulSet set = new StatefulSet();
        set.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        StatefulSetSpec spec = new StatefulSetSpec();
        spec.setReplicas(pods);
        spec.setServiceName(name);
        spec.setPodManagementPolicy(StatefulSetReconciler.PARALLEL);
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec().build());
        set.setSpec(spec);
        JsonNode setJson = Serialization.jsonMapper().valueToTree(set);
        cluster.onApiContext(() -> api.create(setType, StatefulSet.VERSION, "default", setJson, false))
                .compose(f -> f)
                .compose(created -> {
                    StatefulSet stored = Serialization.jsonMapper().convertValue(created, StatefulSet.class);
                    String revision = StatefulSetRevisions.resolve(stored, List.of()).update().getMetadata().getName();
                    List<Future<ObjectNode>> all = new ArrayList<>();
                    for (int ordinal = 0; ordinal < pods; ordinal++) {
                        all.add(createReadyPod(cluster, api, podType, stored, revision, ordinal));
                    }
                    return Future.all(all);
                }).await(120, TimeUnit.SECONDS);
    }

    private static Future<ObjectNode> createReadyPod(EmbeddedCluster cluster, ApiServer api, ResourceType podType,
                                                     StatefulSet set, String revision, int ordinal) {
        Pod pod = StatefulSetPods.newPod(set, set.getSpec().getTemplate(), ordinal, revision, true, false);
        pod.getSpec().setNodeName("node-" + (ordinal % 100));
        String name = pod.getMetadata().getName();
        String readySince = Instant.now().minus(Duration.ofMinutes(10)).toString();
        JsonNode body = Serialization.jsonMapper().valueToTree(pod);
        return cluster.onApiContext(() -> api.create(podType, "v1", "default", body, false)).compose(f -> f)
                .compose(created -> {
                    ObjectNode withStatus = created.deepCopy();
                    ObjectNode status = withStatus.putObject("status");
                    status.put("phase", "Running");
                    ObjectNode ready = status.putArray("conditions").addObject();
                    ready.put("type", "Ready").put("status", "True").put("lastTransitionTime", readySince);
                    return cluster.onApiContext(() -> api.update(podType, "v1", "default", name, "status",
                            withStatus, false)).compose(f -> f);
                });
    }

    /** How many sets have a status written by a reconcile that saw all their pods, and how many of those are fully updated. */
    record Progress(int reconciled, int allUpdated) {
    }

    /** Runs on the API context. */
    private static Progress progress(ApiServer api, ResourceType setType, int pods) {
        int reconciled = 0;
        int updated = 0;
        for (ObjectNode o : api.store().all(setType)) {
            JsonNode status = o.path("status");
            if (status.path("observedGeneration").asLong() >= 1 && status.path("replicas").asInt() == pods) {
                reconciled++;
                if (status.path("updatedReplicas").asInt() == pods) {
                    updated++;
                }
            }
        }
        return new Progress(reconciled, updated);
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
