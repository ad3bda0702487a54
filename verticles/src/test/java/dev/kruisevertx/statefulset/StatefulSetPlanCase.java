package dev.kruisevertx.statefulset;

import dev.kruisevertx.revision.TemplateRevisions;
import dev.kruisevertx.api.apps.v1beta1.DesiredOrdinals;
import dev.kruisevertx.api.apps.v1beta1.PodManagementPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetOrdinals;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetScaleStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetStatus;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.UnorderedUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategyType;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.api.common.UpdatePriorityWeightTerm;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.lifecycle.Lifecycles;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * One row of {@link StatefulSetPlannerTableTest}: a set named {@code web}, its pods and PVCs, decided through the
 * controller's own snapshot, state builder and planner, and the plan written out one line per action.
 */
final class StatefulSetPlanCase {
    static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");
    static final String HOOK_LABEL = "example.com/hold";

    final String name;
    private final StatefulSet set = StatefulSetFixtures.statefulSet("ns", "web", 3, "nginx:2");
    private final List<String> podSpecs = new ArrayList<>();
    private final Map<String, PersistentVolumeClaim> claims = new HashMap<>();
    private String gates = "";
    private Consumer<StatefulSet> oldTemplate = s -> s.getSpec().getTemplate().getSpec().getContainers().get(0)
            .setImage("nginx:1");

    StatefulSetPlanCase(String name) {
        this.name = name;
        set.getMetadata().setUid("set-uid");
        set.getMetadata().setGeneration(1L);
    }

    @Override
    public String toString() {
        return name;
    }

    StatefulSetPlanCase replicas(int n) {
        set.getSpec().setReplicas(n);
        return this;
    }

    StatefulSetPlanCase parallel() {
        set.getSpec().setPodManagementPolicy(PodManagementPolicyType.PARALLEL.value());
        return this;
    }

    StatefulSetPlanCase reserve(int... ordinals) {
        List<IntOrString> r = new ArrayList<>();
        for (int o : ordinals) {
            r.add(new IntOrString(o));
        }
        set.getSpec().setReserveOrdinals(r);
        return this;
    }

    StatefulSetPlanCase start(int start) {
        return startWithoutGate(start).gate("StatefulSetStartOrdinal=true");
    }

    StatefulSetPlanCase startWithoutGate(int start) {
        StatefulSetOrdinals o = new StatefulSetOrdinals();
        o.setStart(start);
        set.getSpec().setOrdinals(o);
        return this;
    }

    StatefulSetPlanCase gate(String g) {
        gates = gates.isEmpty() ? g : gates + "," + g;
        return this;
    }

    StatefulSetPlanCase rolling(Consumer<RollingUpdateStatefulSetStrategy> c) {
        c.accept(StatefulSetFixtures.rollingUpdate(set.getSpec()));
        return this;
    }

    StatefulSetPlanCase partition(int p) {
        return rolling(r -> r.setPartition(p));
    }

    StatefulSetPlanCase maxUnavailable(String v) {
        return rolling(r -> r.setMaxUnavailable(v.endsWith("%") ? new IntOrString(v) : new IntOrString(Integer.parseInt(v))));
    }

    StatefulSetPlanCase policy(String p) {
        return rolling(r -> r.setPodUpdatePolicy(p));
    }

    StatefulSetPlanCase minReady(int s) {
        return rolling(r -> r.setMinReadySeconds(s));
    }

    StatefulSetPlanCase onDelete() {
        StatefulSetFixtures.rollingUpdate(set.getSpec());
        set.getSpec().getUpdateStrategy().setType(StatefulSetUpdateStrategyType.ON_DELETE.value());
        return this;
    }

    StatefulSetPlanCase scaleMaxUnavailable(int n) {
        StatefulSetScaleStrategy s = new StatefulSetScaleStrategy();
        s.setMaxUnavailable(new IntOrString(n));
        set.getSpec().setScaleStrategy(s);
        return this;
    }

