package dev.kruisevertx.agent.crr;

import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.agent.cri.CriEndpoint;
import dev.kruisevertx.agent.cri.GrpcCriClient;
import dev.kruisevertx.cri.v1.ContainerState;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainerContext;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainerRecreateState;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestFailurePolicy;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestSpec;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestStrategy;
import dev.kruisevertx.api.apps.v1alpha1.ProbeHandler;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ExecActionBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * ContainerRecreateRequests carried out by the agent against the real containerd that
 * {@code src/test/scripts/cri-setup.sh} starts, with the API on the embedded cluster (no simulated nodes, so nothing
 * else touches the pods) and {@link TestKubelet} restarting stopped containers as the kubelet would.
 */
class CrrOnRealRuntimeTest {
    static final String NODE = "node-a";
    static final String NS = "default";
    static final Duration TIMEOUT = Duration.ofSeconds(90);
    // The shell exits 0 on SIGTERM, as a well-behaved app would.
    static final String WELL_BEHAVED = "trap 'exit 0' TERM; while true; do sleep 1; done";

    static ClusterFixture cluster;
    static KubernetesClient client;
    static Vertx vertx;
    static GrpcCriClient realCri;
    static Path logs;

    Path hostDir;
    TestKubelet kubelet;
    CrrAgent agent;
    String podName;

