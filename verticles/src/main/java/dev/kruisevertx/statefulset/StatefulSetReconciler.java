package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.DesiredOrdinals;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetStatus;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.cache.Indexes;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.PlanStaleness;
import dev.kruisevertx.controller.Reconciler;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.SlowStart;
import dev.kruisevertx.controller.StalePlanException;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.inplace.InPlaceUpdateCalculator;
import dev.kruisevertx.inplace.InPlaceUpdateOptions;
import dev.kruisevertx.inplace.InPlaceUpdateSpec;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RefreshOutcome;
import dev.kruisevertx.inplace.RevisionLabels;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.lifecycle.LifecycleChange;
import dev.kruisevertx.lifecycle.LifecycleTransitions;
import dev.kruisevertx.lifecycle.Lifecycles;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.PodPatches;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.kube.StatusWrites;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * One reconcile of an Advanced StatefulSet: read the cache; wait while it lags this controller's own creates and
 * deletes; resolve the revisions; let {@link StatefulSetPlanner} decide; carry the plan out (PVCs before their pod,
 * in-place updates through the shared {@link InPlaceUpdater}); advance in-place updates in flight; write the status;
 * prune old revisions. A failed step fails the Future and the queue retries with backoff.
 */
final class StatefulSetReconciler implements Reconciler {
    private static final Logger LOG = LoggerFactory.getLogger(StatefulSetReconciler.class);
    private static final Duration STALE_CACHE_RECHECK = Duration.ofSeconds(1);
    static final String PARALLEL = "Parallel";
    static final String ON_DELETE = "OnDelete";
    static final String IN_PLACE_IF_POSSIBLE = "InPlaceIfPossible";
    static final String IN_PLACE_ONLY = "InPlaceOnly";
    static final String DELETE = "Delete";
    static final String ON_POD_ROLLING_UPDATE = "OnPodRollingUpdate";
    /** Hash collisions are rare; a run of them this long means something else keeps taking the names. */
    private static final int MAX_REVISION_ATTEMPTS = 10;

    private final ControllerContext ctx;
    private final CachedResource<StatefulSet> sets;
    private final CachedResource<Pod> pods;
    private final CachedResource<PersistentVolumeClaim> claims;
    private final CachedResource<ControllerRevision> revisions;
    private final ScaleExpectations scale;
    private final ResourceVersionExpectations versions;
    private final InPlaceUpdater updater = new InPlaceUpdater(RevisionLabels.plain());
    private final Clock clock;
    private final StatefulSetEvents events;

    StatefulSetReconciler(ControllerContext ctx, ScaleExpectations scale, ResourceVersionExpectations versions,
                          Clock clock) {
        this.ctx = ctx;
        this.sets = ctx.cache().resource(StatefulSet.class);
        this.pods = ctx.cache().resource(Pod.class);
        this.claims = ctx.cache().resource(PersistentVolumeClaim.class);
        this.revisions = ctx.cache().resource(ControllerRevision.class);
        this.scale = scale;
        this.versions = versions;
        this.clock = clock;
        this.events = new StatefulSetEvents(ctx.client(), ctx.kube(), clock);
    }

    @Override
    public Future<Result> reconcile(Request request) {
        StatefulSet set = sets.get(request.namespace(), request.name());
        if (set == null) {
            scale.delete(request.key());
            ctx.plans().forget(StatefulSetController.NAME, request);
            return Future.succeededFuture(Result.done());
        }
        if (set.getMetadata().getDeletionTimestamp() != null) {
            // Pods, revisions and owned PVCs go with the set through their ownerReferences.
            return Future.succeededFuture(Result.done());
        }
        StatefulSetSpec spec = set.getSpec();
        if (spec == null || spec.getSelector() == null || spec.getTemplate() == null) {
            record(request, "invalid StatefulSet: spec.selector and spec.template are required", null);
            return Future.succeededFuture(Result.done());
        }
        ScaleExpectations.Satisfied satisfied = scale.satisfied(request.key());
        if (!satisfied.satisfied()) {
            record(request, "waiting for the cache to see our own creates/deletes: " + satisfied.details(), null);
            return Future.succeededFuture(Result.requeueAfter(STALE_CACHE_RECHECK));
        }

        String uid = set.getMetadata().getUid();
        String setName = set.getMetadata().getName();
        int replicas = spec.getReplicas() == null ? 1 : Math.max(0, spec.getReplicas());
        int start = ctx.gates().enabled(Feature.StatefulSetStartOrdinal) && spec.getOrdinals() != null
                ? Math.max(0, spec.getOrdinals().getStart()) : 0;
        // Off the event loop: a set may own 100,000 pods (the cache can be read from any thread), and
        // reserveOrdinals may hold a great many entries.
        return ctx.vertx().executeBlocking(() -> snapshot(spec, uid, setName, replicas, start), false).compose(snap -> {
            if (snap.invalid() != null) {
                record(request, "invalid StatefulSet: " + snap.invalid(), null);
                return Future.succeededFuture(Result.done());
            }
            if (snap.unsatisfied() != null) {
                record(request, "waiting for the cache to see our update of pod " + snap.unsatisfied(), null);
                return Future.succeededFuture(Result.requeueAfter(STALE_CACHE_RECHECK));
            }
            Predicate<Map<String, String>> selector = snap.selector();
            DesiredOrdinals desired = snap.desired();
            List<Pod> adopt = new ArrayList<>();
            // The cache's orphan index, not the namespace: at start-up every set looks once, and a namespace of
            // 100,000 owned pods made that scan the whole cost of start-up.
            for (Pod p : pods.byIndex(Indexes.ORPHAN_NAMESPACE, request.namespace())) {
                if (Pods.controllerOf(p).isEmpty() && Pods.isActive(p) && selector.test(Pods.labels(p))
                        && PodOrdinals.ordinalOf(setName, p.getMetadata().getName()) >= 0) {
                    adopt.add(p);
                }
            }
            if (!snap.release().isEmpty() || !adopt.isEmpty()) {
                record(request, "releasing " + names(snap.release()) + ", adopting " + names(adopt), null);
                return releaseAndAdopt(set, snap.release(), adopt).map(v -> Result.requeueAfter(STALE_CACHE_RECHECK));
            }
            List<ControllerRevision> history = new ArrayList<>();
            for (ControllerRevision r : revisions.byIndex(Indexes.OWNER_UID, uid)) {
                if (Pods.isControlledBy(r, uid)) {
                    history.add(r);
                }
            }
            StatefulSetRevisions.Resolution resolution = StatefulSetRevisions.resolve(set, history);
            return writeRevision(set, resolution).compose(revs -> {
                Map<String, ControllerRevision> byName = new HashMap<>();
                history.forEach(r -> byName.put(r.getMetadata().getName(), r));
                byName.put(revs.update().getMetadata().getName(), revs.update());
                return sync(request, set, snap.byOrdinal(), snap.owned(), desired, history, byName, revs);
            });
        });
    }

