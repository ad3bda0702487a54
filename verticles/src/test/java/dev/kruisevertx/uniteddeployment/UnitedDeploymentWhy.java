package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.kubectl.KubectlKruise;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.client.ConfigBuilder;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code kubectl kruise why} as a user runs it against the embedded product, for the UnitedDeployment tests. */
final class UnitedDeploymentWhy {
    private UnitedDeploymentWhy() {
    }

    static String why(EmbeddedManagerExtension product, String target) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = KubectlKruise.run(new String[] {"-n", product.namespace(), "why", target},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                p -> KubeClients.forTest(new ConfigBuilder(product.cluster().clientConfig()).withHttp2Disable(true)
                        .build()));
        String o = out.toString(StandardCharsets.UTF_8);
        return code == 0 ? o : "exit " + code + ": " + err.toString(StandardCharsets.UTF_8) + o;
    }

    /** Runs {@code why} until it prints {@code expected} (computed again each time). */
    static void awaitWhy(EmbeddedManagerExtension product, String target, Supplier<String> expected, Duration wait) {
        String[] last = new String[2];
        try {
            Await.waitFor(target + " explained", wait, () -> {
                last[0] = expected.get();
                last[1] = why(product, target);
                return last[0].equals(last[1]);
            });
        } catch (AssertionError | RuntimeException e) {
            assertEquals(last[0], last[1], "kubectl kruise why " + target);
            throw e;
        }
    }
}
