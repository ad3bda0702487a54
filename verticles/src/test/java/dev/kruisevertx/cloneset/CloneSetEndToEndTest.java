package dev.kruisevertx.cloneset;

import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import org.junit.jupiter.api.extension.RegisterExtension;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetScaleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The CloneSet controller in the manager against the embedded cluster (API server + simulated kubelets). */
class CloneSetEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String ZONE_KEY = "topology.kubernetes.io/zone";
    static final String ZONE_A = "zone-a";

    /** Two nodes share zone-a, so the zone spread rank and the same-node rank can disagree. */
    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3).setNodeOptions(
                    new dev.kruisevertx.sim.nodes.SimNodesOptions().setZones(List.of(ZONE_A, ZONE_A, "zone-b"))))
            .build();

    static CloneSet cloneSet(String name, int replicas, String image) {
        return cloneSet(product.namespace(), name, replicas, image);
    }

    static CloneSet cloneSet(String namespace, String name, int replicas, String image) {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        CloneSetSpec spec = new CloneSetSpec();
        spec.setReplicas(replicas);
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage(image).endContainer().endSpec().build());
        CloneSetUpdateStrategy us = new CloneSetUpdateStrategy();
        us.setMaxUnavailable(new IntOrString(1));
        spec.setUpdateStrategy(us);
        cs.setSpec(spec);
        return cs;
    }

    static Resource<CloneSet> resource(String name) {
        return product.client().resources(CloneSet.class).inNamespace(product.namespace()).withName(name);
    }

    /** Changes the spec from the live object; a conflict with the controller's status write is retried. */
    static void edit(String name, Consumer<CloneSetSpec> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                resource(name).edit(cs -> {
                    change.accept(cs.getSpec());
                    return cs;
                });
                return;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 20) {
                    throw e;
                }
            }
        }
    }

    static CloneSet waitStatus(String name, String what, java.util.function.Predicate<CloneSet> done) {
        return Await.waitFor(what, WAIT, () -> resource(name).get(), cs -> cs != null && cs.getStatus() != null
                && cs.getMetadata().getGeneration() != null
                && cs.getStatus().getObservedGeneration() == cs.getMetadata().getGeneration() && done.test(cs));
    }

    static List<Pod> livePods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems().stream()
                .filter(p -> !Pods.isTerminating(p)).toList();
    }

    static CloneSet settled(String name, int replicas) {
        return waitStatus(name, name + " settled at " + replicas, cs -> cs.getStatus().getReplicas() == replicas
                && cs.getStatus().getReadyReplicas() == replicas && cs.getStatus().getUpdatedReplicas() == replicas
                && livePods(name).size() == replicas);
    }

    @Test
    void createScaleRecreateRolloutInPartitionStepsAndPause() throws Exception {
        String name = "web";
        try (ClusterWatch watch = new ClusterWatch(product.client(), product.namespace(), name)) {
            resource(name).create(cloneSet(name, 5, "nginx:1"));
            CloneSet cs = settled(name, 5);
            String rev1 = cs.getStatus().getUpdateRevision();
            assertEquals(rev1, cs.getStatus().getCurrentRevision());
            assertEquals("app=" + name, cs.getStatus().getLabelSelector());
            for (Pod p : livePods(name)) {
                String id = p.getMetadata().getLabels().get(WellKnown.CLONESET_INSTANCE_ID_LABEL);
                assertEquals(name + "-" + id, p.getMetadata().getName());
                assertEquals(5, id.length());
                assertEquals(rev1, p.getMetadata().getLabels().get(WellKnown.CONTROLLER_REVISION_HASH_LABEL));
                assertEquals(Pods.shortHash(rev1), p.getMetadata().getLabels().get(WellKnown.POD_TEMPLATE_HASH_LABEL));
                assertEquals(WellKnown.LIFECYCLE_STATE_NORMAL, p.getMetadata().getLabels().get(WellKnown.LIFECYCLE_STATE_LABEL));
                assertEquals(Boolean.TRUE, p.getMetadata().getOwnerReferences().get(0).getController());
                assertEquals(Boolean.TRUE, p.getMetadata().getOwnerReferences().get(0).getBlockOwnerDeletion());
            }
            ControllerRevision revision = product.client().apps().controllerRevisions().inNamespace(product.namespace()).withName(rev1).get();
            assertTrue(revision != null && revision.getRevision() == 1L, "ControllerRevision " + rev1);

            // Recreate rollout, partition 60% -> 0%, never more than 1 unavailable, never more than 5 pods.
            watch.arm(4, 5);
            edit(name, s -> {
                s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2");
                s.getUpdateStrategy().setPartition(new IntOrString("60%"));
            });
            cs = waitStatus(name, "partition 60%: 2 updated", c -> c.getStatus().getUpdatedReplicas() == 2
                    && c.getStatus().getReadyReplicas() == 5 && c.getStatus().getExpectedUpdatedReplicas() == 2
                    && livePods(name).size() == 5);
            String rev2 = cs.getStatus().getUpdateRevision();
            assertNotEquals(rev1, rev2);
            assertEquals(rev1, cs.getStatus().getCurrentRevision(), "current revision stays until all are updated");
            assertEquals(3, livePods(name).stream().filter(p -> Pods.atRevision(p, rev1)).count());
            edit(name, s -> s.getUpdateStrategy().setPartition(new IntOrString("0%")));
            cs = waitStatus(name, "partition 0%: all updated", c -> c.getStatus().getUpdatedReplicas() == 5
                    && c.getStatus().getUpdatedReadyReplicas() == 5 && livePods(name).size() == 5);
            assertEquals(rev2, cs.getStatus().getCurrentRevision());
            assertEquals(List.of(), watch.violations(), watch.describe());
            assertTrue(watch.minReady() >= 4 && watch.maxTotal() <= 5, "min ready " + watch.minReady() + " max total " + watch.maxTotal());
            watch.disarm();

            // Scale down to 3 through the scale subresource (kubectl scale), and back to 5.
            resource(name).scale(3);
            settled(name, 3);
            edit(name, s -> s.setReplicas(5));
            settled(name, 5);

            // Paused: a new template gets a new update revision but no pod moves to it.
            watch.arm(5, 5);
            edit(name, s -> {
                s.getUpdateStrategy().setPaused(true);
                s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:3");
            });
            cs = waitStatus(name, "paused with a new update revision", c -> !c.getStatus().getUpdateRevision().equals(rev2));
            String rev3 = cs.getStatus().getUpdateRevision();
            assertEquals(0, cs.getStatus().getUpdatedReplicas());
            edit(name, s -> s.setReplicas(5));
            assertTrue(watch.revisionsSeen().stream().noneMatch(r -> Pods.shortHash(r).equals(Pods.shortHash(rev3))),
                    "no pod at the paused revision: " + watch.revisionsSeen());
            assertEquals(List.of(), watch.violations(), watch.describe());
            watch.disarm();
            edit(name, s -> s.getUpdateStrategy().setPaused(false));
            settled(name, 5);
        }
    }

    @Test
    void podsToDeleteReplacesTheNamedPodWithinMaxUnavailable() {
        String name = "todelete";
        try (ClusterWatch watch = new ClusterWatch(product.client(), product.namespace(), name)) {
            resource(name).create(cloneSet(name, 3, "busybox:1"));
            settled(name, 3);
            String victim = livePods(name).get(0).getMetadata().getName();
            watch.arm(2, 3);
            edit(name, s -> {
                CloneSetScaleStrategy ss = new CloneSetScaleStrategy();
                ss.setPodsToDelete(List.of(victim));
                s.setScaleStrategy(ss);
            });
            Await.waitFor("the named pod replaced", WAIT, () -> {
                List<Pod> live = livePods(name);
                return live.size() == 3 && live.stream().noneMatch(p -> p.getMetadata().getName().equals(victim))
                        && live.stream().allMatch(Pods::isReady);
            });
            assertEquals(List.of(), watch.violations(), watch.describe());
        }
    }

    @Test
    void instancesKeepTheirClaimsUnlessReuseIsDisabled() {
        String name = "stateful";
        CloneSet cs = cloneSet(name, 2, "redis:7");
        PersistentVolumeClaim vct = new PersistentVolumeClaimBuilder().withNewMetadata().withName("data").endMetadata()
                .withNewSpec().withAccessModes("ReadWriteOnce").withNewResources()
                .addToRequests("storage", new Quantity("1Gi")).endResources().endSpec().build();
        cs.getSpec().setVolumeClaimTemplates(List.of(vct));
        resource(name).create(cs);
        settled(name, 2);
        Pod first = livePods(name).get(0);
        String id = first.getMetadata().getLabels().get(WellKnown.CLONESET_INSTANCE_ID_LABEL);
        String claim = "data-" + name + "-" + id;
        PersistentVolumeClaim pvc = product.client().persistentVolumeClaims().inNamespace(product.namespace()).withName(claim).get();
        assertTrue(pvc != null, "PVC " + claim);
        assertEquals(id, pvc.getMetadata().getLabels().get(WellKnown.CLONESET_INSTANCE_ID_LABEL));
        assertTrue(first.getSpec().getVolumes().stream().anyMatch(v -> v.getPersistentVolumeClaim() != null
                && claim.equals(v.getPersistentVolumeClaim().getClaimName())));
        String oldUid = first.getMetadata().getUid();

        // Deleted by someone else: the replacement takes the same instance id and the same claim.
        product.client().pods().inNamespace(product.namespace()).withName(first.getMetadata().getName()).delete();
        Await.waitFor("replacement with the same instance id", WAIT, () -> livePods(name).stream().anyMatch(p ->
                id.equals(p.getMetadata().getLabels().get(WellKnown.CLONESET_INSTANCE_ID_LABEL))
                        && !oldUid.equals(p.getMetadata().getUid())) && livePods(name).size() == 2);
        assertEquals(pvc.getMetadata().getUid(),
                product.client().persistentVolumeClaims().inNamespace(product.namespace()).withName(claim).get().getMetadata().getUid());

        // With disablePVCReuse the next replacement gets a new instance and the old claim goes.
        edit(name, s -> {
            CloneSetScaleStrategy ss = new CloneSetScaleStrategy();
            ss.setDisablePVCReuse(true);
            s.setScaleStrategy(ss);
        });
        Pod again = livePods(name).stream()
                .filter(p -> id.equals(p.getMetadata().getLabels().get(WellKnown.CLONESET_INSTANCE_ID_LABEL))).findFirst()
                .orElseThrow();
        product.client().pods().inNamespace(product.namespace()).withName(again.getMetadata().getName()).delete();
        Await.waitFor("new instance, old claim deleted", WAIT, () -> {
            List<Pod> live = livePods(name);
            Set<String> ids = live.stream().map(p -> p.getMetadata().getLabels().get(WellKnown.CLONESET_INSTANCE_ID_LABEL))
                    .collect(Collectors.toSet());
            PersistentVolumeClaim old = product.client().persistentVolumeClaims().inNamespace(product.namespace()).withName(claim).get();
            return live.size() == 2 && !ids.contains(id) && (old == null || old.getMetadata().getDeletionTimestamp() != null);
        });
        List<String> claims = new ArrayList<>();
        product.client().persistentVolumeClaims().inNamespace(product.namespace()).withLabel("app", name).list().getItems().stream()
                .filter(c -> c.getMetadata().getDeletionTimestamp() == null)
                .forEach(c -> claims.add(c.getMetadata().getName()));
        assertEquals(2, claims.size(), claims.toString());
    }

    @Test
    void inPlaceRolloutInPartitionStepsKeepsPodsAndLimits() {
        String name = "inplace";
        try (ClusterWatch watch = new ClusterWatch(product.client(), product.namespace(), name)) {
            CloneSet cs = cloneSet(name, 5, "nginx:1");
            cs.getSpec().getUpdateStrategy().setType("InPlaceIfPossible");
            resource(name).create(cs);
            settled(name, 5);
            Map<String, String> uids = livePods(name).stream()
                    .collect(Collectors.toMap(p -> p.getMetadata().getName(), p -> p.getMetadata().getUid()));

            watch.arm(4, 5);
            edit(name, s -> {
                s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2");
                s.getUpdateStrategy().setPartition(new IntOrString("80%"));
            });
            waitStatus(name, "partition 80%: 1 updated in place", c -> c.getStatus().getUpdatedReplicas() == 1
                    && c.getStatus().getUpdatedReadyReplicas() == 1 && c.getStatus().getReadyReplicas() == 5);
            for (String step : List.of("40%", "0%")) {
                edit(name, s -> s.getUpdateStrategy().setPartition(new IntOrString(step)));
                int want = step.equals("0%") ? 5 : 3;
                waitStatus(name, "partition " + step, c -> c.getStatus().getUpdatedReplicas() == want
                        && c.getStatus().getUpdatedReadyReplicas() == want && c.getStatus().getReadyReplicas() == 5);
            }
            List<Pod> after = livePods(name);
            assertEquals(5, after.size());
            for (Pod p : after) {
                assertEquals(uids.get(p.getMetadata().getName()), p.getMetadata().getUid(), "pod kept: " + p.getMetadata().getName());
                assertEquals("nginx:2", p.getSpec().getContainers().get(0).getImage());
                assertTrue(p.getMetadata().getAnnotations().containsKey(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION));
                assertEquals(WellKnown.LIFECYCLE_STATE_NORMAL, p.getMetadata().getLabels().get(WellKnown.LIFECYCLE_STATE_LABEL));
            }
            assertEquals(List.of(), watch.violations(), watch.describe());
        }
    }

    @Test
    void preDeleteHookHoldsThePodUntilReleased() {
        String name = "hooked";
        CloneSet cs = cloneSet(name, 2, "nginx:1");
        cs.getSpec().getTemplate().getMetadata().getLabels().put("hold", "true");
        dev.kruisevertx.api.common.Lifecycle lifecycle = new dev.kruisevertx.api.common.Lifecycle();
        dev.kruisevertx.api.common.LifecycleHook hook = new dev.kruisevertx.api.common.LifecycleHook();
        hook.setLabelsHandler(Map.of("hold", "true"));
        lifecycle.setPreDelete(hook);
        cs.getSpec().setLifecycle(lifecycle);
        resource(name).create(cs);
        settled(name, 2);
        edit(name, s -> s.setReplicas(1));
        Pod held = Await.waitFor("a pod in PreparingDelete", WAIT, () -> livePods(name).stream()
                .filter(p -> WellKnown.LIFECYCLE_STATE_PREPARING_DELETE.equals(
                        p.getMetadata().getLabels().get(WellKnown.LIFECYCLE_STATE_LABEL))).findFirst().orElse(null),
                p -> p != null);
        assertEquals(2, livePods(name).size(), "held, not deleted");
        ConflictRetry.run(() -> product.client().pods().inNamespace(product.namespace())
                .withName(held.getMetadata().getName())
                .edit(p -> new io.fabric8.kubernetes.api.model.PodBuilder(p).editMetadata().removeFromLabels("hold")
                        .endMetadata().build()));
        Await.waitFor("released pod deleted", WAIT, () -> livePods(name).size() == 1
                && livePods(name).stream().noneMatch(p -> p.getMetadata().getName().equals(held.getMetadata().getName())));
    }

    static Pod orphan(String name, String app) {
        return new io.fabric8.kubernetes.api.model.PodBuilder().withNewMetadata().withName(name).withNamespace(product.namespace())
                .addToLabels("app", app).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec().build();
    }

    static boolean ownedBy(Pod p, String uid) {
        return p != null && p.getMetadata().getOwnerReferences() != null && p.getMetadata().getOwnerReferences()
                .stream().anyMatch(r -> uid.equals(r.getUid()) && Boolean.TRUE.equals(r.getController()));
    }

    @Test
    void orphansAreAdoptedAtFirstSightAndLaterAndReleasedWhenTheyStopMatching() {
        String name = "adopt";
        product.client().pods().inNamespace(product.namespace()).resource(orphan("adopt-early", name)).create();
        // scaleStrategy.maxUnavailable 0 keeps the CloneSet from creating pods: only adoption can fill it.
        CloneSet cs = cloneSet(name, 2, "nginx:1");
        CloneSetScaleStrategy ss = new CloneSetScaleStrategy();
        ss.setMaxUnavailable(new IntOrString(0));
        cs.getSpec().setScaleStrategy(ss);
        cs.getSpec().getUpdateStrategy().setPartition(new IntOrString(2));
        String uid = resource(name).create(cs).getMetadata().getUid();
        Await.waitFor("the orphan present before the CloneSet adopted", WAIT,
                () -> product.client().pods().inNamespace(product.namespace()).withName("adopt-early").get(), p -> ownedBy(p, uid));

        product.client().pods().inNamespace(product.namespace()).resource(orphan("adopt-late", name)).create();
        Await.waitFor("an orphan created later adopted", WAIT,
                () -> product.client().pods().inNamespace(product.namespace()).withName("adopt-late").get(), p -> ownedBy(p, uid));
        waitStatus(name, "both adopted pods counted", c -> c.getStatus().getReplicas() == 2);

        ConflictRetry.run(() -> product.client().pods().inNamespace(product.namespace()).withName("adopt-early")
                .edit(p -> new io.fabric8.kubernetes.api.model.PodBuilder(p)
                        .editMetadata().addToLabels("app", "elsewhere").endMetadata().build()));
        Await.waitFor("the pod that left the selector released", WAIT,
                () -> product.client().pods().inNamespace(product.namespace()).withName("adopt-early").get(), p -> p != null && !ownedBy(p, uid));
        waitStatus(name, "one pod left", c -> c.getStatus().getReplicas() == 1);
        product.client().pods().inNamespace(product.namespace()).withName("adopt-early").delete();
    }

    @Test
    void scaleDownWithAZoneSpreadConstraintTakesFromTheMostCrowdedZone() {
        String name = "spread";
        CloneSet cs = cloneSet(name, 6, "nginx:1");
        cs.getSpec().getTemplate().getSpec().setTopologySpreadConstraints(List.of(
                new io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder().withMaxSkew(1)
                        .withTopologyKey(ZONE_KEY).withWhenUnsatisfiable("ScheduleAnyway")
                        .withNewLabelSelector().addToMatchLabels("app", name).endLabelSelector().build()));
        resource(name).create(cs);
        settled(name, 6);
        Map<String, String> zoneOfNode = product.client().nodes().list().getItems().stream().collect(Collectors.toMap(
                n -> n.getMetadata().getName(), n -> n.getMetadata().getLabels().get(ZONE_KEY)));
        List<Pod> before = livePods(name);
        Map<String, Long> perZone = before.stream().collect(Collectors.groupingBy(
                p -> zoneOfNode.get(p.getSpec().getNodeName()), Collectors.counting()));
        long most = perZone.values().stream().mapToLong(Long::longValue).max().orElseThrow();

        edit(name, s -> s.setReplicas(5));
        settled(name, 5);
        Set<String> left = livePods(name).stream().map(p -> p.getMetadata().getName()).collect(Collectors.toSet());
        Pod gone = before.stream().filter(p -> !left.contains(p.getMetadata().getName())).findFirst().orElseThrow();
        assertEquals(most, perZone.get(zoneOfNode.get(gone.getSpec().getNodeName())),
                "the deleted pod " + gone.getMetadata().getName() + " should come from a most crowded zone: " + perZone);
    }

    @Test
    void aManagerRestartInTheMiddleOfARolloutFinishesItWithinTheLimits() throws Exception {
        String name = "restart";
        try (ClusterWatch watch = new ClusterWatch(product.client(), product.namespace(), name)) {
            resource(name).create(cloneSet(name, 6, "nginx:1"));
            settled(name, 6);
            watch.arm(5, 6);
            edit(name, s -> s.getTemplate().getSpec().getContainers().get(0).setImage("nginx:2"));
            waitStatus(name, "rollout under way", c -> c.getStatus().getUpdatedReplicas() >= 2
                    && c.getStatus().getUpdatedReplicas() < 6);
            product.restartManager();
            CloneSet done = waitStatus(name, "rollout finished after the restart", c -> c.getStatus().getUpdatedReplicas() == 6
                    && c.getStatus().getUpdatedReadyReplicas() == 6 && livePods(name).size() == 6);
            assertEquals(done.getStatus().getUpdateRevision(), done.getStatus().getCurrentRevision());
            assertEquals(List.of(), watch.violations(), watch.describe());
        }
    }
}
