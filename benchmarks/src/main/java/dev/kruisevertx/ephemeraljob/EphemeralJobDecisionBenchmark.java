package dev.kruisevertx.ephemeraljob;

import dev.kruisevertx.api.apps.v1alpha1.EphemeralContainerTemplateSpec;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJob;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJobSpec;
import dev.kruisevertx.bench.DecisionBenchmark;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EphemeralContainerBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The decision of one EphemeralJob reconcile over a namespace of {@code pods} pods ({@link EphemeralJobDecision}):
 * selector matching, the oldest-first order, the per-pod container states and the counts. Half the pods match.
 * Scenarios: {@code fresh} (no container added yet, parallelism 50), {@code halfway} (half the targets done, 50
 * running) and {@code done} (every target succeeded: the job completes). API calls are not part of it.
 */
public class EphemeralJobDecisionBenchmark extends DecisionBenchmark {
    private static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");

    @Param({"5000"})
    int pods;

    @Param({"fresh", "halfway", "done"})
    String scenario;

    private EphemeralJob job;
    private List<Pod> namespace;

    @Setup
    public void setUp() {
        job = new EphemeralJob();
        job.setMetadata(new ObjectMetaBuilder().withName("bench").withNamespace("ns").withUid("u")
                .withFinalizers(EphemeralJob.CLEANUP_FINALIZER).build());
        EphemeralJobSpec spec = new EphemeralJobSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "web").build());
        spec.setParallelism(50);
        EphemeralContainerTemplateSpec t = new EphemeralContainerTemplateSpec();
        t.setEphemeralContainers(List.of(new EphemeralContainerBuilder().withName("debugger").withImage("busybox")
                .withImagePullPolicy("IfNotPresent").withTerminationMessagePolicy("File").build()));
        spec.setTemplate(t);
        job.setSpec(spec);
        int targets = pods / 2;
        int done = switch (scenario) {
            case "fresh" -> 0;
            case "halfway" -> targets / 2;
            case "done" -> targets;
            default -> throw new IllegalArgumentException(scenario);
        };
        int running = "halfway".equals(scenario) ? 50 : 0;
        namespace = new ArrayList<>(pods);
        int target = 0;
        for (int i = 0; i < pods; i++) {
            boolean matches = i % 2 == 0;
            PodBuilder b = new PodBuilder().withNewMetadata().withName("pod-" + i).withNamespace("ns")
                    .addToLabels("app", matches ? "web" : "db")
                    .withCreationTimestamp(NOW.minusSeconds(pods - i).toString()).endMetadata()
                    .withNewSpec().addNewContainer().withName("c").withImage("i").endContainer().endSpec()
                    .withNewStatus().withPhase("Running").endStatus();
            if (matches && target < done + running) {
                b.editSpec().addNewEphemeralContainer().withName("debugger").withImage("busybox")
                        .withEnv(new EnvVar(EphemeralJob.JOB_ID_ENV, "u", null)).endEphemeralContainer().endSpec();
                ContainerStateBuilder state = new ContainerStateBuilder();
                if (target < done) {
                    state.withNewTerminated().withExitCode(0).withFinishedAt("2026-01-01T00:05:00Z").endTerminated();
                } else {
                    state.withNewRunning().withStartedAt("2026-01-01T00:05:00Z").endRunning();
                }
                b.editStatus().addToEphemeralContainerStatuses(new ContainerStatusBuilder().withName("debugger")
                        .withState(state.build()).build()).endStatus();
            }
            if (matches) {
                target++;
            }
            namespace.add(b.build());
        }
    }

    @Benchmark
    public EphemeralJobPlan decide() {
        return EphemeralJobDecision.decide(job, namespace, NOW);
    }
}
