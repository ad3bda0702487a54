package dev.kruisevertx.e2e;

import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.kubectl.KubectlKruise;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.client.ConfigBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code kubectl kruise why} for PodProbeMarker and EphemeralJob against the whole product on the embedded cluster:
 * the exact text the plugin prints from each controller's last plan.
 */
class NodeFeaturesWhyEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(1))
            .build();

    static String why(String target) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = KubectlKruise.run(new String[] {"-n", product.namespace(), "why", target},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                p -> KubeClients.forTest(new ConfigBuilder(product.cluster().clientConfig()).withHttp2Disable(true)
                        .build()));
        String o = out.toString(StandardCharsets.UTF_8);
        return code == 0 ? o : "exit " + code + ": " + err.toString(StandardCharsets.UTF_8) + o;
    }

    static void awaitWhy(String target, String expected) {
        String[] last = new String[1];
        try {
            Await.waitFor(target + " explained", WAIT, () -> expected.equals(last[0] = why(target)));
        } catch (AssertionError | RuntimeException e) {
            assertEquals(expected, last[0], "kubectl kruise why " + target);
            throw e;
        }
    }

    static void apply(String yaml) {
        ManifestApplier.apply(product.client(), yaml.replace("NS", product.namespace()));
    }

    @Test
    void aMarkerThatMatchesNoPodSaysSo() {
        apply("""
                apiVersion: apps.kruise.io/v1alpha1
                kind: PodProbeMarker
                metadata: {name: idle, namespace: NS}
                spec:
                  selector: {matchLabels: {app: nothing-here}}
                  probes:
                  - name: healthy
                    containerName: main
                    probe: {exec: {command: [/bin/true]}}
                    podConditionType: game.kruise.io/healthy
                """);
        awaitWhy("podprobemarker/idle", "podprobemarker.apps.kruise.io/idle in namespace " + product.namespace() + "\n"
                + "  rollout: pod probe marker \"idle\": 0 matched pods\n"
                + "  held by NoMatchingPods: spec.selector matches no active, initialized and scheduled pod\n");
    }

    @Test
    void anEphemeralJobThatMatchesNoPodSaysSo() {
        apply("""
                apiVersion: apps.kruise.io/v1alpha1
                kind: EphemeralJob
                metadata: {name: debug, namespace: NS}
                spec:
                  selector: {matchLabels: {app: nothing-here}}
                  replicas: 1
                  template:
                    ephemeralContainers:
                    - {name: debugger, image: "busybox:1", imagePullPolicy: IfNotPresent, terminationMessagePolicy: File}
                """);
        awaitWhy("ejob/debug", "ephemeraljob.apps.kruise.io/debug in namespace " + product.namespace() + "\n"
                + "  rollout: ephemeral job \"debug\": Waiting, 0 matched, 0 running, 0 waiting, 0 succeeded, 0 failed\n"
                + "  held by NoMatchingPods: spec.selector matches no active pod\n");
    }
}
