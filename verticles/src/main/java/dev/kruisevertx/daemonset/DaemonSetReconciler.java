package dev.kruisevertx.daemonset;

import dev.kruisevertx.revision.RevisionWrites;
import dev.kruisevertx.revision.TemplateRevisions;
import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetStatus;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.cache.Indexes;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.Reconciler;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.StalePlanException;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.controller.reason.RolloutWatch;
import dev.kruisevertx.controller.reason.WriteRejections;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.inplace.InPlaceUpdateCalculator;
import dev.kruisevertx.inplace.InPlaceUpdateOptions;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RefreshOutcome;
import dev.kruisevertx.inplace.RevisionLabels;
import dev.kruisevertx.kube.StatusWrites;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.PodPatches;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One reconcile of an Advanced DaemonSet: wait while the cache lags this controller's own writes; read the pods,
 * nodes and revisions (on a worker); write the update revision; let {@link DaemonSetPlanner} decide (on a worker);
 * let {@link DaemonSetActuator} write the plan and move in-place updates in flight along; write the status; prune
 * old revisions.
 */
final class DaemonSetReconciler implements Reconciler {
    private static final Logger LOG = LoggerFactory.getLogger(DaemonSetReconciler.class);
    private static final Duration STALE_CACHE_RECHECK = Duration.ofSeconds(1);
    private static final int DEFAULT_HISTORY_LIMIT = 10;
    static final InPlaceUpdater UPDATER = new InPlaceUpdater(RevisionLabels.plain());

    private final ControllerContext ctx;
    private final CachedResource<DaemonSet> sets;
    private final CachedResource<Pod> pods;
    private final CachedResource<Node> nodes;
    private final CachedResource<ControllerRevision> revisions;
    private final ScaleExpectations scale;
    private final ResourceVersionExpectations versions;
    private final Clock clock;
    private final DaemonSetActuator actuator;
    private final FailedPodBackoff failedPods = new FailedPodBackoff();
    private final RolloutWatch rollouts;
    private final WriteRejections rejections = new WriteRejections();
    /** The pre-download reason of the last reconcile, by set key, shown with the plan. */
    private final java.util.Map<String, BlockReason> preDownloadWhy = new java.util.concurrent.ConcurrentHashMap<>();
    /** Null when image pre-download is off (gates KruiseDaemon, PreDownloadImageForDaemonSetUpdate). */
    private final dev.kruisevertx.predownload.PreDownloadJobsCache preDownloadJobs;
    private final dev.kruisevertx.predownload.PreDownloadActuator preDownload;
    private final dev.kruisevertx.kube.EventRecorder events;

    DaemonSetReconciler(ControllerContext ctx, ScaleExpectations scale, ResourceVersionExpectations versions, Clock clock) {
        this.ctx = ctx;
        this.sets = ctx.cache().resource(DaemonSet.class);
        this.pods = ctx.cache().resource(Pod.class);
        this.nodes = ctx.cache().resource(Node.class);
        this.revisions = ctx.cache().resource(ControllerRevision.class);
        this.scale = scale;
        this.versions = versions;
        this.clock = clock;
        this.actuator = new DaemonSetActuator(ctx, scale, versions, clock, sets::get);
        this.rollouts = new RolloutWatch(DaemonSet.KIND, ctx.registry());
        this.preDownloadJobs = ctx.gates().enabled(dev.kruisevertx.features.Feature.KruiseDaemon)
                && ctx.gates().enabled(dev.kruisevertx.features.Feature.PreDownloadImageForDaemonSetUpdate)
                ? new dev.kruisevertx.predownload.PreDownloadJobsCache(ctx.cache(), clock, DaemonSetController.NAME)
                : null;
        this.preDownload = new dev.kruisevertx.predownload.PreDownloadActuator(ctx.client(), ctx.kube(), versions);
        this.events = new dev.kruisevertx.kube.EventRecorder(ctx.client(), ctx.kube(), clock, "daemonset-controller",
                DaemonSet.API_VERSION, DaemonSet.KIND);
    }