    @BeforeAll
    static void connect() throws Exception {
        CriEndpoint endpoint = endpointOrSkip(false);
        if (endpoint == null) {
            return;
        }
        vertx = Vertx.vertx(new VertxOptions().setPreferNativeTransport(true));
        realCri = new GrpcCriClient(vertx, endpoint, Duration.ofSeconds(60), null);
        TestKubelet.await(realCri.pullImage(image(), null, null, Duration.ofMinutes(2)));
        logs = Files.createTempDirectory("kruise-crr-logs");
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setAdmission(false)
                .setCrdDirectory(ClusterFixture.findCrdDirectory()));
        client = cluster.client();
    }

    @AfterAll
    static void close() {
        if (vertx != null) {
            TestKubelet.await(realCri.close());
            TestKubelet.await(vertx.close());
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @BeforeEach
    void setUp() throws Exception {
        endpointOrSkip(true);
        hostDir = Files.createTempDirectory("kruise-crr-hooks");
        podName = "crr-pod-" + UUID.randomUUID().toString().substring(0, 8);
    }

    @AfterEach
    void tearDown() {
        if (agent != null) {
            TestKubelet.await(agent.stop());
        }
        if (kubelet != null) {
            kubelet.close();
        }
        if (client != null) {
            client.resources(ContainerRecreateRequest.class).inNamespace(NS).delete();
        }
    }

    private void startAgent(CriClient cri) {
        agent = new CrrAgent(vertx, client, cri, NODE, Duration.ofMillis(200));
        TestKubelet.await(agent.start());
    }

    /** A pod whose containers append "<name> preStop" to /hooks/prestop when asked to stop. */
    private Pod runPod(String... containers) {
        kubelet = new TestKubelet(realCri, client, image(), hostDir, logs, NS, podName);
        PodBuilder pod = new PodBuilder().withNewSpec().withTerminationGracePeriodSeconds(30L).endSpec();
        for (String name : containers) {
            kubelet.container(name, WELL_BEHAVED);
            pod.editSpec().addToContainers(new ContainerBuilder().withName(name).withImage(image())
                    .withNewLifecycle().withNewPreStop().withExec(new ExecActionBuilder()
                            .withCommand("/bin/sh", "-c", "echo '" + name + " preStop' >> " + TestKubelet.HOOK_DIR
                                    + "/prestop").build()).endPreStop().endLifecycle().build()).endSpec();
        }
        Pod running = kubelet.run(pod.build(), NODE);
        // A container started in the same second as the request reads as started after it (creation timestamps
        // have one-second resolution), and such a container counts as already recreated: let that second pass.
        long startedSecond = running.getStatus().getContainerStatuses().stream()
                .mapToLong(s -> Instant.parse(s.getState().getRunning().getStartedAt()).getEpochSecond())
                .max().orElse(0);
        Await.waitFor("the containers' start second to pass", TIMEOUT,
                () -> Instant.now().getEpochSecond() > startedSecond);
        return running;
    }

    /** The request as the webhook would have defaulted it for {@code pod}. */
    private ContainerRecreateRequest request(Pod pod, String name, ContainerRecreateRequestStrategy strategy,
            String... containers) {
        return request(pod, name, strategy, null, containers);
    }

    private ContainerRecreateRequest request(Pod pod, String name, ContainerRecreateRequestStrategy strategy,
            Long activeDeadlineSeconds, String... containers) {
        ContainerRecreateRequestSpec spec = new ContainerRecreateRequestSpec();
        spec.setActiveDeadlineSeconds(activeDeadlineSeconds);
        spec.setPodName(pod.getMetadata().getName());
        List<ContainerRecreateRequestContainer> list = new ArrayList<>();
        for (String c : containers) {
            ContainerRecreateRequestContainer container = new ContainerRecreateRequestContainer(c);
            io.fabric8.kubernetes.api.model.Container podContainer = pod.getSpec().getContainers().stream()
                    .filter(x -> x.getName().equals(c)).findFirst().orElseThrow();
            ProbeHandler preStop = new ProbeHandler();
            preStop.setExec(podContainer.getLifecycle().getPreStop().getExec());
            container.setPreStop(preStop);
            io.fabric8.kubernetes.api.model.ContainerStatus status = pod.getStatus().getContainerStatuses().stream()
                    .filter(x -> x.getName().equals(c)).findFirst().orElseThrow();
            container.setStatusContext(new ContainerRecreateRequestContainerContext(status.getContainerID(),
                    status.getRestartCount()));
            list.add(container);
        }
        spec.setContainers(list);
        if (strategy.getFailurePolicy() == null) {
            strategy.setFailurePolicy(ContainerRecreateRequestFailurePolicy.FAIL.value());
        }
        if (strategy.getTerminationGracePeriodSeconds() == null) {
            strategy.setTerminationGracePeriodSeconds(30L);
        }
        spec.setStrategy(strategy);
        ContainerRecreateRequest crr = new ContainerRecreateRequest();
        crr.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS)
                .addToLabels(WellKnown.CRR_NODE_NAME_LABEL, NODE)
                .addToLabels(WellKnown.CRR_POD_UID_LABEL, pod.getMetadata().getUid())
                .addToLabels(WellKnown.CRR_ACTIVE_LABEL, "true").build());
        crr.setSpec(spec);
        return client.resources(ContainerRecreateRequest.class).inNamespace(NS).resource(crr).create();
    }

    /** Waits (playing the kubelet meanwhile) until the request has completed. */
    private ContainerRecreateRequest awaitCompleted(String name) {
        return Await.waitFor("CRR " + name + " completed", TIMEOUT, () -> {
            kubelet.sync();
            return client.resources(ContainerRecreateRequest.class).inNamespace(NS).withName(name).get();
        }, crr -> crr != null && crr.isCompleted());
    }

    private List<String> hookLines() throws Exception {
        Path file = hostDir.resolve("prestop");
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    private static ContainerRecreateRequestContainerRecreateState state(ContainerRecreateRequest crr, String name) {
        return crr.status().getContainerRecreateStates().stream().filter(s -> s.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no state for " + name + " in " + crr.getStatus()));
    }

    @Test
    void recreatesARealContainerAfterItsPreStopHook() throws Exception {
        Pod pod = runPod("app");
        String oldId = kubelet.containerId("app");
        ContainerRecreateRequestStrategy strategy = new ContainerRecreateRequestStrategy();
        strategy.setMinStartedSeconds(1);
        startAgent(realCri);
        request(pod, "restart-app", strategy, "app");

        ContainerRecreateRequest done = awaitCompleted("restart-app");

        assertEquals(ContainerRecreateRequestPhase.COMPLETED.value(), done.status().getPhase(),
                done.getStatus().toString());
        assertNotNull(done.status().getCompletionTime());
        ContainerRecreateRequestContainerRecreateState app = state(done, "app");
        assertEquals(ContainerRecreateRequestPhase.SUCCEEDED.value(), app.getPhase(), done.getStatus().toString());
        assertTrue(app.getIsKilled());
        assertEquals(List.of("app preStop"), hookLines());
        // The old container was stopped gracefully (the trap answered SIGTERM) and a new one runs in its place.
        assertEquals(ContainerState.CONTAINER_EXITED, kubelet.runtimeStatus(oldId).getState());
        assertEquals(0, kubelet.runtimeStatus(oldId).getExitCode());
        assertNotEquals(oldId, kubelet.containerId("app"));
        assertEquals(ContainerState.CONTAINER_RUNNING, kubelet.runtimeStatus(kubelet.containerId("app")).getState());
        Pod after = client.pods().inNamespace(NS).withName(podName).get();
        assertEquals(1, after.getStatus().getContainerStatuses().get(0).getRestartCount());
        assertEquals(List.of("app exited", "app restarted"), kubelet.events);
    }

    @Test
    void orderedRecreationStopsTheNextContainerOnlyAfterThePreviousOneIsBack() throws Exception {
        Pod pod = runPod("app", "sidecar");
        ContainerRecreateRequestStrategy strategy = new ContainerRecreateRequestStrategy();
        strategy.setOrderedRecreate(true);
        startAgent(realCri);
        request(pod, "restart-both", strategy, "app", "sidecar");

        ContainerRecreateRequest done = awaitCompleted("restart-both");

        assertEquals(ContainerRecreateRequestPhase.SUCCEEDED.value(), state(done, "app").getPhase(),
                done.getStatus().toString());
        assertEquals(ContainerRecreateRequestPhase.SUCCEEDED.value(), state(done, "sidecar").getPhase());
        assertEquals(List.of("app exited", "app restarted", "sidecar exited", "sidecar restarted"), kubelet.events);
        assertEquals(List.of("app preStop", "sidecar preStop"), hookLines());
    }

    @Test
    void failurePolicyFailEndsTheRequestAtTheFirstContainerThatCannotBeStopped() throws Exception {
        Pod pod = runPod("app", "sidecar");
        String appId = kubelet.containerId("app");
        String sidecarId = kubelet.containerId("sidecar");
        startAgent(refusingToStop(appId));
        request(pod, "restart-fail", new ContainerRecreateRequestStrategy(), "app", "sidecar");

        ContainerRecreateRequest done = awaitCompleted("restart-fail");

        ContainerRecreateRequestContainerRecreateState app = state(done, "app");
        assertEquals(ContainerRecreateRequestPhase.FAILED.value(), app.getPhase(), done.getStatus().toString());
        assertTrue(app.getMessage().startsWith("kill container error: "), app.getMessage());
        assertTrue(app.getMessage().contains("runtime refused"), app.getMessage());
        assertEquals(ContainerRecreateRequestPhase.PENDING.value(), state(done, "sidecar").getPhase());
        // Nothing was stopped: the app's stop failed and the request ended before the sidecar's turn.
        assertEquals(ContainerState.CONTAINER_RUNNING, kubelet.runtimeStatus(appId).getState());
        assertEquals(ContainerState.CONTAINER_RUNNING, kubelet.runtimeStatus(sidecarId).getState());
        assertEquals(List.of("app preStop"), hookLines());
    }

    @Test
    void failurePolicyIgnoreGoesOnWithTheOtherContainers() throws Exception {
        Pod pod = runPod("app", "sidecar");
        String appId = kubelet.containerId("app");
        String sidecarId = kubelet.containerId("sidecar");
        ContainerRecreateRequestStrategy strategy = new ContainerRecreateRequestStrategy();
        strategy.setFailurePolicy(ContainerRecreateRequestFailurePolicy.IGNORE.value());
        startAgent(refusingToStop(appId));
        request(pod, "restart-ignore", strategy, "app", "sidecar");

        ContainerRecreateRequest done = awaitCompleted("restart-ignore");

        assertEquals(ContainerRecreateRequestPhase.FAILED.value(), state(done, "app").getPhase(),
                done.getStatus().toString());
        assertEquals(ContainerRecreateRequestPhase.SUCCEEDED.value(), state(done, "sidecar").getPhase());
        assertEquals(ContainerState.CONTAINER_RUNNING, kubelet.runtimeStatus(appId).getState());
        assertEquals(ContainerState.CONTAINER_EXITED, kubelet.runtimeStatus(sidecarId).getState());
        assertEquals(List.of("sidecar exited", "sidecar restarted"), kubelet.events);
    }

    @Test
    void onlyTheOldestRequestOfAPodRunsTheOthersWaitPending() throws Exception {
        Pod pod = runPod("app");
        ContainerRecreateRequestStrategy waitsForever = new ContainerRecreateRequestStrategy();
        // No manager here marks the pod unready, so this request holds the pod.
        waitsForever.setUnreadyGracePeriodSeconds(5L);
        request(pod, "first", waitsForever, "app");
        Thread.sleep(1100); // creation timestamps have one-second resolution; the order must be unambiguous
        request(pod, "second", new ContainerRecreateRequestStrategy(), "app");
        startAgent(realCri);

        Await.waitFor("second is Pending and first Recreating", TIMEOUT, () -> {
            ContainerRecreateRequest first = client.resources(ContainerRecreateRequest.class).inNamespace(NS)
                    .withName("first").get();
            ContainerRecreateRequest second = client.resources(ContainerRecreateRequest.class).inNamespace(NS)
                    .withName("second").get();
            return Map.of("first", String.valueOf(first.status().getPhase()),
                    "second", String.valueOf(second.status().getPhase()));
        }, phases -> phases.equals(Map.of("first", ContainerRecreateRequestPhase.RECREATING.value(),
                "second", ContainerRecreateRequestPhase.PENDING.value())));
        assertEquals(ContainerState.CONTAINER_RUNNING, kubelet.runtimeStatus(kubelet.containerId("app")).getState());
        assertEquals(List.of(), hookLines());
    }

    @Test
    void ignoresRequestsOfOtherNodes() throws Exception {
        Pod pod = runPod("app");
        ContainerRecreateRequest crr = request(pod, "elsewhere", new ContainerRecreateRequestStrategy(), "app");
        client.resources(ContainerRecreateRequest.class).inNamespace(NS).withName("elsewhere")
                .edit(c -> {
                    c.getMetadata().getLabels().put(WellKnown.CRR_NODE_NAME_LABEL, "node-b");
                    return c;
                });
        startAgent(realCri);
        // A request of this node, made after the other one, proves the agent is running.
        request(pod, "here", new ContainerRecreateRequestStrategy(), "app");
        awaitCompleted("here");
        ContainerRecreateRequest other = client.resources(ContainerRecreateRequest.class).inNamespace(NS)
                .withName(crr.getMetadata().getName()).get();
        assertEquals(null, other.getStatus() == null ? null : other.getStatus().getPhase());
    }

    /**
     * activeDeadlineSeconds is the manager's rule, not the agent's (as in OpenKruise, kruise-daemon never reads it): once
     * the deadline has passed, the manager's controller completes the request ("recreating has exceeded the
     * activeDeadlineSeconds") and drops its active label. Here the test plays that controller (tested itself in the
     * verticles module) while the agent is mid-way through an ordered recreation: the agent must stop there, leave
     * the rest of the pod alone and not overwrite the outcome.
     */
    @Test
    void aRequestWhoseDeadlinePassesMidWayIsCompletedByTheManagerAndTheAgentStops() throws Exception {
        Pod pod = runPod("app", "sidecar");
        String sidecarId = kubelet.containerId("sidecar");
        ContainerRecreateRequestStrategy strategy = new ContainerRecreateRequestStrategy();
        strategy.setOrderedRecreate(true);
        // The sidecar's turn would come once the new app container has run this long: after the deadline.
        strategy.setMinStartedSeconds(6);
        startAgent(realCri);
        ContainerRecreateRequest created = request(pod, "deadline", strategy, 3L, "app", "sidecar");
        Instant deadline = Instant.parse(created.getMetadata().getCreationTimestamp()).plusSeconds(3);

        // The agent is at work: app stopped, its new container waiting out minStartedSeconds.
        Await.waitFor("the app recreated and the deadline passed", TIMEOUT, () -> {
            kubelet.sync();
            ContainerRecreateRequest crr = client.resources(ContainerRecreateRequest.class).inNamespace(NS)
                    .withName("deadline").get();
            return kubelet.events.contains("app restarted") && Instant.now().isAfter(deadline)
                    && ContainerRecreateRequestPhase.RECREATING.value().equals(crr.status().getPhase())
                    && !crr.isCompleted();
        });
        String message = "recreating has exceeded the activeDeadlineSeconds";
        ConflictRetry.run(() -> client.resources(ContainerRecreateRequest.class).inNamespace(NS).withName("deadline").editStatus(c -> {
            c.status().setPhase(ContainerRecreateRequestPhase.COMPLETED.value());
            c.status().setCompletionTime(dev.kruisevertx.podutil.Pods.formatTime(Instant.now()));
            c.status().setMessage(message);
            return c;
        }));
        ConflictRetry.run(() -> client.resources(ContainerRecreateRequest.class).inNamespace(NS).withName("deadline").edit(c -> {
            c.getMetadata().getLabels().remove(WellKnown.CRR_ACTIVE_LABEL);
            return c;
        }));

        // Well past the moment the sidecar's turn would have come (minStartedSeconds after the app restarted, plus
        // several agent polls), the sidecar still runs its first container and the outcome is the manager's.
        Instant sidecarTurn = Instant.now().plusSeconds(strategy.getMinStartedSeconds() + 2);
        Await.waitFor("the sidecar's turn to pass", TIMEOUT, () -> {
            kubelet.sync();
            return Instant.now().isAfter(sidecarTurn);
        });
        ContainerRecreateRequest done = client.resources(ContainerRecreateRequest.class).inNamespace(NS)
                .withName("deadline").get();
        assertEquals(ContainerRecreateRequestPhase.COMPLETED.value(), done.status().getPhase(),
                done.getStatus().toString());
        assertEquals(message, done.status().getMessage());
        assertEquals(ContainerRecreateRequestPhase.PENDING.value(), state(done, "sidecar").getPhase());
        assertEquals(sidecarId, kubelet.containerId("sidecar"));
        assertEquals(ContainerState.CONTAINER_RUNNING, kubelet.runtimeStatus(sidecarId).getState());
        assertEquals(List.of("app exited", "app restarted"), kubelet.events);
        assertEquals(List.of("app preStop"), hookLines());
    }

    /** The real runtime, except that stopping {@code containerId} fails as a broken runtime would. */
    private static CriClient refusingToStop(String containerId) {
        return (CriClient) Proxy.newProxyInstance(CriClient.class.getClassLoader(), new Class<?>[]{CriClient.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("stopContainer") && containerId.equals(args[0])) {
                        return Future.failedFuture(new IllegalStateException("runtime refused to stop " + containerId));
                    }
                    try {
                        return method.invoke(realCri, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    static String image() {
        String image = System.getenv("KRUISE_CRI_TEST_IMAGE");
        return image == null || image.isBlank() ? "127.0.0.1:5000/test/busybox:1" : image;
    }

    /** The runtime endpoint; skips (or fails where KRUISE_CRI_REQUIRED=true) when it is absent. */
    static CriEndpoint endpointOrSkip(boolean perTest) {
        String text = System.getenv("KRUISE_CRI_ENDPOINT");
        String why = null;
        CriEndpoint endpoint = null;
        if (text == null || text.isBlank()) {
            why = "KRUISE_CRI_ENDPOINT is not set: run `eval \"$(node-agent/src/test/scripts/cri-setup.sh)\"` as root first";
        } else {
            endpoint = CriEndpoint.parse(text);
            if (!Files.exists(endpoint.socket())) {
                why = "CRI socket " + endpoint.socket() + " does not exist: run node-agent/src/test/scripts/cri-setup.sh";
                endpoint = null;
            }
        }
        if (why != null && perTest) {
            if (Boolean.parseBoolean(System.getenv("KRUISE_CRI_REQUIRED"))) {
                fail("KRUISE_CRI_REQUIRED=true but " + why);
            }
            assumeTrue(false, "skipped, no container runtime: " + why);
        }
        return endpoint;
    }
}