    /**
     * The set's settings read and its pods as the cache holds them: the ordinals it runs, its pods by ordinal, those
     * to release (no longer selected); or why the set is invalid, or the first pod whose update by this controller
     * the cache has not shown yet.
     */
    private record Snapshot(Predicate<Map<String, String>> selector, DesiredOrdinals desired,
                            Map<Integer, Pod> byOrdinal, List<Pod> owned, List<Pod> release, String invalid,
                            String unsatisfied) {
        static Snapshot invalid(String why) {
            return new Snapshot(null, null, null, null, null, why, null);
        }

        static Snapshot unsatisfied(String pod) {
            return new Snapshot(null, null, null, null, null, null, pod);
        }
    }

    private Snapshot snapshot(StatefulSetSpec spec, String uid, String setName, int replicas, int start) {
        Predicate<Map<String, String>> selector;
        DesiredOrdinals desired;
        try {
            selector = LabelSelectors.compile(spec.getSelector());
            // A range, never a list: replicas may be 2147483647 (Kubernetes allows it, so the webhook does).
            desired = DesiredOrdinals.of(replicas, start, spec.getReserveOrdinals());
        } catch (IllegalArgumentException e) {
            return Snapshot.invalid(e.getMessage());
        }
        Map<Integer, Pod> byOrdinal = new HashMap<>();
        List<Pod> owned = new ArrayList<>();
        List<Pod> release = new ArrayList<>();
        for (Pod p : pods.byIndex(Indexes.OWNER_UID, uid)) {
            if (!Pods.isControlledBy(p, uid)) {
                continue;
            }
            if (!selector.test(Pods.labels(p))) {
                if (Pods.isActive(p)) {
                    release.add(p);
                }
                continue;
            }
            int ordinal = PodOrdinals.ordinalOf(setName, p.getMetadata().getName());
            if (ordinal < 0) {
                continue;
            }
            if (!versions.isSatisfied(p)) {
                return Snapshot.unsatisfied(p.getMetadata().getName());
            }
            byOrdinal.put(ordinal, p);
            owned.add(p);
        }
        return new Snapshot(selector, desired, byOrdinal, owned, release, null, null);
    }

    private Future<Result> sync(Request request, StatefulSet set, Map<Integer, Pod> byOrdinal, List<Pod> owned,
                                DesiredOrdinals desired, List<ControllerRevision> history,
                                Map<String, ControllerRevision> byName, StatefulSetRevisions.Resolution revs) {
        ControllerRevision update = revs.update();
        StatefulSetSpec spec = set.getSpec();
        String updateRevision = update.getMetadata().getName();
        String statusCurrent = set.getStatus() == null ? null : set.getStatus().getCurrentRevision();
        String currentRevision = statusCurrent != null && byName.containsKey(statusCurrent) ? statusCurrent
                : updateRevision;
        int replicas = desired.size();
        RollingUpdateStatefulSetStrategy ru = spec.getUpdateStrategy() == null ? null
                : spec.getUpdateStrategy().getRollingUpdate();
        boolean parallel = PARALLEL.equals(spec.getPodManagementPolicy());
        boolean rolling = spec.getUpdateStrategy() == null || !ON_DELETE.equals(spec.getUpdateStrategy().getType());
        String policy = ru == null || ru.getPodUpdatePolicy() == null ? "ReCreate" : ru.getPodUpdatePolicy();
        boolean inPlacePolicy = IN_PLACE_IF_POSSIBLE.equals(policy) || IN_PLACE_ONLY.equals(policy);
        int minReady = ru == null || ru.getMinReadySeconds() == null ? 0 : Math.max(0, ru.getMinReadySeconds());
        int maxUnavailable;
        Integer scaleMaxUnavailable = null;
        try {
            maxUnavailable = ru == null || ru.getMaxUnavailable() == null ? 1
                    : Math.max(1, IntOrPercent.scaledValue(ru.getMaxUnavailable(), replicas, false));
            if (parallel && spec.getScaleStrategy() != null && spec.getScaleStrategy().getMaxUnavailable() != null) {
                scaleMaxUnavailable = Math.max(1,
                        IntOrPercent.scaledValue(spec.getScaleStrategy().getMaxUnavailable(), replicas, false));
            }
        } catch (IllegalArgumentException e) {
            record(request, "invalid StatefulSet: " + e.getMessage(), null);
            return Future.succeededFuture(Result.done());
        }
        PodTemplateSpec updateTemplate = spec.getTemplate();
        InPlaceUpdateOptions options = InPlaceUpdateOptions.of(ctx.gates()).withGracePeriodSeconds(
                ru == null || ru.getInPlaceUpdateStrategy() == null ? 0
                        : ru.getInPlaceUpdateStrategy().getGracePeriodSeconds());
        Function<Pod, String> revisionOf = p -> Pods.label(p, WellKnown.CONTROLLER_REVISION_HASH_LABEL);
        Map<String, InPlaceUpdateSpec> inPlaceSpecs = new HashMap<>();
        Predicate<Pod> inPlaceUpdatable = p -> {
            if (!inPlacePolicy) {
                return false;
            }
            ControllerRevision from = byName.get(revisionOf.apply(p));
            if (from == null) {
                return false;
            }
            InPlaceUpdateSpec s = inPlaceSpecs.computeIfAbsent(from.getMetadata().getName(), n -> {
                try {
                    return InPlaceUpdateCalculator.calculate(InPlaceUpdateCalculator.templateOf(from), updateTemplate,
                            updateRevision, options);
                } catch (IllegalArgumentException e) {
                    return null;
                }
            });
            return s != null;
        };
        Instant now = clock.instant();
        StatefulSetPlanner.State state = new StatefulSetPlanner.State(set.getMetadata().getName(), desired, parallel,
                rolling,
                ru == null || ru.getPartition() == null ? 0 : ru.getPartition(), maxUnavailable,
                ru != null && ru.isPaused(), scaleMaxUnavailable, minReady, currentRevision, updateRevision,
                byOrdinal, revisionOf, inPlaceUpdatable, IN_PLACE_ONLY.equals(policy),
                parallel && ru != null && ru.getUnorderedUpdate() != null
                        ? ru.getUnorderedUpdate().getPriorityStrategy() : null, now, claimsState(set));
        StatefulSetConditions.Failures failures = new StatefulSetConditions.Failures();
        // Off the event loop: the decision walks every pod (and up to 500 missing ordinals), and so does the upkeep
        // of every pod (claims, identity, in-place updates in flight, lifecycle), which reads in-place state
        // annotations. A grace period running out is no event either: the in-place refresh acts on it only if the
        // set is looked at again.
        return ctx.vertx().executeBlocking(() -> new Decision(StatefulSetPlanner.plan(state)
                                .requeueWithin(updater.nextGraceDue(owned, now)),
                        maintainSteps(set, owned, desired, failures), refreshSteps(set, owned, updateRevision, now)),
                        false)
                .compose(decision -> act(request, set, state, decision, failures, owned, byOrdinal, byName, history,
                        revs, inPlaceSpecs, inPlacePolicy));
    }