    /** unorderedUpdate.priorityStrategy: pods labelled tier=front first. */
    StatefulSetPlanCase frontFirst() {
        UpdatePriorityWeightTerm t = new UpdatePriorityWeightTerm();
        t.setWeight(100);
        t.setMatchSelector(new LabelSelectorBuilder().addToMatchLabels("tier", "front").build());
        UpdatePriorityStrategy p = new UpdatePriorityStrategy();
        p.setWeightPriority(List.of(t));
        return rolling(r -> {
            r.setUnorderedUpdate(new UnorderedUpdateStrategy());
            r.getUnorderedUpdate().setPriorityStrategy(p);
        });
    }

    /** The old revision differs in more than the image: pods cannot be updated in place. */
    StatefulSetPlanCase envChanged() {
        oldTemplate = oldTemplate.andThen(s -> s.getSpec().getTemplate().getSpec().getContainers().get(0)
                .setEnv(List.of(new io.fabric8.kubernetes.api.model.EnvVar("MODE", "old", null))));
        return this;
    }

    /** A preDelete or inPlaceUpdate hook on {@link #HOOK_LABEL}. */
    StatefulSetPlanCase hook(boolean preDelete, boolean inPlaceUpdate) {
        Lifecycle l = new Lifecycle();
        LifecycleHook h = new LifecycleHook();
        h.setLabelsHandler(Map.of(HOOK_LABEL, "true"));
        if (preDelete) {
            l.setPreDelete(h);
        }
        if (inPlaceUpdate) {
            l.setInPlaceUpdate(h);
        }
        set.getSpec().setLifecycle(l);
        return this;
    }

    /** A volumeClaimTemplate {@code data} and the retention policy. */
    StatefulSetPlanCase volumes(String whenScaled, String whenDeleted) {
        set.getSpec().setVolumeClaimTemplates(List.of(new PersistentVolumeClaimBuilder().withNewMetadata()
                .withName("data").endMetadata().withNewSpec().withAccessModes("ReadWriteOnce").withNewResources()
                .addToRequests("storage", new Quantity("1Gi")).endResources().endSpec().build()));
        StatefulSetPersistentVolumeClaimRetentionPolicy p = new StatefulSetPersistentVolumeClaimRetentionPolicy();
        p.setWhenScaled(whenScaled);
        p.setWhenDeleted(whenDeleted);
        set.getSpec().setPersistentVolumeClaimRetentionPolicy(p);
        return this;
    }

    /** volumeClaimUpdateStrategy OnPodRollingUpdate with its gate. */
    StatefulSetPlanCase resizeOnRollingUpdate() {
        var s = new dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategy();
        s.setType(VolumeClaimUpdateStrategyType.ON_POD_ROLLING_UPDATE.value());
        set.getSpec().setVolumeClaimUpdateStrategy(s);
        return gate("StatefulSetAutoResizePVCGate=true");
    }

    /**
     * Pods as {@code ordinal:revision:state[:flag...]}: revision {@code old} or {@code new}; state ready, fresh
     * (ready 2 s ago), pending, failed or terminating; flags {@code hooked} (carries the hook label), {@code unnamed}
     * (lost its pod-name label), {@code front} (tier=front), or a lifecycle state such as {@code PreparingUpdate}.
     */
    StatefulSetPlanCase pods(String... specs) {
        podSpecs.addAll(List.of(specs));
        return this;
    }