    /**
     * @param release owned pods that no longer match the selector: their controller reference goes
     * @param adopt   orphans matching the selector: they get this set as controller
     */
    private record Read(List<Pod> pods, List<Node> nodes, List<ControllerRevision> history, String unsatisfied,
                        List<Pod> release, List<Pod> adopt) {
        boolean ownershipChanges() {
            return !release.isEmpty() || !adopt.isEmpty();
        }
    }

    @Override
    public Future<Result> reconcile(Request request) {
        DaemonSet set = sets.get(request.namespace(), request.name());
        if (set == null) {
            scale.delete(request.key());
            rejections.clear(request.key());
            rollouts.forget(request.namespace(), request.name());
            ctx.plans().forget(DaemonSetController.NAME, request);
            preDownloadWhy.remove(request.key());
            return Future.succeededFuture(Result.done());
        }
        if (set.getMetadata().getDeletionTimestamp() != null) {
            // Pods and revisions go with the set through their ownerReferences.
            return Future.succeededFuture(Result.done());
        }
        if (set.getSpec() == null || set.getSpec().getSelector() == null || set.getSpec().getTemplate() == null) {
            record(request, "invalid DaemonSet: spec.selector and spec.template are required");
            return Future.succeededFuture(Result.done());
        }
        ScaleExpectations.Satisfied satisfied = scale.satisfied(request.key());
        if (!satisfied.satisfied()) {
            ctx.plans().record(DaemonSetController.NAME, request, PlanSummary.builder(
                    "waiting for the cache to see our own creates/deletes: " + satisfied.details())
                    .reasons(List.of(Reasons.expectations(satisfied))).build());
            return Future.succeededFuture(Result.requeueAfter(STALE_CACHE_RECHECK));
        }
        String uid = set.getMetadata().getUid();
        Predicate<java.util.Map<String, String>> selector;
        try {
            selector = LabelSelectors.compile(set.getSpec().getSelector());
        } catch (IllegalArgumentException e) {
            record(request, "invalid DaemonSet: spec.selector: " + e.getMessage());
            return Future.succeededFuture(Result.done());
        }
        return ctx.vertx().executeBlocking(() -> {
            List<Pod> owned = new ArrayList<>();
            List<Pod> release = new ArrayList<>();
            for (Pod p : pods.controlledBy(uid)) {
                if (!versions.isSatisfied(p)) {
                    return new Read(owned, List.of(), List.of(), p.getMetadata().getName(), List.of(), List.of());
                }
                if (selector.test(Pods.labels(p))) {
                    owned.add(p);
                } else if (Pods.isActive(p)) {
                    release.add(p);
                }
            }
            // The cache's orphan index, not the namespace: a namespace of many owned pods would make this the whole
            // cost of a reconcile.
            List<Pod> adopt = new ArrayList<>();
            for (Pod p : pods.byIndex(Indexes.ORPHAN_NAMESPACE, set.getMetadata().getNamespace())) {
                if (Pods.controllerOf(p).isEmpty() && Pods.isActive(p) && selector.test(Pods.labels(p))) {
                    adopt.add(p);
                }
            }
            return new Read(owned, nodes.list(), revisions.controlledBy(uid), null, release, adopt);
        }, false).compose(read -> {
            if (read.ownershipChanges()) {
                record(request, "releasing " + names(read.release()) + ", adopting " + names(read.adopt()));
                LOG.info("DaemonSet {}/{}: releasing {}, adopting {}", request.namespace(), request.name(),
                        names(read.release()), names(read.adopt()));
                return actuator.releaseAndAdopt(set, read.release(), read.adopt())
                        .map(v -> Result.requeueAfter(STALE_CACHE_RECHECK));
            }
            if (read.unsatisfied() != null) {
                ctx.plans().record(DaemonSetController.NAME, request, PlanSummary.builder(
                        "waiting for the cache to see our update of pod " + read.unsatisfied())
                        .reasons(List.of(Reasons.expectations("this controller's update of pod " + read.unsatisfied(),
                                List.of(read.unsatisfied())))).build());
                return Future.succeededFuture(Result.requeueAfter(STALE_CACHE_RECHECK));
            }
            return writeRevision(set, DaemonSetRevisions.resolve(set, read.history()))
                    .compose(revs -> preDownload(set, read, revs).map(revs))
                    .compose(revs -> sync(request, set, read, revs));
        });
    }