    /**
     * What one reconcile does, decided off the event loop: the plan, and the writes that keep each pod in line
     * (run before the plan) and that advance in-place updates and lifecycles (run after it).
     */
    private record Decision(StatefulSetPlan plan, List<Supplier<Future<Void>>> upkeep,
                            List<Supplier<Future<Void>>> refresh) {
    }

    /** The status and the revisions still in use, computed off the event loop from every pod. */
    private record Outcome(StatefulSetStatus status, Set<String> liveRevisions) {
    }

    private Future<Result> act(Request request, StatefulSet set, StatefulSetPlanner.State state, Decision decision,
                               StatefulSetConditions.Failures failures, List<Pod> owned, Map<Integer, Pod> byOrdinal,
                               Map<String, ControllerRevision> byName, List<ControllerRevision> history,
                               StatefulSetRevisions.Resolution revs, Map<String, InPlaceUpdateSpec> inPlaceSpecs,
                               boolean inPlacePolicy) {
        StatefulSetPlan plan = decision.plan();
        String updateRevision = state.updateRevision();
        Function<Pod, String> revisionOf = state.revisionOf();
        Instant now = state.now();
        record(request, plan.summary(), plan);
        if (!plan.isEmpty()) {
            LOG.debug("StatefulSet {}: {}", request, plan.summary());
        }

        Future<Void> acted = run(decision.upkeep())
                .compose(v -> execute(set, plan, byName, byOrdinal, inPlaceSpecs, revisionOf, inPlacePolicy,
                        updateRevision, failures))
                .compose(v -> run(decision.refresh()));
        return acted.transform(ar -> {
            if (ar.failed() && ar.cause() instanceof StalePlanException) {
                // The set changed or went while acting: the event that said so reconciles it again.
                return Future.succeededFuture(Result.done());
            }
            Future<Void> written = ctx.vertx().executeBlocking(() -> outcome(set, state, owned, revs, failures), false)
                    .compose(o -> writeStatus(set, o.status()).compose(v -> prune(set, history, o)));
            if (ar.failed()) {
                return written.transform(ignored -> Future.failedFuture(ar.cause()));
            }
            return written.map(v -> plan.requeueAfter().isZero() ? Result.done()
                    : Result.requeueAfter(plan.requeueAfter()));
        });
    }

    /** Counts every pod (and, with volumeClaimTemplates, the claims of the desired ordinals): for a worker thread. */
    private Outcome outcome(StatefulSet set, StatefulSetPlanner.State state, List<Pod> owned,
                            StatefulSetRevisions.Resolution revs, StatefulSetConditions.Failures failures) {
        Instant now = state.now();
        StatefulSetStatus status = StatefulSetStatusCalculator.calculate(set, owned, state.revisionOf(),
                state.currentRevision(), state.updateRevision(), state.desired().size(), state.minReadySeconds(), now,
                revs.collisionCount(), StatefulSetConditions.of(set.getStatus() == null ? null
                        : set.getStatus().getConditions(), failures.messages(), now),
                StatefulSetClaims.status(set, state.desired(), claims::get,
                        () -> claims.list(set.getMetadata().getNamespace())));
        Set<String> live = new HashSet<>();
        live.add(status.getUpdateRevision());
        live.add(status.getCurrentRevision());
        for (Pod p : owned) {
            String label = Pods.label(p, WellKnown.CONTROLLER_REVISION_HASH_LABEL);
            if (label != null) {
                live.add(label);
            }
        }
        return new Outcome(status, live);
    }