    /**
     * An existing PVC of the template {@code data}, as {@code ordinal[:flag]}: {@code stale} (references an earlier
     * pod of its name), {@code small} (requests less than the template, bound), {@code otherMode} (another access
     * mode), {@code setOwned} (references the set).
     */
    StatefulSetPlanCase claim(String spec) {
        String[] parts = spec.split(":");
        int ordinal = Integer.parseInt(parts[0]);
        String flag = parts.length > 1 ? parts[1] : "";
        String name = PodOrdinals.claimName("data", "web", ordinal);
        PersistentVolumeClaimBuilder b = new PersistentVolumeClaimBuilder().withNewMetadata().withName(name)
                .withNamespace("ns").endMetadata().withNewSpec().withAccessModes("ReadWriteOnce").withNewResources()
                .addToRequests("storage", new Quantity(flag.equals("small") ? "500Mi" : "1Gi")).endResources()
                .endSpec().withNewStatus().withPhase("Bound")
                .addToCapacity("storage", new Quantity(flag.equals("small") ? "500Mi" : "1Gi")).endStatus();
        switch (flag) {
            case "stale" -> b.editMetadata().addToOwnerReferences(new OwnerReferenceBuilder().withApiVersion("v1")
                    .withKind("Pod").withName(PodOrdinals.podName("web", ordinal)).withUid("earlier-pod").build())
                    .endMetadata();
            case "otherMode" -> b.editSpec().withAccessModes("ReadWriteMany").endSpec();
            case "setOwned" -> b.editMetadata().addToOwnerReferences(StatefulSetClaims.setReference(set)).endMetadata();
            default -> {
            }
        }
        claims.put(name, b.build());
        return this;
    }

    /** The plan, one line per action, in the order creations, deletions, in-place, hooks, resizes, holds, upkeep, refresh. */
    List<String> plan() {
        StatefulSet old = StatefulSetFixtures.statefulSet("ns", "web", 3, "nginx:2");
        old.getMetadata().setUid("set-uid");
        oldTemplate.accept(old);
        ControllerRevision oldRev = StatefulSetRevisions.resolve(old, List.of()).update();
        ControllerRevision newRev = StatefulSetRevisions.resolve(set, List.of(oldRev)).update();
        set.setStatus(new StatefulSetStatus());
        set.getStatus().setCurrentRevision(oldRev.getMetadata().getName());
        FeatureGates featureGates = FeatureGates.parse(gates, Map.of());
        int start = set.getSpec().getOrdinals() == null || !gates.contains("StatefulSetStartOrdinal") ? 0
                : set.getSpec().getOrdinals().getStart();
        List<Pod> owned = new ArrayList<>();
        for (String spec : podSpecs) {
            owned.add(pod(spec, oldRev.getMetadata().getName(), newRev.getMetadata().getName()));
        }
        StatefulSetSnapshot snap = StatefulSetSnapshot.of(set, DesiredOrdinals.of(set.getSpec().getReplicas(), start,
                set.getSpec().getReserveOrdinals()), owned, List.of(), List.of(), List.of(oldRev, newRev), claims);
        TemplateRevisions.Resolution revs = StatefulSetRevisions.resolve(set, snap.history());
        StatefulSetPlan plan = StatefulSetPlanner.plan(StatefulSetStateBuilder.build(snap, revs, featureGates, NOW));
        return describe(plan, oldRev.getMetadata().getName());
    }

