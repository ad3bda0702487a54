package dev.kruisevertx.cloneset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetConditionType;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.cache.Indexes;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.Reconciler;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.controller.reason.RolloutWatch;
import dev.kruisevertx.controller.reason.WriteRejections;
import dev.kruisevertx.controller.StalePlanException;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.kube.StatusWrites;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One reconcile of a CloneSet, top to bottom: read the cache; wait while the cache lags this controller's own
 * writes (scale and resourceVersion expectations); release pods that left the selector and adopt orphans that
 * match it; resolve revisions; let {@link CloneSetPlanner} decide; carry out the plan; write the status when it
 * changed; prune old revisions. Any failed step fails the Future, and the queue retries with backoff.
 */
final class CloneSetReconciler implements Reconciler {
    private static final Logger LOG = LoggerFactory.getLogger(CloneSetReconciler.class);
    private static final Duration STALE_CACHE_RECHECK = Duration.ofSeconds(1);

    private final ControllerContext ctx;
    private final CachedResource<CloneSet> clonesets;
    private final CachedResource<Pod> pods;
    private final CachedResource<PersistentVolumeClaim> pvcs;
    private final CachedResource<ControllerRevision> revisions;
    private final CachedResource<Node> nodes;
    private final ScaleExpectations scaleExpectations;
    private final ResourceVersionExpectations versionExpectations;
    private final OrphanCandidates orphans;
    private final CloneSetActuator actuator;
    private final Clock clock;
    private final Random random;
    private final CloneSetEvents events;
    private final WriteRejections rejections = new WriteRejections();
    private final CloneSetPubGate pubGate;
    private final RolloutWatch rollouts;
    /** Null when image pre-download is off (gates KruiseDaemon, PreDownloadImageForInPlaceUpdate). */
    private final dev.kruisevertx.predownload.PreDownloadJobsCache preDownloadJobs;
    private final dev.kruisevertx.predownload.PreDownloadActuator preDownload;

    CloneSetReconciler(ControllerContext ctx, ScaleExpectations scaleExpectations,
                       ResourceVersionExpectations versionExpectations, OrphanCandidates orphans, Clock clock,
                       Random random) {
        this.orphans = orphans;
        this.ctx = ctx;
        this.clonesets = ctx.cache().resource(CloneSet.class);
        this.pods = ctx.cache().resource(Pod.class);
        this.pvcs = ctx.cache().resource(PersistentVolumeClaim.class);
        this.revisions = ctx.cache().resource(ControllerRevision.class);
        this.nodes = ctx.cache().resource(Node.class);
        this.scaleExpectations = scaleExpectations;
        this.versionExpectations = versionExpectations;
        this.clock = clock;
        this.random = random;
        this.events = new CloneSetEvents(ctx.client(), ctx.kube(), clock);
        this.rollouts = new RolloutWatch(CloneSet.KIND, ctx.registry());
        this.pubGate = CloneSetPubGate.of(ctx, clock);
        this.preDownloadJobs = ctx.gates().enabled(Feature.KruiseDaemon)
                && ctx.gates().enabled(Feature.PreDownloadImageForInPlaceUpdate)
                ? new dev.kruisevertx.predownload.PreDownloadJobsCache(ctx.cache(), clock, CloneSetController.NAME) : null;
        this.preDownload = new dev.kruisevertx.predownload.PreDownloadActuator(ctx.client(), ctx.kube(),
                versionExpectations);
        this.actuator = new CloneSetActuator(ctx.client(), ctx.kube(), scaleExpectations, versionExpectations,
                events, clock, ctx.gates().enabled(Feature.CloneSetShortHash),
                clonesets::get);
    }

