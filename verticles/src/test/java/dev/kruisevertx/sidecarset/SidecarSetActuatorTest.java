package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.ManagerSettings;
import dev.kruisevertx.controller.PlanRecorder;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.kube.KubeExecutor;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The act step against the embedded API server: revisions, status over the version it was computed from, pods. */
class SidecarSetActuatorTest {
    static ClusterFixture cluster;
    static KubernetesClient client;
    static Vertx vertx;
    static KubeExecutor kube;
    static SidecarSetActuator actuator;
    static final ResourceVersionExpectations EXPECTATIONS = new ResourceVersionExpectations(Duration.ofMinutes(5),
            Clock.systemUTC());

    @BeforeAll
    static void start() {
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setAdmission(false)
                .setCrdDirectory(ClusterFixture.findCrdDirectory()));
        client = KubeClients.forTest(new io.fabric8.kubernetes.client.ConfigBuilder(cluster.cluster().clientConfig())
                .withHttp2Disable(true).build());
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName("kruise-system").endMetadata()
                .build()).create();
        vertx = Vertx.vertx();
        kube = new KubeExecutor(vertx, "sidecarset-actuator-test", 4);
        ControllerContext ctx = new ControllerContext(vertx, null, client, kube, null, new SimpleMeterRegistry(),
                new PlanRecorder(), ManagerSettings.defaults());
        EventRecorder events = new EventRecorder(client, kube, Clock.systemUTC(), "test", SidecarSet.API_VERSION,
                SidecarSet.KIND);
        actuator = new SidecarSetActuator(ctx, EXPECTATIONS, events, events, Clock.systemUTC());
    }

    @AfterAll
    static void stop() throws Exception {
        kube.close();
        vertx.close().await(30, TimeUnit.SECONDS);
        client.close();
        cluster.close();
    }

    static SidecarSet create(String name, String image) {
        String json = ("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'" + name + "',"
                + "'annotations':{'kruise.io/sidecarset-hash':'h-" + image + "','kruise.io/sidecarset-hash-without-image':'w'}},"
                + "'spec':{'selector':{'matchLabels':{'app':'" + name + "'}},'containers':[{'name':'log','image':'"
                + image + "'}]}}").replace('\'', '"');
        return client.resource(ApiJson.serialization().unmarshal(json, SidecarSet.class)).create();
    }

    static Pod pod(String name, String set) {
        return client.pods().inNamespace("default").resource(new PodBuilder().withNewMetadata().withName(name)
                .addToLabels("app", set).addToAnnotations("kruise.io/sidecarset-injected-list", set)
                .addToAnnotations("kruise.io/sidecarset-hash", "{\"" + set + "\":{\"hash\":\"h-log:1\"}}")
                .addToAnnotations("kruise.io/sidecarset-hash-without-image", "{\"" + set + "\":{\"hash\":\"w\"}}")
                .endMetadata().withNewSpec().addNewContainer().withName("log").withImage("log:1").endContainer()
                .addNewContainer().withName("main").withImage("app:1").endContainer().endSpec().build()).create();
    }

    @Test
    void writesTheRevisionTheStatusAndThePods() throws Exception {
        SidecarSet set = create("fresh", "log:2");
        Pod pod = pod("fresh-0", "fresh");
        SidecarSetPlan plan = SidecarSetPlanner.decide(set, List.of(pod), List.of(), "kruise-system", List.of());
        assertEquals(List.of("fresh-0"), plan.upgrades().stream().map(p -> p.getMetadata().getName()).toList());
        assertTrue(actuator.apply(set, plan).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS));
        var revision = client.apps().controllerRevisions().inNamespace("kruise-system")
                .withName(plan.revisions().latest().getMetadata().getName()).get();
        assertNotNull(revision);
        assertEquals("fresh", revision.getMetadata().getLabels().get("kruise.io/sidecarset-name"));
        SidecarSet live = client.resources(SidecarSet.class).withName("fresh").get();
        assertEquals(revision.getMetadata().getName(), live.getStatus().getLatestRevision());
        Pod upgraded = client.pods().inNamespace("default").withName("fresh-0").get();
        assertEquals("log:2", upgraded.getSpec().getContainers().get(0).getImage());
        assertEquals("True", upgraded.getStatus().getConditions().stream()
                .filter(c -> c.getType().equals("SidecarSetUpgradable")).findFirst().orElseThrow().getStatus());
        assertFalse(EXPECTATIONS.isSatisfied(pod), "the pod write is expected in the cache");
    }

    @Test
    void aStatusComputedFromAnOldCopyIsNotWrittenAndThePlanIsStale() throws Exception {
        SidecarSet cachedCopy = create("behind", "log:2");
        Pod pod = pod("behind-0", "behind");
        // Someone (our own last status write) changed the SidecarSet after the copy the plan is made from.
        client.resources(SidecarSet.class).withName("behind").edit(s -> {
            s.getMetadata().setLabels(java.util.Map.of("touched", "yes"));
            return s;
        });
        SidecarSetPlan plan = SidecarSetPlanner.decide(cachedCopy, List.of(pod), List.of(), "kruise-system", List.of());
        assertNotNull(plan.status());
        assertFalse(actuator.apply(cachedCopy, plan).toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS),
                "the caller must decide again: nothing else re-reconciles a SidecarSet whose spec did not change");
        assertNull(client.resources(SidecarSet.class).withName("behind").get().getStatus());
        assertEquals("log:1", client.pods().inNamespace("default").withName("behind-0").get().getSpec().getContainers()
                .get(0).getImage(), "a stale plan upgrades no pod");
    }
}
