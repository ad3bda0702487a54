package dev.kruisevertx.sim.progress;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ManifestApplier;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertTrue;

class ProgressReporterTest {
    @Test
    void reportsOneLinePerChangeAndWhatIsNotReady() {
        List<String> lines = new CopyOnWriteArrayList<>();
        // The test writes the Deployment's status itself, step by step: no built-in Deployment controller races it.
        try (ClusterFixture f = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(1).setBuiltinControllers(false));
             ProgressReporter reporter = new ProgressReporter(f.client(), "default", lines::add)
                     .start(List.of(new ProgressReporter.Watched("v1", "Pod"), new ProgressReporter.Watched("apps/v1", "Deployment")))) {
            ManifestApplier.apply(f.client(), """
                    apiVersion: v1
                    kind: Pod
                    metadata: {name: watched, namespace: default}
                    spec: {containers: [{name: c, image: "nginx:1"}]}
                    ---
                    apiVersion: apps/v1
                    kind: Deployment
                    metadata: {name: web, namespace: default}
                    spec:
                      replicas: 2
                      selector: {matchLabels: {app: web}}
                      template:
                        metadata: {labels: {app: web}}
                        spec: {containers: [{name: c, image: "nginx:1"}]}
                    """);
            Await.waitFor("pod reported ready", Duration.ofSeconds(30), () -> List.copyOf(lines),
                    l -> l.contains("Pod default/watched: Running on sim-node-0, ready"));
            Await.waitFor("deployment waiting", Duration.ofSeconds(30), reporter::notReady,
                    m -> m.keySet().stream().anyMatch(k -> k.endsWith("Deployment/default/web")));
            f.client().apps().deployments().inNamespace("default").withName("web").editStatus(d -> {
                d.setStatus(new io.fabric8.kubernetes.api.model.apps.DeploymentStatusBuilder().withObservedGeneration(1L)
                        .withReplicas(2).withUpdatedReplicas(2).withReadyReplicas(2).build());
                return d;
            });
            Await.waitFor("everything ready", Duration.ofSeconds(30), reporter::notReady, java.util.Map::isEmpty);
            f.client().pods().inNamespace("default").withName("watched").withGracePeriod(0).delete();
            Await.waitFor("deletion reported", Duration.ofSeconds(30), () -> List.copyOf(lines), l -> l.contains("Pod default/watched deleted"));
            assertTrue(lines.stream().anyMatch(l -> l.equals("Deployment default/web: 2/2 ready, 2/2 updated")), lines.toString());
        }
    }
}
