package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.controller.WorkloadControllerDefinition;
import dev.kruisevertx.controller.WorkloadEvents;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.controller.reason.WriteRejections;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.vertx.core.Future;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * OpenKruise's uniteddeployment controller: one subset workload (apps/v1 StatefulSet, Advanced StatefulSet, CloneSet
 * or Deployment, as the template says; see {@link SubsetAdapter}) per topology subset, replicas from
 * {@link ReplicaAllocator}, partitions from {@code manualUpdate}, decided by {@link UnitedDeploymentPlanner} over
 * a {@link UnitedDeploymentSnapshot} and carried out by {@link UnitedDeploymentActuator}. Subset workloads reach
 * their UnitedDeployment through the controller ownerReference; their creations and deletions are expected.
 */
public final class UnitedDeploymentController extends WorkloadControllerDefinition {
    public static final String NAME = "uniteddeployment";

    public UnitedDeploymentController() {
        this(Clock.systemUTC());
    }

    public UnitedDeploymentController(Clock clock) {
        super(NAME, UnitedDeployment.class, clock);
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(UnitedDeployment.class, CloneSet.class, StatefulSet.class,
                dev.kruisevertx.api.apps.v1beta1.StatefulSet.class, Deployment.class, ControllerRevision.class, Pod.class);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<UnitedDeployment> uds = ctx.cache().resource(UnitedDeployment.class);
        List<CachedResource<? extends HasMetadata>> subsetCaches = SubsetAdapter.all().stream()
                .<CachedResource<? extends HasMetadata>>map(a -> ctx.cache().resource(a.type())).toList();
        CachedResource<ControllerRevision> revisions = ctx.cache().resource(ControllerRevision.class);
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        Expectations exp = expectations(ctx);
        ScaleExpectations scale = exp.scale();
        WorkloadEvents workloadEvents = new WorkloadEvents(UnitedDeployment.GROUP, UnitedDeployment.KIND, scale,
                exp.versions(), WorkloadEvents::decisionRelevant, (pod, queue) -> { });
        EventRecorder events = new EventRecorder(ctx.client(), ctx.kube(), clock(), "united-deployment-controller",
                UnitedDeployment.API_VERSION, UnitedDeployment.KIND);
        UnitedDeploymentActuator actuator = new UnitedDeploymentActuator(ctx, scale, events);
        ReservedPodLabels reservedLabels = new ReservedPodLabels(ctx);
        WriteRejections rejections = new WriteRejections();
        return new Controller(request -> {
            UnitedDeployment ud = uds.get(request.namespace(), request.name());
            if (ud == null || ud.getMetadata().getDeletionTimestamp() != null) {
                if (ud == null) {
                    scale.delete(request.key());
                    rejections.clear(request.key());
                    ctx.plans().forget(NAME, request);
                }
                // Its subset workloads go with it by garbage collection.
                return Future.succeededFuture(Result.done());
            }
            ScaleExpectations.Satisfied satisfied = scale.satisfied(request.key());
            if (!satisfied.satisfied()) {
                ctx.plans().record(NAME, request, PlanSummary.builder("waiting for the cache to see our own "
                        + "subset creates/deletes").reasons(List.of(Reasons.expectations(satisfied))).build());
                return Future.succeededFuture(satisfied.leaked() ? Result.done()
                        : Result.requeueAfter(Duration.ofSeconds(5)));
            }
            String uid = ud.getMetadata().getUid();
            List<HasMetadata> owned = new ArrayList<>();
            subsetCaches.forEach(c -> owned.addAll(c.controlledBy(uid)));
            UnitedDeploymentSnapshot snapshot = UnitedDeploymentSnapshot.read(revisions.controlledBy(uid), owned,
                    pods.list(request.namespace()));
            Instant now = clock().instant();
            return actuator.revisions(ud, snapshot).compose(revs -> {
                // The decision walks the subsets' pods (Adaptive): on a worker, off the event loop.
                return ctx.vertx().executeBlocking(() -> {
                    List<SubsetWorkload> workloads = snapshot.workloads(revs.updated());
                    java.util.Map<String, HasMetadata> byName = new java.util.HashMap<>();
                    owned.forEach(w -> byName.put(w.getMetadata().getName(), w));
                    return Map.entry(workloads, UnitedDeploymentDecision.decide(ud, snapshot, revs.updated(), workloads,
                            workload -> podsOf(byName.get(workload), snapshot, pods), now));
                }, false).compose(d -> {
                    List<SubsetWorkload> workloads = d.getKey();
                    UnitedDeploymentDecision decision = d.getValue();
                    UnitedDeploymentPlan plan = decision.plan();
                    PlanSummary summary = decision.debugSummary();
                    // The last refused write stays a reason until a write goes through again.
                    ctx.plans().record(NAME, request, summary.withReasons(
                            rejections.last(request.key()).map(List::of).orElse(List.of())));
                    AdaptiveScheduling.Outcome adaptive = decision.adaptive();
                    boolean reservation = ud.spec().topology().scheduleStrategy().reservationMode();
                    return reservedLabels.write(ud.getMetadata().getNamespace(),
                                    adaptive == null ? Map.of() : adaptive.labelPods())
                            .compose(v -> actuator.apply(ud, snapshot, revs, workloads, plan, decision.status(),
                                    status -> UnitedDeploymentConditions.finish(status, plan, reservation,
                                            adaptive == null ? Map.of() : adaptive.reservedPods(), now),
                                    adaptive == null ? Map.of() : adaptive.maxUnavailable()))
                            .transform(ar -> {
                                if (ar.failed()) {
                                    if (rejections.record(request.key(), ar.cause())) {
                                        ctx.plans().record(NAME, request, summary.withReasons(
                                                List.of(rejections.last(request.key()).orElseThrow())));
                                    }
                                    return Future.<Result>failedFuture(ar.cause());
                                }
                                rejections.clear(request.key());
                                return Future.succeededFuture(decision.recheckIn() == null ? Result.done()
                                        : Result.requeueAfter(decision.recheckIn()));
                            });
                });
            });
        }, List.of(WatchSpec.of(UnitedDeployment.class, workloadEvents::onOwner),
                WatchSpec.of(CloneSet.class, subsetEvents(workloadEvents)),
                WatchSpec.of(StatefulSet.class, subsetEvents(workloadEvents)),
                WatchSpec.of(dev.kruisevertx.api.apps.v1beta1.StatefulSet.class, subsetEvents(workloadEvents)),
                WatchSpec.of(Deployment.class, subsetEvents(workloadEvents)),
                WatchSpec.of(ControllerRevision.class, (event, queue) -> {
                    Request owner = workloadEvents.owner(event.object());
                    if (owner != null) {
                        queue.add(owner);
                    }
                })));
    }

