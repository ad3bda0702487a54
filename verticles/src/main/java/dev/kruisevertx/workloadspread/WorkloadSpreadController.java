package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.reason.WriteRejections;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.kube.EventRecorder;
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
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
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
import java.util.Optional;

/**
 * OpenKruise's workloadspread controller: per WorkloadSpread, the target workload's pods grouped into subsets, their
 * {@code controller.kubernetes.io/pod-deletion-cost}, the subset status (expiring the webhook's creating/deleting
 * records) and, with the Adaptive strategy, deletion of pods unschedulable past {@code rescheduleCriticalSeconds}.
 * Snapshot and decision on a worker (they walk the workload's pods); writes through the fenced executor.
 */
public final class WorkloadSpreadController extends NamedControllerDefinition {
    public static final String NAME = "workloadspread";
    static final String NAMESPACE_ENV = "POD_NAMESPACE";
    static final String DEFAULT_NAMESPACE = "kruise-system";
    private final Clock clock;
    private final String kruiseNamespace;

    public WorkloadSpreadController() {
        this(Clock.systemUTC());
    }

    public WorkloadSpreadController(Clock clock) {
        this(clock, kruiseNamespaceFromEnv());
    }

    /** @param kruiseNamespace where ConfigMap {@code kruise-configuration} (custom workload whitelist) is read */
    public WorkloadSpreadController(Clock clock, String kruiseNamespace) {
        super(NAME, WorkloadSpread.class);
        this.clock = clock;
        this.kruiseNamespace = kruiseNamespace;
    }