    /**
     * OpenKruise's pre-download step before the rollout (its plan's reason is kept for {@code why}); on a worker:
     * the first call may ask the API server whether the ImagePullJob CRD exists.
     */
    private Future<Void> preDownload(DaemonSet set, Read read, TemplateRevisions.Resolution revs) {
        if (preDownloadJobs == null) {
            preDownloadWhy.remove(Request.of(set).key());
            return Future.succeededFuture();
        }
        ControllerRevision update = revs.update();
        return ctx.vertx().executeBlocking(() -> {
            if (update.getMetadata().getUid() != null && !versions.isSatisfied(update)) {
                return dev.kruisevertx.predownload.PreDownloadPlan.none("waiting for the cache to see revision "
                        + update.getMetadata().getName() + " labelled");
            }
            List<ControllerRevision> old = new ArrayList<>();
            for (ControllerRevision r : read.history()) {
                if (!r.getMetadata().getName().equals(update.getMetadata().getName())) {
                    old.add(r);
                }
            }
            boolean ready = preDownloadJobs.ready();
            return dev.kruisevertx.predownload.DaemonSetPreDownload.decide(ready, set, old, update, revs.hash(),
                    preDownloadJobs.controlledBy(set.getMetadata().getUid()));
        }, false).compose(pre -> {
            if (pre.why() == null) {
                preDownloadWhy.remove(Request.of(set).key());
            } else {
                preDownloadWhy.put(Request.of(set).key(), pre.why());
            }
            return preDownload.execute(set, update, pre,
                    (reason, message) -> events.emit(set, dev.kruisevertx.kube.EventRecorder.NORMAL, reason, message));
        });
    }

    private Future<Result> sync(Request request, DaemonSet set, Read read, TemplateRevisions.Resolution revs) {
        InPlaceUpdateOptions options = InPlaceUpdateOptions.of(ctx.gates()).withRevisionName(DaemonSetRevisions::hashOf);
        List<ControllerRevision> history = new ArrayList<>(read.history());
        if (revs.toCreate() != null) {
            history.add(revs.update());
        }
        Predicate<Pod> canInPlace = p -> Pods.hasReadinessGate(p, WellKnown.INPLACE_UPDATE_READY_CONDITION)
                && InPlaceUpdateCalculator.canUpdateInPlace(revisionOf(p, history), revs.update(), options);
        java.time.Instant now = clock.instant();
        long observed = set.getStatus() == null ? 0 : set.getStatus().getObservedGeneration();
        String uid = set.getMetadata().getUid();
        DaemonSetSnapshot snap = new DaemonSetSnapshot(set, read.nodes(), read.pods(), revs.hash(), canInPlace, now,
                node -> failedPods.remaining(FailedPodBackoff.key(uid, observed, node), now),
                ctx.gates().enabled(dev.kruisevertx.features.Feature.DaemonSetPruneIneligibleNodes));
        return ctx.vertx().executeBlocking(() -> {
            DaemonSetPlan plan = DaemonSetPlanner.decide(snap);
            for (DaemonSetPlan.Deletion del : plan.deletions()) {
                if (del.reason() == DaemonSetPlan.DeleteReason.FAILED) {
                    failedPods.next(FailedPodBackoff.key(uid, observed, del.node()), now);
                }
            }
            List<DaemonSetActuator.Refresh> refresh = new ArrayList<>();
            Duration requeue = plan.requeueAfter();
            for (Pod p : read.pods()) {
                if (Pods.isTerminating(p)) {
                    continue;
                }
                RefreshOutcome r = UPDATER.refresh(p, snap.now());
                if (r.action() == RefreshOutcome.Action.UPDATE_POD) {
                    String patch = PodPatches.forPod(p, r.pod(), true);
                    if (!PodPatches.isEmpty(patch)) {
                        refresh.add(new DaemonSetActuator.Refresh(p, patch, false));
                    }
                } else if (r.action() == RefreshOutcome.Action.UPDATE_STATUS) {
                    String patch = PodPatches.forStatus(p, r.pod());
                    if (!PodPatches.isEmpty(patch)) {
                        refresh.add(new DaemonSetActuator.Refresh(p, patch, true));
                    }
                } else if (!r.requeue().isZero() && (requeue.isZero() || r.requeue().compareTo(requeue) < 0)) {
                    requeue = r.requeue();
                }
            }
            List<DaemonSetActuator.InPlace> inPlace = new ArrayList<>();
            for (Pod p : plan.inPlaceUpdates()) {
                var spec = InPlaceUpdateCalculator.calculate(revisionOf(p, history), revs.update(), options);
                if (spec != null) {
                    inPlace.add(new DaemonSetActuator.InPlace(p, spec));
                }
            }
            return new Decided(plan, refresh, inPlace, requeue, now);
        }, false).compose(d -> act(request, set, read, revs, d));
    }