    /** Subset workloads and revisions of any kind reach their UnitedDeployment through the controller reference. */
    private static <T extends HasMetadata> EventMapper<T> subsetEvents(WorkloadEvents workloadEvents) {
        return (event, queue) -> {
            if (event.type() == CacheEvent.Type.DELETED) {
                workloadEvents.ownedDeleted(event.oldObject(), queue);
                return;
            }
            Request owner = workloadEvents.owner(event.object());
            if (owner == null) {
                return;
            }
            if (event.type() == CacheEvent.Type.ADDED) {
                workloadEvents.ownedCreated(owner, event.object().getMetadata().getName(), event.initialList(), queue);
            } else {
                queue.add(owner);
            }
        };
    }

    /**
     * The pods of one subset workload, for Adaptive: those it controls; a Deployment's are controlled by its
     * ReplicaSets, so they are the namespace's pods its selector matches (the selector carries the subset-name label,
     * so no other subset's pods match), as OpenKruise's Deployment adapter reaches them through the ReplicaSets.
     */
    private static List<Pod> podsOf(HasMetadata workload, UnitedDeploymentSnapshot snapshot,
                                     CachedResource<Pod> pods) {
        if (workload == null) {
            return List.of();
        }
        if (workload instanceof Deployment d) {
            io.fabric8.kubernetes.api.model.LabelSelector selector = d.getSpec() == null ? null : d.getSpec().getSelector();
            if (selector == null) {
                return List.of();
            }
            return snapshot.pods().stream()
                    .filter(p -> dev.kruisevertx.podutil.LabelSelectors.matches(selector,
                            dev.kruisevertx.podutil.Pods.labels(p)))
                    .toList();
        }
        return pods.controlledBy(workload.getMetadata().getUid());
    }
}