    static String kruiseNamespaceFromEnv() {
        String ns = System.getenv(NAMESPACE_ENV);
        return ns == null || ns.isEmpty() ? DEFAULT_NAMESPACE : ns;
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(WorkloadSpread.class, Pod.class, Node.class, CloneSet.class, Deployment.class, ReplicaSet.class,
                Job.class, StatefulSet.class, dev.kruisevertx.api.apps.v1beta1.StatefulSet.class);
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
        // Whitelisted custom kinds: the ConfigMap is watched and each kind gets the shared cache's informer for it.
        CustomWorkloadWatches customWorkloads = new CustomWorkloadWatches(ctx.client(), ctx.cache(), ctx.vertx(),
                kruiseNamespace, spreads);
        WorkloadSpreadTargets targets = new WorkloadSpreadTargets(ctx.cache(), versions, customWorkloads,
                customWorkloads);
        ResourceVersionExpectations expectations = new ResourceVersionExpectations(
                ctx.settings().expectationTimeout(), clock);
        EventRecorder events = new EventRecorder(ctx.client(), ctx.kube(), clock, "workloadspread-controller",
                WorkloadSpread.API_VERSION, WorkloadSpread.KIND);
        WriteRejections rejections = new WriteRejections();
        // A pod concerns the WorkloadSpread its annotation names, or (not yet adopted) those of its namespace.
        EventMapper<Pod> podToSpreads = (event, queue) -> {
            Pod pod = event.newObject() != null ? event.newObject() : event.oldObject();
            if (pod == null || pod.getMetadata() == null || Pods.controllerOf(pod).isEmpty()) {
                return;
            }
            if (event.type() == CacheEvent.Type.DELETED) {
                expectations.delete(pod);
            } else {
                expectations.observe(pod);
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
        Actuator actuator = new Actuator(ctx, expectations, events);
        return new Controller(request -> reconcile(ctx, spreads, targets, versions, expectations, actuator, rejections,
                request),
                List.of(WatchSpec.of(WorkloadSpread.class, EventMapper.self()),
                        WatchSpec.of(Pod.class, podToSpreads),
                        WatchSpec.of(CloneSet.class, workloadToSpreads(spreads, CloneSet.KIND)),
                        WatchSpec.of(Deployment.class, workloadToSpreads(spreads, "Deployment")),
                        WatchSpec.of(ReplicaSet.class, workloadToSpreads(spreads, "ReplicaSet")),
                        WatchSpec.of(Job.class, workloadToSpreads(spreads, "Job")),
                        WatchSpec.of(StatefulSet.class, workloadToSpreads(spreads, "StatefulSet")),
                        WatchSpec.of(dev.kruisevertx.api.apps.v1beta1.StatefulSet.class,
                                workloadToSpreads(spreads, "StatefulSet"))),
                customWorkloads);
    }

    private Future<Result> reconcile(ControllerContext ctx, CachedResource<WorkloadSpread> spreads,
                                     WorkloadSpreadTargets targets, PodVersions versions,
                                     ResourceVersionExpectations expectations, Actuator actuator,
                                     WriteRejections rejections, Request request) {
        WorkloadSpread ws = spreads.get(request.namespace(), request.name());
        if (ws == null || ws.getMetadata().getDeletionTimestamp() != null) {
            rejections.clear(request.key());
            ctx.plans().forget(NAME, request);
            return Future.succeededFuture(Result.done());
        }
        CachedResource<Node> nodes = ctx.cache().resource(Node.class);
        return ctx.vertx().executeBlocking(() -> {
            WorkloadSpreadTargets.Target target;
            try {
                target = targets.of(ws);
            } catch (IllegalArgumentException e) {
                // A malformed whitelist entry: not this WorkloadSpread's fault; OpenKruise returns the error too.
                return WorkloadSpreadPlan.skip(e.getMessage());
            }
            List<String> pending = new ArrayList<>();
            if (target != null) {
                for (Pod p : target.pods()) {
                    if (!expectations.status(p).satisfied()) {
                        pending.add(p.getMetadata().getName());
                    }
                }
            }
            // A target that is gone counts as no pods and 0 replicas, as OpenKruise's finder answers.
            return WorkloadSpreadDecision.decide(new WorkloadSpreadDecision.Snapshot(ws,
                    target == null ? null : target.pods(), target == null ? 0 : target.replicas(),
                    target == null ? WorkloadSpreads.VERSION_IGNORED : target.latestVersion(),
                    name -> nodes.get(null, name), pending), versions, clock.instant());
        }, false).compose(decided -> {
            WorkloadSpreadPlan plan = decided.withReasons(
                    rejections.last(request.key()).map(List::of).orElse(List.of()));
            ctx.plans().record(NAME, request, plan.debugSummary());
            Optional<Duration> after = plan.requeueAfter();
            Result next = after.map(d -> Result.requeueAfter(d.plus(Duration.ofMillis(100)))).orElse(Result.done());
            if (!plan.acts()) {
                return Future.succeededFuture(next);
            }
            return ctx.kube().write(() -> actuator.act(ws, plan)).transform(ar -> {
                if (ar.failed()) {
                    if (rejections.record(request.key(), ar.cause())) {
                        ctx.plans().record(NAME, request, decided.withReasons(
                                rejections.last(request.key()).map(List::of).orElse(List.of())).debugSummary());
                    }
                    return Future.failedFuture(ar.cause());
                }
                rejections.clear(request.key());
                // Events for expired records once the status without them is written: a status write that lost a
                // conflict decides again and would emit them twice.
                for (SubsetStatusCalculation.Event e : plan.events()) {
                    actuator.events.emit(ws, e.type(), e.reason(), e.message());
                }
                return Future.succeededFuture(next);
            });
        });
    }

    /** Applies a plan in OpenKruise's order; a pod gone meanwhile is skipped, a stale status is decided again. */
    static final class Actuator {
        private final ControllerContext ctx;
        private final ResourceVersionExpectations expectations;
        final EventRecorder events;

        Actuator(ControllerContext ctx, ResourceVersionExpectations expectations, EventRecorder events) {
            this.ctx = ctx;
            this.expectations = expectations;
            this.events = events;
        }

        Void act(WorkloadSpread ws, WorkloadSpreadPlan plan) throws Exception {
            String ns = ws.getMetadata().getNamespace();
            for (PodGrouping.MetadataPatch patch : plan.adoptions()) {
                expectWritten(ApiErrors.ignoringNotFound(() -> ctx.client().pods().inNamespace(ns)
                        .withName(patch.pod().getMetadata().getName())
                        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch.patch().toString())));
            }
            for (DeletionCost.Assignment a : plan.deletionCosts()) {
                String body = ApiJson.toJson(Map.of("metadata", Map.of("annotations",
                        Map.of(WellKnown.POD_DELETION_COST_ANNOTATION, a.value()))));
                expectWritten(ApiErrors.ignoringNotFound(() -> ctx.client().pods().inNamespace(ns)
                        .withName(a.pod().getMetadata().getName())
                        .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), body)));
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
                ApiErrors.ignoreNotFound(() -> ctx.client().pods().inNamespace(ns)
                        .withName(p.getMetadata().getName()).delete());
            }
            return null;
        }

        /** The next decision waits until the cache shows the pod at least at the version this patch returned. */
        private void expectWritten(Pod written) {
            if (written != null && written.getMetadata() != null && written.getMetadata().getUid() != null) {
                expectations.expect(written);
            }
        }
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
