package dev.kruisevertx.ephemeraljob;

import dev.kruisevertx.api.apps.v1alpha1.EphemeralJob;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.controller.WorkloadControllerDefinition;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.kube.EventRecorder;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Future;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

/**
 * OpenKruise's ephemeraljob controller: adds the template's ephemeral containers to the pods an EphemeralJob selects
 * ({@link EphemeralJobDecision}, carried out by {@link EphemeralJobActuator}). A pod change reconciles the jobs of its
 * namespace that select it, and shows the controller the containers it added (scale expectations keyed
 * {@code <pod>-<container>}, as OpenKruise's).
 */
public final class EphemeralJobController extends WorkloadControllerDefinition {
    public static final String NAME = "ephemeraljob";

    public EphemeralJobController() {
        this(Clock.systemUTC());
    }

    public EphemeralJobController(Clock clock) {
        super(NAME, EphemeralJob.class, clock);
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(EphemeralJob.class, Pod.class);
    }

    /** OpenKruise runs this controller with 10 concurrent reconciles. */
    @Override
    public int defaultWorkers() {
        return 10;
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<EphemeralJob> jobs = ctx.cache().resource(EphemeralJob.class);
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        ScaleExpectations scale = expectations(ctx).scale();
        EventRecorder events = new EventRecorder(ctx.client(), ctx.kube(), clock(), "ephemeraljob-controller",
                EphemeralJob.API_VERSION, EphemeralJob.KIND);
        EphemeralJobActuator actuator = new EphemeralJobActuator(ctx, scale, events);
        EventMapper<Pod> podToJobs = (event, queue) -> {
            Pod pod = event.object();
            if (pod == null || pod.getMetadata() == null) {
                return;
            }
            for (EphemeralJob job : jobs.list(pod.getMetadata().getNamespace())) {
                if (!EphemeralJobDecision.selects(job, pod)) {
                    continue;
                }
                observeAdded(scale, job, pod);
                queue.add(Request.of(job));
            }
        };
        return new Controller(request -> {
            EphemeralJob job = jobs.get(request.namespace(), request.name());
            if (job == null) {
                scale.delete(request.key());
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            ScaleExpectations.Satisfied satisfied = scale.satisfied(request.key());
            if (!satisfied.satisfied() && job.getMetadata().getDeletionTimestamp() == null) {
                ctx.plans().record(NAME, request, PlanSummary.builder("waiting for the cache to see the ephemeral "
                        + "containers we added").reasons(List.of(Reasons.expectations(satisfied))).build());
                return Future.succeededFuture(satisfied.leaked() ? Result.done()
                        : Result.requeueAfter(Duration.ofSeconds(5)));
            }
            // The decision walks the namespace's pods: on a worker, off the event loop.
            return ctx.vertx().executeBlocking(() -> EphemeralJobDecision.decide(job,
                    pods.list(job.getMetadata().getNamespace()), clock().instant()), false)
                    .compose(plan -> {
                        ctx.plans().record(NAME, request, plan.debugSummary());
                        return actuator.apply(job, plan).map(v -> plan.requeueAfter() == null ? Result.done()
                                : Result.requeueAfter(plan.requeueAfter().plusSeconds(1)));
                    });
        }, List.of(WatchSpec.of(EphemeralJob.class, EventMapper.self()),
                WatchSpec.of(Pod.class, podToJobs)));
    }

    /** The containers this job added that the pod now shows are no longer expected. */
    private static void observeAdded(ScaleExpectations scale, EphemeralJob job, Pod pod) {
        if (pod.getSpec() == null || pod.getSpec().getEphemeralContainers() == null) {
            return;
        }
        String key = job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
        for (EphemeralContainer c : pod.getSpec().getEphemeralContainers()) {
            if (EphemeralJobDecision.ownedBy(job, c)) {
                scale.observeCreate(key, EphemeralJobActuator.expectationName(pod.getMetadata().getName(), c.getName()));
            }
        }
    }
}
