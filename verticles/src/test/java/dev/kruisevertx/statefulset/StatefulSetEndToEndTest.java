package dev.kruisevertx.statefulset;

import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetScaleStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Advanced StatefulSet controller in the manager against the embedded cluster (API server + simulated nodes). */
class StatefulSetEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3).setAdmission(false))
            .controllers(() -> List.of(new StatefulSetController()))
            .flags(StatefulSetFixtures.FEATURE_GATES).build();

    static StatefulSetFixtures fixtures() {
        return new StatefulSetFixtures(product.client(), product.namespace(), WAIT);
    }

    static StatefulSet statefulSet(String name, int replicas, String image) {
        return StatefulSetFixtures.statefulSet(product.namespace(), name, replicas, image);
    }

    static RollingUpdateStatefulSetStrategy rollingUpdate(StatefulSetSpec spec) {
        return StatefulSetFixtures.rollingUpdate(spec);
    }

    static Resource<StatefulSet> resource(String name) {
        return fixtures().resource(name);
    }

    static void edit(String name, Consumer<StatefulSetSpec> change) {
        fixtures().edit(name, change);
    }

    static List<Pod> livePods(String app) {
        return fixtures().livePods(app);
    }

    static Set<Integer> ordinals(String app) {
        return livePods(app).stream().map(p -> PodOrdinals.ordinalOf(app, p.getMetadata().getName()))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    static StatefulSet waitStatus(String name, String what, Predicate<StatefulSet> done) {
        return fixtures().waitStatus(name, what, done);
    }

    /** Settled: exactly these ordinals run, all ready and at the update revision. */
    static StatefulSet settled(String name, Set<Integer> expected) {
        return waitStatus(name, name + " settled at ordinals " + expected, s -> {
            int n = expected.size();
            return s.getStatus().getReplicas() == n && s.getStatus().getReadyReplicas() == n
                    && s.getStatus().getUpdatedReplicas() == n && ordinals(name).equals(expected)
                    && livePods(name).stream().allMatch(Pods::isReady);
        });
    }

    @Test
    void aParallelSetDeletedWhileScalingUpStopsCreatingAndItsPodsAreCollected() throws Exception {
        StatefulSet set = statefulSet("burst", 10_000, "nginx:1");
        set.getSpec().setPodManagementPolicy("Parallel");
        scaleUpThenDelete(set, StatefulSetPlanner.MAX_CREATES_PER_PLAN + 100, s -> true);
    }

    /**
     * replicas 2147483647 (valid for Kubernetes and the webhook) with a volumeClaimTemplate: the desired ordinals were
     * a list of that many (OutOfMemoryError, the manager died); now pods are created one plan of 500 at a time, the
     * status (volumeClaims too) is written, and creation stops with the set.
     */
    @Test
    void theLargestParallelSetCreatesPlanByPlanAndStopsWhenDeleted() throws Exception {
        StatefulSet set = statefulSet("largest", Integer.MAX_VALUE, "nginx:1");
        set.getSpec().setPodManagementPolicy("Parallel");
        set.getSpec().setVolumeClaimTemplates(List.of(claimTemplate("data")));
        scaleUpThenDelete(set, StatefulSetPlanner.MAX_CREATES_PER_PLAN, s -> s.getStatus() != null
                && s.getStatus().getReplicas() > 0 && s.getStatus().getVolumeClaims() != null
                && s.getStatus().getVolumeClaims().get(0).getCompatibleReplicas() > 0);
    }

    /**
     * Creates the set, waits for more than {@code midWay} pods (and a status that {@code statusSeen} accepts), deletes
     * the set, and checks creation stopped within the plan in flight and every pod was collected.
     */
    private void scaleUpThenDelete(StatefulSet set, int midWay, Predicate<StatefulSet> statusSeen) throws Exception {
        String name = set.getMetadata().getName();
        // Every pod of this set the API server ever stored.
        java.util.concurrent.atomic.AtomicInteger created = new java.util.concurrent.atomic.AtomicInteger();
        var podType = product.cluster().apiServer().registry().byKey("pods").orElseThrow();
        Runnable unlisten = product.cluster().onApiContext(() -> product.cluster().apiServer().store().listen(podType,
                e -> {
                    if (e.type().equals("ADDED") && name.equals(e.object().path("metadata").path("labels")
                            .path("app").asText())) {
                        created.incrementAndGet();
                    }
                })).await(10, TimeUnit.SECONDS);
        try {
            resource(name).create(set);
            Await.waitFor("more than " + midWay + " pods created", WAIT, () -> created.get() > midWay);
            waitStatus(name, "the status written", statusSeen);

            int before = created.get();
            resource(name).delete();
            Await.waitFor("the set gone", WAIT, () -> resource(name).get() == null);
            Await.waitFor("every pod collected", WAIT,
                    () -> product.client().pods().inNamespace(product.namespace()).withLabel("app", name).list().getItems().isEmpty());
            int total = created.get();
            assertTrue(total - before <= StatefulSetPlanner.MAX_CREATES_PER_PLAN,
                    (total - before) + " pods created after the delete (" + before + " before it)");
            Thread.sleep(2_000);
            assertEquals(total, created.get(), "pods created after the set and its pods were gone");
            assertTrue(product.client().pods().inNamespace(product.namespace()).withLabel("app", name).list().getItems().isEmpty());
        } finally {
            product.cluster().onApiContext(() -> {
                unlisten.run();
                return null;
            }).await(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void orderedReadyCreatesOnePodAtATimeWithStableIdentityAndClaims() {
        String name = "ordered";
        try (PodWatch watch = new PodWatch(product.client(), product.namespace(), name)) {
            StatefulSet set = statefulSet(name, 3, "nginx:1");
            set.getSpec().setVolumeClaimTemplates(List.of(claimTemplate("data")));
            resource(name).create(set);
            StatefulSet s = settled(name, Set.of(0, 1, 2));
            assertEquals(List.of("ordered-0", "ordered-1", "ordered-2"), watch.addedOrder());
            // OrderedReady: each pod is created only once its predecessor is ready.
            assertTrue(watch.readyWhenAdded("ordered-1").contains("ordered-0"), watch.readyWhenAdded("ordered-1").toString());
            assertTrue(watch.readyWhenAdded("ordered-2").contains("ordered-1"), watch.readyWhenAdded("ordered-2").toString());
            assertEquals(s.getStatus().getUpdateRevision(), s.getStatus().getCurrentRevision());
            assertEquals("app=ordered", s.getStatus().getLabelSelector());
            for (Pod p : livePods(name)) {
                String podName = p.getMetadata().getName();
                int ordinal = PodOrdinals.ordinalOf(name, podName);
                assertEquals(podName, p.getSpec().getHostname());
                assertEquals(name, p.getSpec().getSubdomain());
                assertEquals(podName, p.getMetadata().getLabels().get(StatefulSetPods.POD_NAME_LABEL));
                assertEquals(Integer.toString(ordinal), p.getMetadata().getLabels().get(StatefulSetPods.KRUISE_POD_INDEX_LABEL));
                assertEquals(Integer.toString(ordinal), p.getMetadata().getLabels().get(StatefulSetPods.K8S_POD_INDEX_LABEL));
                assertEquals(s.getStatus().getUpdateRevision(),
                        p.getMetadata().getLabels().get(WellKnown.CONTROLLER_REVISION_HASH_LABEL));
                String claim = "data-" + podName;
                assertTrue(p.getSpec().getVolumes().stream().anyMatch(v -> v.getPersistentVolumeClaim() != null
                        && claim.equals(v.getPersistentVolumeClaim().getClaimName())), podName + " mounts " + claim);
                assertTrue(product.client().persistentVolumeClaims().inNamespace(product.namespace()).withName(claim).get() != null, claim);
            }
            Await.waitFor("SuccessfulCreate events for the pods and claims", WAIT, () -> product.client().v1().events()
                    .inNamespace(product.namespace()).list().getItems().stream().filter(e -> name.equals(e.getInvolvedObject().getName())
                            && "SuccessfulCreate".equals(e.getReason())).count() >= 6);
            assertTrue(product.client().apps().controllerRevisions().inNamespace(product.namespace())
                    .withName(s.getStatus().getUpdateRevision()).get() != null, "revision stored");

            // Scale-down: highest ordinal first, claims retained by default.
            edit(name, sp -> sp.setReplicas(1));
            settled(name, Set.of(0));
            assertTrue(product.client().persistentVolumeClaims().inNamespace(product.namespace()).withName("data-ordered-2").get() != null);
        }
    }

    @Test
    void reserveOrdinalsFollowTheV07Semantics() {
        String name = "reserve";
        StatefulSet set = statefulSet(name, 4, "nginx:1");
        set.getSpec().setPodManagementPolicy("Parallel");
        set.getSpec().setReserveOrdinals(List.of(new IntOrString(1)));
        resource(name).create(set);
        settled(name, Set.of(0, 2, 3, 4));

        edit(name, sp -> sp.setReserveOrdinals(List.of(new IntOrString(1), new IntOrString(3))));
        settled(name, Set.of(0, 2, 4, 5));

        edit(name, sp -> sp.setReplicas(3));
        settled(name, Set.of(0, 2, 4));

        // A range reserves every ordinal in it.
        edit(name, sp -> {
            sp.setReplicas(3);
            sp.setReserveOrdinals(List.of(new IntOrString("1-3")));
        });
        settled(name, Set.of(0, 4, 5));
    }

    @Test
    void parallelScaleUpRespectsScaleStrategyMaxUnavailable() {
        String name = "parallel";
        try (PodWatch watch = new PodWatch(product.client(), product.namespace(), name)) {
            StatefulSet set = statefulSet(name, 6, "nginx:1");
            set.getSpec().setPodManagementPolicy("Parallel");
            StatefulSetScaleStrategy ss = new StatefulSetScaleStrategy();
            ss.setMaxUnavailable(new IntOrString(2));
            set.getSpec().setScaleStrategy(ss);
            resource(name).create(set);
            settled(name, Set.of(0, 1, 2, 3, 4, 5));
            assertTrue(watch.maxNotReady() <= 2, "at most 2 unready pods while scaling, saw " + watch.maxNotReady());
            assertTrue(watch.violations().isEmpty(), watch.violations().toString());
        }
    }

    @Test
    void rollingUpdateWithPartitionAndMaxUnavailable() {
        String name = "rolling";
        try (PodWatch watch = new PodWatch(product.client(), product.namespace(), name)) {
            StatefulSet set = statefulSet(name, 5, "nginx:1");
            set.getSpec().setPodManagementPolicy("Parallel");
            rollingUpdate(set.getSpec()).setMaxUnavailable(new IntOrString(2));
            rollingUpdate(set.getSpec()).setPartition(2);
            resource(name).create(set);
            StatefulSet s = settled(name, Set.of(0, 1, 2, 3, 4));
            String rev1 = s.getStatus().getUpdateRevision();

            watch.arm(3);
            edit(name, sp -> sp.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
            StatefulSet partial = waitStatus(name, "ordinals 2-4 updated", x -> x.getStatus().getUpdatedReplicas() == 3
                    && x.getStatus().getReadyReplicas() == 5 && livePods(name).size() == 5
                    && livePods(name).stream().allMatch(Pods::isReady));
            String rev2 = partial.getStatus().getUpdateRevision();
            assertNotEquals(rev1, rev2);
            assertEquals(rev1, partial.getStatus().getCurrentRevision());
            for (Pod p : livePods(name)) {
                int ordinal = PodOrdinals.ordinalOf(name, p.getMetadata().getName());
                assertEquals(ordinal >= 2 ? rev2 : rev1, Pods.label(p, WellKnown.CONTROLLER_REVISION_HASH_LABEL),
                        p.getMetadata().getName());
                assertEquals(ordinal >= 2 ? "nginx:2" : "nginx:1", p.getSpec().getContainers().get(0).getImage());
            }

            edit(name, sp -> rollingUpdate(sp).setPartition(0));
            StatefulSet done = settled(name, Set.of(0, 1, 2, 3, 4));
            assertEquals(rev2, done.getStatus().getCurrentRevision());
            assertTrue(watch.violations().isEmpty(), watch.violations().toString());
            assertTrue(watch.minReady() >= 3, "never more than 2 unavailable, min ready " + watch.minReady());
        }
    }

    @Test
    void inPlaceUpdateKeepsThePod() {
        String name = "inplace";
        StatefulSet set = statefulSet(name, 2, "nginx:1");
        rollingUpdate(set.getSpec()).setPodUpdatePolicy("InPlaceIfPossible");
        resource(name).create(set);
        settled(name, Set.of(0, 1));
        Map<String, String> uids = livePods(name).stream()
                .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));
        edit(name, sp -> sp.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
        StatefulSet s = waitStatus(name, "in-place update done", x -> x.getStatus().getUpdatedReadyReplicas() == 2
                && x.getStatus().getCurrentRevision().equals(x.getStatus().getUpdateRevision())
                && livePods(name).stream().allMatch(p -> Pods.isReady(p)
                && "nginx:2".equals(p.getSpec().getContainers().get(0).getImage())));
        for (Pod p : livePods(name)) {
            assertEquals(uids.get(p.getMetadata().getName()), p.getMetadata().getUid(), "same pod object");
            assertEquals(s.getStatus().getUpdateRevision(), Pods.label(p, WellKnown.CONTROLLER_REVISION_HASH_LABEL));
        }
    }

    @Test
    void claimsAreDeletedOnScaleDownWhenTheRetentionPolicySaysSo() {
        String name = "retain";
        StatefulSet set = statefulSet(name, 3, "nginx:1");
        set.getSpec().setPodManagementPolicy("Parallel");
        set.getSpec().setVolumeClaimTemplates(List.of(claimTemplate("data")));
        StatefulSetPersistentVolumeClaimRetentionPolicy policy = new StatefulSetPersistentVolumeClaimRetentionPolicy();
        policy.setWhenScaled("Delete");
        policy.setWhenDeleted("Retain");
        set.getSpec().setPersistentVolumeClaimRetentionPolicy(policy);
        resource(name).create(set);
        settled(name, Set.of(0, 1, 2));
        edit(name, sp -> sp.setReplicas(1));
        settled(name, Set.of(0));
        Await.waitFor("claims of ordinals 1 and 2 deleted", WAIT, () -> claimNames(name).equals(Set.of("data-retain-0")));
    }

    static Set<String> claimNames(String app) {
        return product.client().persistentVolumeClaims().inNamespace(product.namespace()).withLabel("app", app).list().getItems().stream()
                .filter(c -> c.getMetadata().getDeletionTimestamp() == null)
                .map(c -> c.getMetadata().getName()).collect(Collectors.toCollection(TreeSet::new));
    }

    static PersistentVolumeClaim claimTemplate(String name) {
        return new PersistentVolumeClaimBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withAccessModes("ReadWriteOnce").withNewResources()
                .addToRequests("storage", new Quantity("1Gi")).endResources().endSpec().build();
    }

    @Test
    void preDeleteHookHoldsACondemnedPodUntilReleased() {
        String name = "hooked";
        StatefulSet set = statefulSet(name, 2, "nginx:1");
        set.getSpec().getTemplate().getMetadata().getLabels().put("example.io/hold", "true");
        dev.kruisevertx.api.common.Lifecycle lifecycle = new dev.kruisevertx.api.common.Lifecycle();
        dev.kruisevertx.api.common.LifecycleHook hook = new dev.kruisevertx.api.common.LifecycleHook();
        hook.setLabelsHandler(Map.of("example.io/hold", "true"));
        lifecycle.setPreDelete(hook);
        set.getSpec().setLifecycle(lifecycle);
        resource(name).create(set);
        settled(name, Set.of(0, 1));
        Await.waitFor("pods reach lifecycle state Normal", WAIT, () -> livePods(name).stream()
                .allMatch(p -> "Normal".equals(Pods.label(p, WellKnown.LIFECYCLE_STATE_LABEL))));

        edit(name, sp -> sp.setReplicas(1));
        Await.waitFor("hooked-1 held in PreparingDelete", WAIT, () -> {
            Pod p = product.client().pods().inNamespace(product.namespace()).withName("hooked-1").get();
            return p != null && !Pods.isTerminating(p)
                    && "PreparingDelete".equals(Pods.label(p, WellKnown.LIFECYCLE_STATE_LABEL));
        });
        // The controller went on looking; the pod is still there.
        Await.waitFor("status observed the scale-down", WAIT, () -> resource(name).get().getStatus()
                .getObservedGeneration() == resource(name).get().getMetadata().getGeneration());
        assertTrue(product.client().pods().inNamespace(product.namespace()).withName("hooked-1").get() != null);

        StatefulSetFixtures.retryOnConflict(() -> product.client().pods().inNamespace(product.namespace())
                .withName("hooked-1").edit(p -> {
                    p.getMetadata().getLabels().remove("example.io/hold");
                    return p;
                }));
        settled(name, Set.of(0));
    }

    @Test
    void startOrdinalAndClaimsOwnedByTheSetWhenDeleted() {
        String name = "start";
        StatefulSet set = statefulSet(name, 2, "nginx:1");
        set.getSpec().setPodManagementPolicy("Parallel");
        dev.kruisevertx.api.apps.v1beta1.StatefulSetOrdinals ordinals = new dev.kruisevertx.api.apps.v1beta1.StatefulSetOrdinals();
        ordinals.setStart(5);
        set.getSpec().setOrdinals(ordinals);
        set.getSpec().setVolumeClaimTemplates(List.of(claimTemplate("data")));
        StatefulSetPersistentVolumeClaimRetentionPolicy policy = new StatefulSetPersistentVolumeClaimRetentionPolicy();
        policy.setWhenDeleted("Delete");
        policy.setWhenScaled("Retain");
        set.getSpec().setPersistentVolumeClaimRetentionPolicy(policy);
        resource(name).create(set);
        settled(name, Set.of(5, 6));
        assertEquals(Set.of("data-start-5", "data-start-6"), claimNames(name));
        String uid = resource(name).get().getMetadata().getUid();
        for (String claim : claimNames(name)) {
            PersistentVolumeClaim c = product.client().persistentVolumeClaims().inNamespace(product.namespace()).withName(claim).get();
            assertTrue(c.getMetadata().getOwnerReferences().stream().anyMatch(r -> uid.equals(r.getUid())), claim);
        }
        resource(name).delete();
        Await.waitFor("claims collected with the set", WAIT, () -> claimNames(name).isEmpty());
    }

    /** The last ordinals of the int range: ten-digit pod names are the set's own pods. */
    @Test
    void ordinalsAtTheTopOfTheIntRange() {
        String name = "top";
        StatefulSet set = statefulSet(name, 2, "nginx:1");
        dev.kruisevertx.api.apps.v1beta1.StatefulSetOrdinals ordinals = new dev.kruisevertx.api.apps.v1beta1.StatefulSetOrdinals();
        ordinals.setStart(Integer.MAX_VALUE - 1);
        set.getSpec().setOrdinals(ordinals);
        resource(name).create(set);
        settled(name, Set.of(Integer.MAX_VALUE - 1, Integer.MAX_VALUE));
        edit(name, sp -> sp.setReplicas(1));
        settled(name, Set.of(Integer.MAX_VALUE - 1));
    }

    /**
     * Without the webhook (this cluster admits anything), a set whose ordinals would pass the int range is reported
     * as invalid on /debug/plans and gets no pods; the manager goes on.
     */
    @Test
    void ordinalsPastTheIntRangeAreReportedAndNothingIsCreated() throws Exception {
        String name = "past";
        StatefulSet set = statefulSet(name, 3, "nginx:1");
        dev.kruisevertx.api.apps.v1beta1.StatefulSetOrdinals ordinals = new dev.kruisevertx.api.apps.v1beta1.StatefulSetOrdinals();
        ordinals.setStart(Integer.MAX_VALUE - 1);
        set.getSpec().setOrdinals(ordinals);
        resource(name).create(set);
        java.net.http.HttpClient http = java.net.http.HttpClient.newBuilder()
                .version(java.net.http.HttpClient.Version.HTTP_1_1).build();
        java.net.http.HttpRequest plans = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:"
                + product.app().debugPort() + "/debug/plans?controller=statefulset")).timeout(Duration.ofSeconds(10)).build();
        Await.waitFor("the set reported invalid", WAIT, () -> http.send(plans,
                java.net.http.HttpResponse.BodyHandlers.ofString()).body()
                .contains("invalid StatefulSet: ordinals.start + replicas + reserved ordinals pass 2147483647"));
        assertTrue(livePods(name).isEmpty(), "no pod of an invalid set");
        resource(name).delete();
    }

    @Test
    void orphansAreAdoptedAndPodsLeavingTheSelectorReleased() {
        String name = "adopt";
        product.client().pods().inNamespace(product.namespace()).resource(new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata()
                .withName("adopt-1").withNamespace(product.namespace()).addToLabels("app", name).endMetadata().withNewSpec()
                .addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec().build()).create();
        StatefulSet set = statefulSet(name, 2, "nginx:1");
        set.getSpec().setPodManagementPolicy("Parallel");
        resource(name).create(set);
        String uid = Await.waitFor("set created", WAIT, () -> resource(name).get(), s -> s != null).getMetadata().getUid();
        Await.waitFor("adopt-1 adopted", WAIT, () -> {
            Pod p = product.client().pods().inNamespace(product.namespace()).withName("adopt-1").get();
            return p != null && Pods.isControlledBy(p, uid);
        });
        Await.waitFor("adopt-0 created", WAIT, () -> product.client().pods().inNamespace(product.namespace()).withName("adopt-0").get() != null);
        // The adopted pod gets the identity labels a pod of the set has (upstream UpdateStatefulPod).
        Await.waitFor("adopt-1 labelled with its identity", WAIT, () -> {
            Pod p = product.client().pods().inNamespace(product.namespace()).withName("adopt-1").get();
            return "adopt-1".equals(Pods.label(p, StatefulSetPods.POD_NAME_LABEL))
                    && "1".equals(Pods.label(p, StatefulSetPods.KRUISE_POD_INDEX_LABEL));
        });

        // The controller may be writing the pod (adoption, identity labels) at the same moment: retry a 409.
        StatefulSetFixtures.retryOnConflict(() -> product.client().pods().inNamespace(product.namespace()).withName("adopt-0").edit(p -> {
            p.getMetadata().getLabels().put("app", "elsewhere");
            return p;
        }));
        Await.waitFor("adopt-0 released", WAIT, () -> {
            Pod p = product.client().pods().inNamespace(product.namespace()).withName("adopt-0").get();
            return p != null && Pods.controllerOf(p).isEmpty();
        });
    }

    @Test
    void aFailedCreateShowsAsFailedCreatePodUntilARetrySucceeds() {
        String name = "failing";
        StatefulSet set = statefulSet(name, 1, "nginx:1");
        // "<template>-failing-0" is longer than the 253 characters a PVC name may have: the API refuses it.
        set.getSpec().setVolumeClaimTemplates(List.of(claimTemplate("d".repeat(250))));
        resource(name).create(set);
        StatefulSet failed = waitStatus(name, "FailedCreatePod condition", s -> s.getStatus().getConditions() != null
                && s.getStatus().getConditions().stream().anyMatch(c -> "FailedCreatePod".equals(c.getType())));
        var condition = failed.getStatus().getConditions().get(0);
        assertEquals("True", condition.getStatus());
        assertTrue(condition.getMessage().startsWith("StatefulPodControl failed to create Pod error: "),
                condition.getMessage());
        assertTrue(condition.getLastTransitionTime() != null);
        assertTrue(livePods(name).isEmpty());
        Await.waitFor("FailedCreate event", WAIT, () -> product.client().v1().events().inNamespace(product.namespace()).list().getItems()
                .stream().anyMatch(e -> name.equals(e.getInvolvedObject().getName())
                        && "FailedCreate".equals(e.getReason())));

        edit(name, sp -> sp.setVolumeClaimTemplates(List.of(claimTemplate("data"))));
        StatefulSet ok = settled(name, Set.of(0));
        Await.waitFor("condition cleared", WAIT, () -> resource(name).get().getStatus().getConditions() == null);
        assertEquals(Set.of("data-failing-0"), claimNames(name), ok.getStatus().toString());
    }

    @Test
    void aRevisionNameTakenByOtherDataBumpsTheCollisionCount() {
        String name = "collide";
        resource(name).create(statefulSet(name, 0, "nginx:1"));
        String taken = waitStatus(name, "first revision", s -> s.getStatus().getUpdateRevision() != null)
                .getStatus().getUpdateRevision();
        assertEquals(0, resource(name).get().getStatus().getCollisionCount());
        resource(name).delete();
        Await.waitFor("set and its revision collected", WAIT, () -> resource(name).get() == null
                && product.client().apps().controllerRevisions().inNamespace(product.namespace()).withName(taken).get() == null);
        // Someone else's revision under the name the same set will compute again.
        product.client().apps().controllerRevisions().inNamespace(product.namespace()).resource(
                new io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder().withNewMetadata().withName(taken)
                        .withNamespace(product.namespace()).endMetadata().withRevision(1L)
                        .withData(Map.of("spec", Map.of("template", Map.of("metadata",
                                Map.of("labels", Map.of("squatter", "true")))))).build()).create();

        resource(name).create(statefulSet(name, 1, "nginx:1"));
        StatefulSet s = settled(name, Set.of(0));
        assertEquals(1, s.getStatus().getCollisionCount());
        assertNotEquals(taken, s.getStatus().getUpdateRevision());
        assertEquals(s.getStatus().getUpdateRevision(),
                Pods.label(livePods(name).get(0), WellKnown.CONTROLLER_REVISION_HASH_LABEL));
        var squatter = product.client().apps().controllerRevisions().inNamespace(product.namespace()).withName(taken).get();
        assertTrue(squatter != null && squatter.getMetadata().getOwnerReferences().isEmpty(), "left alone");
    }

    @Test
    void newTemplatesGetClaimsForExistingPodsAndPolicyChangesMoveOwnerReferences() {
        String name = "claims";
        StatefulSet set = statefulSet(name, 2, "nginx:1");
        set.getSpec().setPodManagementPolicy("Parallel");
        resource(name).create(set);
        settled(name, Set.of(0, 1));
        Map<String, String> uids = livePods(name).stream()
                .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));
        String setUid = resource(name).get().getMetadata().getUid();

        // A template added after the pods exist: their PVCs are created (the pods mount them once recreated).
        edit(name, sp -> sp.setVolumeClaimTemplates(List.of(claimTemplate("data"))));
        Await.waitFor("claims for the existing pods", WAIT,
                () -> claimNames(name).equals(Set.of("data-claims-0", "data-claims-1")));
        assertEquals(uids, livePods(name).stream()
                .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid())));
        Predicate<Boolean> ownedBySet = want -> claimNames(name).stream().allMatch(c -> want
                == product.client().persistentVolumeClaims().inNamespace(product.namespace()).withName(c).get().getMetadata().getOwnerReferences()
                .stream().anyMatch(r -> setUid.equals(r.getUid())));
        assertTrue(ownedBySet.test(false), "Retain keeps them unowned");

        edit(name, sp -> {
            StatefulSetPersistentVolumeClaimRetentionPolicy policy = new StatefulSetPersistentVolumeClaimRetentionPolicy();
            policy.setWhenDeleted("Delete");
            policy.setWhenScaled("Retain");
            sp.setPersistentVolumeClaimRetentionPolicy(policy);
        });
        Await.waitFor("whenDeleted=Delete: the set owns the existing claims", WAIT, () -> ownedBySet.test(true));

        edit(name, sp -> sp.getPersistentVolumeClaimRetentionPolicy().setWhenDeleted("Retain"));
        Await.waitFor("back to Retain: the reference is removed", WAIT, () -> ownedBySet.test(false));
    }

    @Test
    void onPodRollingUpdateExpandsClaimsOneAtATime() {
        String name = "resize";
        StatefulSet set = statefulSet(name, 2, "nginx:1");
        set.getSpec().setPodManagementPolicy("Parallel");
        set.getSpec().setVolumeClaimTemplates(List.of(claimTemplate("data")));
        dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategy strategy =
                new dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategy();
        strategy.setType("OnPodRollingUpdate");
        set.getSpec().setVolumeClaimUpdateStrategy(strategy);
        resource(name).create(set);
        settled(name, Set.of(0, 1));
        expandVolumes(name);
        Map<String, String> uids = livePods(name).stream()
                .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));
        waitStatus(name, "claims compatible and ready", s -> s.getStatus().getVolumeClaims() != null
                && s.getStatus().getVolumeClaims().equals(List.of(
                new dev.kruisevertx.api.apps.v1beta1.VolumeClaimStatus("data", 2, 2))));

        edit(name, sp -> sp.getVolumeClaimTemplates().get(0).getSpec().getResources().getRequests()
                .put("storage", new Quantity("2Gi")));
        int[] maxExpanding = {0};
        // The test plays the CSI driver: a claim asking for more than its capacity gets it on the next look.
        Await.waitFor("both claims expanded to 2Gi", WAIT, () -> {
            maxExpanding[0] = Math.max(maxExpanding[0], expandVolumes(name));
            return claimNames(name).stream().allMatch(c -> {
                PersistentVolumeClaim pvc = product.client().persistentVolumeClaims().inNamespace(product.namespace()).withName(c).get();
                return new Quantity("2Gi").equals(pvc.getSpec().getResources().getRequests().get("storage"))
                        && name.equals(pvc.getMetadata().getAnnotations().get("apps.kruise.io/owned-by-asts"));
            });
        });
        expandVolumes(name);
        waitStatus(name, "status.volumeClaims caught up", s -> s.getStatus().getVolumeClaims() != null
                && s.getStatus().getVolumeClaims().equals(List.of(
                new dev.kruisevertx.api.apps.v1beta1.VolumeClaimStatus("data", 2, 2))));
        assertTrue(maxExpanding[0] <= 1, "maxUnavailable 1: at most one claim expanding, saw " + maxExpanding[0]);
        assertEquals(uids, livePods(name).stream()
                .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid())),
                "pods at the update revision keep running");
        Await.waitFor("SuccessfulResize events", WAIT, () -> product.client().v1().events().inNamespace(product.namespace()).list().getItems()
                .stream().filter(e -> name.equals(e.getInvolvedObject().getName())
                        && "SuccessfulResize".equals(e.getReason())).count() >= 2);
    }

    /** Sets status.capacity to the request on every claim of the set that asks for more; returns how many did. */
    static int expandVolumes(String app) {
        int expanding = 0;
        for (String c : claimNames(app)) {
            PersistentVolumeClaim pvc = product.client().persistentVolumeClaims().inNamespace(product.namespace()).withName(c).get();
            Quantity requested = pvc.getSpec().getResources().getRequests().get("storage");
            Quantity capacity = pvc.getStatus() == null || pvc.getStatus().getCapacity() == null ? null
                    : pvc.getStatus().getCapacity().get("storage");
            if (capacity == null || capacity.getNumericalAmount().compareTo(requested.getNumericalAmount()) < 0) {
                if (capacity != null) {
                    expanding++;
                }
                StatefulSetFixtures.retryOnConflict(() -> product.client().persistentVolumeClaims()
                        .inNamespace(product.namespace()).withName(c).editStatus(live -> {
                            live.setStatus(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimStatusBuilder()
                                    .withPhase("Bound").addToCapacity("storage", requested).build());
                            return live;
                        }));
            }
        }
        return expanding;
    }
}