    @Override
    public Future<Result> reconcile(Request request) {
        CloneSet cs = clonesets.get(request.namespace(), request.name());
        if (cs == null) {
            scaleExpectations.delete(request.key());
            orphans.forget(request.key());
            rejections.clear(request.key());
            rollouts.forget(request.namespace(), request.name());
            ctx.plans().forget(CloneSetController.NAME, request);
            return Future.succeededFuture(Result.done());
        }
        if (cs.getMetadata().getDeletionTimestamp() != null) {
            // Pods and PVCs go with the CloneSet through their ownerReferences.
            return Future.succeededFuture(Result.done());
        }
        Predicate<Map<String, String>> selector;
        try {
            if (cs.getSpec() == null || cs.getSpec().getSelector() == null || cs.getSpec().getTemplate() == null) {
                throw new IllegalArgumentException("spec.selector and spec.template are required");
            }
            selector = LabelSelectors.compile(cs.getSpec().getSelector());
            CloneSetDiff.Limits.of(cs);
        } catch (IllegalArgumentException e) {
            record(request, "invalid CloneSet: " + e.getMessage(), null);
            return Future.succeededFuture(Result.done());
        }

        ScaleExpectations.Satisfied satisfied = scaleExpectations.satisfied(request.key());
        if (!satisfied.satisfied()) {
            ctx.plans().record(CloneSetController.NAME, request, PlanSummary.builder(
                    "waiting for the cache to see our own creates/deletes: " + satisfied.details())
                    .reasons(List.of(Reasons.expectations(satisfied))).build());
            Duration left = ctx.settings().expectationTimeout().minus(satisfied.unsatisfiedFor());
            return Future.succeededFuture(Result.requeueAfter(left.isNegative() ? STALE_CACHE_RECHECK : left));
        }

        String uid = cs.getMetadata().getUid();
        // Off the event loop: a CloneSet may own 100,000 pods (and PVCs), and the cache can be read from any thread.
        return ctx.vertx().executeBlocking(() -> snapshot(uid, selector), false).compose(snap -> {
            List<Pod> adopt = orphansToAdopt(request, cs, selector);
            if (!snap.release().isEmpty() || !adopt.isEmpty()) {
                return releaseAndAdopt(cs, snap.release(), adopt).transform(ar -> {
                    if (ar.failed()) {
                        // Some orphans may be left behind: look at the whole namespace again next time.
                        orphans.rescan(request.key());
                        return Future.failedFuture(ar.cause());
                    }
                    return Future.succeededFuture(Result.done());
                });
            }
            if (snap.unsatisfied() != null) {
                ctx.plans().record(CloneSetController.NAME, request, PlanSummary.builder(
                        "waiting for the cache to see our update of pod " + snap.unsatisfied())
                        .reasons(List.of(Reasons.expectations("this controller's update of pod " + snap.unsatisfied(),
                                List.of(snap.unsatisfied())))).build());
                return Future.succeededFuture(Result.requeueAfter(STALE_CACHE_RECHECK));
            }
            RevisionResolution revs = RevisionResolution.resolve(cs, snap.history());
            return writeRevisions(revs).compose(v -> sync(request, cs, snap.owned(), snap.claims(), snap.history(),
                    revs, snap.terminatingIds()));
        });
    }

    /**
     * What the cache holds of one CloneSet: its active pods, those to release (no longer selected), the instance ids
     * of its terminating pods, the first pod whose update by this controller the cache has not shown yet, its PVCs
     * and its revisions.
     */
    private record Snapshot(List<Pod> owned, List<Pod> release, Set<String> terminatingIds, String unsatisfied,
                            List<PersistentVolumeClaim> claims, List<ControllerRevision> history) {
    }

    private Snapshot snapshot(String uid, Predicate<Map<String, String>> selector) {
        List<Pod> owned = new ArrayList<>();
        List<Pod> release = new ArrayList<>();
        Set<String> terminatingIds = new HashSet<>();
        for (Pod p : pods.controlledBy(uid)) {
            if (!Pods.isActive(p)) {
                String id = Pods.labels(p).get(dev.kruisevertx.api.common.WellKnown.CLONESET_INSTANCE_ID_LABEL);
                if (id != null && Pods.isTerminating(p)) {
                    terminatingIds.add(id);
                }
                continue;
            }
            if (selector.test(Pods.labels(p))) {
                owned.add(p);
            } else {
                release.add(p);
            }
        }
        String unsatisfied = null;
        for (Pod p : owned) {
            if (!versionExpectations.isSatisfied(p)) {
                unsatisfied = p.getMetadata().getName();
                break;
            }
        }
        List<PersistentVolumeClaim> claims = pvcs.controlledBy(uid);
        claims.removeIf(c -> c.getMetadata().getDeletionTimestamp() != null);
        return new Snapshot(owned, release, terminatingIds, unsatisfied, claims, revisions.controlledBy(uid));
    }

