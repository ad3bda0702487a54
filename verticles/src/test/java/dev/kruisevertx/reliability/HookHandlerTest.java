package dev.kruisevertx.reliability;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The suite's hook handler against the embedded API server, with the test doing what a manager would (or must not):
 * it releases held pods and reports a pod acted on while its hook still held it.
 */
class HookHandlerTest {
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    static ClusterFixture fixture;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0));
        client = fixture.client();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    private static Pod pod(String name, String app, String state, Map<String, String> labels, List<String> finalizers) {
        return new PodBuilder().withNewMetadata().withName(name).addToLabels("app", app)
                .addToLabels(WellKnown.LIFECYCLE_STATE_LABEL, state).addToLabels(labels).withFinalizers(finalizers)
                .endMetadata().withNewSpec().addNewContainer().withName("main").withImage("nginx:1.0").endContainer()
                .endSpec().build();
    }

    private static Pod get(String name) {
        return client.pods().inNamespace("default").withName(name).get();
    }

    @Test
    void preDeleteHookReleasesPreparingDeleteAndReportsADeletionWhileHeld() {
        List<String> protect = List.of(Workloads.PROTECT_FINALIZER);
        client.pods().inNamespace("default").resource(pod("pd-prepared", "pd", "PreparingDelete", Map.of(), protect)).create();
        client.pods().inNamespace("default").resource(pod("pd-normal", "pd", "Normal", Map.of(), protect)).create();
        try (HookHandler handler = new HookHandler(client, "default", "pd", Workloads.Hook.PRE_DELETE_FINALIZER, 1).start()) {
            Await.waitFor("the PreparingDelete pod released", TIMEOUT,
                    () -> get("pd-prepared").getMetadata().getFinalizers().isEmpty());
            assertEquals(protect, get("pd-normal").getMetadata().getFinalizers(), "a Normal pod stays held");
            assertEquals(1, handler.releases());
            // Deleted as the manager may once released: fine. Deleted while still held: a violation.
            client.pods().inNamespace("default").withName("pd-prepared").delete();
            client.pods().inNamespace("default").withName("pd-normal").delete();
            Await.waitFor("both gone", TIMEOUT, () -> get("pd-prepared") == null && get("pd-normal") == null);
            List<String> violations = handler.violations();
            assertEquals(1, violations.size(), violations.toString());
            assertTrue(violations.get(0).startsWith("pod pd-normal (Normal) deleted while its preDelete hook held it"),
                    violations.get(0));
        }
    }

    @Test
    void inPlaceUpdateHookReleasesAndPutsBackAndReportsAnUpdateWhileHeld() {
        Map<String, String> hold = Map.of(Workloads.HOLD_UPDATE_LABEL, "true");
        client.pods().inNamespace("default").resource(pod("ip-preparing", "ip", "PreparingUpdate", hold, List.of())).create();
        client.pods().inNamespace("default").resource(pod("ip-normal", "ip", "Normal", hold, List.of())).create();
        try (HookHandler handler = new HookHandler(client, "default", "ip", Workloads.Hook.IN_PLACE_UPDATE_LABEL, 2).start()) {
            Await.waitFor("the PreparingUpdate pod released", TIMEOUT,
                    () -> !get("ip-preparing").getMetadata().getLabels().containsKey(Workloads.HOLD_UPDATE_LABEL));
            // Updated as the manager does once released, then Updated: the handler puts the hook back.
            client.pods().inNamespace("default").withName("ip-preparing").edit(p -> {
                p.getSpec().getContainers().get(0).setImage("nginx:1.1");
                p.getMetadata().getLabels().put(WellKnown.LIFECYCLE_STATE_LABEL, "Updated");
                return p;
            });
            Await.waitFor("the hook put back on the Updated pod", TIMEOUT,
                    () -> "true".equals(get("ip-preparing").getMetadata().getLabels().get(Workloads.HOLD_UPDATE_LABEL)));
            // A held pod updated in place: a violation. (The handler has seen it held: releasing the other pod took
            // it two polls, each listing both.)
            client.pods().inNamespace("default").withName("ip-normal").edit(p -> {
                p.getSpec().getContainers().get(0).setImage("nginx:1.1");
                return p;
            });
            Await.waitFor("the update while held reported", TIMEOUT, () -> !handler.violations().isEmpty());
            List<String> violations = handler.violations();
            assertEquals(1, violations.size(), violations.toString());
            assertTrue(violations.get(0).startsWith("pod ip-normal updated in place from nginx:1.0 to nginx:1.1"),
                    violations.get(0));
            assertEquals(2, handler.releases(), "released once, put back once");
        }
    }
}
