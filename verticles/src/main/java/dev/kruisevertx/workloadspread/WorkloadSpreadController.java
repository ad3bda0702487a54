package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.NamedControllerDefinition;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * OpenKruise's workloadspread controller: per WorkloadSpread, the target workload's pods grouped into subsets, their
 * {@code controller.kubernetes.io/pod-deletion-cost}, the subset status (expiring the webhook's creating/deleting
 * records) and, with the Adaptive strategy, deletion of pods unschedulable past {@code rescheduleCriticalSeconds}.
 * Snapshot and decision on a worker (they walk the workload's pods); writes through the fenced executor.
 */
public final class WorkloadSpreadController extends NamedControllerDefinition {
    public static final String NAME = "workloadspread";
    private final Clock clock;

    public WorkloadSpreadController() {
        this(Clock.systemUTC());
    }

    public WorkloadSpreadController(Clock clock) {
        super(NAME, WorkloadSpread.class);
        this.clock = clock;
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(WorkloadSpread.class, Pod.class, Node.class, CloneSet.class, Deployment.class, ReplicaSet.class);
    }

    @Override
    public boolean enabled(FeatureGates gates) {
        return gates.enabled(Feature.WorkloadSpread);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<WorkloadSpread> spreads = ctx.cache().resource(WorkloadSpread.class);
        PodVersions versions = PodVersions.of(ctx.settings().extra().getOrDefault(
                WorkloadSpreads.VERSIONED_STATUS_FLAG, WorkloadSpreads.DEFAULT_VERSIONED_STATUS_WORKLOADS));
        WorkloadSpreadTargets targets = new WorkloadSpreadTargets(ctx.cache(), versions);
        // A pod concerns the WorkloadSpread its annotation names, or (not yet adopted) those of its namespace.
        EventMapper<Pod> podToSpreads = (event, queue) -> {
            Pod pod = event.newObject() != null ? event.newObject() : event.oldObject();
            if (pod == null || pod.getMetadata() == null || Pods.controllerOf(pod).isEmpty()) {
                return;
            }
            var matched = MatchedWorkloadSpread.of(pod);
            if (matched.isPresent()) {
                queue.add(new Request(pod.getMetadata().getNamespace(), matched.get().name()));
                return;
            }
            for (WorkloadSpread ws : spreads.list(pod.getMetadata().getNamespace())) {
                queue.add(Request.of(ws));
            }
        };
        return new Controller(request -> reconcile(ctx, spreads, targets, versions, request),
                List.of(WatchSpec.of(WorkloadSpread.class, EventMapper.self()),
                        WatchSpec.of(Pod.class, podToSpreads),
                        WatchSpec.of(CloneSet.class, workloadToSpreads(spreads, CloneSet.KIND)),
                        WatchSpec.of(Deployment.class, workloadToSpreads(spreads, "Deployment")),
                        WatchSpec.of(ReplicaSet.class, workloadToSpreads(spreads, "ReplicaSet"))));
    }

    private Future<Result> reconcile(ControllerContext ctx, CachedResource<WorkloadSpread> spreads,
                                     WorkloadSpreadTargets targets, PodVersions versions, Request request) {
        WorkloadSpread ws = spreads.get(request.namespace(), request.name());
        if (ws == null || ws.getMetadata().getDeletionTimestamp() != null) {
            ctx.plans().forget(NAME, request);
            return Future.succeededFuture(Result.done());
        }
        CachedResource<Node> nodes = ctx.cache().resource(Node.class);
        return ctx.vertx().executeBlocking(() -> {
            WorkloadSpreadTargets.Target target = targets.of(ws);
            if (target == null) {
                return WorkloadSpreadPlan.skip("target workload not found or not supported");
            }
            return WorkloadSpreadDecision.decide(new WorkloadSpreadDecision.Snapshot(ws, target.pods(),
                    target.replicas(), target.latestVersion(), name -> nodes.get(null, name)), versions, clock.instant());
        }, false).compose(plan -> {
            ctx.plans().record(NAME, request, plan.debugSummary());
            Result next = plan.requeueAfter().map(d -> Result.requeueAfter(d.plus(Duration.ofMillis(100))))
                    .orElse(Result.done());
            if (!plan.skipped().isEmpty()) {
                return Future.succeededFuture(next);
            }
            return ctx.kube().write(() -> act(ctx, ws, plan)).map(v -> next);
        });
    }

    /** Applies a plan in OpenKruise's order; a pod gone meanwhile is skipped, a stale status is decided again. */
    static Void act(ControllerContext ctx, WorkloadSpread ws, WorkloadSpreadPlan plan) throws Exception {
        String ns = ws.getMetadata().getNamespace();
        for (PodGrouping.MetadataPatch patch : plan.adoptions()) {
            ApiErrors.ignoringNotFound(() -> ctx.client().pods().inNamespace(ns)
                    .withName(patch.pod().getMetadata().getName())
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch.patch().toString()));
        }
        for (DeletionCost.Assignment a : plan.deletionCosts()) {
            String body = ApiJson.toJson(Map.of("metadata", Map.of("annotations",
                    Map.of(WellKnown.POD_DELETION_COST_ANNOTATION, a.value()))));
            ApiErrors.ignoringNotFound(() -> ctx.client().pods().inNamespace(ns)
                    .withName(a.pod().getMetadata().getName())
                    .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), body));
        }
        if (plan.status() != null) {
            // A PUT over the resourceVersion the status was computed from: the pod webhook records creations and
            // deletions in the same status, so a read-modify-patch could drop a record written in between; a 409
            // here is a prompt requeue that decides again from the newer object.
            WorkloadSpread next = new WorkloadSpread();
            next.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder(ws.getMetadata()).build());
            next.setSpec(ws.getSpec());
            next.setStatus(plan.status());
            ctx.client().resources(WorkloadSpread.class).inNamespace(ns).resource(next).updateStatus();
        }
        for (Pod p : plan.rescheduled()) {
            ApiErrors.ignoreNotFound(() -> ctx.client().pods().inNamespace(ns).withName(p.getMetadata().getName())
                    .delete());
        }
        return null;
    }

    /** A workload's change (replicas, revision) concerns the WorkloadSpreads targeting it by kind and name. */
    static <T extends HasMetadata> EventMapper<T> workloadToSpreads(CachedResource<WorkloadSpread> spreads,
                                                                   String kind) {
        return (event, queue) -> {
            T w = event.newObject() != null ? event.newObject() : event.oldObject();
            if (w == null || w.getMetadata() == null) {
                return;
            }
            for (WorkloadSpread ws : spreads.list(w.getMetadata().getNamespace())) {
                TargetReference ref = ws.getSpec() == null ? null : ws.getSpec().getTargetRef();
                if (ref != null && kind.equals(ref.getKind())
                        && Objects.equals(ref.getName(), w.getMetadata().getName())) {
                    queue.add(Request.of(ws));
                }
            }
        };
    }

    static List<Pod> active(List<Pod> pods) {
        List<Pod> out = new ArrayList<>();
        for (Pod p : pods) {
            if (p.getMetadata().getDeletionTimestamp() == null) {
                out.add(p);
            }
        }
        return out;
    }
}