    /**
     * Active orphans matching the selector: every orphan of the namespace (the cache's orphan index) on the
     * CloneSet's first look (or after its selector changed), otherwise only the pods the event handler saw
     * matching since the last reconcile.
     */
    private List<Pod> orphansToAdopt(Request request, CloneSet cs, Predicate<Map<String, String>> selector) {
        String uid = cs.getMetadata().getUid();
        Set<String> names = orphans.take(request.key(), uid, cs.getSpec().getSelector());
        List<Pod> adopt = new ArrayList<>();
        if (names == null) {
            for (Pod p : pods.byIndex(Indexes.ORPHAN_NAMESPACE, request.namespace())) {
                if (adoptable(p, selector)) {
                    adopt.add(p);
                }
            }
            orphans.scannedAll(request.key(), uid, cs.getSpec().getSelector());
            return adopt;
        }
        for (String name : names) {
            Pod p = pods.get(request.namespace(), name);
            if (p != null && adoptable(p, selector)) {
                adopt.add(p);
            }
        }
        return adopt;
    }

    private static boolean adoptable(Pod p, Predicate<Map<String, String>> selector) {
        return Pods.controllerOf(p).isEmpty() && Pods.isActive(p) && selector.test(Pods.labels(p));
    }

    private Future<Result> sync(Request request, CloneSet cs, List<Pod> owned, List<PersistentVolumeClaim> claims,
                                List<ControllerRevision> history, RevisionResolution revs, Set<String> terminatingIds) {
        String updateRevision = revs.update().getMetadata().getName();
        String currentRevision = revs.current().getMetadata().getName();
        PodTemplateSpec currentTemplate = revs.current() == revs.update() ? cs.getSpec().getTemplate()
                : CloneSetRevisions.templateOf(revs.current());
        CloneSetPlanner.Options options = new CloneSetPlanner.Options(
                ctx.gates().enabled(Feature.CloneSetPartitionRollback),
                ctx.gates().enabled(Feature.CloneSetShortHash),
                ctx.gates().enabled(Feature.PreparingUpdateAsUpdate),
                ctx.gates().enabled(Feature.InPlaceUpdateEnvFromMetadata),
                CloneSetController.scalingExcludePreparingDelete(ctx.settings()));
        CloneSetPlanner.State state = new CloneSetPlanner.State(cs, owned, claims, currentRevision, currentTemplate,
                updateRevision, options, clock.instant(), terminatingIds, withCreated(history, revs), this::nodeLabels);
        // Off the event loop: the decision grows with the pods (and, up to its bound, with the pods to create).
        // Image pre-download comes first, as in OpenKruise, and never holds the update back.
        return ctx.vertx().executeBlocking(() -> decidePreDownload(cs, revs, options), false)
                .compose(pre -> preDownload.execute(cs, revs.update(), pre,
                        (reason, message) -> events.normal(cs, reason, message)).map(pre))
                .compose(pre -> ctx.vertx().executeBlocking(() -> {
                    CloneSetPlan plan = CloneSetPlanner.plan(state, random);
                    return pre.why() == null ? plan : plan.withReasons(List.of(pre.why()));
                }, false))
                .compose(plan -> act(request, cs, owned, history, revs, plan));
    }

    /** OpenKruise's pre-download step (on a worker: the first call may ask the API server whether the CRD exists). */
    private dev.kruisevertx.predownload.PreDownloadPlan decidePreDownload(CloneSet cs, RevisionResolution revs,
                                                                         CloneSetPlanner.Options options) {
        if (preDownloadJobs == null) {
            return dev.kruisevertx.predownload.PreDownloadPlan.none("image pre-download is off");
        }
        ControllerRevision update = revs.update();
        if (update.getMetadata().getUid() != null && !versionExpectations.isSatisfied(update)) {
            // Our label on the revision is not in the cache yet: deciding again would only repeat it.
            return dev.kruisevertx.predownload.PreDownloadPlan.none("waiting for the cache to see revision "
                    + update.getMetadata().getName() + " labelled");
        }
        boolean ready = preDownloadJobs.ready();
        var inPlace = new dev.kruisevertx.inplace.InPlaceUpdateOptions(0, options.envFromMetadata(), null);
        return dev.kruisevertx.predownload.CloneSetPreDownload.decide(ready, cs, revs.current(), update,
                preDownloadJobs.controlledBy(cs.getMetadata().getUid()), inPlace);
    }

    private Future<Result> act(Request request, CloneSet cs, List<Pod> owned, List<ControllerRevision> history,
                               RevisionResolution revs, CloneSetPlan planned) {
        return pubGate.admit(planned).compose(admitted -> act(request, cs, owned, history, revs, admitted.plan(),
                admitted.refusal()));
    }

