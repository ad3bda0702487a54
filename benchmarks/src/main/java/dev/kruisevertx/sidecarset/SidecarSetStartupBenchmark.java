package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetSpec;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategy;
import dev.kruisevertx.bench.startup.StartupHarness;
import dev.kruisevertx.sim.api.ApiServer;
import dev.kruisevertx.sim.api.ResourceType;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetStatus;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.Future;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Start-up of the sidecarset controller in a populated cluster (kruise#1718: OpenKruise took over 30 minutes to settle
 * 50,000 SidecarSets after a restart): N cluster-scoped SidecarSets, each with P running, ready pods it injected (the
 * core injection function run on each pod), loaded into the embedded API server (in process, no kubelets, admission
 * off, so the SidecarSets carry the hash annotations the webhook would give them); then the manager starts with the
 * SidecarSet controller. Reported: the time until every SidecarSet has a current status (latest revision created,
 * observedGeneration 1, all its pods matched), reconciles per second, and the manager's share of the heap.
 *
 * <p>Run: {@code java -Xmx6g -cp benchmarks/target/benchmarks.jar dev.kruisevertx.sidecarset.SidecarSetStartupBenchmark 50000 1}
 * (SidecarSets, pods each). With a third argument {@code restart} the SidecarSets also carry their latest revision and
 * a current status (as after OpenKruise or a previous manager), and the figure is the time until the controller has
 * reconciled every one with nothing left to do, and how many objects it wrote meanwhile (a no-op reconcile writes
 * nothing).
 */
public final class SidecarSetStartupBenchmark {
    private SidecarSetStartupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        boolean restart = args.length > 2 && "restart".equals(args[2]);
        if (args.length > 2 && !restart) {
            throw new IllegalArgumentException("usage: " + USAGE);
        }
        StartupHarness.main(args, USAGE, (h, sizes) -> {
            ResourceType setType = h.api().type(SidecarSet.GROUP, SidecarSet.VERSION, SidecarSet.PLURAL);
            ResourceType revisionType = h.api().type("apps", "v1", "controllerrevisions");
            StartupHarness.Loader loader = (x, name, n) -> load(x, setType, restart ? revisionType : null, name, n);
            if (restart) {
                h.runRestart("SidecarSets", "log", sizes.objects(), sizes.podsEach(), loader, new SidecarSetController());
            } else {
                h.run("SidecarSets", "log", sizes.objects(), sizes.podsEach(), loader,
                        new SidecarSetController(), api -> current(api, setType, sizes.podsEach()));
            }
        });
    }

    private static final String USAGE = "SidecarSetStartupBenchmark <sidecarsets >= 1> <pods each >= 1> [restart]";

    /**
     * One SidecarSet and its pods; with {@code revisionType} (restart mode) also its latest ControllerRevision and its
     * current status, computed by the controller's own functions as a previous manager (or OpenKruise) left them.
     */
    private static void load(StartupHarness harness, ResourceType setType, ResourceType revisionType, String name,
                             int pods) throws Exception {
        SidecarSet set = new SidecarSet();
        set.setMetadata(new ObjectMetaBuilder().withName(name).build());
        SidecarSetSpec spec = new SidecarSetSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        SidecarContainer log = new SidecarContainer();
        log.setName("log");
        log.setImage("log:1");
        log.setPodInjectPolicy("AfterAppContainer");
        spec.setContainers(List.of(log));
        SidecarSetUpdateStrategy strategy = new SidecarSetUpdateStrategy();
        strategy.setType("RollingUpdate");
        spec.setUpdateStrategy(strategy);
        set.setSpec(spec);
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(SidecarSetHash.HASH_ANNOTATION, SidecarSetHash.of(set));
        annotations.put(SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION, SidecarSetHash.withoutImage(set));
        set.getMetadata().setAnnotations(annotations);
        harness.create(setType, SidecarSet.VERSION, null, set).<Object>compose(created -> {
            SidecarSet stored = Serialization.jsonMapper().convertValue(created, SidecarSet.class);
            List<Future<ObjectNode>> all = new ArrayList<>();
            for (int i = 0; i < pods; i++) {
                Pod pod = new PodBuilder().withNewMetadata().withName(name + "-" + i).withNamespace("default")
                        .addToLabels("app", name).endMetadata().withNewSpec().withNodeName("node-0")
                        .addNewContainer().withName("main").withImage("app:1").endContainer().endSpec().build();
                Pod injected = SidecarInjection.forCreate(pod, List.of(stored), Map.of(), false, Instant.now()).pod();
                all.add(harness.createReadyPod(injected));
            }
            Future<Object> loaded = Future.all(all).map(x -> x);
            if (revisionType == null) {
                return loaded;
            }
            return loaded.compose(done -> {
                List<Pod> storedPods = new ArrayList<>();
                for (Future<ObjectNode> f : all) {
                    storedPods.add(Serialization.jsonMapper().convertValue(f.result(), Pod.class));
                }
                ControllerRevision revision = SidecarSetRevisions.resolve(stored, List.of(),
                        SidecarSetController.DEFAULT_NAMESPACE).toCreate();
                SidecarSetStatus status = SidecarSetStatusCalculation.of(stored, storedPods,
                        revision.getMetadata().getName(), 0);
                SidecarSet withStatus = Serialization.jsonMapper().convertValue(created, SidecarSet.class);
                withStatus.setStatus(status);
                JsonNode body = Serialization.jsonMapper().valueToTree(withStatus);
                return harness.create(revisionType, "v1", SidecarSetController.DEFAULT_NAMESPACE, revision)
                        .compose(r -> harness.cluster().onApiContext(() -> harness.api().update(setType,
                                SidecarSet.VERSION, null, name, "status", body, false)).compose(f -> f).map(x -> (Object) x));
            });
        }).await(120, TimeUnit.SECONDS);
    }

    /** SidecarSets whose status shows a reconcile that saw all their pods. Runs on the API context. */
    private static int current(ApiServer api, ResourceType setType, int pods) {
        int n = 0;
        for (ObjectNode o : api.store().all(setType)) {
            JsonNode status = o.path("status");
            if (status.path("observedGeneration").asLong() >= 1 && status.path("matchedPods").asInt() == pods
                    && !status.path("latestRevision").asText("").isEmpty()) {
                n++;
            }
        }
        return n;
    }
}
