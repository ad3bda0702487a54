package dev.kruisevertx.advancedcronjob;

import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobSpec;
import dev.kruisevertx.api.apps.v1beta1.CronJobTemplate;
import dev.kruisevertx.api.crd.KruiseCrds;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.ManagerSettings;
import dev.kruisevertx.controller.PlanRecorder;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.kube.KubeExecutor;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link CronActuator} against fabric8's mock API server (CRUD mode) that refuses Job creations. */
class CronActuatorTest {
    /** CRUD storage whose Job creations are refused with 422, as an API server refuses an invalid Job. */
    static final class RefusingJobs extends KubernetesCrudDispatcher {
        final AtomicInteger refused = new AtomicInteger();

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            if ("POST".equals(request.getMethod()) && request.getPath().contains("/jobs")) {
                refused.incrementAndGet();
                return new MockResponse().setResponseCode(422).setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
                        + "\"status\":\"Failure\",\"reason\":\"Invalid\",\"code\":422,\"message\":"
                        + "\"Job.batch \\\"nightly-1767225900\\\" is invalid: spec.template.spec.restartPolicy: "
                        + "Required value: valid values: \\\"OnFailure\\\", \\\"Never\\\"\"}");
            }
            return super.dispatch(request);
        }
    }

    private final RefusingJobs dispatcher = new RefusingJobs();
    private KubernetesMockServer server;
    private KubernetesClient client;
    private Vertx vertx;
    private KubeExecutor kube;

    @BeforeEach
    void setUp() {
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init();
        client = KubeClients.forTest(server.createClient().getConfiguration());
        KruiseCrds.registerKinds(client.getKubernetesSerialization());
        vertx = Vertx.vertx();
        kube = new KubeExecutor(vertx, "test-kube", 2);
    }

    @AfterEach
    void tearDown() throws Exception {
        kube.close();
        vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        client.close();
        server.destroy();
    }

    @Test
    void aRefusedChildIsAWarningEventAndNotAFailedReconcile() throws Exception {
        AdvancedCronJob acj = new AdvancedCronJob();
        acj.setMetadata(new ObjectMetaBuilder().withName("nightly").withNamespace("ns").build());
        AdvancedCronJobSpec spec = new AdvancedCronJobSpec();
        spec.setSchedule("*/5 * * * *");
        CronJobTemplate t = new CronJobTemplate();
        JobTemplateSpec jt = new JobTemplateSpec();
        jt.setSpec(new JobSpecBuilder().withTemplate(new PodTemplateSpecBuilder().withNewSpec()
                .withRestartPolicy("Always").addNewContainer().withName("c").withImage("i").endContainer().endSpec()
                .build()).build());
        t.setJobTemplate(jt);
        spec.setTemplate(t);
        acj.setSpec(spec);
        AdvancedCronJob stored = client.resource(acj).create();
        stored.getMetadata().setCreationTimestamp("2026-01-01T00:00:00Z");

        ControllerContext ctx = new ControllerContext(vertx, null, client, kube, FeatureGates.defaults(),
                new SimpleMeterRegistry(), new PlanRecorder(), ManagerSettings.defaults());
        EventRecorder events = new EventRecorder(client, kube, Clock.systemUTC(), "advancedcronjob-controller",
                AdvancedCronJob.API_VERSION, AdvancedCronJob.KIND);
        CronPlan plan = CronDecision.decide(stored, List.of(), Instant.parse("2026-01-01T00:05:30Z"),
                java.time.ZoneOffset.UTC);
        assertEquals(Instant.parse("2026-01-01T00:05:00Z"), plan.create());

        // Completes normally: the refusal is an outcome, not an error the runtime would retry with backoff.
        new CronActuator(ctx, events).apply(stored, plan).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertEquals(1, dispatcher.refused.get());
        Await.waitFor("a FailedCreate warning naming the refusal", Duration.ofSeconds(30), () -> client.v1().events()
                .inNamespace("ns").list().getItems().stream().anyMatch(e -> "FailedCreate".equals(e.getReason())
                        && "Warning".equals(e.getType()) && e.getMessage().contains("restartPolicy")));
        assertTrue(client.batch().v1().jobs().inNamespace("ns").list().getItems().isEmpty());
    }
}
