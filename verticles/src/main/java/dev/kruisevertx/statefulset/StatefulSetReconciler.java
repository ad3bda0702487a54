package dev.kruisevertx.statefulset;

import dev.kruisevertx.revision.TemplateRevisions;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetStatus;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.Reconciler;
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
import dev.kruisevertx.kube.StatusWrites;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One reconcile of an Advanced StatefulSet: wait while the cache lags this controller's own creates and deletes;
 * read a {@link StatefulSetSnapshot}; release and adopt pods if need be; write the update revision
 * ({@link StatefulSetRevisionWriter}); let {@link StatefulSetPlanner} decide everything; let
 * {@link StatefulSetActuator} write the plan; write the status; prune old revisions. Reading, deciding and counting
 * run on worker threads; a failed step fails the Future and the queue retries with backoff.
 */
final class StatefulSetReconciler implements Reconciler {
    private static final Logger LOG = LoggerFactory.getLogger(StatefulSetReconciler.class);
    private static final Duration STALE_CACHE_RECHECK = Duration.ofSeconds(1);

    private final ControllerContext ctx;
    private final CachedResource<StatefulSet> sets;
    private final CachedResource<PersistentVolumeClaim> claims;
    private final ScaleExpectations scale;
    private final Clock clock;
    private final StatefulSetSnapshotReader reader;
    private final StatefulSetRevisionWriter revisionWriter;
    private final StatefulSetPodWriter podWriter;
    private final StatefulSetActuator actuator;

    StatefulSetReconciler(ControllerContext ctx, ScaleExpectations scale, ResourceVersionExpectations versions,
                          Clock clock) {
        this.ctx = ctx;
        this.sets = ctx.cache().resource(StatefulSet.class);
        this.claims = ctx.cache().resource(PersistentVolumeClaim.class);
        this.scale = scale;
        this.clock = clock;
        this.reader = new StatefulSetSnapshotReader(ctx.cache().resource(Pod.class), claims,
                ctx.cache().resource(ControllerRevision.class), versions);
        StatefulSetEvents events = new StatefulSetEvents(ctx.client(), ctx.kube(), clock);
        this.events = events;
        this.rollouts = new RolloutWatch(StatefulSet.KIND, ctx.registry());
        this.revisionWriter = new StatefulSetRevisionWriter(ctx);
        this.podWriter = new StatefulSetPodWriter(ctx, scale, versions, events, clock);
        this.actuator = new StatefulSetActuator(podWriter, new StatefulSetClaimWriter(ctx, events), events, sets::get);
    }

    private final StatefulSetEvents events;
    private final RolloutWatch rollouts;
    private final WriteRejections rejections = new WriteRejections();

