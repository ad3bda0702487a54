package dev.kruisevertx.cloneset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetScaleStrategy;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.api.common.LifecycleState;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static dev.kruisevertx.cloneset.CloneSetDiffTest.NEW;
import static dev.kruisevertx.cloneset.CloneSetDiffTest.NORMAL;
import static dev.kruisevertx.cloneset.CloneSetDiffTest.OLD;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CloneSetPlannerTest {
    static final Instant NOW = CloneSetDiffTest.NOW;

    static CloneSet cs(int replicas, int maxUnavailable) {
        CloneSet cs = CloneSetDiffTest.cs(replicas, new IntOrString(0), new IntOrString(maxUnavailable), null);
        cs.getMetadata().setUid("uid-1");
        cs.getSpec().setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "cs").build());
        cs.getSpec().setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "cs").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("img:2").endContainer().endSpec().build());
        return cs;
    }

    static Pod pod(String id, String revision, boolean ready) {
        Pod p = CloneSetDiffTest.pod(revision, NORMAL, ready, false);
        return new PodBuilder(p).editMetadata().withName("cs-" + id).withNamespace("ns")
                .withCreationTimestamp(NOW.minusSeconds(100).toString())
                .addToLabels(WellKnown.CLONESET_INSTANCE_ID_LABEL, id)
                .addToLabels(WellKnown.POD_TEMPLATE_HASH_LABEL, Pods.shortHash(revision)).endMetadata().build();
    }

    static PersistentVolumeClaim claim(String id) {
        return new PersistentVolumeClaimBuilder().withNewMetadata().withName("data-cs-" + id).withNamespace("ns")
                .addToLabels(WellKnown.CLONESET_INSTANCE_ID_LABEL, id).endMetadata().build();
    }

    static CloneSetPlanner.State state(CloneSet cs, List<Pod> pods, List<PersistentVolumeClaim> pvcs, Set<String> terminating) {
        return new CloneSetPlanner.State(cs, pods, pvcs, OLD, cs.getSpec().getTemplate(), NEW,
                CloneSetPlanner.Options.defaults(), NOW, terminating);
    }

    static CloneSetPlan plan(CloneSet cs, List<Pod> pods) {
        return CloneSetPlanner.plan(state(cs, pods, List.of(), Set.of()), new Random(1));
    }

    static CloneSet withClaimTemplate(CloneSet cs) {
        cs.getSpec().setVolumeClaimTemplates(List.of(new PersistentVolumeClaimBuilder().withNewMetadata()
                .withName("data").endMetadata().build()));
        return cs;
    }

    @Test
    void scaleUpBuildsInstancesWithClaims() {
        CloneSetPlan plan = CloneSetPlanner.plan(state(withClaimTemplate(cs(3, 1)), List.of(), List.of(), Set.of()), new Random(7));
        assertEquals(CloneSetPlan.Phase.SCALE, plan.phase());
        assertEquals(3, plan.creates().size());
        for (CloneSetPlan.Create c : plan.creates()) {
            Pod p = c.pod();
            String id = p.getMetadata().getLabels().get(WellKnown.CLONESET_INSTANCE_ID_LABEL);
            assertEquals("cs-" + id, p.getMetadata().getName());
            assertTrue(id.matches("[bcdfghjklmnpqrstvwxz2456789]{5}"), id);
            assertEquals(NEW, p.getMetadata().getLabels().get(WellKnown.CONTROLLER_REVISION_HASH_LABEL));
            assertEquals("cs", p.getMetadata().getLabels().get("app"));
            assertEquals("uid-1", p.getMetadata().getOwnerReferences().get(0).getUid());
            assertTrue(p.getSpec().getReadinessGates().stream()
                    .anyMatch(g -> g.getConditionType().equals(WellKnown.INPLACE_UPDATE_READY_CONDITION)));
            assertEquals(1, c.claims().size());
            assertEquals("data-cs-" + id, c.claims().get(0).getMetadata().getName());
            assertEquals(id, c.claims().get(0).getMetadata().getLabels().get(WellKnown.CLONESET_INSTANCE_ID_LABEL));
            assertEquals("cs", c.claims().get(0).getMetadata().getLabels().get("app"));
            assertEquals("data-cs-" + id, p.getSpec().getVolumes().get(0).getPersistentVolumeClaim().getClaimName());
        }
    }

    @Test
    void aHugeScaleUpIsPlannedAFewHundredPodsAtATime() {
        CloneSet cs = cs(100_000, 1);
        CloneSetPlan first = plan(cs, List.of());
        assertEquals(CloneSetPlanner.MAX_CREATES_PER_PLAN, first.creates().size());
        assertTrue(first.summary().contains("scale up 500 of 100000"), first.summary());
        assertEquals(CloneSetPlanner.MAX_CREATES_PER_PLAN, first.creates().stream()
                .map(c -> c.pod().getMetadata().getName()).distinct().count(), "distinct instance ids");
        // Once those exist, the next plan creates the next slice.
        List<Pod> existing = first.creates().stream().map(c -> pod(c.pod().getMetadata().getLabels()
                .get(WellKnown.CLONESET_INSTANCE_ID_LABEL), NEW, true)).toList();
        CloneSetPlan next = plan(cs, existing);
        assertEquals(CloneSetPlanner.MAX_CREATES_PER_PLAN, next.creates().size());
        assertTrue(next.summary().contains("scale up 500 of 99500"), next.summary());
        // A small scale-up is not cut.
        assertEquals(7, plan(cs(7, 1), List.of()).creates().size());
    }

    @Test
    void shortHashWritesTheBareHashAndPartitionKeepsOldPodsAtTheCurrentRevision() {
        CloneSet cs = cs(4, 1);
        cs.getSpec().getUpdateStrategy().setPartition(new IntOrString(2));
        CloneSetPlanner.State s = new CloneSetPlanner.State(cs, List.of(), List.of(), "cs-old111", cs.getSpec().getTemplate(),
                "cs-new222", new CloneSetPlanner.Options(false, true, false, true), NOW, Set.of());
        CloneSetPlan plan = CloneSetPlanner.plan(s, new Random(3));
        assertEquals(4, plan.creates().size());
        assertEquals(List.of("old111", "old111", "new222", "new222"), plan.creates().stream()
                .map(c -> c.pod().getMetadata().getLabels().get(WellKnown.CONTROLLER_REVISION_HASH_LABEL)).toList());
        assertEquals(2, plan.creates().stream().filter(CloneSetPlan.Create::atCurrentRevision).count());
    }

    @Test
    void aClaimWithoutPodIsReusedButNotWhileItsPodTerminates() {
        CloneSet cs = withClaimTemplate(cs(2, 1));
        List<Pod> pods = List.of(pod("aaaaa", NEW, true));
        List<PersistentVolumeClaim> pvcs = List.of(claim("aaaaa"), claim("bbbbb"));
        CloneSetPlan reuse = CloneSetPlanner.plan(state(cs, pods, pvcs, Set.of()), new Random(1));
        assertEquals(1, reuse.creates().size());
        assertEquals("cs-bbbbb", reuse.creates().get(0).pod().getMetadata().getName());
        assertEquals(List.of(), reuse.creates().get(0).claims(), "the existing claim is reused, not created");

        // Its old pod still terminates: the name is taken, so the instance waits rather than losing its claim.
        CloneSetPlan busy = CloneSetPlanner.plan(state(cs, pods, pvcs, Set.of("bbbbb")), new Random(1));
        assertEquals(List.of(), busy.creates(), busy.summary());

        // Without claims there is nothing to wait for: a terminating pod's id is simply not picked again.
        CloneSet plain = cs(2, 1);
        CloneSetPlan fresh = CloneSetPlanner.plan(state(plain, pods, List.of(), Set.of("bbbbb")), new Random(1));
        String id = fresh.creates().get(0).pod().getMetadata().getLabels().get(WellKnown.CLONESET_INSTANCE_ID_LABEL);
        assertTrue(!id.equals("bbbbb") && !id.equals("aaaaa"), id);
    }

    @Test
    void disablePVCReuseDeletesOrphanClaimsFirst() {
        CloneSet cs = withClaimTemplate(cs(2, 1));
        CloneSetScaleStrategy ss = new CloneSetScaleStrategy();
        ss.setDisablePVCReuse(true);
        cs.getSpec().setScaleStrategy(ss);
        CloneSetPlan plan = CloneSetPlanner.plan(state(cs, List.of(pod("aaaaa", NEW, true)),
                List.of(claim("aaaaa"), claim("bbbbb")), Set.of()), new Random(1));
        assertEquals(List.of("data-cs-bbbbb"), plan.pvcDeletes().stream().map(c -> c.getMetadata().getName()).toList());
        assertEquals(List.of(), plan.creates());
    }

    @Test
    void scaleDownDeletesTheWorstPodsAndTheirClaims() {
        CloneSet cs = withClaimTemplate(cs(2, 1));
        List<Pod> pods = List.of(pod("aaaaa", NEW, true), pod("bbbbb", NEW, false), pod("ccccc", NEW, true));
        CloneSetPlan plan = CloneSetPlanner.plan(state(cs, pods, List.of(claim("aaaaa"), claim("bbbbb"), claim("ccccc")),
                Set.of()), new Random(1));
        assertEquals(1, plan.deletes().size());
        assertEquals("cs-bbbbb", plan.deletes().get(0).pod().getMetadata().getName(), "the not-ready pod goes first");
        assertEquals("data-cs-bbbbb", plan.deletes().get(0).claims().get(0).getMetadata().getName());
    }

    @Test
    void preDeleteHookHoldsPodsInPreparingDeleteUntilReleased() {
        CloneSet cs = cs(2, 1);
        Lifecycle lifecycle = new Lifecycle();
        LifecycleHook hook = new LifecycleHook();
        hook.setLabelsHandler(Map.of("hold", "true"));
        lifecycle.setPreDelete(hook);
        cs.getSpec().setLifecycle(lifecycle);
        Pod held = new PodBuilder(pod("ccccc", NEW, true)).editMetadata().addToLabels("hold", "true").endMetadata().build();
        List<Pod> pods = List.of(pod("aaaaa", NEW, true), pod("bbbbb", NEW, true), held);
        // All equal but for the name: make the held pod the newest so it is chosen.
        pods = new ArrayList<>(pods);
        pods.set(2, new PodBuilder(held).editMetadata().withCreationTimestamp(NOW.toString()).endMetadata().build());
        CloneSetPlan first = plan(cs, pods);
        assertEquals(List.of(), first.deletes());
        assertEquals(1, first.lifecycle().size());
        assertEquals(LifecycleState.PREPARING_DELETE, first.lifecycle().get(0).state());
        assertEquals("cs-ccccc", first.lifecycle().get(0).pod().getMetadata().getName());

        Pod preparing = new PodBuilder(pods.get(2)).editMetadata()
                .addToLabels(WellKnown.LIFECYCLE_STATE_LABEL, WellKnown.LIFECYCLE_STATE_PREPARING_DELETE).endMetadata().build();
        CloneSetPlan holding = plan(cs, List.of(pods.get(0), pods.get(1), preparing));
        assertTrue(!holding.hasActions(), holding.summary());

        Pod released = new PodBuilder(preparing).editMetadata().removeFromLabels("hold").endMetadata().build();
        CloneSetPlan release = plan(cs, List.of(pods.get(0), pods.get(1), released));
        assertEquals(List.of("cs-ccccc"), release.deletes().stream().map(d -> d.pod().getMetadata().getName()).toList());

        // Replicas back to 3 while it waits: it returns (through PreparingNormal) instead of a new pod being created.
        cs.getSpec().setReplicas(3);
        CloneSetPlan back = plan(cs, List.of(pods.get(0), pods.get(1), preparing));
        assertEquals(LifecycleState.PREPARING_NORMAL, back.lifecycle().get(0).state());
        assertEquals(List.of(), back.creates());
        Pod returning = new PodBuilder(preparing).editMetadata()
                .addToLabels(WellKnown.LIFECYCLE_STATE_LABEL, WellKnown.LIFECYCLE_STATE_PREPARING_NORMAL).endMetadata().build();
        assertEquals(LifecycleState.NORMAL, plan(cs, List.of(pods.get(0), pods.get(1), returning)).lifecycle().get(0).state(),
                "without a preNormal hook the next reconcile makes it Normal");

        // With markPodNotReady the pod never comes back; it still counts towards replicas, so it just stays held.
        hook.setMarkPodNotReady(true);
        CloneSetPlan noReturn = plan(cs, List.of(pods.get(0), pods.get(1), preparing));
        assertEquals(List.of(), noReturn.lifecycle(), noReturn.summary());
        assertEquals(List.of(), noReturn.creates(), noReturn.summary());
    }

    @Test
    void recreateUpdateMarksPodsWithinMaxUnavailable() {
        CloneSet cs = cs(5, 1);
        List<Pod> pods = new ArrayList<>();
        for (String id : List.of("aaaaa", "bbbbb", "ccccc", "ddddd", "eeeee")) {
            pods.add(pod(id, OLD, true));
        }
        CloneSetPlan plan = plan(cs, pods);
        assertEquals(CloneSetPlan.Phase.UPDATE, plan.phase());
        assertEquals(1, plan.recreates().size(), plan.summary());

        // With one old pod not ready, that one is replaced (it is already unavailable) and nothing else.
        pods.set(3, pod("ddddd", OLD, false));
        CloneSetPlan withUnready = plan(cs, pods);
        assertEquals(List.of("cs-ddddd"), withUnready.recreates().stream().map(p -> p.getMetadata().getName()).toList());

        // A pod already marked uses up the budget.
        pods.set(3, pod("ddddd", OLD, true));
        pods.set(0, new PodBuilder(pods.get(0)).editMetadata().addToLabels(WellKnown.SPECIFIED_DELETE_LABEL, "true")
                .endMetadata().build());
        CloneSetPlan marked = plan(cs, pods);
        assertEquals(CloneSetPlan.Phase.SCALE, marked.phase(), "the marked pod is deleted first: " + marked.summary());
        assertEquals(List.of("cs-aaaaa"), marked.deletes().stream().map(d -> d.pod().getMetadata().getName()).toList());
    }

    @Test
    void pausedAndInPlaceOnlyMarkNothing() {
        List<Pod> pods = List.of(pod("aaaaa", OLD, true), pod("bbbbb", OLD, true));
        CloneSet paused = cs(2, 1);
        paused.getSpec().getUpdateStrategy().setPaused(true);
        assertEquals(List.of(), plan(paused, pods).recreates());
        CloneSet inPlaceOnly = cs(2, 1);
        inPlaceOnly.getSpec().getUpdateStrategy().setType("InPlaceOnly");
        assertEquals(List.of(), plan(inPlaceOnly, pods).recreates());
    }

    @Test
    void refreshesReadinessGateAndPreNormal() {
        CloneSet cs = cs(1, 1);
        Pod gated = new PodBuilder(pod("aaaaa", NEW, true)).editOrNewSpec().addNewReadinessGate()
                .withConditionType(WellKnown.INPLACE_UPDATE_READY_CONDITION).endReadinessGate().endSpec().build();
        assertEquals(List.of(gated), plan(cs, List.of(gated)).statusWrites());

        Lifecycle lifecycle = new Lifecycle();
        LifecycleHook hook = new LifecycleHook();
        hook.setLabelsHandler(Map.of("slb", "mounted"));
        lifecycle.setPreNormal(hook);
        cs.getSpec().setLifecycle(lifecycle);
        Pod preparing = new PodBuilder(pod("aaaaa", NEW, true)).editMetadata()
                .addToLabels(WellKnown.LIFECYCLE_STATE_LABEL, WellKnown.LIFECYCLE_STATE_PREPARING_NORMAL).endMetadata().build();
        assertEquals(List.of(), plan(cs, List.of(preparing)).lifecycle(), "waits for the hook");
        Pod mounted = new PodBuilder(preparing).editMetadata().addToLabels("slb", "mounted").endMetadata().build();
        assertEquals(LifecycleState.NORMAL, plan(cs, List.of(mounted)).lifecycle().get(0).state());

        CloneSetPlan create = plan(cs, List.of());
        assertEquals(WellKnown.LIFECYCLE_STATE_PREPARING_NORMAL,
                create.creates().get(0).pod().getMetadata().getLabels().get(WellKnown.LIFECYCLE_STATE_LABEL));
    }

    @Test
    void inPlaceIfPossibleUpdatesImagesInPlaceAndRecreatesOtherChanges() {
        CloneSet v1 = cs(2, 1);
        v1.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("img:1");
        ControllerRevision r1 = CloneSetRevisions.newRevision(v1, 1, null);
        CloneSet v2 = cs(2, 1);
        v2.getSpec().getUpdateStrategy().setType("InPlaceIfPossible");
        ControllerRevision r2 = CloneSetRevisions.newRevision(v2, 2, null);
        String old = r1.getMetadata().getName();
        String upd = r2.getMetadata().getName();
        List<Pod> pods = List.of(pod("aaaaa", old, true), pod("bbbbb", old, true));
        CloneSetPlan plan = CloneSetPlanner.plan(new CloneSetPlanner.State(v2, pods, List.of(), old,
                v1.getSpec().getTemplate(), upd, CloneSetPlanner.Options.defaults(), NOW, Set.of(), List.of(r1, r2)),
                new Random(1));
        assertEquals(1, plan.inPlace().size(), plan.summary());
        assertEquals(Map.of("c", "img:2"), plan.inPlace().get(0).spec().containerImages());
        assertEquals(List.of(), plan.recreates());

        // A change that cannot be made in place (a new env var) falls back to recreating...
        CloneSet v3 = cs(2, 1);
        v3.getSpec().getUpdateStrategy().setType("InPlaceIfPossible");
        v3.getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(
                List.of(new io.fabric8.kubernetes.api.model.EnvVar("A", "1", null)));
        ControllerRevision r3 = CloneSetRevisions.newRevision(v3, 3, null);
        CloneSetPlan recreate = CloneSetPlanner.plan(new CloneSetPlanner.State(v3, pods, List.of(), old,
                v1.getSpec().getTemplate(), r3.getMetadata().getName(), CloneSetPlanner.Options.defaults(), NOW, Set.of(),
                List.of(r1, r3)), new Random(1));
        assertEquals(1, recreate.recreates().size(), recreate.summary());
        // ...or, with InPlaceOnly, to waiting.
        v3.getSpec().getUpdateStrategy().setType("InPlaceOnly");
        CloneSetPlan only = CloneSetPlanner.plan(new CloneSetPlanner.State(v3, pods, List.of(), old,
                v1.getSpec().getTemplate(), r3.getMetadata().getName(), CloneSetPlanner.Options.defaults(), NOW, Set.of(),
                List.of(r1, r3)), new Random(1));
        assertEquals(List.of(), only.recreates());
        assertEquals(List.of(), only.inPlace());
    }

    @Test
    void inPlaceUpdateHookMovesThePodToPreparingUpdateFirst() {
        CloneSet v1 = cs(1, 1);
        v1.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("img:1");
        ControllerRevision r1 = CloneSetRevisions.newRevision(v1, 1, null);
        CloneSet v2 = cs(1, 1);
        v2.getSpec().getUpdateStrategy().setType("InPlaceIfPossible");
        Lifecycle lifecycle = new Lifecycle();
        LifecycleHook hook = new LifecycleHook();
        hook.setLabelsHandler(Map.of("traffic", "on"));
        lifecycle.setInPlaceUpdate(hook);
        v2.getSpec().setLifecycle(lifecycle);
        ControllerRevision r2 = CloneSetRevisions.newRevision(v2, 2, null);
        Pod hooked = new PodBuilder(pod("aaaaa", r1.getMetadata().getName(), true)).editMetadata()
                .addToLabels("traffic", "on").endMetadata().build();
        CloneSetPlan plan = CloneSetPlanner.plan(new CloneSetPlanner.State(v2, List.of(hooked), List.of(),
                r1.getMetadata().getName(), v1.getSpec().getTemplate(), r2.getMetadata().getName(),
                CloneSetPlanner.Options.defaults(), NOW, Set.of(), List.of(r1, r2)), new Random(1));
        assertEquals(List.of(), plan.inPlace());
        assertEquals(LifecycleState.PREPARING_UPDATE, plan.lifecycle().get(0).state());
    }

    @Test
    void partitionRollbackRecreatesUpdatedPodsAtTheCurrentRevision() {
        CloneSet cs = cs(4, 2);
        cs.getSpec().getUpdateStrategy().setPartition(new IntOrString(3));
        List<Pod> pods = List.of(pod("aaaaa", NEW, true), pod("bbbbb", NEW, true), pod("ccccc", OLD, true),
                pod("ddddd", OLD, true));
        CloneSetPlanner.Options rollback = new CloneSetPlanner.Options(true, false, false, true);
        CloneSetPlan plan = CloneSetPlanner.plan(new CloneSetPlanner.State(cs, pods, List.of(), OLD,
                cs.getSpec().getTemplate(), NEW, rollback, NOW, Set.of()), new Random(1));
        assertEquals(-1, plan.diff().updateNum());
        assertEquals(1, plan.recreates().size());
        assertTrue(Pods.atRevision(plan.recreates().get(0), NEW), "an updated pod goes back");
        // Without the gate nothing moves back.
        assertEquals(List.of(), plan(cs, pods).recreates());

        // Once it is gone, the replacement is created at the current revision.
        List<Pod> after = List.of(pod("bbbbb", NEW, true), pod("ccccc", OLD, true), pod("ddddd", OLD, true));
        CloneSetPlan create = CloneSetPlanner.plan(new CloneSetPlanner.State(cs, after, List.of(), OLD,
                cs.getSpec().getTemplate(), NEW, rollback, NOW, Set.of()), new Random(1));
        assertEquals(1, create.creates().size());
        assertTrue(create.creates().get(0).atCurrentRevision());
        assertEquals(OLD, create.creates().get(0).pod().getMetadata().getLabels().get(WellKnown.CONTROLLER_REVISION_HASH_LABEL));
    }

    @Test
    void eventHandlerOptimizationIgnoresStatusNoise() {
        Pod before = pod("aaaaa", NEW, true);
        Pod heartbeat = new PodBuilder(before).editMetadata().withResourceVersion("99").endMetadata().build();
        assertTrue(!CloneSetController.EventHandlers.relevant(before, heartbeat));
        Pod notReady = new PodBuilder(before).editStatus().editFirstCondition().withStatus("False").endCondition()
                .endStatus().build();
        assertTrue(CloneSetController.EventHandlers.relevant(before, notReady));
        Pod relabelled = new PodBuilder(before).editMetadata().addToLabels("x", "y").endMetadata().build();
        assertTrue(CloneSetController.EventHandlers.relevant(before, relabelled));
    }

    /** How pods in PreparingDelete are told not to count: not at all, the CloneSet label, or the manager flag. */
    enum Exclusion { NONE, LABEL, FLAG }

    record ExclusionCase(String name, int replicas, List<Pod> pods, List<String> podsToDelete, Exclusion exclusion,
                         int creates) {
        @Override
        public String toString() {
            return name + " [" + exclusion + "]";
        }
    }

    static Pod preparingDelete(String id, boolean specified) {
        PodBuilder b = new PodBuilder(pod(id, NEW, true)).editMetadata()
                .addToLabels(WellKnown.LIFECYCLE_STATE_LABEL, WellKnown.LIFECYCLE_STATE_PREPARING_DELETE).endMetadata();
        if (specified) {
            b.editMetadata().addToLabels(WellKnown.SPECIFIED_DELETE_LABEL, "true").endMetadata();
        }
        return b.build();
    }

    /** The v1.3 scenarios: a pod held in PreparingDelete by a preDelete hook, with and without exclusion. */
    static java.util.stream.Stream<ExclusionCase> exclusionCases() {
        List<ExclusionCase> out = new ArrayList<>();
        for (Exclusion e : Exclusion.values()) {
            boolean excluded = e != Exclusion.NONE;
            // Specified delete without a replicas change: a replacement comes at once only when excluded.
            out.add(new ExclusionCase("specified delete held by the hook", 3,
                    List.of(pod("aaaaa", NEW, true), pod("bbbbb", NEW, true), preparingDelete("ccccc", true)),
                    List.of(), e, excluded ? 1 : 0));
            // Scale down 3 -> 2 naming the pod in podsToDelete, then back to 3: same.
            out.add(new ExclusionCase("scaled down with podsToDelete, then up again", 3,
                    List.of(pod("aaaaa", NEW, true), pod("bbbbb", NEW, true), preparingDelete("ccccc", false)),
                    List.of("cs-ccccc"), e, excluded ? 1 : 0));
            // Still scaled down: nothing to create either way.
            out.add(new ExclusionCase("scaled down, the hook still holds", 2,
                    List.of(pod("aaaaa", NEW, true), pod("bbbbb", NEW, true), preparingDelete("ccccc", false)),
                    List.of("cs-ccccc"), e, 0));
            // The replacement already exists: nothing more.
            out.add(new ExclusionCase("replacement created", 3,
                    List.of(pod("aaaaa", NEW, true), pod("bbbbb", NEW, true), preparingDelete("ccccc", true),
                            pod("ddddd", NEW, true)), List.of(), e, 0));
            // Scale down 3 -> 2 without naming a pod, then back to 3: the held pod returns to Normal either way.
            out.add(new ExclusionCase("scaled down by replicas, then up again", 3,
                    List.of(pod("aaaaa", NEW, true), pod("bbbbb", NEW, true), preparingDelete("ccccc", false)),
                    List.of(), e, 0));
        }
        return out.stream();
    }

    @org.junit.jupiter.params.ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.MethodSource("exclusionCases")
    void preparingDeleteExclusionByLabelOrFlag(ExclusionCase tc) {
        CloneSet cs = cs(tc.replicas(), 1);
        Lifecycle lifecycle = new Lifecycle();
        LifecycleHook hook = new LifecycleHook();
        hook.setFinalizersHandler(List.of("example.com/hold"));
        lifecycle.setPreDelete(hook);
        cs.getSpec().setLifecycle(lifecycle);
        if (!tc.podsToDelete().isEmpty()) {
            CloneSetScaleStrategy ss = new CloneSetScaleStrategy();
            ss.setPodsToDelete(tc.podsToDelete());
            cs.getSpec().setScaleStrategy(ss);
        }
        if (tc.exclusion() == Exclusion.LABEL) {
            cs.getMetadata().setLabels(Map.of(WellKnown.CLONESET_SCALING_EXCLUDE_PREPARING_DELETE_LABEL, "true"));
        }
        List<Pod> pods = new ArrayList<>();
        for (Pod p : tc.pods()) {
            pods.add(new PodBuilder(p).editMetadata().addToFinalizers("example.com/hold").endMetadata().build());
        }
        CloneSetPlanner.Options options = CloneSetPlanner.Options.defaults()
                .withScalingExcludePreparingDelete(tc.exclusion() == Exclusion.FLAG);
        CloneSetPlan plan = CloneSetPlanner.plan(new CloneSetPlanner.State(cs, pods, List.of(), NEW,
                cs.getSpec().getTemplate(), NEW, options, NOW, Set.of()), new Random(1));
        assertEquals(tc.creates(), plan.creates().size(), plan.summary());
        assertEquals(List.of(), plan.deletes(), "the hook still holds the pod: " + plan.summary());
        if (tc.name().startsWith("scaled down by replicas")) {
            assertEquals(LifecycleState.PREPARING_NORMAL, plan.lifecycle().get(0).state(), plan.summary());
        }
    }

    @Test
    void scaleDownWithSpreadConstraintsEmptiesTheCrowdedZoneFirst() {
        CloneSet cs = cs(2, 1);
        cs.getSpec().getTemplate().getSpec().setTopologySpreadConstraints(List.of(
                new io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder().withMaxSkew(1)
                        .withTopologyKey("topology.kubernetes.io/zone").withWhenUnsatisfiable("DoNotSchedule").build()));
        Map<String, Map<String, String>> nodes = Map.of(
                "n1", Map.of("topology.kubernetes.io/zone", "z1"),
                "n2", Map.of("topology.kubernetes.io/zone", "z1"),
                "n3", Map.of("topology.kubernetes.io/zone", "z2"));
        // The z2 pod is the newest: without constraints it would go first (each node runs one pod).
        List<Pod> pods = List.of(onNode(pod("aaaaa", NEW, true), "n1", 0), onNode(pod("bbbbb", NEW, true), "n2", 10),
                onNode(pod("ccccc", NEW, true), "n3", 20));
        CloneSetPlan plain = CloneSetPlanner.plan(new CloneSetPlanner.State(cs(2, 1), pods, List.of(), NEW,
                cs.getSpec().getTemplate(), NEW, CloneSetPlanner.Options.defaults(), NOW, Set.of(), List.of(),
                nodes::get), new Random(1));
        assertEquals(List.of("cs-ccccc"), plain.deletes().stream().map(d -> d.pod().getMetadata().getName()).toList());
        CloneSetPlan spread = CloneSetPlanner.plan(new CloneSetPlanner.State(cs, pods, List.of(), NEW,
                cs.getSpec().getTemplate(), NEW, CloneSetPlanner.Options.defaults(), NOW, Set.of(), List.of(),
                nodes::get), new Random(1));
        assertEquals(List.of("cs-bbbbb"), spread.deletes().stream().map(d -> d.pod().getMetadata().getName()).toList());
        // Nodes the cache does not know rank nothing: the plain order decides again.
        CloneSetPlan unknown = CloneSetPlanner.plan(new CloneSetPlanner.State(cs, pods, List.of(), NEW,
                cs.getSpec().getTemplate(), NEW, CloneSetPlanner.Options.defaults(), NOW, Set.of(), List.of(),
                name -> null), new Random(1));
        assertEquals(List.of("cs-ccccc"), unknown.deletes().stream().map(d -> d.pod().getMetadata().getName()).toList());
    }

    static Pod onNode(Pod p, String node, int createdAfterSeconds) {
        return new PodBuilder(p).editMetadata().withCreationTimestamp(NOW.minusSeconds(100 - createdAfterSeconds).toString())
                .endMetadata().editOrNewSpec().withNodeName(node).endSpec().build();
    }
}