    private record Decided(DaemonSetPlan plan, List<DaemonSetActuator.Refresh> refresh,
                           List<DaemonSetActuator.InPlace> inPlace, Duration requeue, java.time.Instant now) {
    }

    private Future<Result> act(Request request, DaemonSet set, Read read, TemplateRevisions.Resolution revs, Decided d) {
        DaemonSetPlan plan = d.plan();
        BlockReason preDownloadReason = preDownloadWhy.get(request.key());
        DaemonSetPlan rejected = rejections.last(request.key()).map(r -> plan.withReasons(List.of(r))).orElse(plan);
        DaemonSetPlan decided = preDownloadReason == null ? rejected : rejected.withReasons(List.of(preDownloadReason));
        ctx.plans().record(DaemonSetController.NAME, request, decided.debugSummary());
        if (plan.phase() == DaemonSetPlan.Phase.SKIPPED) {
            return Future.succeededFuture(Result.done());
        }
        if (!plan.statusOnly()) {
            LOG.debug("DaemonSet {}: {}", request, plan.reason());
        }
        return actuator.execute(set, revs.hash(), plan, d.inPlace(), d.refresh()).transform(ar -> {
            if (ar.failed() && ar.cause() instanceof StalePlanException) {
                return Future.succeededFuture(Result.done());
            }
            DaemonSetPlan shown = decided;
            if (ar.failed() && rejections.record(request.key(), ar.cause())) {
                shown = plan.withReasons(List.of(rejections.last(request.key()).orElseThrow()));
                ctx.plans().record(DaemonSetController.NAME, request, shown.debugSummary());
            } else if (ar.succeeded() && !plan.statusOnly()) {
                rejections.clear(request.key());
            }
            DaemonSetStatus status = plan.status();
            status.setCollisionCount(revs.collisionCount() == 0 && (set.getStatus() == null
                    || set.getStatus().getCollisionCount() == null) ? null : revs.collisionCount());
            Duration recheck = watchProgress(set, status, shown.reasons(), d.now());
            Future<Void> written = writeStatus(set, status).compose(v -> prune(set, read, revs));
            if (ar.failed()) {
                return written.transform(ignored -> Future.failedFuture(ar.cause()));
            }
            Duration after = d.requeue().isZero() ? recheck
                    : recheck.isZero() || d.requeue().compareTo(recheck) <= 0 ? d.requeue() : recheck;
            return written.map(v -> after.isZero() ? Result.done() : Result.requeueAfter(after));
        });
    }

