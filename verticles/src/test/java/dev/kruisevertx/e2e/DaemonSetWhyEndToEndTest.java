package dev.kruisevertx.e2e;

import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.kubectl.KubectlKruise;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.nodes.ContainerFailure;
import dev.kruisevertx.sim.nodes.ImageRule;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code kubectl kruise why ads/NAME} against the whole product on the embedded cluster (three nodes), through the
 * API server's service proxy: for each rule that holds an Advanced DaemonSet back, the exact text the plugin prints,
 * and the RolloutStuck Event and metric once a rollout stops moving for {@code --workload-progress-deadline}.
 * Images tagged {@code :broken} never pull, so their pods never become ready.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class DaemonSetWhyEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final int NODES = 3;
    static final ResourceDefinitionContext DAEMONSETS = new ResourceDefinitionContext.Builder()
            .withGroup("apps.kruise.io").withVersion("v1beta1").withPlural("daemonsets").withNamespaced(true).build();

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(NODES))
            .flags("--workload-progress-deadline=10s")
            .build();

    static String kruiseWhy(String target) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = KubectlKruise.run(new String[]{"-n", product.namespace(), "why", target},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                p -> KubeClients.forTest(new ConfigBuilder(product.cluster().clientConfig()).withHttp2Disable(true).build()));
        String o = out.toString(StandardCharsets.UTF_8);
        return code == 0 ? o : "exit " + code + ": " + err.toString(StandardCharsets.UTF_8) + o;
    }

    /** Runs {@code why} until it prints {@code expected} (computed again each time: it names live pods). */
    static void awaitWhy(String target, Supplier<String> expected) {
        String[] last = new String[2];
        try {
            Await.waitFor(target + " explained", WAIT, () -> {
                last[0] = expected.get();
                last[1] = kruiseWhy(target);
                return last[0].equals(last[1]);
            });
        } catch (AssertionError | RuntimeException e) {
            assertEquals(last[0], last[1], "kubectl kruise why " + target);
            throw e;
        }
    }

    static long updatedNumberScheduled(String name) {
        var ds = product.client().genericKubernetesResources("apps.kruise.io/v1beta1", "DaemonSet")
                .inNamespace(product.namespace()).withName(name).get();
        Object status = ds == null ? null : ds.getAdditionalProperties().get("status");
        Object n = status instanceof java.util.Map<?, ?> m ? m.get("updatedNumberScheduled") : null;
        return n instanceof Number num ? num.longValue() : 0;
    }

    static String header(String name) {
        return "daemonset.apps.kruise.io/" + name + " in namespace " + product.namespace() + "\n";
    }

    static String daemonSet(String name, String extraSpec, String templateLabels) {
        return """
                apiVersion: apps.kruise.io/v1beta1
                kind: DaemonSet
                metadata: {name: %s, namespace: %s}
                spec:
                  selector: {matchLabels: {app: %s}}
                %s
                  template:
                    metadata: {labels: {app: %s%s}}
                    spec:
                      containers:
                      - {name: main, image: "nginx:1"}
                """.formatted(name, product.namespace(), name, extraSpec.indent(2).stripTrailing(), name, templateLabels);
    }

    static List<Pod> pods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems()
                .stream().filter(p -> !Pods.isTerminating(p)).sorted((a, b) -> a.getMetadata().getName()
                        .compareTo(b.getMetadata().getName())).toList();
    }

    static void awaitReady(String app) {
        Await.waitFor(NODES + " ready pods of " + app, WAIT, () -> {
            List<Pod> ps = pods(app);
            return ps.size() == NODES && ps.stream().allMatch(Pods::isReady);
        });
    }

    static void patch(String name, String mergePatch) {
        product.client().genericKubernetesResources(DAEMONSETS).inNamespace(product.namespace()).withName(name)
                .patch(PatchContext.of(PatchType.JSON_MERGE), mergePatch);
    }

    static String image(String image) {
        return "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"" + image + "\"}]}}}}";
    }

    /** The one pod of {@code app} not ready (the new one that cannot pull its image). */
    static String notReady(String app) {
        return pods(app).stream().filter(p -> !Pods.isReady(p)).map(p -> p.getMetadata().getName()).findFirst()
                .orElse("(none yet)");
    }

    static void brokenImagesNeverPull() {
        product.cluster().nodes().addImageRule(new ImageRule("*:broken", Duration.ZERO, ContainerFailure.IMAGE_PULL_ERROR));
    }

    @Test
    void partitionKeepsOldPods() {
        ManifestApplier.apply(product.client(), daemonSet("agent", """
                updateStrategy:
                  rollingUpdate: {partition: 2}""", ""));
        awaitReady("agent");
        patch("agent", image("nginx:2"));
        awaitWhy("ads/agent", () -> header("agent")
                + "  rollout: partitioned roll out complete: 1 new pods have been updated (partition 2)...\n"
                + "  held by Partition: updateStrategy.rollingUpdate.partition 2 keeps 2 pods at the current revision\n");
    }

    @Test
    void paused() {
        ManifestApplier.apply(product.client(), daemonSet("agent", "", ""));
        awaitReady("agent");
        patch("agent", "{\"spec\":{\"updateStrategy\":{\"rollingUpdate\":{\"paused\":true}},\"template\":{\"spec\":"
                + "{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:2\"}]}}}}");
        awaitWhy("ads/agent", () -> header("agent")
                + "  rollout: Waiting for daemon set \"agent\" rollout to finish: 0 out of 3 new pods have been "
                + "updated... (the rollout is paused; run 'kubectl-kruise rollout resume daemonset.apps.kruise.io/agent')\n"
                + "  held by Paused: updateStrategy.rollingUpdate.paused is true: 3 pods wait for the update\n");
    }

    @Test
    void maxUnavailableHeldByAPodThatNeverStartsThenStuck() throws Exception {
        brokenImagesNeverPull();
        ManifestApplier.apply(product.client(), daemonSet("agent", """
                updateStrategy:
                  rollingUpdate: {maxUnavailable: 1}""", ""));
        awaitReady("agent");
        patch("agent", image("nginx:broken"));
        awaitWhy("ads/agent", () -> header("agent")
                + "  rollout: Waiting for daemon set \"agent\" rollout to finish: 1 out of 3 new pods have been updated...\n"
                + "  held by MaxUnavailable: updateStrategy.rollingUpdate.maxUnavailable 1 reached: 1 unavailable now ("
                + notReady("agent") + "); 2 pods wait to be updated\n");

        Event stuck = Await.waitFor("RolloutStuck event", WAIT, () -> product.client().v1().events()
                        .inNamespace(product.namespace()).list().getItems().stream()
                        .filter(e -> "RolloutStuck".equals(e.getReason())).findFirst().orElse(null),
                Objects::nonNull);
        assertEquals("Warning", stuck.getType());
        assertEquals("DaemonSet", stuck.getInvolvedObject().getKind());
        assertEquals("agent", stuck.getInvolvedObject().getName());
        assertEquals("rollout has not progressed for 10s: MaxUnavailable: updateStrategy.rollingUpdate.maxUnavailable "
                + "1 reached: 1 unavailable now (" + notReady("agent") + "); 2 pods wait to be updated", stuck.getMessage());
        String series = "kruise_workload_blocked{kind=\"DaemonSet\",name=\"agent\",namespace=\""
                + product.namespace() + "\",reason=\"MaxUnavailable\"} 1.0";
        Await.waitFor("blocked metric", WAIT, () -> metrics().contains(series));

        // The fix: an image that runs; the rollout finishes and the series goes.
        patch("agent", image("nginx:3"));
        awaitWhy("ads/agent", () -> header("agent")
                + "  rollout: daemon set \"agent\" successfully rolled out\n"
                + "  nothing holds it back\n");
        Await.waitFor("blocked series gone", WAIT, () -> !metrics().contains("name=\"agent\",namespace=\""
                + product.namespace() + "\""));
    }

    @Test
    void maxSurgeUsedByAPodThatNeverStarts() {
        brokenImagesNeverPull();
        ManifestApplier.apply(product.client(), daemonSet("agent", """
                updateStrategy:
                  rollingUpdate: {maxUnavailable: 0, maxSurge: 1}""", ""));
        awaitReady("agent");
        patch("agent", image("nginx:broken"));
        awaitWhy("ads/agent", () -> header("agent")
                // The rollout line is the status's count: a node's pod is its oldest one (kube's
                // podByCreationTimestampAndPhase), so whether the surge pod counts depends on the order the two
                // pods of that node got; the reason line below is what this test pins.
                + "  rollout: Waiting for daemon set \"agent\" rollout to finish: " + updatedNumberScheduled("agent")
                + " out of 3 new pods have been updated...\n"
                + "  held by MaxSurge: updateStrategy.rollingUpdate.maxSurge 1 used: 1 extra pod not available yet ("
                + notReady("agent") + "); 2 pods wait to be updated\n");
    }

    @Test
    void minReadySeconds() {
        ManifestApplier.apply(product.client(), daemonSet("agent", "minReadySeconds: 36000", ""));
        awaitReady("agent");
        awaitWhy("ads/agent", () -> header("agent")
                + "  rollout: Waiting for daemon set \"agent\" rollout to finish: 0 of 3 updated pods are available...\n"
                + "  held by MinReadySeconds: 3 ready pods not yet available ("
                + String.join(", ", pods("agent").stream().map(p -> p.getMetadata().getName()).toList())
                + "): minReadySeconds 36000, the next in 10h\n");
    }

    @Test
    void preDeleteHookWaitsForItsLabel() {
        ManifestApplier.apply(product.client(), daemonSet("agent", """
                lifecycle:
                  preDelete:
                    labelsHandler: {example.com/hold: "true"}
                updateStrategy:
                  rollingUpdate: {maxUnavailable: 1}""", ", example.com/hold: \"true\""));
        awaitReady("agent");
        patch("agent", image("nginx:2"));
        awaitWhy("ads/agent", () -> {
            String held = pods("agent").stream().filter(p -> "PreparingDelete".equals(Pods.lifecycleState(p)))
                    .map(p -> p.getMetadata().getName()).findFirst().orElse("(none yet)");
            return header("agent")
                    + "  rollout: Waiting for daemon set \"agent\" rollout to finish: 0 out of 3 new pods have been updated...\n"
                    + "  held by MaxUnavailable: updateStrategy.rollingUpdate.maxUnavailable 1 reached: 1 unavailable "
                    + "now (" + held + "); 2 pods wait to be updated\n"
                    + "  held by LifecycleHook: pod " + held + " waits in PreparingDelete for the preDelete hook to "
                    + "let go of label example.com/hold=true\n";
        });
        assertTrue(pods("agent").stream().anyMatch(p -> "PreparingDelete".equals(Pods.lifecycleState(p))));
    }

    static String metrics() throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + product.app().metricsPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