    private static Future<Void> run(List<Supplier<Future<Void>>> steps) {
        List<Future<Void>> started = new ArrayList<>(steps.size());
        for (Supplier<Future<Void>> step : steps) {
            started.add(step.get());
        }
        return Future.join(started).mapEmpty();
    }

    private Future<Void> execute(StatefulSet set, StatefulSetPlan plan, Map<String, ControllerRevision> byName,
                                 Map<Integer, Pod> byOrdinal, Map<String, InPlaceUpdateSpec> inPlaceSpecs,
                                 Function<Pod, String> revisionOf, boolean inPlacePolicy, String updateRevision,
                                 StatefulSetConditions.Failures failures) {
        String key = set.getMetadata().getNamespace() + "/" + set.getMetadata().getName();
        boolean podIndexLabel = ctx.gates().enabled(Feature.PodIndexLabel);
        boolean autoDeletePvc = ctx.gates().enabled(Feature.StatefulSetAutoDeletePVC);
        var retention = set.getSpec().getPersistentVolumeClaimRetentionPolicy();
        boolean ownClaims = autoDeletePvc && retention != null && DELETE.equals(retention.getWhenDeleted());
        boolean deleteOnScale = autoDeletePvc && retention != null && DELETE.equals(retention.getWhenScaled());
        Lifecycle lifecycle = set.getSpec().getLifecycle();
        List<Future<Void>> steps = new ArrayList<>();
        List<Supplier<Future<Void>>> creations = new ArrayList<>();
        for (StatefulSetPlan.Create c : plan.creates()) {
            PodTemplateSpec template;
            ControllerRevision r = byName.get(c.revision());
            try {
                template = c.revision().equals(updateRevision) || r == null ? set.getSpec().getTemplate()
                        : InPlaceUpdateCalculator.templateOf(r);
            } catch (IllegalArgumentException e) {
                template = set.getSpec().getTemplate();
            }
            Pod pod = StatefulSetPods.newPod(set, template, c.ordinal(), c.revision(), podIndexLabel, inPlacePolicy);
            if (lifecycle != null) {
                Lifecycles.setState(pod.getMetadata(), LifecycleTransitions.initialState(), clock.instant());
            }
            List<PersistentVolumeClaim> pvcs = StatefulSetPods.newClaims(set, c.ordinal(), ownClaims);
            if (deleteOnScale) {
                PersistentVolumeClaim stale = pvcs.stream().map(x -> claims.get(x.getMetadata().getNamespace(),
                        x.getMetadata().getName())).filter(x -> x != null
                        && StatefulSetClaims.staleForNewPod(x, pod.getMetadata().getName())).findFirst().orElse(null);
                if (stale != null) {
                    steps.add(Future.failedFuture(new IllegalStateException("PVC " + stale.getMetadata().getName()
                            + " still belongs to an earlier pod " + pod.getMetadata().getName()
                            + "; waiting for it to be collected before creating the pod")));
                    continue;
                }
            }
            creations.add(() -> createClaims(set, pod.getMetadata().getName(), pvcs).compose(v -> createPod(set, key, pod))
                    .onFailure(failures::createFailed));
        }
        // Slow start, and no more pods once the set is gone, replaced or changed (expectations are raised per pod
        // as it is sent, so pods never sent leave none behind).
        steps.add(SlowStart.run(creations, Supplier::get, () -> PlanStaleness.reason(set,
                sets.get(set.getMetadata().getNamespace(), set.getMetadata().getName())), skipped -> {
        }).onFailure(e -> {
            if (e instanceof StalePlanException) {
                LOG.info("StatefulSet {}: pod creation {}", key, e.getMessage());
            }
        }));
        for (StatefulSetPlan.Delete d : plan.deletes()) {
            Pod victim = byOrdinal.get(PodOrdinals.ordinalOf(set.getMetadata().getName(), d.name()));
            if (victim != null && d.reason() != StatefulSetPlan.Reason.FAILED
                    && LifecycleTransitions.beforeDelete(victim, lifecycle) == LifecycleTransitions.DeleteStep.PREPARE_DELETE) {
                // Held by the preDelete hook until the user's controller removes it.
                steps.add(writeLifecycle(victim, Lifecycles.withState(victim, LifecycleState.PREPARING_DELETE,
                        clock.instant(), LifecycleTransitions.preDeleteMarkPodNotReady(lifecycle))));
                continue;
            }
            Future<Void> del = deletePod(set, key, d.name());
            if (d.reason() == StatefulSetPlan.Reason.CONDEMNED && deleteOnScale) {
                int ordinal = PodOrdinals.ordinalOf(set.getMetadata().getName(), d.name());
                del = del.compose(v -> deleteClaims(set, ordinal));
            }
            steps.add(del);
        }
        for (String name : plan.resize()) {
            Pod pod = byOrdinal.get(PodOrdinals.ordinalOf(set.getMetadata().getName(), name));
            if (pod != null) {
                steps.add(resizeClaims(set, pod));
            }
        }
        for (String name : plan.inPlace()) {
            Pod pod = byOrdinal.get(PodOrdinals.ordinalOf(set.getMetadata().getName(), name));
            InPlaceUpdateSpec spec = inPlaceSpecs.get(revisionOf.apply(pod));
            if (pod == null || spec == null) {
                continue;
            }
            switch (LifecycleTransitions.beforeInPlaceUpdate(pod, lifecycle)) {
                case UPDATE -> steps.add(updateInPlace(pod, spec, lifecycle != null)
                        .onComplete(ar -> events.inPlace(set, name, updateRevision, ar.cause())));
                case TO_PREPARING_UPDATE -> steps.add(writeLifecycle(pod, Lifecycles.withState(pod,
                        LifecycleState.PREPARING_UPDATE, clock.instant(),
                        LifecycleTransitions.inPlaceUpdateMarkPodNotReady(lifecycle))));
                case TO_PREPARING_UPDATE_WITH_HANDLER -> steps.add(writeLifecycle(pod, Lifecycles.withStateAndHandler(
                        pod, LifecycleState.PREPARING_UPDATE, lifecycle.getInPlaceUpdate(), clock.instant())));
                case WAIT, NOT_ALLOWED -> {
                    // Held by the hook, or in a state (PreparingDelete) that allows no update.
                }
            }
        }
        return Future.join(steps).mapEmpty();
    }