    @Override
    public Future<Result> reconcile(Request request) {
        StatefulSet set = sets.get(request.namespace(), request.name());
        if (set == null) {
            scale.delete(request.key());
            rejections.clear(request.key());
            rollouts.forget(request.namespace(), request.name());
            ctx.plans().forget(StatefulSetController.NAME, request);
            return Future.succeededFuture(Result.done());
        }
        if (set.getMetadata().getDeletionTimestamp() != null) {
            // Pods, revisions and owned PVCs go with the set through their ownerReferences.
            return Future.succeededFuture(Result.done());
        }
        StatefulSetSpec spec = set.getSpec();
        if (spec == null || spec.getSelector() == null || spec.getTemplate() == null) {
            record(request, "invalid StatefulSet: spec.selector and spec.template are required");
            return Future.succeededFuture(Result.done());
        }
        ScaleExpectations.Satisfied satisfied = scale.satisfied(request.key());
        if (!satisfied.satisfied()) {
            ctx.plans().record(StatefulSetController.NAME, request, PlanSummary.builder(
                    "waiting for the cache to see our own creates/deletes: " + satisfied.details())
                    .reasons(List.of(Reasons.expectations(satisfied))).build());
            return Future.succeededFuture(Result.requeueAfter(STALE_CACHE_RECHECK));
        }
        int replicas = spec.getReplicas() == null ? 1 : Math.max(0, spec.getReplicas());
        int start = ctx.gates().enabled(Feature.StatefulSetStartOrdinal) && spec.getOrdinals() != null
                ? Math.max(0, spec.getOrdinals().getStart()) : 0;
        return ctx.vertx().executeBlocking(() -> reader.read(set, replicas, start), false).compose(read -> {
            if (read.invalid() != null) {
                record(request, "invalid StatefulSet: " + read.invalid());
                return Future.succeededFuture(Result.done());
            }
            if (read.unsatisfied() != null) {
                ctx.plans().record(StatefulSetController.NAME, request, PlanSummary.builder(
                        "waiting for the cache to see our update of pod " + read.unsatisfied())
                        .reasons(List.of(Reasons.expectations("this controller's update of pod " + read.unsatisfied(),
                                List.of(read.unsatisfied())))).build());
                return Future.succeededFuture(Result.requeueAfter(STALE_CACHE_RECHECK));
            }
            StatefulSetSnapshot snap = read.snapshot();
            if (snap.ownershipChanges()) {
                record(request, "releasing " + names(snap.release()) + ", adopting " + names(snap.adopt()));
                LOG.info("StatefulSet {}/{}: releasing {}, adopting {}", request.namespace(), request.name(),
                        names(snap.release()), names(snap.adopt()));
                return podWriter.releaseAndAdopt(set, snap.release(), snap.adopt())
                        .map(v -> Result.requeueAfter(STALE_CACHE_RECHECK));
            }
            return revisionWriter.write(set, StatefulSetRevisions.resolve(set, snap.history()))
                    .compose(revs -> sync(request, snap, revs));
        });
    }

    private Future<Result> sync(Request request, StatefulSetSnapshot snap, TemplateRevisions.Resolution revs) {
        StatefulSetPlanner.Input input;
        try {
            input = StatefulSetStateBuilder.build(snap, revs, ctx.gates(), clock.instant());
        } catch (IllegalArgumentException e) {
            record(request, "invalid StatefulSet: " + e.getMessage());
            return Future.succeededFuture(Result.done());
        }
        // Off the event loop: the decision walks every pod (and up to 500 missing ordinals), and so does the upkeep
        // of every pod (claims, identity, in-place updates in flight, lifecycle).
        return ctx.vertx().executeBlocking(() -> StatefulSetPlanner.plan(input), false)
                .compose(plan -> act(request, input, revs, plan));
    }

    private Future<Result> act(Request request, StatefulSetPlanner.Input input, TemplateRevisions.Resolution revs,
                               StatefulSetPlan plan) {
        StatefulSet set = input.set();
        StatefulSetPlan decided = rejections.last(request.key()).map(r -> plan.withReasons(List.of(r))).orElse(plan);
        ctx.plans().record(StatefulSetController.NAME, request, decided.debugSummary());
        if (!plan.isEmpty()) {
            LOG.debug("StatefulSet {}: {}", request, plan.summary());
        }
        StatefulSetConditions.Failures failures = new StatefulSetConditions.Failures();
        return actuator.execute(set, plan, failures).transform(ar -> {
            if (ar.failed() && ar.cause() instanceof StalePlanException) {
                // The set changed or went while acting: the event that said so reconciles it again.
                return Future.succeededFuture(Result.done());
            }
            StatefulSetPlan shown = decided;
            if (ar.failed() && rejections.record(request.key(), ar.cause())) {
                shown = plan.withReasons(List.of(rejections.last(request.key()).orElseThrow()));
                ctx.plans().record(StatefulSetController.NAME, request, shown.debugSummary());
            } else if (ar.succeeded() && !plan.isEmpty()) {
                rejections.clear(request.key());
            }
            List<BlockReason> reasons = shown.reasons();
            Future<Duration> written = ctx.vertx().executeBlocking(() -> outcome(input, revs, failures), false)
                    .compose(o -> {
                        Duration recheck = watchProgress(set, o.status(), reasons, input.now());
                        return writeStatus(set, o.status())
                                .compose(v -> revisionWriter.prune(set, input.snapshot().history(), o.liveRevisions()))
                                .map(v -> recheck);
                    });
            if (ar.failed()) {
                return written.transform(ignored -> Future.failedFuture(ar.cause()));
            }
            return written.map(recheck -> {
                Duration after = plan.requeueAfter().isZero() ? recheck
                        : recheck.isZero() || plan.requeueAfter().compareTo(recheck) <= 0 ? plan.requeueAfter() : recheck;
                return after.isZero() ? Result.done() : Result.requeueAfter(after);
            });
        });
    }

