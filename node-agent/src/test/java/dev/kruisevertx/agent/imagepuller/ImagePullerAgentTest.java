package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.agent.cri.GrpcCriClient;
import dev.kruisevertx.agent.cri.RealRuntime;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagPullPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.api.apps.v1beta1.NodeImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ReferenceObject;
import dev.kruisevertx.api.apps.v1beta1.SandboxConfig;
import dev.kruisevertx.cri.v1.PullImageRequest;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The image puller against the embedded API server and a CRI image service that misbehaves on request: credentials
 * from pull secrets, sandbox annotations, back-off and timeouts, the worker limit, restarts, deletions, other
 * nodes' NodeImages and hostile specs.
 */
class ImagePullerAgentTest {
    static final Duration WAIT = Duration.ofSeconds(60);
    static final String SECRETS_NS = "kruise-daemon-config";
    static final AtomicInteger NODES = new AtomicInteger();

    @TempDir
    static Path dir;
    static ClusterFixture cluster;
    static KubernetesClient client;
    static Vertx vertx;
    static FakeImageRuntime runtime;
    static GrpcCriClient cri;
    final List<ImagePullerAgent> agents = new ArrayList<>();

    @BeforeAll
    static void start() {
        cluster = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setAdmission(false)
                .setCrdDirectory(ClusterFixture.findCrdDirectory()));
        client = cluster.client();
        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(SECRETS_NS).endMetadata()
                .build()).create();
        vertx = RealRuntime.nativeVertx();
        runtime = new FakeImageRuntime(vertx, dir.resolve("cri.sock"));
        RealRuntime.await(runtime.server.start());
        cri = new GrpcCriClient(vertx, runtime.server.endpoint(), Duration.ofSeconds(30), null);
    }

    @AfterAll
    static void stopAll() {
        if (cri != null) {
            RealRuntime.await(cri.close());
            RealRuntime.await(runtime.server.close());
            RealRuntime.await(vertx.close());
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @AfterEach
    void stopAgents() {
        for (ImagePullerAgent a : agents) {
            RealRuntime.await(a.stop());
        }
    }

    ImagePullerAgent agent(String node, int maxWorkers) {
        ImagePullerAgent a = new ImagePullerAgent(vertx, client, cri, node, maxWorkers, 50, 50, Clock.systemUTC());
        agents.add(a);
        RealRuntime.await(a.start());
        return a;
    }

    static String node() {
        return "puller-node-" + NODES.incrementAndGet();
    }

    static ImageTagSpec tag(String tag, long version, Consumer<ImageTagPullPolicy> policy) {
        ImageTagSpec t = new ImageTagSpec();
        t.setTag(tag);
        t.setVersion(version);
        t.setCreatedAt("2026-11-24T00:00:00Z");
        ImageTagPullPolicy p = new ImageTagPullPolicy();
        p.setBackoffLimit(0);
        p.setTimeoutSeconds(30);
        policy.accept(p);
        t.setPullPolicy(p);
        return t;
    }

    static ImageTagSpec tag(String tag, long version) {
        return tag(tag, version, p -> { });
    }

    static ImageSpec image(ImageTagSpec... tags) {
        ImageSpec s = new ImageSpec();
        s.setTags(new ArrayList<>(List.of(tags)));
        return s;
    }

    static NodeImage create(String node, Map<String, ImageSpec> images) {
        NodeImage ni = new NodeImage();
        ni.setMetadata(new ObjectMetaBuilder().withName(node).build());
        NodeImageSpec spec = new NodeImageSpec();
        spec.setImages(new LinkedHashMap<>(images));
        ni.setSpec(spec);
        return client.resources(NodeImage.class).resource(ni).create();
    }

    /** A spec writer racing the agent's status writes: a 409 is tried again on the fresh object, as a manager does. */
    static void editSpec(String node, Consumer<Map<String, ImageSpec>> edit) {
        Await.waitFor("spec of " + node + " edited", WAIT, () -> {
            try {
                client.resources(NodeImage.class).withName(node).edit(ni -> {
                    Map<String, ImageSpec> images = new LinkedHashMap<>(ni.spec().images());
                    edit.accept(images);
                    ni.getSpec().setImages(images);
                    return ni;
                });
                return true;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                return false;
            }
        });
    }

    static NodeImageStatus status(String node) {
        NodeImage ni = client.resources(NodeImage.class).withName(node).get();
        return ni == null ? new NodeImageStatus() : ni.status();
    }

    static Optional<ImageTagStatus> tagStatus(String node, String image, String tag) {
        var s = status(node).imageStatuses().get(image);
        return s == null ? Optional.empty() : s.tags().stream().filter(t -> tag.equals(t.getTag())).findFirst();
    }

    static ImageTagStatus awaitPhase(String node, String image, String tag, long version, String phase) {
        return Await.waitFor(image + ":" + tag + " v" + version + " " + phase + " on " + node, WAIT,
                () -> tagStatus(node, image, tag).orElse(null),
                s -> s != null && phase.equals(s.getPhase()) && s.versionOrZero() == version);
    }

    static Secret dockerSecret(String name, String json) {
        Secret s = RegistryAuthsTest.configJson(name, json);
        return client.secrets().inNamespace(SECRETS_NS).resource(s).create();
    }

    static ReferenceObject ref(String name) {
        ReferenceObject r = new ReferenceObject();
        r.setNamespace(SECRETS_NS);
        r.setName(name);
        return r;
    }

    @Test
    void pullsWithTheSecretsCredentialsAndTheSandboxConfigAndReportsSucceeded() {
        String node = node();
        dockerSecret("creds-" + node, RegistryAuthsTest.auths("reg.local", "puller", "pw"));
        ImageSpec image = image(tag("v1", 1));
        image.setPullSecrets(List.of(ref("creds-" + node)));
        SandboxConfig sandbox = new SandboxConfig();
        sandbox.setLabels(Map.of("team", "a"));
        sandbox.setAnnotations(Map.of("note", "x"));
        image.setSandboxConfig(sandbox);
        String name = "reg.local/private-" + node;
        create(node, Map.of(name, image));
        agent(node, -1);

        ImageTagStatus done = awaitPhase(node, name, "v1", 1, "Succeeded");
        assertEquals(100, done.getProgress());
        assertEquals(name + "@" + FakeImageRuntime.id(name + ":v1"), done.getImageID());
        assertTrue(done.getStartTime() != null && done.getCompletionTime() != null);
        assertNull(done.getMessage());
        PullImageRequest req = runtime.pulls.stream().filter(p -> p.getImage().getImage().equals(name + ":v1"))
                .findFirst().orElseThrow();
        assertEquals("puller", req.getAuth().getUsername());
        assertEquals("kruise-daemon", req.getSandboxConfig().getAnnotationsMap().get("apps.kruise.io/pulling-image-by"));
        assertEquals("x", req.getSandboxConfig().getAnnotationsMap().get("note"));
        assertEquals(Map.of("team", "a"), req.getSandboxConfig().getLabelsMap());
        Await.waitFor("counts", WAIT, () -> {
            NodeImageStatus s = status(node);
            return s.getDesired() == 1 && s.getSucceeded() == 1 && s.getPulling() == 0 && s.getFailed() == 0;
        });
    }

    @Test
    void aMissingImageFailsWithTheRuntimesMessageAfterItsRetries() {
        String node = node();
        String name = "reg.local/missing-" + node;
        create(node, Map.of(name, image(tag("v1", 1, p -> p.setBackoffLimit(1)))));
        agent(node, -1);
        ImageTagStatus failed = awaitPhase(node, name, "v1", 1, "Failed");
        assertEquals("rpc error: code = NotFound desc = " + FakeImageRuntime.NOT_FOUND_TEXT, failed.getMessage());
        assertEquals(2, runtime.pullsOf(name + ":v1"), "one try and one retry after 1 s");
        assertTrue(failed.getCompletionTime() != null);
        Await.waitFor("failed count", WAIT, () -> status(node).getFailed() == 1);
    }

    @Test
    void aHungPullTimesOut() {
        String node = node();
        String name = "reg.local/hang-" + node;
        create(node, Map.of(name, image(tag("v1", 1, p -> p.setTimeoutSeconds(1)))));
        agent(node, -1);
        ImageTagStatus failed = awaitPhase(node, name, "v1", 1, "Failed");
        assertEquals("pulling image " + name + ":v1 timed out after 1s", failed.getMessage());
    }

    @Test
    void ifNotPresentDoesNotPullAnImageTheRuntimeHas() {
        String node = node();
        String name = "reg.local/present-" + node;
        runtime.present.add(name + ":v1");
        ImageTagSpec t = tag("v1", 1);
        t.setImagePullPolicy("IfNotPresent");
        ImageTagSpec always = tag("v2", 1);
        always.setImagePullPolicy("Always");
        runtime.present.add(name + ":v2");
        create(node, Map.of(name, image(t, always)));
        agent(node, -1);
        awaitPhase(node, name, "v1", 1, "Succeeded");
        awaitPhase(node, name, "v2", 1, "Succeeded");
        assertEquals(0, runtime.pullsOf(name + ":v1"));
        assertEquals(1, runtime.pullsOf(name + ":v2"), "Always pulls although the image is there");
    }

    @Test
    void theWorkerLimitHoldsTagsWaitingAndARemovedTagFreesItsSlot() {
        String node = node();
        String hang = "reg.local/hang-" + node;
        String ok = "reg.local/ok-" + node;
        Map<String, ImageSpec> images = new LinkedHashMap<>();
        images.put(hang, image(tag("v1", 1, p -> p.setTimeoutSeconds(600))));
        create(node, images);
        ImagePullerAgent a = agent(node, 1);
        awaitPhase(node, hang, "v1", 1, "Pulling");
        editSpec(node, m -> m.put(ok, image(tag("v1", 1))));
        awaitPhase(node, ok, "v1", 1, "Waiting");
        assertEquals(0, runtime.pullsOf(ok + ":v1"));
        Await.waitFor("counts while one waits", WAIT, () -> {
            NodeImageStatus s = status(node);
            return s.getDesired() == 2 && s.getPulling() == 1 && s.getWaiting() == 1;
        });

        // The owner of the hung tag goes away mid-pull: its worker stops, its status goes, the next tag runs.
        editSpec(node, m -> m.remove(hang));
        awaitPhase(node, ok, "v1", 1, "Succeeded");
        Await.waitFor("hung image's status dropped", WAIT, () -> !status(node).imageStatuses().containsKey(hang)
                && status(node).getDesired() == 1);
        int[] counts = RealRuntime.await(a.workerCounts());
        assertEquals(0, counts[0]);
        assertEquals(0, counts[1]);
    }

    @Test
    void aRestartedAgentKeepsFinishedResultsAndANewVersionPullsAgain() {
        String node = node();
        String name = "reg.local/restart-" + node;
        String hang = "reg.local/hang-restart-" + node;
        Map<String, ImageSpec> images = new LinkedHashMap<>();
        images.put(name, image(tag("v1", 1)));
        images.put(hang, image(tag("v1", 1, p -> p.setTimeoutSeconds(600))));
        create(node, images);
        ImagePullerAgent first = agent(node, -1);
        awaitPhase(node, name, "v1", 1, "Succeeded");
        awaitPhase(node, hang, "v1", 1, "Pulling");
        RealRuntime.await(first.stop());
        agents.remove(first);

        agent(node, -1);
        // The unfinished pull starts again; the finished one is taken over as it is.
        Await.waitFor("hung tag pulled again", WAIT, () -> runtime.pullsOf(hang + ":v1") == 2);
        assertEquals(1, runtime.pullsOf(name + ":v1"));
        assertEquals("Succeeded", tagStatus(node, name, "v1").orElseThrow().getPhase());

        editSpec(node, m -> m.get(name).getTags().get(0).setVersion(2L));
        awaitPhase(node, name, "v1", 2, "Succeeded");
        assertEquals(2, runtime.pullsOf(name + ":v1"));
    }

    @Test
    void badAndMissingSecretsAreNamedInTheFailureWithoutTheirContent() {
        String node = node();
        dockerSecret("bad-" + node, "{\"auths\": s3cr3t-not-json");
        String name = "reg.local/private-bad-" + node;
        ImageSpec image = image(tag("v1", 1));
        image.setPullSecrets(List.of(ref("bad-" + node), ref("absent-" + node)));
        create(node, Map.of(name, image));
        agent(node, -1);
        ImageTagStatus failed = awaitPhase(node, name, "v1", 1, "Failed");
        assertEquals("rpc error: code = Unknown desc = failed to resolve reference: unexpected status: 401 Unauthorized"
                + " (pull secret " + SECRETS_NS + "/absent-" + node + " not found; pull secret " + SECRETS_NS + "/bad-"
                + node + " is not valid JSON in .dockerconfigjson)", failed.getMessage());
        assertFalse(failed.getMessage().contains("s3cr3t"));
        assertEquals("", runtime.pulls.stream().filter(p -> p.getImage().getImage().equals(name + ":v1"))
                .findFirst().orElseThrow().getAuth().getUsername(), "pulled anonymously");
    }

    @Test
    void theNodeImageDeletedMidPullStopsItsWorkersAndOtherNodesAreLeftAlone() {
        String node = node();
        String other = node();
        String hang = "reg.local/hang-deleted-" + node;
        String theirs = "reg.local/theirs-" + node;
        create(node, Map.of(hang, image(tag("v1", 1, p -> p.setTimeoutSeconds(600)))));
        create(other, Map.of(theirs, image(tag("v1", 1))));
        ImagePullerAgent a = agent(node, -1);
        awaitPhase(node, hang, "v1", 1, "Pulling");
        client.resources(NodeImage.class).withName(node).delete();
        Await.waitFor("worker stopped", WAIT, () -> RealRuntime.await(a.workerCounts())[0] == 0);
        assertEquals(0, runtime.pullsOf(theirs + ":v1"));
        assertTrue(tagStatus(other, theirs, "v1").isEmpty());
    }

    @Test
    void hostileSpecsNeitherCrashNorStopTheGoodTags() {
        String node = node();
        String name = "reg.local/hostile-" + node;
        ImageTagSpec huge = tag("huge", 1, p -> {
            p.setTimeoutSeconds(Integer.MAX_VALUE);
            p.setBackoffLimit(-7);
            p.setActiveDeadlineSeconds(Long.MAX_VALUE);
        });
        ImageTagSpec negative = tag("negative", -4, p -> {
            p.setTimeoutSeconds(-1);
            p.setActiveDeadlineSeconds(-1L);
        });
        ImageTagSpec blank = tag(" ", 1);
        ImageTagSpec wrongPolicy = tag("policy", 1);
        wrongPolicy.setImagePullPolicy("Sometimes");
        String longTag = "t" + "x".repeat(127);
        create(node, Map.of(name, image(huge, negative, blank, wrongPolicy, tag(longTag, 1))));
        agent(node, -1);
        awaitPhase(node, name, "huge", 1, "Succeeded");
        awaitPhase(node, name, "policy", 1, "Succeeded");
        awaitPhase(node, name, longTag, 1, "Succeeded");
        // A deadline already passed fails at once, with the reason.
        ImageTagStatus late = awaitPhase(node, name, "negative", -4, "Failed");
        assertEquals("pulling exceeds the activeDeadlineSeconds", late.getMessage());
        Await.waitFor("blank tag not counted", WAIT, () -> status(node).getDesired() == 4
                && status(node).getSucceeded() == 3 && status(node).getFailed() == 1);
    }

    @Test
    void theNodeAgentRunsThePullerFromItsFlags() throws Exception {
        String node = node();
        Path kubeconfig = dir.resolve("kubeconfig-" + node);
        cluster.cluster().writeKubeconfig(kubeconfig);
        dev.kruisevertx.agent.NodeAgent nodeAgent = new dev.kruisevertx.agent.NodeAgent(
                dev.kruisevertx.agent.AgentOptions.parse(List.of("--addr=127.0.0.1:0", "--kubeconfig=" + kubeconfig,
                        "--runtime-endpoint=unix://" + dir.resolve("cri.sock"), "--max-workers-for-pull-image=1"),
                        Map.of("NODE_NAME", node)));
        try {
            RealRuntime.await(nodeAgent.start());
            String name = "reg.local/flags-" + node;
            create(node, Map.of(name, image(tag("v1", 1), tag("v2", 1))));
            awaitPhase(node, name, "v1", 1, "Succeeded");
            awaitPhase(node, name, "v2", 1, "Succeeded");
        } finally {
            RealRuntime.await(nodeAgent.stop());
        }
    }

    @Test
    void aStatusAnotherWriterOverwroteIsWrittenBack() {
        String node = node();
        String name = "reg.local/overwritten-" + node;
        create(node, Map.of(name, image(tag("v1", 1))));
        agent(node, -1);
        awaitPhase(node, name, "v1", 1, "Succeeded");
        client.resources(NodeImage.class).withName(node).subresource("status").patch(
                io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE),
                "{\"status\":{\"succeeded\":0,\"failed\":7,\"imageStatuses\":null}}");
        ImageTagStatus back = awaitPhase(node, name, "v1", 1, "Succeeded");
        assertEquals(100, back.getProgress());
        Await.waitFor("counts back", WAIT, () -> status(node).getFailed() == 0 && status(node).getSucceeded() == 1);
        assertEquals(1, runtime.pullsOf(name + ":v1"), "written back, not pulled again");
    }

    static List<io.fabric8.kubernetes.api.model.Event> events(String namespace, String kind, String name, String reason) {
        return client.v1().events().inNamespace(namespace).list().getItems().stream()
                .filter(e -> kind.equals(e.getInvolvedObject().getKind()) && name.equals(e.getInvolvedObject().getName())
                        && reason.equals(e.getReason())).toList();
    }

    @Test
    void finishedPullsAreRecordedAsKruiseDaemonsEventsOnTheNodeImageAndTheOwnerJobs() {
        String node = node();
        io.fabric8.kubernetes.api.model.ObjectReference owner = new io.fabric8.kubernetes.api.model.ObjectReferenceBuilder()
                .withApiVersion("apps.kruise.io/v1beta1").withKind("ImagePullJob").withNamespace("default")
                .withName("job-" + node).withUid("uid-" + node).build();
        ImageTagSpec ok = tag("v1", 1);
        ok.setOwnerReferences(List.of(owner));
        String good = "reg.local/events-" + node;
        String bad = "reg.local/missing-events-" + node;
        ImageTagSpec failing = tag("v1", 1);
        failing.setOwnerReferences(List.of(owner));
        create(node, Map.of(good, image(ok), bad, image(failing)));
        agent(node, -1);
        awaitPhase(node, good, "v1", 1, "Succeeded");
        awaitPhase(node, bad, "v1", 1, "Failed");

        io.fabric8.kubernetes.api.model.Event succeeded = Await.waitFor("PullImageSucceed on the NodeImage", WAIT,
                () -> events("default", "NodeImage", node, "PullImageSucceed"), l -> !l.isEmpty()).get(0);
        assertEquals("Normal", succeeded.getType());
        assertTrue(succeeded.getMessage().matches("Image " + good.replace(".", "\\.") + ":v1, ecalpsedTime [0-9.]+(µs|ms|s)"),
                succeeded.getMessage());
        assertEquals("kruise-daemon-imagepuller", succeeded.getSource().getComponent());
        assertEquals(node, succeeded.getSource().getHost());
        assertEquals(client.resources(NodeImage.class).withName(node).get().getMetadata().getUid(),
                succeeded.getInvolvedObject().getUid());
        String failure = "Image " + bad + ":v1 rpc error: code = NotFound desc = " + FakeImageRuntime.NOT_FOUND_TEXT;
        io.fabric8.kubernetes.api.model.Event onNode = Await.waitFor("PullImageFailed on the NodeImage", WAIT,
                () -> events("default", "NodeImage", node, "PullImageFailed"), l -> !l.isEmpty()).get(0);
        assertEquals("Warning", onNode.getType());
        assertEquals(failure, onNode.getMessage());
        io.fabric8.kubernetes.api.model.Event onJob = Await.waitFor("PullImageFailed on the owner job", WAIT,
                () -> events("default", "ImagePullJob", "job-" + node, "PullImageFailed"), l -> !l.isEmpty()).get(0);
        assertEquals(failure, onJob.getMessage());
        assertEquals("uid-" + node, onJob.getInvolvedObject().getUid());
        assertTrue(events("default", "ImagePullJob", "job-" + node, "PullImageSucceed").isEmpty(),
                "a success is recorded on the NodeImage only");
    }
}
