package dev.kruisevertx.bench.cloneset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cloneset.CloneSetController;
import dev.kruisevertx.cloneset.CloneSetRevisions;
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
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
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
 * Start-up of the CloneSet controller in a populated cluster: N CloneSets with M running, ready pods each are
 * loaded into the embedded API server (in process, no kubelets), then the manager starts; reported are the time
 * until every CloneSet has been reconciled once (its status shows generation 1 and M replicas), the reconciles
 * per second over that time and the heap in use (the API server's store is in the same JVM: the manager's share
 * is the growth after it started).
 *
 * <p>Run: {@code java -Xmx6g -cp benchmarks/target/benchmarks.jar dev.kruisevertx.bench.cloneset.CloneSetStartupBenchmark 2000 50}
 * (add {@code --no-touch} to rely on the controller runtime replaying the synced cache, once it does).
 */
public final class CloneSetStartupBenchmark {
    private CloneSetStartupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int clonesets = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int podsEach = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        boolean touch = args.length <= 2 || !"--no-touch".equals(args[2]);
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
            ResourceType csType = api.type(CloneSet.GROUP, CloneSet.VERSION, CloneSet.PLURAL);
            ResourceType podType = api.type("", "v1", "pods");
            for (int i = 0; i < clonesets; i++) {
                load(cluster, api, csType, podType, "app-" + i, podsEach);
            }
            System.out.printf("loaded %d CloneSets x %d pods in %.1f s%n", clonesets, podsEach,
                    (System.nanoTime() - loadStart) / 1e9);
            long heapBefore = usedHeapAfterGc();

            List<ControllerDefinition> controllers = List.of(new CloneSetController());
            long start = System.nanoTime();
            app = ManagerApp.start(config(controllers), cluster.newClient(), controllers).await(120, TimeUnit.SECONDS);
            long startupDeadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!app.supervisor().status(CloneSetController.NAME).state().name().equals("RUNNING")
                    && System.nanoTime() < startupDeadline) {
                Thread.sleep(50);
            }
            System.out.printf("manager up, controller running after %.1f s%n", (System.nanoTime() - start) / 1e9);
            if (touch) {
                // The controller runtime does not yet replay the cache to a controller that starts after the caches
                // synced; touching every CloneSet stands in for that replay so the reconcile-all can be measured.
                for (int i = 0; i < clonesets; i++) {
                    String n = "app-" + i;
                    cluster.onApiContext(() -> api.patch(csType, CloneSet.VERSION, "default", n, "",
                            "application/merge-patch+json", Serialization.jsonMapper().readTree(
                                    "{\"metadata\":{\"annotations\":{\"bench.kruise-vertx.dev/touch\":\"1\"}}}"), false))
                            .compose(f -> f).await(60, TimeUnit.SECONDS);
                }
            }
            long deadline = start + TimeUnit.MINUTES.toNanos(10);
            int done = 0;
            while (System.nanoTime() < deadline) {
                done = cluster.onApiContext(() -> reconciledOnce(api, csType, podsEach)).await(60, TimeUnit.SECONDS);
                if (done == clonesets) {
                    break;
                }
                Thread.sleep(100);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.println("controller: " + app.supervisor().status(CloneSetController.NAME));
            double reconciles = 0;
            for (Counter c : app.registry().find("controller_runtime_reconcile").tag("controller", CloneSetController.NAME).counters()) {
                reconciles += c.count();
            }
            long heapAfter = usedHeapAfterGc();
            System.out.printf("CloneSets reconciled once: %d/%d%n", done, clonesets);
            System.out.printf("time to every CloneSet reconciled once: %.1f s%n", seconds);
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

    private static void load(EmbeddedCluster cluster, ApiServer api, ResourceType csType, ResourceType podType,
                             String name, int pods) throws Exception {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        CloneSetSpec spec = new CloneSetSpec();
        spec.setReplicas(pods);
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec().build());
        cs.setSpec(spec);
        String revision = CloneSetRevisions.newRevision(cs, 1, null).getMetadata().getName();
        JsonNode csJson = Serialization.jsonMapper().valueToTree(cs);
        cluster.onApiContext(() -> api.create(csType, CloneSet.VERSION, "default", csJson, false))
                .compose(f -> f)
                .compose(created -> {
                    String uid = created.path("metadata").path("uid").asText();
                    List<Future<ObjectNode>> all = new ArrayList<>();
                    for (int j = 0; j < pods; j++) {
                        all.add(createReadyPod(cluster, api, podType, name, uid, revision, j));
                    }
                    return Future.all(all);
                }).await(120, TimeUnit.SECONDS);
    }

    private static Future<ObjectNode> createReadyPod(EmbeddedCluster cluster, ApiServer api, ResourceType podType,
                                                     String cs, String uid, String revision, int j) {
        String id = String.format("%05d", j);
        String now = Instant.now().minus(Duration.ofMinutes(10)).toString();
        Pod pod = new PodBuilder().withNewMetadata().withName(cs + "-" + id).withNamespace("default")
                .addToLabels("app", cs).addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revision)
                .addToLabels(WellKnown.POD_TEMPLATE_HASH_LABEL, revision.substring(revision.lastIndexOf('-') + 1))
                .addToLabels(WellKnown.CLONESET_INSTANCE_ID_LABEL, id)
                .addToLabels(WellKnown.LIFECYCLE_STATE_LABEL, WellKnown.LIFECYCLE_STATE_NORMAL)
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(CloneSet.API_VERSION).withKind(CloneSet.KIND)
                        .withName(cs).withUid(uid).withController(true).withBlockOwnerDeletion(true).build())
                .endMetadata()
                .withNewSpec().withNodeName("node-" + (j % 100)).addNewContainer().withName("main").withImage("nginx:1")
                .endContainer().endSpec().build();
        JsonNode body = Serialization.jsonMapper().valueToTree(pod);
        return cluster.onApiContext(() -> api.create(podType, "v1", "default", body, false)).compose(f -> f)
                .compose(created -> {
                    ObjectNode withStatus = created.deepCopy();
                    ObjectNode status = withStatus.putObject("status");
                    status.put("phase", "Running");
                    ObjectNode ready = status.putArray("conditions").addObject();
                    ready.put("type", "Ready").put("status", "True").put("lastTransitionTime", now);
                    return cluster.onApiContext(() -> api.update(podType, "v1", "default", cs + "-" + id, "status",
                            withStatus, false)).compose(f -> f);
                });
    }

    /** Runs on the API context: CloneSets whose status shows they were reconciled with all their pods. */
    private static int reconciledOnce(ApiServer api, ResourceType csType, int pods) {
        int n = 0;
        for (ObjectNode o : api.store().all(csType)) {
            JsonNode status = o.path("status");
            if (status.path("observedGeneration").asLong() >= 1 && status.path("replicas").asInt() == pods) {
                n++;
            }
        }
        return n;
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
