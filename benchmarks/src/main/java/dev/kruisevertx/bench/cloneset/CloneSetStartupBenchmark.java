package dev.kruisevertx.bench.cloneset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.bench.startup.StartupHarness;
import dev.kruisevertx.cloneset.CloneSetController;
import dev.kruisevertx.cloneset.CloneSetRevisions;
import dev.kruisevertx.sim.api.ApiServer;
import dev.kruisevertx.sim.api.ResourceType;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Start-up of the CloneSet controller in a populated cluster: N CloneSets with M running, ready pods each are
 * loaded into the embedded API server (in process, no kubelets), then the manager starts; reported (by
 * {@link StartupHarness}) are the time until every CloneSet has been reconciled once (its status shows generation 1
 * and M replicas), the reconciles per second over that time and the manager's share of the heap.
 *
 * <p>Run: {@code java -Xmx6g -cp benchmarks/target/benchmarks.jar dev.kruisevertx.bench.cloneset.CloneSetStartupBenchmark 2000 50}
 */
public final class CloneSetStartupBenchmark {
    private CloneSetStartupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        StartupHarness.main(args, "CloneSetStartupBenchmark <clonesets >= 1> <pods per CloneSet >= 1>", (h, sizes) -> {
            ResourceType csType = h.api().type(CloneSet.GROUP, CloneSet.VERSION, CloneSet.PLURAL);
            h.run("CloneSets", "app", sizes.objects(), sizes.podsEach(), (x, name, pods) -> load(x, csType, name, pods),
                    new CloneSetController(), api -> reconciledOnce(api, csType, sizes.podsEach()));
        });
    }

    private static void load(StartupHarness harness, ResourceType csType, String name, int pods) throws Exception {
        load(harness, csType, "default", name, pods, pods).await(120, TimeUnit.SECONDS);
    }

    /**
     * Creates CloneSet {@code namespace/name} with {@code replicas} replicas and the first {@code pods} of them as
     * running, ready pods of its current revision.
     */
    static Future<?> load(StartupHarness harness, ResourceType csType, String namespace, String name, int replicas,
                          int pods) {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        CloneSetSpec spec = new CloneSetSpec();
        spec.setReplicas(replicas);
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec().build());
        cs.setSpec(spec);
        String revision = CloneSetRevisions.newRevision(cs, 1, null).getMetadata().getName();
        return harness.create(csType, CloneSet.VERSION, namespace, cs)
                .compose(created -> {
                    String uid = created.path("metadata").path("uid").asText();
                    List<Future<ObjectNode>> all = new ArrayList<>();
                    for (int j = 0; j < pods; j++) {
                        all.add(harness.createReadyPod(pod(namespace, name, uid, revision, j)));
                    }
                    return Future.all(all);
                });
    }

    private static Pod pod(String namespace, String cs, String uid, String revision, int j) {
        String id = String.format("%05d", j);
        return new PodBuilder().withNewMetadata().withName(cs + "-" + id).withNamespace(namespace)
                .addToLabels("app", cs).addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revision)
                .addToLabels(WellKnown.POD_TEMPLATE_HASH_LABEL, revision.substring(revision.lastIndexOf('-') + 1))
                .addToLabels(WellKnown.CLONESET_INSTANCE_ID_LABEL, id)
                .addToLabels(WellKnown.LIFECYCLE_STATE_LABEL, WellKnown.LIFECYCLE_STATE_NORMAL)
                .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion(CloneSet.API_VERSION).withKind(CloneSet.KIND)
                        .withName(cs).withUid(uid).withController(true).withBlockOwnerDeletion(true).build())
                .endMetadata()
                .withNewSpec().withNodeName("node-" + (j % 100)).addNewContainer().withName("main").withImage("nginx:1")
                .endContainer().endSpec().build();
    }

    /** Runs on the API context: CloneSets whose status shows they were reconciled with all their pods. */
    static int reconciledOnce(ApiServer api, ResourceType csType, int pods) {
        int n = 0;
        for (ObjectNode o : api.store().all(csType)) {
            JsonNode status = o.path("status");
            if (status.path("observedGeneration").asLong() >= 1 && status.path("replicas").asInt() == pods) {
                n++;
            }
        }
        return n;
    }
}
