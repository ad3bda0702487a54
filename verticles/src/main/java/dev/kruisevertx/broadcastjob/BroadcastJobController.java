package dev.kruisevertx.broadcastjob;

import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.ManagerSettings;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.controller.WorkloadControllerDefinition;
import dev.kruisevertx.controller.WorkloadEvents;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.controller.reason.WriteRejections;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.kube.EventRecorder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Future;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * OpenKruise's broadcastjob controller: a pod on every node the template fits, run to completion
 * ({@link BroadcastJobDecision}, carried out by {@link BroadcastJobActuator}). Pods reach their job through the
 * controller ownerReference; node changes reconcile every BroadcastJob that is not finished (as OpenKruise, so nodes
 * added while a job runs get a pod).
 */
public final class BroadcastJobController extends WorkloadControllerDefinition {
    public static final String NAME = "broadcastjob";
    /** The manager flag {@code --assign-bcj-pods-by-scheduler} (default true). */
    public static final String ASSIGN_BY_SCHEDULER_FLAG = "assign-bcj-pods-by-scheduler";

    public BroadcastJobController() {
        this(Clock.systemUTC());
    }

    public BroadcastJobController(Clock clock) {
        super(NAME, BroadcastJob.class, clock);
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(BroadcastJob.class, Pod.class, Node.class);
    }

    /**
     * Whether a node update can change which jobs fit it (as OpenKruise's node handler: labels, taints,
     * unschedulable, allocatable resources, or a condition's status).
     */
    static boolean fitRelevantChange(Node old, Node now) {
        if (!java.util.Objects.equals(old.getMetadata().getLabels(), now.getMetadata().getLabels())) {
            return true;
        }
        if (!java.util.Objects.equals(old.getSpec(), now.getSpec())) {
            return true;
        }
        if (old.getStatus() == null || now.getStatus() == null) {
            return old.getStatus() != now.getStatus();
        }
        if (!java.util.Objects.equals(old.getStatus().getAllocatable(), now.getStatus().getAllocatable())) {
            return true;
        }
        java.util.Map<String, String> before = new java.util.HashMap<>();
        if (old.getStatus().getConditions() != null) {
            old.getStatus().getConditions().forEach(c -> before.put(c.getType(), c.getStatus()));
        }
        java.util.Map<String, String> after = new java.util.HashMap<>();
        if (now.getStatus().getConditions() != null) {
            now.getStatus().getConditions().forEach(c -> after.put(c.getType(), c.getStatus()));
        }
        return !before.equals(after);
    }

    static boolean assignByScheduler(ManagerSettings settings) {
        return Boolean.parseBoolean(settings.extra().getOrDefault(ASSIGN_BY_SCHEDULER_FLAG, "true"));
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<BroadcastJob> jobs = ctx.cache().resource(BroadcastJob.class);
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        CachedResource<Node> nodes = ctx.cache().resource(Node.class);
        Expectations exp = expectations(ctx);
        ScaleExpectations scale = exp.scale();
        WorkloadEvents workloadEvents = new WorkloadEvents(BroadcastJob.GROUP, BroadcastJob.KIND, scale, exp.versions(),
                WorkloadEvents::decisionRelevant, (pod, queue) -> { });
        EventRecorder events = new EventRecorder(ctx.client(), ctx.kube(), clock(), "broadcastjob-controller",
                BroadcastJob.API_VERSION, BroadcastJob.KIND);
        BroadcastJobActuator actuator = new BroadcastJobActuator(ctx, scale, events, assignByScheduler(ctx.settings()),
                jobs::get);
        EventMapper<Node> nodeToJobs = (event, queue) -> {
            if (event.oldObject() != null && event.newObject() != null
                    && !fitRelevantChange(event.oldObject(), event.newObject())) {
                return; // heartbeats and other status updates cannot change where a job's pods fit
            }
            for (BroadcastJob job : jobs.list()) {
                if (!BroadcastJobDecision.finished(job)) {
                    queue.add(Request.of(job));
                }
            }
        };
        WriteRejections rejections = new WriteRejections();
        return new Controller(request -> {
            BroadcastJob job = jobs.get(request.namespace(), request.name());
            if (job == null) {
                scale.delete(request.key());
                rejections.clear(request.key());
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            ScaleExpectations.Satisfied satisfied = scale.satisfied(request.key());
            if (!satisfied.satisfied()) {
                ctx.plans().record(NAME, request, PlanSummary.builder("waiting for the cache to see our own "
                        + "creates/deletes").reasons(List.of(Reasons.expectations(satisfied))).build());
                // The cache has not shown our last creations and deletions yet; their events reconcile again.
                return Future.succeededFuture(satisfied.leaked() ? Result.done()
                        : Result.requeueAfter(Duration.ofSeconds(5)));
            }
            // The decision walks every node: on a worker, off the event loop.
            return ctx.vertx().executeBlocking(() -> BroadcastJobDecision.decide(job,
                    pods.controlledBy(job.getMetadata().getUid()), nodes.list(), clock().instant()), false)
                    .compose(plan -> {
                        // The last refused write stays the reason until a write goes through again.
                        ctx.plans().record(NAME, request, plan.withReasons(
                                rejections.last(request.key()).map(List::of).orElse(List.of())).debugSummary());
                        return actuator.apply(job, plan).transform(ar -> {
                            if (ar.failed() && rejections.record(request.key(), ar.cause())) {
                                ctx.plans().record(NAME, request, plan.withReasons(
                                        List.of(rejections.last(request.key()).orElseThrow())).debugSummary());
                            } else if (ar.succeeded() && !plan.createOn().isEmpty()) {
                                rejections.clear(request.key());
                            }
                            return ar.failed() ? Future.<Result>failedFuture(ar.cause())
                                    : Future.succeededFuture(plan.requeueAfter() == null ? Result.done()
                                    : Result.requeueAfter(plan.requeueAfter()));
                        });
                    });
        }, List.of(WatchSpec.of(BroadcastJob.class, EventMapper.self()),
                WatchSpec.of(Pod.class, workloadEvents::onPod),
                WatchSpec.of(Node.class, nodeToJobs)));
    }
}
