package dev.kruisevertx.manager;

import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.controller.ControllerVerticle;
import dev.kruisevertx.kube.ObjectEdits;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.podreadiness.PodReadinessController;
import dev.kruisevertx.testing.CapturedLog;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Version;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.apache.logging.log4j.Level;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@EnableKubernetesMockClient(crud = true)
class ManagerAppTest {
    KubernetesMockServer server;
    KubernetesClient client;
    private ManagerApp app;

    /** A kruise kind whose CRD the mock does not serve. */
    @Group("apps.kruise.io")
    @Version("v1alpha1")
    public static class Widget extends CustomResource<Object, Object> implements Namespaced {
    }

    /** A controller that needs the missing kind: the manager must report it and keep going. */
    static final class WidgetController implements ControllerDefinition {
        @Override
        public String name() {
            return "widget";
        }

        @Override
        public Class<Widget> primaryType() {
            return Widget.class;
        }

        @Override
        public Controller create(ControllerContext context) {
            return new Controller(r -> Future.succeededFuture(Result.done()),
                    List.of(WatchSpec.of(Widget.class, EventMapper.self())));
        }
    }

    @AfterEach
    void stop() throws Exception {
        TestManagers.stop(app);
    }

    @Test
    void objectsThatExistedBeforeStartUpAreReconciled() throws Exception {
        // Created before the manager: its informers' initial events fire before any controller verticle runs.
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("early")
                .withNamespace("default").endMetadata().withNewSpec().addNewReadinessGate()
                .withConditionType("KruisePodReady").endReadinessGate().addNewContainer().withName("c")
                .withImage("nginx").endContainer().endSpec().build()).create();
        app = TestManagers.start(client, List.of(new PodReadinessController()), "--enable-leader-election=false");
        TestManagers.await("KruisePodReady=True on the pod that predates the manager", Duration.ofSeconds(30), () -> {
            Pod pod = client.pods().inNamespace("default").withName("early").get();
            return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions()
                    .stream().anyMatch(c -> c.getType().equals("KruisePodReady") && c.getStatus().equals("True"));
        }, () -> client.pods().inNamespace("default").withName("early").get().getStatus());
    }

    @Test
    void runsWithoutKruiseCrdsReportsThemMissingAndServesMetrics() throws Exception {
        List<ControllerDefinition> controllers = List.of(new PodReadinessController(), new WidgetController());
        app = TestManagers.start(client, controllers, "--enable-leader-election=false");

        assertEquals(ControllerSupervisor.State.MISSING_CRD, app.supervisor().status("widget").state());
        assertTrue(app.supervisor().status("widget").reason().contains("widgets.apps.kruise.io"),
                app.supervisor().status("widget").reason());
        TestManagers.await("podreadiness runs", Duration.ofSeconds(30),
                () -> app.supervisor().status("podreadiness").state() == ControllerSupervisor.State.RUNNING,
                () -> app.supervisor().view());

        // The pipeline end to end: informer -> event bus -> mapper -> queue -> reconcile -> status write.
        client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("gated")
                .withNamespace("default").endMetadata().withNewSpec().addNewReadinessGate()
                .withConditionType("KruisePodReady").endReadinessGate().addNewContainer().withName("c")
                .withImage("nginx").endContainer().endSpec().build()).create();
        TestManagers.await("KruisePodReady=True on the gated pod", Duration.ofSeconds(30), () -> {
            Pod pod = client.pods().inNamespace("default").withName("gated").get();
            return pod.getStatus() != null && pod.getStatus().getConditions().stream()
                    .anyMatch(c -> c.getType().equals("KruisePodReady") && c.getStatus().equals("True"));
        }, () -> client.pods().inNamespace("default").withName("gated").get().getStatus());

        HttpResponse<String> metrics = TestManagers.get(app.metricsPort(), "/metrics");
        assertEquals(200, metrics.statusCode());
        String body = metrics.body();
        for (String name : List.of("workqueue_depth{", "workqueue_adds_total{", "workqueue_queue_duration_seconds_bucket{",
                "workqueue_work_duration_seconds_bucket{", "workqueue_unfinished_work_seconds{",
                "workqueue_longest_running_processor_seconds{", "workqueue_retries_total{",
                "controller_runtime_reconcile_total{", "controller_runtime_reconcile_errors_total{",
                "controller_runtime_reconcile_time_seconds_bucket{", "controller_runtime_active_workers{",
                "controller_runtime_max_concurrent_reconciles{", "kruise_eventbus_messages_published_total{",
                "kruise_eventbus_messages_pending{", "kruise_eventbus_handler_seconds_count{",
                "kruise_controller_running{")) {
            assertTrue(body.contains(name), "metrics lack " + name);
        }
        assertTrue(body.contains("controller_runtime_reconcile_total{controller=\"podreadiness\",result=\"success\"}"), body);
        assertTrue(body.contains("kruise_controller_running{controller=\"widget\"} 0"), body);

        // The debug views have a listener of their own (loopback by default), not the metrics one.
        assertEquals(404, TestManagers.get(app.metricsPort(), "/debug/plans").statusCode());
        JsonObject bus = new JsonObject(TestManagers.get(app.debugPort(), "/debug/eventbus").body());
        assertTrue(bus.fieldNames().stream().anyMatch(a -> a.contains("Pod")), bus.encodePrettily());
        JsonObject controllersView = new JsonObject(TestManagers.get(app.debugPort(), "/debug/controllers").body());
        assertEquals("MISSING_CRD", controllersView.getJsonObject("widget").getString("state"));
        JsonObject plans = new JsonObject(TestManagers.get(app.debugPort(), "/debug/plans?controller=podreadiness").body());
        assertTrue(plans.getJsonArray("items").stream().map(JsonObject.class::cast)
                .anyMatch(i -> i.getString("controller").equals("podreadiness") && i.getString("object").equals("default/gated")),
                plans.encodePrettily());

        assertEquals("ok", TestManagers.get(app.healthPort(), "/healthz").body());
        HttpResponse<String> ready = TestManagers.get(app.healthPort(), "/readyz?verbose");
        assertEquals(200, ready.statusCode(), ready.body());
    }

    @Test
    void leadershipIsExportedWhenElectionIsOffAndProbesAnswerPerCheck() throws Exception {
        app = TestManagers.start(client, List.of(new PodReadinessController()), "--enable-leader-election=false");

        // Without election this replica leads; OpenKruise registers the gauge at start either way.
        String metrics = TestManagers.get(app.metricsPort(), "/metrics").body();
        assertTrue(metrics.contains("\nkruise_manager_is_leader 1.0\n"), metrics);

        // One check by name, as controller-runtime serves them; an unknown name is not "healthy".
        HttpResponse<String> one = TestManagers.get(app.healthPort(), "/readyz/informers-synced");
        assertEquals(200, one.statusCode(), one.body());
        assertEquals("ok", one.body());
        assertEquals(200, TestManagers.get(app.healthPort(), "/readyz/webhook-ready").statusCode());
        assertEquals(200, TestManagers.get(app.healthPort(), "/healthz/ping").statusCode());
        for (String unknown : List.of("/readyz/anything", "/readyz/informers-synced/x", "/healthz/nope")) {
            HttpResponse<String> missing = TestManagers.get(app.healthPort(), unknown);
            assertEquals(404, missing.statusCode(), unknown + ": " + missing.body());
        }
        assertEquals("ok", TestManagers.get(app.healthPort(), "/readyz/").body(), "a trailing slash is the whole set");
        String excluded = TestManagers.get(app.healthPort(), "/readyz?verbose&exclude=webhook-ready").body();
        assertTrue(excluded.contains("[+]webhook-ready excluded: ok"), excluded);
    }

    @Test
    void aConflictOnThePodStatusIsRetriedAndLoggedAsOneLine() throws Exception {
        // Another writer changed the pod between the controller's read and its status write: the API server's 409.
        Status conflict = new StatusBuilder().withStatus("Failure").withCode(409).withReason("Conflict")
                .withMessage("Operation cannot be fulfilled on pods \"contended\": the object has been modified").build();
        String statusPath = "/api/v1/namespaces/default/pods/contended/status";
        // A single 409 is retried inside the edit (ObjectEdits, a merge patch of the change since issue 28) since
        // issue 14: the other writer keeps winning for every attempt, so the reconcile fails with the conflict and the
        // runtime requeues it.
        server.expect().patch().withPath(statusPath).andReturn(409, conflict).times(ObjectEdits.DEFAULT_ATTEMPTS);
        try (CapturedLog log = CapturedLog.of(ControllerVerticle.class)) {
            app = TestManagers.start(client, List.of(new PodReadinessController()), "--enable-leader-election=false");
            client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName("contended")
                    .withNamespace("default").endMetadata().withNewSpec().addNewReadinessGate()
                    .withConditionType("KruisePodReady").endReadinessGate().addNewContainer().withName("c")
                    .withImage("nginx").endContainer().endSpec().build()).create();
            TestManagers.await("KruisePodReady=True after the conflict", Duration.ofSeconds(60), () -> {
                Pod pod = client.pods().inNamespace("default").withName("contended").get();
                return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions()
                        .stream().anyMatch(c -> c.getType().equals("KruisePodReady") && c.getStatus().equals("True"));
            }, () -> log.lines());

            List<CapturedLog.Line> lines = log.containing("default/contended");
            assertEquals(1, lines.size(), lines.toString());
            CapturedLog.Line line = lines.get(0);
            assertEquals(Level.INFO, line.level(), line.toString());
            assertNull(line.thrown(), "a conflict is not a stack trace");
            assertTrue(line.message().contains("podreadiness") && line.message().contains("conflict (409)"), line.message());
            assertTrue(line.message().matches("controller podreadiness: reconcile of default/contended \\[id \\d+\\] .*"),
                    "names controller, key and reconcile id: " + line.message());
        }
    }
}