    /**
     * Notices a rollout that has not progressed for {@code --workload-progress-deadline} (the Advanced
     * StatefulSet has no progressDeadlineSeconds field): one RolloutStuck Event and the blocked metric. Returns when
     * to look again to notice the deadline passing (zero: no need).
     */
    private Duration watchProgress(StatefulSet set, StatefulSetStatus status, List<BlockReason> reasons, Instant now) {
        String progress = status.getReplicas() + "/" + status.getReadyReplicas() + "/" + status.getAvailableReplicas()
                + "/" + status.getUpdatedReplicas() + "/" + status.getUpdatedReadyReplicas() + "/"
                + status.getUpdateRevision();
        RolloutWatch.Verdict v = rollouts.observe(set.getMetadata().getNamespace(), set.getMetadata().getName(),
                progress, reasons, RolloutWatch.defaultDeadline(ctx.settings()), now);
        if (v.becameStuck()) {
            events.stuck(set, RolloutWatch.EVENT_REASON, v.message());
        }
        return v.recheckIn();
    }

    /** The status and the revisions still in use, computed off the event loop from every pod. */
    private record Outcome(StatefulSetStatus status, Set<String> liveRevisions) {
    }

    /** Counts every pod (and, with volumeClaimTemplates, the claims of the desired ordinals as the cache has them). */
    private Outcome outcome(StatefulSetPlanner.Input input, TemplateRevisions.Resolution revs,
                            StatefulSetConditions.Failures failures) {
        StatefulSet set = input.set();
        Instant now = input.now();
        StatefulSetStatus status = StatefulSetStatusCalculator.calculate(input, revs.collisionCount(),
                StatefulSetConditions.of(set.getStatus() == null ? null : set.getStatus().getConditions(),
                        failures.messages(), now),
                StatefulSetClaims.status(set, input.state().desired(), claims::get,
                        () -> claims.list(set.getMetadata().getNamespace())));
        Set<String> live = new HashSet<>();
        live.add(status.getUpdateRevision());
        live.add(status.getCurrentRevision());
        for (Pod p : input.snapshot().owned()) {
            String label = Pods.label(p, WellKnown.CONTROLLER_REVISION_HASH_LABEL);
            if (label != null) {
                live.add(label);
            }
        }
        return new Outcome(status, live);
    }

    private Future<Void> writeStatus(StatefulSet set, StatefulSetStatus status) {
        if (Objects.equals(set.getStatus(), status)) {
            return Future.succeededFuture();
        }
        // Only over the version the status was computed from: see StatusWrites.
        return ctx.kube().write(() -> StatusWrites.writeOverSameVersion(ctx.client(), StatefulSet.class, set,
                live -> live.setStatus(status))).mapEmpty();
    }

    /** Names for a log line or a summary: the first few, then how many in all (a selector change releases all). */
    private static String names(List<Pod> pods) {
        return StatefulSetPlan.abbreviated(pods.stream().map(p -> p.getMetadata().getName()).toList());
    }

    private void record(Request request, String summary) {
        ctx.plans().record(StatefulSetController.NAME, request, PlanSummary.of(summary));
    }
}