    /** The existing, not terminating PVCs of a pod, each with its template. */
    private List<Map.Entry<PersistentVolumeClaim, PersistentVolumeClaim>> claimsOf(StatefulSet set, Pod pod) {
        List<PersistentVolumeClaim> templates = set.getSpec().getVolumeClaimTemplates();
        int ordinal = PodOrdinals.ordinalOf(set.getMetadata().getName(), pod.getMetadata().getName());
        if (templates == null || ordinal < 0) {
            return List.of();
        }
        List<Map.Entry<PersistentVolumeClaim, PersistentVolumeClaim>> out = new ArrayList<>();
        for (PersistentVolumeClaim t : templates) {
            PersistentVolumeClaim c = claims.get(set.getMetadata().getNamespace(),
                    PodOrdinals.claimName(t.getMetadata().getName(), set.getMetadata().getName(), ordinal));
            if (c != null && c.getMetadata().getDeletionTimestamp() == null) {
                out.add(Map.entry(c, t));
            }
        }
        return out;
    }

    /** volumeClaimUpdateStrategy OnPodRollingUpdate (gate StatefulSetAutoResizePVCGate) as the planner sees it. */
    private StatefulSetPlanner.Claims claimsState(StatefulSet set) {
        var strategy = set.getSpec().getVolumeClaimUpdateStrategy();
        if (!ctx.gates().enabled(Feature.StatefulSetAutoResizePVCGate) || strategy == null
                || !ON_POD_ROLLING_UPDATE.equals(strategy.getType())) {
            return StatefulSetPlanner.Claims.NONE;
        }
        return new StatefulSetPlanner.Claims(true,
                p -> claimsOf(set, p).stream().allMatch(e -> StatefulSetClaims.matches(e.getKey(), e.getValue())),
                p -> claimsOf(set, p).stream().allMatch(e -> StatefulSetClaims.compatibleWithoutSize(e.getKey(),
                        e.getValue()) && StatefulSetClaims.ready(e.getKey())),
                p -> claimsOf(set, p).stream().allMatch(e -> StatefulSetClaims.resizeCompleted(e.getKey(),
                        e.getValue())));
    }

    /**
     * Keeps each pod's identity and PVCs in line with the set before pods are created or deleted (upstream's
     * UpdateStatefulPod; a failure is FailedUpdatePod): the pod-name label, PVC ownerReferences as the
     * retention policy asks (gate StatefulSetAutoDeletePVC; condemned pods get theirs before they go), and missing
     * PVCs created for a pod still Pending or one that predates a volumeClaimTemplate. A pod's volumes cannot change
     * after creation, so such a pod mounts the new PVC once it is recreated by the next update.
     *
     * <p>Decided from the snapshot on a worker thread (it looks at every pod); the writes start on the event loop.
     */
    private List<Supplier<Future<Void>>> maintainSteps(StatefulSet set, List<Pod> owned, DesiredOrdinals desired,
                                                       StatefulSetConditions.Failures failures) {
        boolean autoDeletePvc = ctx.gates().enabled(Feature.StatefulSetAutoDeletePVC);
        var retention = set.getSpec().getPersistentVolumeClaimRetentionPolicy();
        boolean ownClaims = autoDeletePvc && retention != null && DELETE.equals(retention.getWhenDeleted());
        List<Supplier<Future<Void>>> out = new ArrayList<>();
        for (Pod p : owned) {
            if (Pods.isTerminating(p)) {
                continue;
            }
            int ordinal = PodOrdinals.ordinalOf(set.getMetadata().getName(), p.getMetadata().getName());
            boolean condemned = !desired.contains(ordinal);
            if (autoDeletePvc) {
                for (var e : claimsOf(set, p)) {
                    if (StatefulSetClaims.ownerReferencesFor(e.getKey(), set, p, condemned) != null) {
                        PersistentVolumeClaim claim = e.getKey();
                        out.add(() -> {
                            Future<Void> fixed = patchClaimOwners(set, claim, p, condemned);
                            return condemned ? fixed : fixed.onFailure(failures::updateFailed);
                        });
                    }
                }
            }
            if (condemned) {
                continue;
            }
            if (!p.getMetadata().getName().equals(Pods.label(p, StatefulSetPods.POD_NAME_LABEL))) {
                out.add(() -> restoreIdentity(p, ordinal).onFailure(failures::updateFailed));
            }
            boolean storageMatches = StatefulSetClaims.storageMatches(set, p, ordinal);
            if (!storageMatches || Pods.PHASE_PENDING.equals(Pods.phase(p))) {
                List<PersistentVolumeClaim> missing = StatefulSetPods.newClaims(set, ordinal, ownClaims).stream()
                        .filter(c -> claims.get(c.getMetadata().getNamespace(), c.getMetadata().getName()) == null)
                        .toList();
                if (!missing.isEmpty()) {
                    out.add(() -> {
                        Future<Void> created = createClaims(set, p.getMetadata().getName(), missing);
                        return storageMatches ? created : created.onFailure(failures::updateFailed);
                    });
                }
            }
        }
        return out;
    }

