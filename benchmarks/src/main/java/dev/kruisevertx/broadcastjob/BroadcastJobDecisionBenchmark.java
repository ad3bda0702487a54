package dev.kruisevertx.broadcastjob;

import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobSpec;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobStatus;
import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.FailurePolicy;
import dev.kruisevertx.bench.DecisionBenchmark;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The decision of one BroadcastJob reconcile over a cluster of {@code nodes} nodes ({@link BroadcastJobDecision}):
 * every node's fit (selector, tolerations, resources) and the pods by node. Scenarios: {@code fresh} (no pod yet,
 * parallelism 10%: the plan creates a tenth), {@code halfway} (half the nodes done, a tenth running) and
 * {@code complete} (every node done: the plan completes the job). API calls are not part of it.
 */
public class BroadcastJobDecisionBenchmark extends DecisionBenchmark {
    private static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");

    @Param({"2000"})
    int nodes;

    @Param({"fresh", "halfway", "complete"})
    String scenario;

    private BroadcastJob job;
    private List<Node> cluster;
    private List<Pod> pods;

    @Setup
    public void setUp() {
        job = job();
        cluster = new ArrayList<>(nodes);
        for (int i = 0; i < nodes; i++) {
            NodeBuilder b = new NodeBuilder().withNewMetadata().withName("node-" + i)
                    .addToLabels("kubernetes.io/hostname", "node-" + i).addToLabels("pool", i % 10 == 9 ? "gpu" : "cpu")
                    .endMetadata().withNewSpec().endSpec().withNewStatus().addToAllocatable("cpu", new Quantity("8"))
                    .addToAllocatable("memory", new Quantity("32Gi")).endStatus();
            if (i % 7 == 0) {
                b.editSpec().withTaints(new Taint("NoSchedule", "dedicated", null, "batch")).endSpec();
            }
            cluster.add(b.build());
        }
        // Pods only where the template fits, made as the controller makes them.
        List<String> fitting = new ArrayList<>();
        for (Node n : cluster) {
            if (BroadcastJobNodeFit.problemIgnoringNodeName(job.getSpec().getTemplate().getSpec(), n).isEmpty()) {
                fitting.add(n.getMetadata().getName());
            }
        }
        pods = new ArrayList<>();
        int done = switch (scenario) {
            case "fresh" -> 0;
            case "halfway" -> fitting.size() / 2;
            case "complete" -> fitting.size();
            default -> throw new IllegalArgumentException(scenario);
        };
        int running = "halfway".equals(scenario) ? fitting.size() / 10 : 0;
        for (int i = 0; i < done + running && i < fitting.size(); i++) {
            Pod p = BroadcastJobActuator.podFor(job, fitting.get(i), "bench-" + i, true);
            p.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder()
                    .withPhase(i < done ? "Succeeded" : "Running").build());
            pods.add(p);
        }
    }

    private BroadcastJob job() {
        BroadcastJob j = new BroadcastJob();
        j.setMetadata(new ObjectMetaBuilder().withName("bench").withNamespace("ns").withUid("u").build());
        BroadcastJobSpec s = new BroadcastJobSpec();
        s.setParallelism(new IntOrString("10%"));
        s.setTemplate(new PodTemplateSpecBuilder().withNewSpec().withRestartPolicy("Never")
                .addToNodeSelector("pool", "cpu")
                .withTolerations(new TolerationBuilder().withKey("dedicated").withOperator("Exists").build())
                .addNewContainer().withName("c").withImage("i").withNewResources().addToRequests("cpu", new Quantity("1"))
                .addToRequests("memory", new Quantity("1Gi")).endResources().endContainer().endSpec().build());
        CompletionPolicy cp = new CompletionPolicy();
        cp.setType("Always");
        s.setCompletionPolicy(cp);
        FailurePolicy fp = new FailurePolicy();
        fp.setType("FailFast");
        s.setFailurePolicy(fp);
        j.setSpec(s);
        BroadcastJobStatus st = new BroadcastJobStatus();
        st.setPhase("running");
        st.setStartTime("2026-01-01T00:00:00Z");
        j.setStatus(st);
        return j;
    }

    @Benchmark
    public BroadcastJobPlan decide() {
        return BroadcastJobDecision.decide(job, pods, cluster, NOW);
    }
}