    private Future<Result> act(Request request, CloneSet cs, List<Pod> owned, List<ControllerRevision> history,
                               RevisionResolution revs, CloneSetPlan plan, BlockReason pubRefusal) {
        if (pubRefusal != null) {
            rejections.remember(request.key(), pubRefusal);
        }
        String updateRevision = revs.update().getMetadata().getName();
        String currentRevision = revs.current().getMetadata().getName();
        CloneSetPlan decided = rejections.last(request.key()).map(r -> plan.withReasons(List.of(r))).orElse(plan);
        record(request, plan.summary(), decided);

        CloneSetConditionType step = plan.phase() == CloneSetPlan.Phase.UPDATE ? CloneSetConditionType.FAILED_UPDATE
                : plan.phase() == CloneSetPlan.Phase.SCALE ? CloneSetConditionType.FAILED_SCALE : null;
        return actuator.execute(cs, plan, updateRevision).transform(ar -> {
            if (ar.failed() && ar.cause() instanceof StalePlanException) {
                // The CloneSet changed or went while acting: the event that said so reconciles it again.
                return Future.succeededFuture(Result.done());
            }
            String failure = ar.failed() ? String.valueOf(ar.cause().getMessage()) : null;
            CloneSetPlan shown = decided;
            if (ar.failed() && rejections.record(request.key(), ar.cause())) {
                shown = plan.withReasons(List.of(rejections.last(request.key()).orElseThrow()));
                record(request, plan.summary(), shown);
            } else if (ar.succeeded() && plan.hasActions() && pubRefusal == null) {
                rejections.clear(request.key());
            }
            List<BlockReason> reasons = shown.reasons();
            // Off the event loop: both walk every pod.
            Future<Duration> written = ctx.vertx().executeBlocking(() -> {
                CloneSetStatus status = CloneSetStatusCalculator.calculate(cs, owned, currentRevision, updateRevision,
                        revs.collisionCount(), step, failure, clock.instant());
                return new Outcome(status, liveRevisions(revs, owned, status));
            }, false).compose(o -> {
                Duration recheck = watchProgress(cs, o.status(), reasons);
                return writeStatus(cs, o.status()).compose(v -> pruneHistory(cs, history, o.liveRevisions()))
                        .map(v -> recheck);
            });
            if (ar.failed()) {
                return written.transform(ignored -> Future.failedFuture(ar.cause()));
            }
            return written.map(recheck -> {
                Duration after = earliest(plan.requeueAfter(), recheck);
                return after.isZero() ? Result.done() : Result.requeueAfter(after);
            });
        });
    }

    /**
     * Notices a rollout that has not progressed for its deadline (spec.progressDeadlineSeconds, else
     * {@code --workload-progress-deadline}): one RolloutStuck Event and the blocked metric. Returns when to look
     * again to notice the deadline passing (zero: no need).
     */
    private Duration watchProgress(CloneSet cs, CloneSetStatus status, List<BlockReason> reasons) {
        Integer seconds = cs.getSpec().getProgressDeadlineSeconds();
        Duration deadline = seconds != null && seconds > 0 ? Duration.ofSeconds(seconds)
                : RolloutWatch.defaultDeadline(ctx.settings());
        String progress = status.getReplicas() + "/" + status.getReadyReplicas() + "/" + status.getAvailableReplicas()
                + "/" + status.getUpdatedReplicas() + "/" + status.getUpdatedReadyReplicas() + "/"
                + status.getUpdateRevision();
        RolloutWatch.Verdict v = rollouts.observe(cs.getMetadata().getNamespace(), cs.getMetadata().getName(),
                progress, reasons, deadline, clock.instant());
        if (v.becameStuck()) {
            events.warning(cs, RolloutWatch.EVENT_REASON, v.message());
        }
        return v.recheckIn();
    }

    private static Duration earliest(Duration a, Duration b) {
        if (a.isZero()) {
            return b;
        }
        return b.isZero() || a.compareTo(b) <= 0 ? a : b;
    }

    /** The status and the revisions still in use. */
    private record Outcome(CloneSetStatus status, Set<String> liveRevisions) {
    }

    /** A node's labels from the shared cache; null when the node is not (or not yet) cached. */
    private Map<String, String> nodeLabels(String name) {
        Node node = nodes.get(null, name);
        if (node == null) {
            return null;
        }
        Map<String, String> labels = node.getMetadata().getLabels();
        return labels == null ? Map.of() : labels;
    }