    /** Puts back the pod-name label (and the index labels with gate PodIndexLabel) a pod lost, as upstream. */
    private Future<Void> restoreIdentity(Pod pod, int ordinal) {
        boolean podIndexLabel = ctx.gates().enabled(Feature.PodIndexLabel);
        String name = pod.getMetadata().getName();
        return ctx.kube().write(() -> {
            try {
                return ctx.client().pods().inNamespace(pod.getMetadata().getNamespace()).withName(name).edit(live -> {
                    var meta = new io.fabric8.kubernetes.api.model.PodBuilder(live).editMetadata()
                            .addToLabels(StatefulSetPods.POD_NAME_LABEL, name);
                    if (podIndexLabel) {
                        meta.addToLabels(StatefulSetPods.K8S_POD_INDEX_LABEL, Integer.toString(ordinal))
                                .addToLabels(StatefulSetPods.KRUISE_POD_INDEX_LABEL, Integer.toString(ordinal));
                    }
                    return meta.endMetadata().build();
                });
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    return null;
                }
                throw e;
            }
        }).map(written -> {
            if (written != null) {
                versions.expect(written);
            }
            return null;
        });
    }

    private Future<Void> patchClaimOwners(StatefulSet set, PersistentVolumeClaim claim, Pod pod, boolean condemned) {
        String ns = claim.getMetadata().getNamespace();
        String name = claim.getMetadata().getName();
        return ctx.kube().write(() -> {
            try {
                return ctx.client().persistentVolumeClaims().inNamespace(ns).withName(name).edit(live -> {
                    List<io.fabric8.kubernetes.api.model.OwnerReference> refs =
                            StatefulSetClaims.ownerReferencesFor(live, set, pod, condemned);
                    return refs == null ? live : new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder(live)
                            .editMetadata().withOwnerReferences(refs).endMetadata().build();
                });
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    return null;
                }
                throw e;
            }
        }).mapEmpty();
    }

    /**
     * Expands a pod's PVCs to their grown templates (OnPodRollingUpdate), as OpenKruise: only the size may differ,
     * and the storage class must allow expansion; the PVC is annotated with the set that resized it.
     */
    private Future<Void> resizeClaims(StatefulSet set, Pod pod) {
        String podName = pod.getMetadata().getName();
        List<Future<Void>> out = new ArrayList<>();
        for (var e : claimsOf(set, pod)) {
            PersistentVolumeClaim claim = e.getKey();
            PersistentVolumeClaim template = e.getValue();
            String name = claim.getMetadata().getName();
            if (StatefulSetClaims.matches(claim, template)) {
                continue;
            }
            if (!StatefulSetClaims.compatibleWithoutSize(claim, template)) {
                events.claimNotUpdatable(set, name);
                out.add(Future.failedFuture(new IllegalStateException("can not patch pvc " + name
                        + ": contains diff other than spec resource, wait pvc to be deleted")));
                continue;
            }
            out.add(ctx.kube().write(() -> {
                String className = claim.getSpec().getStorageClassName();
                if (className != null) {
                    var storageClass = ctx.client().storage().v1().storageClasses().withName(className).get();
                    if (storageClass == null) {
                        throw new IllegalStateException("could not get sc " + className + " for " + podName
                                + " when checking PVC spec");
                    }
                    if (!Boolean.TRUE.equals(storageClass.getAllowVolumeExpansion())) {
                        throw new IllegalStateException("storage class " + className + " for " + podName
                                + " does not support volume expansion");
                    }
                }
                return ctx.client().persistentVolumeClaims().inNamespace(claim.getMetadata().getNamespace())
                        .withName(name).edit(live -> {
                            var b = new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder(live)
                                    .editMetadata().addToAnnotations(StatefulSetClaims.OWNED_BY_ASTS_ANNOTATION,
                                            set.getMetadata().getName()).endMetadata();
                            if (StatefulSetClaims.needsExpansion(live, template)) {
                                b.editSpec().withResources(template.getSpec().getResources()).endSpec();
                            }
                            return b.build();
                        });
            }).transform(ar -> {
                events.claimAction(set, "resize", name, podName, ar.cause());
                return ar.failed() ? Future.failedFuture(ar.cause()) : Future.<Void>succeededFuture();
            }));
        }
        return Future.join(out).mapEmpty();
    }

    private Future<Void> createClaims(StatefulSet set, String podName, List<PersistentVolumeClaim> pvcs) {
        Future<Void> chain = Future.succeededFuture();
        for (PersistentVolumeClaim c : pvcs) {
            if (claims.get(c.getMetadata().getNamespace(), c.getMetadata().getName()) != null) {
                continue;
            }
            chain = chain.compose(v -> ctx.kube().write(() -> {
                try {
                    return ctx.client().persistentVolumeClaims().inNamespace(c.getMetadata().getNamespace())
                            .resource(c).create();
                } catch (KubernetesClientException e) {
                    if (e.getCode() == 409) {
                        // Retained from an earlier pod of this ordinal: the new pod mounts it again.
                        return null;
                    }
                    throw e;
                }
            }).transform(ar -> {
                if (ar.failed() || ar.result() != null) {
                    events.claimAction(set, "create", c.getMetadata().getName(), podName, ar.cause());
                }
                return ar.failed() ? Future.failedFuture(ar.cause()) : Future.<Void>succeededFuture();
            }));
        }
        return chain;
    }

    private Future<Void> deleteClaims(StatefulSet set, int ordinal) {
        List<PersistentVolumeClaim> templates = set.getSpec().getVolumeClaimTemplates();
        if (templates == null || ordinal < 0) {
            return Future.succeededFuture();
        }
        List<Future<Void>> out = new ArrayList<>();
        for (PersistentVolumeClaim t : templates) {
            String name = PodOrdinals.claimName(t.getMetadata().getName(), set.getMetadata().getName(), ordinal);
            out.add(ctx.kube().write(() -> ctx.client().persistentVolumeClaims()
                    .inNamespace(set.getMetadata().getNamespace()).withName(name).delete()).mapEmpty());
        }
        return Future.join(out).mapEmpty();
    }

    private Future<Void> createPod(StatefulSet set, String key, Pod pod) {
        String name = pod.getMetadata().getName();
        scale.expectCreate(key, name);
        return ctx.kube().write(() -> {
            try {
                return ctx.client().pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
            } catch (KubernetesClientException e) {
                if (e.getCode() == 409) {
                    // The cache has not shown it yet; the ADDED event observes the expectation.
                    return null;
                }
                scale.observeCreate(key, name);
                throw e;
            }
        }).transform(ar -> {
            if (ar.failed() || ar.result() != null) {
                events.podAction(set, "create", name, ar.cause());
            }
            return ar.failed() ? Future.failedFuture(ar.cause()) : Future.<Void>succeededFuture();
        });
    }

    private Future<Void> deletePod(StatefulSet set, String key, String name) {
        String namespace = set.getMetadata().getNamespace();
        scale.expectDelete(key, name);
        return ctx.kube().write(() -> {
            try {
                var deleted = ctx.client().pods().inNamespace(namespace).withName(name).delete();
                if (deleted == null || deleted.isEmpty()) {
                    scale.observeDelete(key, name);
                    return null;
                }
                return deleted;
            } catch (KubernetesClientException e) {
                scale.observeDelete(key, name);
                if (e.getCode() == 404) {
                    return null;
                }
                throw e;
            }
        }).transform(ar -> {
            if (ar.failed() || ar.result() != null) {
                events.podAction(set, "delete", name, ar.cause());
            }
            return ar.failed() ? Future.failedFuture(ar.cause()) : Future.<Void>succeededFuture();
        });
    }

    /** InPlaceUpdateReady=False through the status, then the new spec through a resourceVersion-guarded patch. */
    private Future<Void> updateInPlace(Pod pod, InPlaceUpdateSpec spec, boolean withLifecycle) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        return ctx.kube().write(() -> {
            Pod live = ctx.client().pods().inNamespace(ns).withName(name).get();
            if (live == null) {
                return null;
            }
            Pod starting = updater.markUpdateStarting(live, clock.instant());
            if (starting != live) {
                live = ctx.client().pods().inNamespace(ns).withName(name).subresource("status")
                        .patch(PatchContext.of(PatchType.JSON), PodPatches.forStatus(live, starting));
            }
            Pod prepared = updater.prepare(live, spec, clock.instant());
            if (withLifecycle) {
                Lifecycles.setState(prepared.getMetadata(), LifecycleState.UPDATING, clock.instant());
            }
            return ctx.client().pods().inNamespace(ns).withName(name)
                    .patch(PatchContext.of(PatchType.JSON), PodPatches.forPod(live, prepared, true));
        }).map(written -> {
            if (written != null) {
                versions.expect(written);
            }
            return null;
        });
    }

    /**
     * Advances in-place updates in flight (grace periods, next batches, InPlaceUpdateReady back to True) and the
     * lifecycle states (PreparingNormal, Updating and Updated on to Normal when the hooks allow).
     *
     * <p>Decided from the snapshot on a worker thread (it parses the in-place state of every pod that has one); the
     * writes start on the event loop once the plan was carried out.
     */
    private List<Supplier<Future<Void>>> refreshSteps(StatefulSet set, List<Pod> owned, String updateRevision,
                                                      Instant now) {
        List<Supplier<Future<Void>>> out = new ArrayList<>();
        Lifecycle lifecycle = set.getSpec().getLifecycle();
        for (Pod p : owned) {
            if (Pods.isTerminating(p)) {
                continue;
            }
            Optional<LifecycleState> next = LifecycleTransitions.onRefresh(p, lifecycle,
                    updateRevision.equals(Pods.label(p, WellKnown.CONTROLLER_REVISION_HASH_LABEL)),
                    updater.checkCompleted(p).done());
            if (next.isPresent()) {
                LifecycleChange change = Lifecycles.withState(p, next.get(), now,
                        LifecycleTransitions.refreshMarkPodNotReady(lifecycle));
                out.add(() -> writeLifecycle(p, change));
                continue;
            }
            RefreshOutcome r = updater.refresh(p, now);
            if (r.action() == RefreshOutcome.Action.UPDATE_POD) {
                String patch = PodPatches.forPod(p, r.pod(), true);
                if (!PodPatches.isEmpty(patch)) {
                    out.add(() -> ctx.kube().write(() -> ctx.client().pods()
                            .inNamespace(p.getMetadata().getNamespace()).withName(p.getMetadata().getName())
                            .patch(PatchContext.of(PatchType.JSON), patch))
                            .map(w -> {
                                versions.expect(w);
                                return null;
                            }));
                }
            } else if (r.action() == RefreshOutcome.Action.UPDATE_STATUS) {
                String patch = PodPatches.forStatus(p, r.pod());
                if (!PodPatches.isEmpty(patch)) {
                    out.add(() -> ctx.kube().write(() -> ctx.client().pods()
                            .inNamespace(p.getMetadata().getNamespace()).withName(p.getMetadata().getName())
                            .subresource("status").patch(PatchContext.of(PatchType.JSON), patch)).mapEmpty());
                }
            }
        }
        return out;
    }

    /** Writes a lifecycle change: the status (KruisePodReady) first, then the labels, guarded by resourceVersion. */
    private Future<Void> writeLifecycle(Pod pod, LifecycleChange change) {
        if (!change.changed()) {
            return Future.succeededFuture();
        }
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        return ctx.kube().write(() -> {
            Pod written = null;
            if (change.statusChanged()) {
                String patch = PodPatches.forStatus(pod, change.pod());
                if (!PodPatches.isEmpty(patch)) {
                    written = ctx.client().pods().inNamespace(ns).withName(name).subresource("status")
                            .patch(PatchContext.of(PatchType.JSON), patch);
                }
            }
            if (change.metadataChanged()) {
                Pod base = written == null ? pod : written;
                Pod target = new io.fabric8.kubernetes.api.model.PodBuilder(base)
                        .withMetadata(change.pod().getMetadata()).build();
                target.getMetadata().setResourceVersion(base.getMetadata().getResourceVersion());
                String patch = PodPatches.forPod(base, target, true);
                if (!PodPatches.isEmpty(patch)) {
                    written = ctx.client().pods().inNamespace(ns).withName(name)
                            .patch(PatchContext.of(PatchType.JSON), patch);
                }
            }
            return written;
        }).map(written -> {
            if (written != null) {
                versions.expect(written);
            }
            return null;
        });
    }

    /**
     * Creates (or renumbers) the update revision. A name taken by a revision our cache has not shown yet is checked
     * against the API: the same data means it is ours, other data a hash collision, which bumps the collision count
     * and tries the next name, as Kubernetes' controller history does.
     */
    private Future<StatefulSetRevisions.Resolution> writeRevision(StatefulSet set,
                                                                   StatefulSetRevisions.Resolution revs) {
        if (revs.renumber() != null) {
            ControllerRevision r = revs.renumber();
            return ctx.kube().write(() -> ctx.client().apps().controllerRevisions()
                    .inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName())
                    .edit(live -> new io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder(live)
                            .withRevision(revs.nextNumber()).build())).map(v -> revs);
        }
        if (revs.toCreate() == null) {
            return Future.succeededFuture(revs);
        }
        return ctx.kube().write(() -> {
            StatefulSetRevisions.Resolution current = revs;
            for (int attempt = 1; ; attempt++) {
                ControllerRevision r = current.toCreate();
                try {
                    ctx.client().apps().controllerRevisions().inNamespace(r.getMetadata().getNamespace())
                            .resource(r).create();
                    return current;
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 409 || attempt >= MAX_REVISION_ATTEMPTS) {
                        throw e;
                    }
                }
                ControllerRevision existing = ctx.client().apps().controllerRevisions()
                        .inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName()).get();
                current = StatefulSetRevisions.afterConflict(set, current, existing);
                if (current.toCreate() == null) {
                    return current;
                }
                LOG.info("StatefulSet {}/{}: ControllerRevision {} exists with other data, collision count now {}",
                        set.getMetadata().getNamespace(), set.getMetadata().getName(), r.getMetadata().getName(),
                        current.collisionCount());
            }
        });
    }

    private Future<Void> writeStatus(StatefulSet set, StatefulSetStatus status) {
        if (Objects.equals(set.getStatus(), status)) {
            return Future.succeededFuture();
        }
        // Only over the version the status was computed from: see StatusWrites.
        return ctx.kube().write(() -> StatusWrites.writeOverSameVersion(ctx.client(), StatefulSet.class, set,
                live -> live.setStatus(status))).mapEmpty();
    }

    private Future<Void> prune(StatefulSet set, List<ControllerRevision> history, Outcome outcome) {
        Integer limit = set.getSpec().getRevisionHistoryLimit();
        List<ControllerRevision> prune = StatefulSetRevisions.toPrune(history, outcome.liveRevisions(),
                limit == null ? 10 : limit);
        List<Future<Void>> out = new ArrayList<>();
        for (ControllerRevision r : prune) {
            out.add(ctx.kube().write(() -> ctx.client().apps().controllerRevisions()
                    .inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName()).delete())
                    .mapEmpty());
        }
        return Future.join(out).mapEmpty();
    }

    /** Names for a log line or a summary: the first few, then how many in all (a selector change releases all). */
    private static String names(List<Pod> pods) {
        return StatefulSetPlanner.abbreviated(pods.stream().map(p -> p.getMetadata().getName()).toList());
    }

    /**
     * Pods that stopped matching the selector lose their ownerReference; orphans named like this set's pods that
     * match it gain one, as upstream's ClaimPods. Each edit re-reads the pod and re-checks, so a race with another
     * controller adopting it first does no harm.
     */
    private Future<Void> releaseAndAdopt(StatefulSet set, List<Pod> release, List<Pod> adopt) {
        String uid = set.getMetadata().getUid();
        List<Future<Void>> out = new ArrayList<>();
        for (Pod p : release) {
            out.add(editPod(p, live -> {
                List<io.fabric8.kubernetes.api.model.OwnerReference> refs =
                        new ArrayList<>(live.getMetadata().getOwnerReferences());
                refs.removeIf(r -> uid.equals(r.getUid()));
                return new io.fabric8.kubernetes.api.model.PodBuilder(live).editMetadata().withOwnerReferences(refs)
                        .endMetadata().build();
            }));
        }
        for (Pod p : adopt) {
            out.add(editPod(p, live -> Pods.controllerOf(live).isPresent() ? live
                    : new io.fabric8.kubernetes.api.model.PodBuilder(live).editMetadata()
                    .addToOwnerReferences(StatefulSetRevisions.ownerReference(set)).endMetadata().build()));
        }
        LOG.info("StatefulSet {}/{}: releasing {}, adopting {}", set.getMetadata().getNamespace(),
                set.getMetadata().getName(), names(release), names(adopt));
        return Future.join(out).mapEmpty();
    }

    private Future<Void> editPod(Pod pod, java.util.function.UnaryOperator<Pod> change) {
        return ctx.kube().write(() -> {
            try {
                return ctx.client().pods().inNamespace(pod.getMetadata().getNamespace())
                        .withName(pod.getMetadata().getName()).edit(change);
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    return null;
                }
                throw e;
            }
        }).mapEmpty();
    }

    private void record(Request request, String summary, StatefulSetPlan plan) {
        ctx.plans().record(StatefulSetController.NAME, request,
                plan == null ? dev.kruisevertx.controller.PlanSummary.of(summary) : plan.debugSummary());
    }
}