    private Pod pod(String spec, String oldRev, String newRev) {
        String[] p = spec.split(":");
        int ordinal = Integer.parseInt(p[0]);
        String name = PodOrdinals.podName("web", ordinal);
        List<String> flags = List.of(p).subList(3, p.length);
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid("uid-" + name)
                .addToLabels("app", "web").addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL,
                        p[1].equals("old") ? oldRev : newRev)
                .addToOwnerReferences(StatefulSetRevisions.ownerReference(set)).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage(p[1].equals("old") ? "nginx:1" : "nginx:2")
                .endContainer().endSpec();
        if (!flags.contains("unnamed")) {
            b.editMetadata().addToLabels(StatefulSetPods.POD_NAME_LABEL, name).endMetadata();
        }
        if (flags.contains("hooked")) {
            b.editMetadata().addToLabels(HOOK_LABEL, "true").endMetadata();
        }
        if (flags.contains("front")) {
            b.editMetadata().addToLabels("tier", "front").endMetadata();
        }
        if (set.getSpec().getVolumeClaimTemplates() != null) {
            b.editSpec().addNewVolume().withName("data").withNewPersistentVolumeClaim()
                    .withClaimName(PodOrdinals.claimName("data", "web", ordinal)).endPersistentVolumeClaim()
                    .endVolume().endSpec();
        }
        switch (p[2]) {
            case "ready", "fresh" -> b.withNewStatus().withPhase("Running").addNewCondition().withType("Ready")
                    .withStatus("True").withLastTransitionTime(Pods.formatTime(NOW.minusSeconds(
                            p[2].equals("ready") ? 600 : 2))).endCondition().endStatus();
            case "pending" -> b.withNewStatus().withPhase("Pending").endStatus();
            case "failed" -> b.withNewStatus().withPhase("Failed").endStatus();
            case "terminating" -> b.editMetadata().withDeletionTimestamp(Pods.formatTime(NOW)).endMetadata()
                    .withNewStatus().withPhase("Running").endStatus();
            default -> throw new IllegalArgumentException(p[2]);
        }
        Pod pod = b.build();
        for (String f : flags) {
            for (LifecycleState s : LifecycleState.values()) {
                if (s.value().equals(f)) {
                    Lifecycles.setState(pod.getMetadata(), s, NOW.minusSeconds(60));
                }
            }
        }
        return pod;
    }

    private static List<String> describe(StatefulSetPlan plan, String oldRev) {
        StatefulSetActions a = plan.actions();
        List<String> out = new ArrayList<>();
        for (StatefulSetActions.Creation c : a.creations()) {
            String rev = Pods.label(c.pod(), WellKnown.CONTROLLER_REVISION_HASH_LABEL).equals(oldRev) ? "old" : "new";
            out.add("create " + c.pod().getMetadata().getName() + "@" + rev + claimNames(" with ", c.claims().stream()
                    .map(x -> x.getMetadata().getName()).toList()));
        }
        for (StatefulSetActions.Deletion d : a.deletions()) {
            StatefulSetPlan.Reason why = plan.deletes().stream().filter(x -> x.name().equals(d.pod())).findFirst()
                    .orElseThrow().reason();
            out.add("delete " + d.pod() + " (" + why + ")" + claimNames(" and ", d.claims()));
        }
        a.inPlace().forEach(u -> out.add("in-place " + u.pod().getMetadata().getName()));
        a.hooks().forEach(w -> out.add(w.pod().getMetadata().getName() + " -> " + Lifecycles.rawStateOf(w.change().pod())));
        a.resizes().forEach(r -> out.add("resize " + r.claim().getMetadata().getName()));
        a.held().forEach(h -> out.add("hold " + h.pod() + ": " + h.why() + (h.claim() == null ? "" : " " + h.claim())));
        a.upkeep().claimOwners().forEach(o -> out.add("owners of " + o.claim().getMetadata().getName()
                + (o.condemned() ? " (condemned)" : "")));
        a.upkeep().identities().forEach(i -> out.add("identity of " + i.pod().getMetadata().getName() + " "
                + i.labels().keySet()));
        a.upkeep().missingClaims().forEach(m -> out.add("missing PVCs of " + m.pod() + claimNames(" ", m.claims()
                .stream().map(x -> x.getMetadata().getName()).toList())));
        a.refresh().lifecycle().forEach(w -> out.add("refresh " + w.pod().getMetadata().getName() + " -> "
                + Lifecycles.rawStateOf(w.change().pod())));
        a.refresh().patches().forEach(p -> out.add("patch " + (p.status() ? "status of " : "")
                + p.pod().getMetadata().getName()));
        if (!plan.requeueAfter().isZero()) {
            out.add("requeue " + plan.requeueAfter().toSeconds() + "s");
        }
        return out;
    }

    private static String claimNames(String prefix, List<String> names) {
        return names.isEmpty() ? "" : prefix + names;
    }
}
