package dev.kruisevertx.e2e;

import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.kubectl.KubectlKruise;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code kubectl kruise why sidecarset/NAME} against the whole product on the embedded cluster: a SidecarSet is
 * cluster-scoped, so the plugin reads it without a namespace and asks the manager for {@code /why/sidecarset/-/NAME}.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SidecarSetWhyEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder().build();

    static String why(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String[] all = new String[args.length + 3];
        all[0] = "-n";
        all[1] = product.namespace();
        all[2] = "why";
        System.arraycopy(args, 0, all, 3, args.length);
        int code = KubectlKruise.run(all, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8),
                p -> KubeClients.forTest(new ConfigBuilder(product.cluster().clientConfig()).withHttp2Disable(true)
                        .build()));
        String o = out.toString(StandardCharsets.UTF_8);
        return code == 0 ? o : "exit " + code + ": " + err.toString(StandardCharsets.UTF_8) + o;
    }

    static void awaitWhyMatching(String target, Pattern expected) {
        String[] last = new String[1];
        try {
            Await.waitFor(target + " explained", WAIT, () -> expected.matcher(last[0] = why(target)).matches());
        } catch (AssertionError | RuntimeException e) {
            assertTrue(last[0] != null && expected.matcher(last[0]).matches(),
                    "kubectl kruise why " + target + " printed\n" + last[0] + "expected\n" + expected);
            throw e;
        }
    }

    @Test
    void whyExplainsAPausedSidecarUpgradeAndThenNothing() {
        String name = "w" + Integer.toHexString(product.namespace().hashCode()) + "-log";
        GenericKubernetesResource set = Serialization.unmarshal("""
                {"apiVersion":"apps.kruise.io/v1beta1","kind":"SidecarSet","metadata":{"name":"%s"},
                 "spec":{"selector":{"matchLabels":{"why":"%s"}},
                   "updateStrategy":{"type":"RollingUpdate","paused":true},
                   "containers":[{"name":"log","image":"fluent-bit:3.0"}]}}
                """.formatted(name, name), GenericKubernetesResource.class);
        var sets = product.client().genericKubernetesResources("apps.kruise.io/v1beta1", "SidecarSet");
        sets.resource(set).create();
        int[] n = {0};
        Await.waitFor("the webhook injects the log sidecar", WAIT, () -> {
            var pod = product.client().pods().inNamespace(product.namespace()).resource(new PodBuilder()
                    .withNewMetadata().withName(name + "-" + n[0]++).addToLabels("why", name).endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("nginx:1.25").endContainer().endSpec()
                    .build()).create();
            boolean injected = pod.getSpec().getContainers().stream().anyMatch(c -> c.getName().equals("log"));
            if (!injected) {
                product.client().pods().resource(pod).withGracePeriod(0).delete();
            }
            return injected;
        });
        String header = Pattern.quote("sidecarset.apps.kruise.io/" + name + " (cluster-scoped)\n");
        awaitWhyMatching("sidecarset/" + name, Pattern.compile(header
                + Pattern.quote("  rollout: sidecarset \"" + name + "\": 1 matched pods, 1 updated, 1 ready, "
                + "1 updated and ready\n") + "  nothing holds it back\n"));

        ConflictRetry.run(() -> sets.withName(name).edit(s -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> spec = (Map<String, Object>) s.getAdditionalProperties().get("spec");
            spec.put("containers", java.util.List.of(Map.of("name", "log", "image", "fluent-bit:3.1")));
            return s;
        }));
        awaitWhyMatching("sidecar" + "set.apps.kruise.io/" + name, Pattern.compile(header
                + "  rollout: sidecarset \"" + Pattern.quote(name) + "\": 1 matched pods, 0 updated, \\d ready, "
                + "0 updated and ready\n"
                + Pattern.quote("  held by Paused: updateStrategy.paused is true: 1 pod waits for the update\n")));

        ConflictRetry.run(() -> sets.withName(name).edit(s -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> spec = (Map<String, Object>) s.getAdditionalProperties().get("spec");
            spec.put("updateStrategy", Map.of("type", "RollingUpdate", "paused", false));
            return s;
        }));
        awaitWhyMatching("sidecarset/" + name, Pattern.compile(header
                + Pattern.quote("  rollout: sidecarset \"" + name + "\": 1 matched pods, 1 updated, 1 ready, "
                + "1 updated and ready\n") + "  nothing holds it back\n"));

        String missing = why("sidecarset/nope");
        assertTrue(missing.startsWith("exit ") && missing.contains("error: sidecarsets.apps.kruise.io \"nope\" not "
                + "found\n"), missing);
    }
}
