package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainerUpgradeStrategy;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetSpec;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategy;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.invariants.InvariantChecker;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The sidecarset controller in the manager against the embedded cluster: CloneSet pods carrying a SidecarSet's
 * sidecars get new sidecar images in place (pods never recreated, the app container never restarted), with the
 * partition, maxUnavailable (checked on every pod event), pause, hot upgrade, a manager restart, the SidecarSet
 * deleted mid-rollout, a conflicting writer and the CloneSet's minReadySeconds.
 *
 * <p>The pods get their sidecars from the CloneSet's template: each test runs the core injection function
 * ({@link SidecarInjection#forCreate}) on the template, exactly what the pod webhook does at pod creation, so the pods
 * carry the sidecars and the annotations ({@code kruise.io/sidecarset-hash}, {@code -without-image},
 * {@code injected-list}) injection writes.
 */
class SidecarSetEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(2))
            .build();

    /** SidecarSets are cluster-scoped: a name unique to the running test. */
    static String name(String suffix) {
        return "sc" + Integer.toHexString(product.namespace().hashCode()) + "-" + suffix;
    }

    static Resource<SidecarSet> sidecarSet(String name) {
        return product.client().resources(SidecarSet.class).withName(name);
    }

    static SidecarSet createSidecarSet(String name, String app, SidecarContainer container,
                                       Consumer<SidecarSetUpdateStrategy> strategy) {
        SidecarSet set = new SidecarSet();
        set.setMetadata(new ObjectMetaBuilder().withName(name).build());
        SidecarSetSpec spec = new SidecarSetSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", app).build());
        spec.setContainers(List.of(container));
        SidecarSetUpdateStrategy s = new SidecarSetUpdateStrategy();
        s.setType("RollingUpdate");
        strategy.accept(s);
        spec.setUpdateStrategy(s);
        set.setSpec(spec);
        return product.client().resource(set).create();
    }

    static SidecarContainer sidecar(String name, String image) {
        SidecarContainer c = new SidecarContainer();
        c.setName(name);
        c.setImage(image);
        return c;
    }

    static SidecarContainer hotSidecar(String name, String image, String emptyImage) {
        SidecarContainer c = sidecar(name, image);
        SidecarContainerUpgradeStrategy u = new SidecarContainerUpgradeStrategy();
        u.setUpgradeType("HotUpgrade");
        u.setHotUpgradeEmptyImage(emptyImage);
        c.setUpgradeStrategy(u);
        return c;
    }

    /** Changes the SidecarSet's spec from the live object; a conflict with the controller's status write is retried. */
    static SidecarSet edit(String name, Consumer<SidecarSetSpec> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                return sidecarSet(name).edit(s -> {
                    change.accept(s.getSpec());
                    return s;
                });
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 20) {
                    throw e;
                }
            }
        }
    }

    /**
     * A CloneSet whose template already carries the SidecarSet's sidecars: the core injection function run on the
     * template, as the pod webhook would run it on each pod (see the class comment).
     */
    static CloneSet createCloneSet(String name, int replicas, int minReadySeconds, SidecarSet set) {
        PodTemplateSpec template = new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("app:1").endContainer().endSpec().build();
        Pod asPod = new PodBuilder().withMetadata(template.getMetadata()).withSpec(template.getSpec()).build();
        asPod.getMetadata().setNamespace(product.namespace());
        SidecarInjection.Plan injected = SidecarInjection.forCreate(asPod, List.of(set), Map.of(), false, Instant.now());
        assertTrue(injected.changed(), injected.debugSummary());
        template.getMetadata().setAnnotations(injected.pod().getMetadata().getAnnotations());
        template.setSpec(injected.pod().getSpec());
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(product.namespace()).build());
        CloneSetSpec spec = new CloneSetSpec();
        spec.setReplicas(replicas);
        spec.setMinReadySeconds(minReadySeconds);
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(template);
        CloneSetUpdateStrategy us = new CloneSetUpdateStrategy();
        us.setMaxUnavailable(new IntOrString(1));
        spec.setUpdateStrategy(us);
        cs.setSpec(spec);
        return product.client().resource(cs).create();
    }

    static List<Pod> pods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems()
                .stream().filter(p -> !Pods.isTerminating(p)).toList();
    }

    static SidecarSet waitStatus(String name, String what, Predicate<SidecarSet> done) {
        try {
            return Await.waitFor(name + " " + what, WAIT, () -> sidecarSet(name).get(), s -> s != null
                    && s.getStatus() != null && s.getStatus().getObservedGeneration() != null
                    && s.getStatus().getObservedGeneration().equals(s.getMetadata().getGeneration()) && done.test(s));
        } catch (AssertionError e) {
            // Say what the pods looked like: names, images, readiness and container states only.
            StringBuilder b = new StringBuilder(String.valueOf(e.getMessage())).append("\npods:");
            for (Pod p : product.client().pods().inNamespace(product.namespace()).list().getItems()) {
                b.append("\n  ").append(p.getMetadata().getName()).append(" ready=").append(Pods.isRunningAndReady(p))
                        .append(" spec=").append(p.getSpec().getContainers().stream()
                                .map(c -> c.getName() + "=" + c.getImage()).toList())
                        .append(" status=").append(p.getStatus() == null || p.getStatus().getContainerStatuses() == null
                                ? "[]" : p.getStatus().getContainerStatuses().stream().map(c -> c.getName() + "="
                                + c.getImage() + (Boolean.TRUE.equals(c.getReady()) ? "/ready" : "/not-ready")).toList())
                        .append(" working=").append(Pods.annotations(p).get(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION));
            }
            throw new AssertionError(b.toString(), e);
        }
    }

    static SidecarSet counts(String name, int matched, int updated, int ready, int updatedReady) {
        return waitStatus(name, "matched/updated/ready/updatedReady " + matched + "/" + updated + "/" + ready + "/"
                + updatedReady, s -> s.getStatus().getMatchedPods() == matched && s.getStatus().getUpdatedPods() == updated
                && s.getStatus().getReadyPods() == ready && s.getStatus().getUpdatedReadyPods() == updatedReady);
    }

    static String image(Pod pod, String container) {
        return pod.getSpec().getContainers().stream().filter(c -> c.getName().equals(container))
                .map(Container::getImage).findFirst().orElse(null);
    }

    static List<ControllerRevision> revisionsOf(String set) {
        return product.client().apps().controllerRevisions().inNamespace("kruise-system")
                .withLabel("kruise.io/sidecarset-name", set).list().getItems();
    }

    /** The SidecarSet's last plan as {@code /debug/plans} serves it, or null when there is none. */
    static JsonObject plan(String set) {
        try {
            var http = java.net.http.HttpClient.newHttpClient();
            var response = http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                    + product.app().debugPort() + "/debug/plans?controller=sidecarset&limit=1000")).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            return new JsonObject(response.body()).getJsonArray("items").stream().map(JsonObject.class::cast)
                    .filter(i -> set.equals(i.getString("object"))).findFirst().orElse(null);
        } catch (java.io.IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The messages of the plan's reasons with that code. */
    static List<String> reasons(JsonObject plan, String code) {
        if (plan == null || plan.getJsonArray("reasons") == null) {
            return List.of();
        }
        return plan.getJsonArray("reasons").stream().map(JsonObject.class::cast)
                .filter(r -> code.equals(r.getString("code"))).map(r -> r.getString("message")).toList();
    }

    /**
     * The shared SidecarSet invariant (the reliability suite's), watching this test's pods and every SidecarSet; returns
     * once it has seen the app's pods.
     */
    static AutoCloseable invariants(InvariantChecker checker, String app) {
        AutoCloseable watch = checker.watch(product.client(), product.namespace(), List.of(),
                InvariantChecker.SIDECARSET_OBJECTS);
        int expected = pods(app).size();
        Await.waitFor("invariant checker saw the pods", WAIT, () -> checker.podEvents() >= expected);
        return watch;
    }

    /** Pod uids by name: an in-place upgrade keeps every one. */
    static Map<String, String> uids(String app) {
        Map<String, String> out = new HashMap<>();
        pods(app).forEach(p -> out.put(p.getMetadata().getName(), p.getMetadata().getUid()));
        return out;
    }

    @Test
    void partitionedInPlaceRolloutKeepsPodsAndMaxUnavailableAndTheCloneSetsMinReadySeconds() throws Exception {
        String app = "web";
        String setName = name("log");
        SidecarSet set = createSidecarSet(setName, app, sidecar("log", "log:1"), s -> {
            s.setPartition(new IntOrString(2));
            s.setMaxUnavailable(new IntOrString(1));
        });
        createCloneSet(app, 4, 3, set);
        SidecarSet settled = counts(setName, 4, 4, 4, 4);
        String firstRevision = settled.getStatus().getLatestRevision();
        assertNotNull(firstRevision);
        assertEquals(List.of(firstRevision), revisionsOf(setName).stream().map(r -> r.getMetadata().getName()).toList());
        Map<String, String> uids = uids(app);
        AtomicReference<SidecarSet> current = new AtomicReference<>();
        InvariantChecker checker = new InvariantChecker().withSidecarSetInvariants();
        try (SidecarWatch watch = new SidecarWatch(product.client(), product.namespace(), app, current::get, 1, "main");
             AutoCloseable shared = invariants(checker, app)) {
            current.set(edit(setName, s -> s.getContainers().get(0).setImage("log:2")));
            SidecarSet partitioned = counts(setName, 4, 2, 4, 2);
            assertFalse(firstRevision.equals(partitioned.getStatus().getLatestRevision()));
            assertEquals(2, revisionsOf(setName).size());
            assertEquals(2, pods(app).stream().filter(p -> "log:2".equals(image(p, "log"))).count());
            // The partition holds the rest, and the plan says so.
            List<String> held = Await.waitFor("partition reason", WAIT, () -> reasons(plan(setName), "Partition"),
                    r -> !r.isEmpty());
            assertEquals(List.of("updateStrategy.partition 2 keeps 2 pods at the current revision"), held);

            current.set(edit(setName, s -> s.getUpdateStrategy().setPartition(new IntOrString(0))));
            counts(setName, 4, 4, 4, 4);
            assertEquals(List.of(), watch.violations());
            assertEquals(1, watch.maxUnavailableSeen(), "the watch saw each upgrade under way, one at a time");
        }
        assertEquals(List.of(), checker.violations());
        List<Pod> after = pods(app);
        assertEquals(uids, uids(app), "pods are upgraded in place, never recreated");
        for (Pod pod : after) {
            assertEquals("log:2", image(pod, "log"));
            assertEquals("app:1", image(pod, "main"));
            PodCondition upgradable = Pods.condition(pod, "SidecarSetUpgradable").orElseThrow();
            assertEquals("True", upgradable.getStatus());
            assertEquals("{\"" + setName + "\":true}", upgradable.getMessage());
            assertTrue(Pods.annotations(pod).get("kruise.io/sidecarset-inplace-update-state").contains("\"log\""));
        }
        // The CloneSet saw no new revision and counts its pods available again only minReadySeconds (3) after each
        // became ready once more after its sidecar restart: seen available at `seen`, every pod ready since 3 s before.
        CloneSet cs = Await.waitFor("cloneset available", WAIT, () -> product.client().resources(CloneSet.class)
                .inNamespace(product.namespace()).withName(app).get(), c -> c.getStatus() != null
                && c.getStatus().getAvailableReplicas() == 4 && c.getStatus().getUpdatedReplicas() == 4);
        Instant seen = Instant.now();
        assertEquals(4, cs.getStatus().getReadyReplicas());
        for (Pod pod : pods(app)) {
            Instant ready = Pods.readySince(pod);
            assertNotNull(ready, pod.getMetadata().getName());
            assertFalse(ready.plusSeconds(3).isAfter(seen.plusMillis(500)), pod.getMetadata().getName()
                    + " counted available before minReadySeconds: ready since " + ready + ", seen available " + seen);
        }
    }

    @Test
    void pausedAndNotUpdateHoldTheRolloutUntilResumed() {
        String app = "paused";
        String setName = name("log");
        createCloneSet(app, 2, 0, createSidecarSet(setName, app, sidecar("log", "log:1"), s -> s.setPaused(true)));
        counts(setName, 2, 2, 2, 2);
        edit(setName, s -> s.getContainers().get(0).setImage("log:2"));
        counts(setName, 2, 0, 2, 0);
        List<String> paused = Await.waitFor("paused reason", WAIT, () -> reasons(plan(setName), "Paused"),
                r -> !r.isEmpty());
        assertEquals(List.of("updateStrategy.paused is true: 2 pods wait for the update"), paused);
        assertTrue(pods(app).stream().allMatch(p -> "log:1".equals(image(p, "log"))));

        edit(setName, s -> {
            s.getUpdateStrategy().setPaused(false);
            s.getUpdateStrategy().setType("NotUpdate");
        });
        List<String> notUpdate = Await.waitFor("NotUpdate reason", WAIT, () -> reasons(plan(setName), "Paused"),
                r -> r.stream().anyMatch(m -> m.contains("NotUpdate")));
        assertEquals(List.of("updateStrategy.type is NotUpdate: 2 pods keep the old sidecars"), notUpdate);
        counts(setName, 2, 0, 2, 0);

        edit(setName, s -> s.getUpdateStrategy().setType("RollingUpdate"));
        counts(setName, 2, 2, 2, 2);
        assertTrue(pods(app).stream().allMatch(p -> "log:2".equals(image(p, "log"))));
    }

    @Test
    void hotUpgradeSwapsTheWorkingContainerAndResetsTheIdleOne() throws Exception {
        String app = "mesh";
        String setName = name("envoy");
        SidecarSet set = createSidecarSet(setName, app, hotSidecar("envoy", "envoy:1", "empty:1"),
                s -> s.setMaxUnavailable(new IntOrString(2)));
        createCloneSet(app, 2, 0, set);
        counts(setName, 2, 2, 2, 2);
        for (Pod pod : pods(app)) {
            assertEquals("envoy:1", image(pod, "envoy-1"));
            assertEquals("empty:1", image(pod, "envoy-2"));
            assertEquals("{\"envoy\":\"envoy-1\"}", Pods.annotations(pod).get(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION));
        }
        Map<String, String> uids = uids(app);
        AtomicReference<SidecarSet> current = new AtomicReference<>();
        InvariantChecker checker = new InvariantChecker().withSidecarSetInvariants();
        try (SidecarWatch watch = new SidecarWatch(product.client(), product.namespace(), app, current::get, 2, "main");
             AutoCloseable shared = invariants(checker, app)) {
            current.set(edit(setName, s -> s.getContainers().get(0).setImage("envoy:2")));
            Await.waitFor("envoy-2 works on envoy:2 and envoy-1 is back on the empty image", WAIT, () -> pods(app),
                    ps -> ps.size() == 2 && ps.stream().allMatch(p -> "envoy:2".equals(image(p, "envoy-2"))
                            && "empty:1".equals(image(p, "envoy-1"))));
            counts(setName, 2, 2, 2, 2);
            assertEquals(List.of(), watch.violations());
        }
        assertEquals(List.of(), checker.violations());
        for (Pod pod : pods(app)) {
            Map<String, String> a = Pods.annotations(pod);
            assertEquals("{\"envoy\":\"envoy-2\"}", a.get(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION));
            assertEquals("0", a.get(SidecarInjection.versionAnnotation("envoy-1")));
            assertEquals("0", a.get(SidecarInjection.versionAltAnnotation("envoy-2")));
            assertFalse(a.get(SidecarInjection.versionAnnotation("envoy-2")).isEmpty());
        }
        assertEquals(uids, uids(app));
        // Hot upgrade again: the idle envoy-1 takes the new image and becomes the working one.
        edit(setName, s -> s.getContainers().get(0).setImage("envoy:3"));
        Await.waitFor("envoy-1 works on envoy:3", WAIT, () -> pods(app), ps -> ps.size() == 2 && ps.stream()
                .allMatch(p -> "envoy:3".equals(image(p, "envoy-1")) && "empty:1".equals(image(p, "envoy-2"))
                        && "{\"envoy\":\"envoy-1\"}".equals(Pods.annotations(p)
                        .get(SidecarInjection.WORKING_HOT_UPGRADE_ANNOTATION))));
        assertEquals(uids, uids(app));
    }

    @Test
    void aManagerRestartMidRolloutFinishesItWithinMaxUnavailable() throws Exception {
        String app = "restart";
        String setName = name("log");
        createCloneSet(app, 4, 0, createSidecarSet(setName, app, sidecar("log", "log:1"), s -> { }));
        counts(setName, 4, 4, 4, 4);
        AtomicReference<SidecarSet> current = new AtomicReference<>();
        InvariantChecker checker = new InvariantChecker().withSidecarSetInvariants();
        try (SidecarWatch watch = new SidecarWatch(product.client(), product.namespace(), app, current::get, 1, "main");
             AutoCloseable shared = invariants(checker, app)) {
            current.set(edit(setName, s -> s.getContainers().get(0).setImage("log:2")));
            waitStatus(setName, "mid-rollout", s -> s.getStatus().getUpdatedPods() >= 1);
            product.restartManager();
            counts(setName, 4, 4, 4, 4);
            assertEquals(List.of(), watch.violations());
        }
        assertEquals(List.of(), checker.violations());
        assertTrue(pods(app).stream().allMatch(p -> "log:2".equals(image(p, "log"))));
        assertEquals(2, revisionsOf(setName).size(), "the restarted manager found the latest revision, made no new one");
    }

    @Test
    void theSidecarSetDeletedMidRolloutStopsTheUpgradeAndItsRevisionsGo() {
        String app = "deleted";
        String setName = name("log");
        // The new sidecar takes 3 s to start, so the rollout (maxUnavailable 1) cannot finish in the moment between
        // the first upgrade and the deletion: on a fast machine it once did, and the test saw 4 of 4 upgraded.
        product.cluster().nodes().addImageRule(new dev.kruisevertx.sim.nodes.ImageRule("log:2-slow",
                java.time.Duration.ofSeconds(3), dev.kruisevertx.sim.nodes.ContainerFailure.NONE));
        createCloneSet(app, 4, 0, createSidecarSet(setName, app, sidecar("log", "log:1"), s -> { }));
        counts(setName, 4, 4, 4, 4);
        edit(setName, s -> s.getContainers().get(0).setImage("log:2-slow"));
        waitStatus(setName, "mid-rollout", s -> s.getStatus().getUpdatedPods() >= 1);
        sidecarSet(setName).delete();
        Await.waitFor("SidecarSet gone", WAIT, () -> sidecarSet(setName).get() == null);
        long upgradedAtDeletion = pods(app).stream().filter(p -> "log:2-slow".equals(image(p, "log"))).count();
        // Its revisions are owned by it: the garbage collector removes them.
        Await.waitFor("revisions collected", WAIT, () -> revisionsOf(setName).isEmpty());
        Await.waitFor("plan forgotten", WAIT, () -> plan(setName) == null);
        long upgraded = pods(app).stream().filter(p -> "log:2-slow".equals(image(p, "log"))).count();
        // At most the one write in flight at the deletion lands afterwards (maxUnavailable 1).
        assertTrue(upgraded <= upgradedAtDeletion + 1 && upgraded < 4, upgraded + " of 4 upgraded");
        assertEquals(4, pods(app).size());
    }

    @Test
    void aConflictingWriterKeepsItsChangesAndTheRolloutFinishes() {
        String app = "conflict";
        String setName = name("log");
        createCloneSet(app, 3, 0, createSidecarSet(setName, app, sidecar("log", "log:1"),
                s -> s.setMaxUnavailable(new IntOrString(3))));
        counts(setName, 3, 3, 3, 3);
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicInteger writes = new AtomicInteger();
        Thread writer = new Thread(() -> {
            while (writing.get()) {
                for (Pod pod : pods(app)) {
                    try {
                        product.client().pods().inNamespace(product.namespace()).withName(pod.getMetadata().getName())
                                .edit(p -> new PodBuilder(p).editMetadata()
                                        .addToAnnotations("writer", String.valueOf(writes.incrementAndGet())).endMetadata()
                                        .build());
                    } catch (KubernetesClientException e) {
                        // A conflict with the controller: the writer simply writes again.
                    }
                }
            }
        }, "conflicting-writer");
        writer.start();
        try {
            edit(setName, s -> s.getContainers().get(0).setImage("log:2"));
            counts(setName, 3, 3, 3, 3);
        } finally {
            writing.set(false);
        }
        Await.waitFor("writer stopped", WAIT, () -> !writer.isAlive());
        assertTrue(writes.get() > 3, "the writer wrote while the rollout ran");
        for (Pod pod : pods(app)) {
            assertEquals("log:2", image(pod, "log"));
            assertNotNull(Pods.annotations(pod).get("writer"), "the other writer's change is kept");
        }
    }

    @Test
    void aChangeBeyondImagesIsNotUpgradableAndSaysSo() {
        String app = "immutable";
        String setName = name("log");
        createCloneSet(app, 2, 0, createSidecarSet(setName, app, sidecar("log", "log:1"), s -> { }));
        counts(setName, 2, 2, 2, 2);
        edit(setName, s -> {
            s.getContainers().get(0).setImage("log:2");
            s.getContainers().get(0).setEnv(List.of(new EnvVar("LEVEL", "debug", null)));
        });
        Await.waitFor("SidecarSetUpgradable False on both pods", WAIT, () -> pods(app), ps -> ps.size() == 2
                && ps.stream().allMatch(p -> Pods.condition(p, "SidecarSetUpgradable")
                .map(c -> "False".equals(c.getStatus()) && "UpdateImmutableField".equals(c.getReason())
                        && ("{\"" + setName + "\":false}").equals(c.getMessage())).orElse(false)));
        counts(setName, 2, 0, 2, 0);
        assertTrue(pods(app).stream().allMatch(p -> "log:1".equals(image(p, "log"))));
        Await.waitFor("NotUpgradablePods event", WAIT, () -> product.client().v1().events().inNamespace("default")
                .list().getItems().stream().anyMatch(e -> "NotUpgradablePods".equals(e.getReason())
                        && setName.equals(e.getInvolvedObject().getName())));
    }
}
