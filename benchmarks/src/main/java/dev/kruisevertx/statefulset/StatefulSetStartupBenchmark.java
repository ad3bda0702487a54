package dev.kruisevertx.statefulset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.PodManagementPolicyType;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.bench.startup.StartupHarness;
import dev.kruisevertx.sim.api.ApiServer;
import dev.kruisevertx.sim.api.ResourceType;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
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
        StartupHarness.main(args, "StatefulSetStartupBenchmark <sets >= 1> <pods per set >= 1>", (h, sizes) -> {
            ResourceType setType = h.api().type(StatefulSet.GROUP, StatefulSet.VERSION, StatefulSet.PLURAL);
            int[] allUpdated = {0};
            h.run("StatefulSets", "db", sizes.objects(), sizes.podsEach(),
                    (x, name, pods) -> load(x, setType, name, pods), new StatefulSetController(), api -> {
                        Progress p = progress(api, setType, sizes.podsEach());
                        allUpdated[0] = p.allUpdated();
                        return p.reconciled();
                    });
            System.out.printf("with every pod at the update revision (nothing rolled): %d%n", allUpdated[0]);
        });
    }

    private static void load(StartupHarness harness, ResourceType setType, String name, int pods) throws Exception {
        StatefulSet set = new StatefulSet();
        set.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        StatefulSetSpec spec = new StatefulSetSpec();
        spec.setReplicas(pods);
        spec.setServiceName(name);
        spec.setPodManagementPolicy(PodManagementPolicyType.PARALLEL.value());
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec().build());
        set.setSpec(spec);
        harness.create(setType, StatefulSet.VERSION, "default", set)
                .compose(created -> {
                    StatefulSet stored = Serialization.jsonMapper().convertValue(created, StatefulSet.class);
                    String revision = StatefulSetRevisions.resolve(stored, List.of()).update().getMetadata().getName();
                    List<Future<ObjectNode>> all = new ArrayList<>();
                    for (int ordinal = 0; ordinal < pods; ordinal++) {
                        Pod pod = StatefulSetPods.newPod(stored, stored.getSpec().getTemplate(), ordinal, revision,
                                true, false);
                        pod.getSpec().setNodeName("node-" + (ordinal % 100));
                        all.add(harness.createReadyPod(pod));
                    }
                    return Future.all(all);
                }).await(120, TimeUnit.SECONDS);
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
}
