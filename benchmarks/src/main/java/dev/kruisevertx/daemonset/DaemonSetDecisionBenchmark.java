package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetSpec;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetStatus;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.bench.DecisionBenchmark;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.scheduling.DaemonPlacement;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One Advanced DaemonSet decision over a large cluster, from cached objects to a plan and a status: judge every node
 * (nodeSelector, daemon tolerations against taints), group the pods by node, the manage step, one rolling update
 * step, the status. Nodes carry labels and a few taints as real ones do. API calls are not part of it.
 */
public class DaemonSetDecisionBenchmark extends DecisionBenchmark {
    private static final Instant NOW = Instant.parse("2026-01-01T01:00:00Z");
    static final String NEW = "newhash";
    static final String OLD = "oldhash";

    @Param({"5000"})
    int nodes;

    /** steady | rollout (maxUnavailable 10%, 60% old) | surgeRollout (maxSurge 5%) | newNodes (10% without a pod). */
    @Param({"steady", "rollout", "surgeRollout", "newNodes"})
    String scenario;

    private DaemonSetSnapshot snapshot;

    @Setup
    public void setUp() {
        snapshot = snapshot(scenario);
    }

    DaemonSetSnapshot snapshot(String which) {
        List<Node> nodeList = new ArrayList<>(nodes);
        List<Pod> pods = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++) {
            String name = String.format("node-%05d", i);
            NodeBuilder nb = new NodeBuilder().withNewMetadata().withName(name)
                    .withLabels(Map.of("kubernetes.io/hostname", name, "pool", i % 10 == 9 ? "gpu" : "general",
                            "topology.kubernetes.io/zone", "zone-" + (i % 3))).endMetadata().withNewSpec().endSpec();
            if (i % 50 == 0) {
                nb.editSpec().withTaints(new Taint("NoSchedule", "node.kubernetes.io/unschedulable", null, null)).endSpec();
            }
            nodeList.add(nb.build());
            boolean withPod = !(which.equals("newNodes") && i % 10 == 0);
            if (withPod) {
                boolean old = (which.equals("rollout") || which.equals("surgeRollout")) && i % 5 < 3;
                pods.add(pod(name, i, old ? OLD : NEW));
            }
        }
        DaemonSet set = daemonSet(which.equals("surgeRollout"));
        return new DaemonSetSnapshot(set, nodeList, pods, NEW, p -> true, NOW);
    }

    private static Pod pod(String node, int i, String hash) {
        PodSpec spec = DaemonPlacement.forNode(new PodSpec(), node);
        spec.setNodeName(node);
        return new PodBuilder().withNewMetadata().withName("agent-" + i).withNamespace("default")
                .withCreationTimestamp(Pods.formatTime(NOW.minusSeconds(3600)))
                .addToLabels("app", "agent").addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, hash).endMetadata()
                .withSpec(spec)
                .withNewStatus().withPhase("Running").addNewCondition().withType("Ready").withStatus("True")
                .withLastTransitionTime(Pods.formatTime(NOW.minusSeconds(600))).endCondition().endStatus().build();
    }

    private DaemonSet daemonSet(boolean surge) {
        DaemonSet ds = new DaemonSet();
        ds.getMetadata().setName("agent");
        ds.getMetadata().setNamespace("default");
        ds.getMetadata().setUid("agent-uid");
        ds.getMetadata().setGeneration(2L);
        DaemonSetSpec spec = new DaemonSetSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "agent").build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "agent").endMetadata()
                .withNewSpec().addNewContainer().withName("agent").withImage("agent:2").endContainer().endSpec().build());
        spec.setMinReadySeconds(10);
        DaemonSetUpdateStrategy us = new DaemonSetUpdateStrategy();
        us.setType("RollingUpdate");
        RollingUpdateDaemonSet ru = new RollingUpdateDaemonSet();
        ru.setRollingUpdateType("InPlaceIfPossible");
        if (surge) {
            ru.setRollingUpdateType("Standard");
            ru.setMaxSurge(new IntOrString("5%"));
            ru.setMaxUnavailable(new IntOrString(0));
        } else {
            ru.setMaxUnavailable(new IntOrString("10%"));
        }
        us.setRollingUpdate(ru);
        spec.setUpdateStrategy(us);
        ds.setSpec(spec);
        DaemonSetStatus st = new DaemonSetStatus();
        st.setDesiredNumberScheduled(nodes);
        ds.setStatus(st);
        return ds;
    }

    @Benchmark
    public DaemonSetPlan decide() {
        return DaemonSetPlanner.decide(snapshot);
    }
}