    /**
     * Notices a rollout that has not progressed for {@code --workload-progress-deadline} (the DaemonSet has no
     * progressDeadlineSeconds field): one RolloutStuck Event and the blocked metric. Returns when to look again to
     * notice the deadline passing (zero: no need).
     */
    private Duration watchProgress(DaemonSet set, DaemonSetStatus status, List<BlockReason> reasons,
                                   java.time.Instant now) {
        String progress = status.getDesiredNumberScheduled() + "/" + status.getCurrentNumberScheduled() + "/"
                + status.getNumberReady() + "/" + status.getNumberAvailable() + "/"
                + status.getUpdatedNumberScheduled() + "/" + status.getUpdateRevision();
        RolloutWatch.Verdict v = rollouts.observe(set.getMetadata().getNamespace(), set.getMetadata().getName(),
                progress, reasons, RolloutWatch.defaultDeadline(ctx.settings()), now);
        if (v.becameStuck()) {
            actuator.stuck(set, RolloutWatch.EVENT_REASON, v.message());
        }
        return v.recheckIn();
    }

    private static ControllerRevision revisionOf(Pod pod, List<ControllerRevision> history) {
        String label = Pods.revisionLabel(pod);
        if (label == null) {
            return null;
        }
        for (ControllerRevision r : history) {
            if (Pods.shortHash(label).equals(Pods.shortHash(DaemonSetRevisions.hashOf(r)))) {
                return r;
            }
        }
        return null;
    }

    /** Creates (or renumbers) the update revision; a name taken by other data bumps the collision count. */
    private Future<TemplateRevisions.Resolution> writeRevision(DaemonSet set, TemplateRevisions.Resolution revs) {
        if (revs.renumber() == null && revs.toCreate() == null) {
            return Future.succeededFuture(revs);
        }
        String owner = "DaemonSet " + set.getMetadata().getNamespace() + "/" + set.getMetadata().getName();
        return ctx.kube().write(() -> RevisionWrites.write(ctx.client(), revs, owner,
                (refused, existing) -> DaemonSetRevisions.afterConflict(set, refused, existing)));
    }

    private Future<Void> writeStatus(DaemonSet set, DaemonSetStatus status) {
        if (Objects.equals(set.getStatus(), status)) {
            return Future.succeededFuture();
        }
        return ctx.kube().write(() -> StatusWrites.writeOverSameVersion(ctx.client(), DaemonSet.class, set,
                live -> live.setStatus(status))).mapEmpty();
    }

    /** Revisions beyond revisionHistoryLimit that neither a pod nor the update revision uses. */
    private Future<Void> prune(DaemonSet set, Read read, TemplateRevisions.Resolution revs) {
        Set<String> live = new HashSet<>();
        live.add(revs.hash());
        for (Pod p : read.pods()) {
            String label = Pods.revisionLabel(p);
            if (label != null) {
                live.add(label);
            }
        }
        Integer limit = set.getSpec().getRevisionHistoryLimit();
        List<Future<Void>> out = new ArrayList<>();
        for (ControllerRevision r : DaemonSetRevisions.toPrune(read.history(), live, limit == null ? DEFAULT_HISTORY_LIMIT : limit)) {
            out.add(ctx.kube().write(() -> ctx.client().apps().controllerRevisions()
                    .inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName()).delete()).mapEmpty());
        }
        return Future.join(out).mapEmpty();
    }

    private static String names(List<Pod> pods) {
        return pods.isEmpty() ? "none" : String.join(", ", pods.stream().map(p -> p.getMetadata().getName()).toList());
    }

    private void record(Request request, String summary) {
        ctx.plans().record(DaemonSetController.NAME, request, PlanSummary.of(summary));
    }
}