    private static List<ControllerRevision> withCreated(List<ControllerRevision> history, RevisionResolution revs) {
        if (revs.toCreate() == null) {
            return history;
        }
        List<ControllerRevision> all = new ArrayList<>(history);
        all.add(revs.toCreate());
        return all;
    }

    private void record(Request request, String summary, CloneSetPlan plan) {
        ctx.plans().record(CloneSetController.NAME, request, plan == null ? PlanSummary.of(summary) : plan.debugSummary());
    }

    private Future<Void> writeRevisions(RevisionResolution revs) {
        if (revs.toCreate() != null) {
            ControllerRevision r = revs.toCreate();
            return ctx.kube().write(() -> {
                try {
                    return ctx.client().apps().controllerRevisions().inNamespace(r.getMetadata().getNamespace())
                            .resource(r).create();
                } catch (KubernetesClientException e) {
                    if (ApiErrors.isAlreadyExists(e)) {
                        // Created by an earlier attempt whose event the cache has not delivered yet.
                        return r;
                    }
                    throw e;
                }
            }).mapEmpty();
        }
        if (revs.renumber() != null) {
            ControllerRevision r = revs.renumber();
            return ctx.kube().write(() -> ctx.client().apps().controllerRevisions()
                    .inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName())
                    .edit(live -> new ControllerRevisionBuilder(live).withRevision(revs.nextNumber()).build())).mapEmpty();
        }
        return Future.succeededFuture();
    }

    private Future<Void> writeStatus(CloneSet cs, CloneSetStatus status) {
        if (Objects.equals(cs.getStatus(), status)) {
            return Future.succeededFuture();
        }
        // Only over the version the status was computed from: see StatusWrites.
        return ctx.kube().write(() -> StatusWrites.writeOverSameVersion(ctx.client(), CloneSet.class, cs,
                live -> live.setStatus(status))).mapEmpty();
    }

    /** Revisions kept whatever the history limit: the current and update ones, and those pods still run. */
    private static Set<String> liveRevisions(RevisionResolution revs, List<Pod> owned, CloneSetStatus status) {
        Set<String> live = new HashSet<>();
        live.add(revs.update().getMetadata().getName());
        live.add(revs.current().getMetadata().getName());
        if (status.getCurrentRevision() != null) {
            live.add(status.getCurrentRevision());
        }
        for (Pod p : owned) {
            String label = Pods.revisionLabel(p);
            if (label != null) {
                live.add(label);
                live.add(Pods.shortHash(label));
            }
        }
        return live;
    }

    private Future<Void> pruneHistory(CloneSet cs, List<ControllerRevision> history, Set<String> live) {
        Integer limit = cs.getSpec().getRevisionHistoryLimit();
        List<ControllerRevision> prune = CloneSetRevisions.toPrune(history, live, limit == null ? 10 : limit);
        Future<Void> chain = Future.succeededFuture();
        for (ControllerRevision r : prune) {
            chain = chain.compose(v -> ctx.kube().write(() -> ctx.client().apps().controllerRevisions()
                    .inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName()).delete()).mapEmpty());
        }
        return chain;
    }

    /** Pods that left the selector lose their ownerReference; matching orphans gain one. */
    private Future<Void> releaseAndAdopt(CloneSet cs, List<Pod> release, List<Pod> adopt) {
        String uid = cs.getMetadata().getUid();
        Future<Void> chain = Future.succeededFuture();
        for (Pod p : release) {
            chain = chain.compose(v -> editOwner(p, live -> {
                List<OwnerReference> refs = new ArrayList<>(live.getMetadata().getOwnerReferences());
                refs.removeIf(r -> uid.equals(r.getUid()));
                return new PodBuilder(live).editMetadata().withOwnerReferences(refs).endMetadata().build();
            }));
        }
        for (Pod p : adopt) {
            chain = chain.compose(v -> editOwner(p, live -> {
                if (Pods.controllerOf(live).isPresent()) {
                    return live;
                }
                return new PodBuilder(live).editMetadata().addToOwnerReferences(CloneSetRevisions.ownerReference(cs))
                        .endMetadata().build();
            }));
        }
        LOG.info("CloneSet {}/{}: releasing {} pods, adopting {}", cs.getMetadata().getNamespace(),
                cs.getMetadata().getName(), release.size(), adopt.size());
        return chain;
    }

    private Future<Void> editOwner(Pod pod, java.util.function.UnaryOperator<Pod> change) {
        return ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), pod, ObjectEdits.Part.OBJECT, change)).mapEmpty();
    }
}
