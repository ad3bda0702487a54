package dev.kruisevertx.daemonset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetSpec;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.bench.startup.StartupHarness;
import dev.kruisevertx.sim.api.ApiServer;
import dev.kruisevertx.sim.api.ResourceType;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Start-up of the Advanced DaemonSet controller in a populated cluster: M nodes, N DaemonSets each with a running,
 * ready pod on every node (built by the controller's own pod factory, at the set's revision), loaded into the
 * embedded API server (in process, no kubelets, admission off); then the manager starts with the DaemonSet
 * controller. Reported: the time until every set was reconciled once (status at generation 1 with M nodes desired
 * and scheduled), reconciles per second, and the manager's share of the heap.
 *
 * <p>Run: {@code java -Xmx6g -cp benchmarks/target/benchmarks.jar dev.kruisevertx.daemonset.DaemonSetStartupBenchmark 500 100}
 * (sets, nodes).
 */
public final class DaemonSetStartupBenchmark {
    private DaemonSetStartupBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        StartupHarness.main(args, "DaemonSetStartupBenchmark <sets >= 1> <nodes >= 1>", (h, sizes) -> {
            ResourceType setType = h.api().type(DaemonSet.GROUP, DaemonSet.VERSION, DaemonSet.PLURAL);
            ResourceType nodeType = h.api().type("", "v1", "nodes");
            List<Future<ObjectNode>> nodes = new ArrayList<>();
            for (int i = 0; i < sizes.podsEach(); i++) {
                nodes.add(h.create(nodeType, "v1", null, new NodeBuilder().withNewMetadata().withName(node(i))
                        .addToLabels("kubernetes.io/hostname", node(i)).endMetadata().withNewSpec().endSpec().build()));
            }
            Future.all(nodes).await(120, TimeUnit.SECONDS);
            h.run("DaemonSets", "agent", sizes.objects(), sizes.podsEach(),
                    (x, name, n) -> load(x, setType, name, n), new DaemonSetController(),
                    api -> reconciled(api, setType, sizes.podsEach()));
        });
    }

    static String node(int i) {
        return String.format("node-%05d", i);
    }

    private static void load(StartupHarness harness, ResourceType setType, String name, int nodes) throws Exception {
        DaemonSet set = new DaemonSet();
        set.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default").build());
        DaemonSetSpec spec = new DaemonSetSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("agent").withImage("agent:1").endContainer().endSpec().build());
        DaemonSetUpdateStrategy us = new DaemonSetUpdateStrategy();
        us.setType("RollingUpdate");
        RollingUpdateDaemonSet ru = new RollingUpdateDaemonSet();
        ru.setRollingUpdateType("Standard");
        ru.setMaxUnavailable(new IntOrString(1));
        us.setRollingUpdate(ru);
        spec.setUpdateStrategy(us);
        set.setSpec(spec);
        harness.create(setType, DaemonSet.VERSION, "default", set)
                .compose(created -> {
                    DaemonSet stored = Serialization.jsonMapper().convertValue(created, DaemonSet.class);
                    String hash = DaemonSetRevisions.resolve(stored, List.of()).hash();
                    List<Future<ObjectNode>> all = new ArrayList<>();
                    for (int i = 0; i < nodes; i++) {
                        Pod pod = DaemonSetPods.forNode(stored, hash, node(i), true);
                        pod.getMetadata().setGenerateName(null);
                        pod.getMetadata().setName(name + "-" + i);
                        pod.getSpec().setNodeName(node(i));
                        all.add(harness.createReadyPod(pod));
                    }
                    return Future.all(all);
                }).await(120, TimeUnit.SECONDS);
    }

    /** Sets whose status was written by a reconcile that saw every node and its pod. Runs on the API context. */
    private static int reconciled(ApiServer api, ResourceType setType, int nodes) {
        int n = 0;
        for (ObjectNode o : api.store().all(setType)) {
            JsonNode status = o.path("status");
            if (status.path("observedGeneration").asLong() >= 1 && status.path("desiredNumberScheduled").asInt() == nodes
                    && status.path("currentNumberScheduled").asInt() == nodes) {
                n++;
            }
        }
        return n;
    }
}
