package dev.kruisevertx.inplace;

import dev.kruisevertx.api.common.InPlaceUpdateState;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.lifecycle.LifecycleChange;
import dev.kruisevertx.lifecycle.Lifecycles;
import dev.kruisevertx.podutil.PodPatches;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashMap;

import static dev.kruisevertx.inplace.InPlaceFixtures.container;
import static dev.kruisevertx.inplace.InPlaceFixtures.map;
import static dev.kruisevertx.inplace.InPlaceFixtures.pod;
import static dev.kruisevertx.inplace.InPlaceFixtures.restarted;
import static dev.kruisevertx.inplace.InPlaceFixtures.revision;
import static dev.kruisevertx.inplace.InPlaceFixtures.template;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The write path a controller takes with these helpers, against the fabric8 CRUD mock: status patch for the
 * readiness condition, JSON patch for the in-place change (guarded by resourceVersion), then completion.
 */
class InPlaceUpdateOnMockClusterTest {
    private static final Instant T0 = Instant.parse("2026-03-22T09:06:55Z");
    private KubernetesMockServer server;
    private KubernetesClient client;

    @BeforeEach
    void start() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(), false);
        server.init();
        client = KubeClients.forTest(server.createClient().getConfiguration());
    }

    @AfterEach
    void stop() {
        client.close();
        server.destroy();
    }

    private Pod patch(Pod before, Pod after) {
        return client.pods().inNamespace("default").withName(before.getMetadata().getName())
                .patch(PatchContext.of(PatchType.JSON), PodPatches.forPod(before, after, true));
    }

    @Test
    void inPlaceUpdateThroughPatches() {
        PodTemplateSpec v1 = template(map("app", "demo"), map(), container("main", "nginx:1.0", null));
        PodTemplateSpec v2 = template(map("app", "demo"), map(), container("main", "nginx:2.0", null));
        ControllerRevision r1 = revision("demo-1", v1);
        ControllerRevision r2 = revision("demo-2", v2);
        Pod created = client.pods().inNamespace("default").resource(pod(v1, "demo-1")).create();
        LifecycleChange normal = Lifecycles.withState(created, LifecycleState.NORMAL, T0, false);
        Pod current = patch(created, normal.pod());
        assertEquals("Normal", Pods.label(current, WellKnown.LIFECYCLE_STATE_LABEL));

        InPlaceUpdater updater = new InPlaceUpdater(RevisionLabels.cloneSet(false));
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(r1, r2, InPlaceUpdateOptions.defaults());
        Pod starting = updater.markUpdateStarting(current, T0);
        Pod afterStatus = client.pods().inNamespace("default").withName("demo-abcde").subresource("status")
                .patch(PatchContext.of(PatchType.JSON), PodPatches.forStatus(current, starting));
        assertEquals("False", Pods.condition(afterStatus, WellKnown.INPLACE_UPDATE_READY_CONDITION).orElseThrow().getStatus());
        Pod stale = current;
        current = afterStatus;
        Pod prepared = updater.prepare(current, spec, T0);
        Pod updating = Lifecycles.withState(prepared, LifecycleState.UPDATING, T0, false).pod();
        Pod written = patch(current, updating);

        assertEquals("nginx:2.0", written.getSpec().getContainers().get(0).getImage());
        assertEquals("demo-2", Pods.label(written, WellKnown.CONTROLLER_REVISION_HASH_LABEL));
        assertEquals("Updating", Pods.label(written, WellKnown.LIFECYCLE_STATE_LABEL));
        assertEquals("demo-2", InPlaceUpdateState.readFrom(written).orElseThrow().getRevision());
        assertEquals("False", Pods.condition(written, WellKnown.INPLACE_UPDATE_READY_CONDITION).orElseThrow().getStatus());

        // A patch computed from a stale pod carries the resourceVersion it was computed from (the CRUD mock leaves a
        // failed test op unanswered instead of returning 422, so the refusal itself is not exercised here).
        String stalePatch = PodPatches.forPod(stale, Lifecycles.withState(stale, LifecycleState.PREPARING_DELETE, T0,
                false).pod(), true);
        assertTrue(stalePatch.startsWith("[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\""
                + stale.getMetadata().getResourceVersion() + "\"}"), stalePatch);
        assertTrue(!stale.getMetadata().getResourceVersion().equals(written.getMetadata().getResourceVersion()));

        Pod kubeletRestarted = restarted(written, "main", true);
        assertTrue(updater.checkCompleted(kubeletRestarted).done());
        RefreshOutcome outcome = updater.refresh(kubeletRestarted, T0.plusSeconds(10));
        assertEquals(RefreshOutcome.Action.UPDATE_STATUS, outcome.action());
        String statusPatch = PodPatches.forStatus(kubeletRestarted, outcome.pod());
        assertTrue(statusPatch.contains(WellKnown.INPLACE_UPDATE_READY_CONDITION) || statusPatch.contains("True"), statusPatch);
        assertTrue(PodPatches.isEmpty(PodPatches.forPod(kubeletRestarted, outcome.pod(), false)),
                "a status change needs no main-resource patch");
    }
}
