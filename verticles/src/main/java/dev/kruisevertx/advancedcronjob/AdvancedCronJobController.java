package dev.kruisevertx.advancedcronjob;

import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
import dev.kruisevertx.api.apps.v1beta1.TemplateKind;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.NamedControllerDefinition;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.kube.EventRecorder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.vertx.core.Future;

import java.time.Clock;
import java.time.ZoneId;
import java.util.List;

/**
 * OpenKruise's advancedcronjob controller: starts a batch/v1 Job or a BroadcastJob per scheduled run of each
 * AdvancedCronJob ({@link CronDecision}), prunes finished ones by the history limits, and keeps the status
 * ({@link CronActuator}). Children are found through their controller ownerReference; their events reconcile the
 * owner, and the next run is a {@code requeueAfter}.
 */
public final class AdvancedCronJobController extends NamedControllerDefinition {
    public static final String NAME = "advancedcronjob";
    private final Clock clock;
    private final ZoneId defaultZone;

    public AdvancedCronJobController() {
        this(Clock.systemUTC(), ZoneId.systemDefault());
    }

    /**
     * @param clock       what the decisions read as now (a test's stepped clock)
     * @param defaultZone the zone of schedules without one (OpenKruise: the manager process's)
     */
    public AdvancedCronJobController(Clock clock, ZoneId defaultZone) {
        super(NAME, AdvancedCronJob.class);
        this.clock = clock;
        this.defaultZone = defaultZone;
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(AdvancedCronJob.class, Job.class, BroadcastJob.class,
                dev.kruisevertx.api.apps.v1beta1.ImageListPullJob.class);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<AdvancedCronJob> acjs = ctx.cache().resource(AdvancedCronJob.class);
        CachedResource<Job> jobs = ctx.cache().resource(Job.class);
        CachedResource<BroadcastJob> bcjs = ctx.cache().resource(BroadcastJob.class);
        CachedResource<dev.kruisevertx.api.apps.v1beta1.ImageListPullJob> ilpjs =
                ctx.cache().resource(dev.kruisevertx.api.apps.v1beta1.ImageListPullJob.class);
        EventRecorder events = new EventRecorder(ctx.client(), ctx.kube(), clock, "advancedcronjob-controller",
                AdvancedCronJob.API_VERSION, AdvancedCronJob.KIND);
        CronActuator actuator = new CronActuator(ctx, events);
        return new Controller(request -> {
            AdvancedCronJob acj = acjs.get(request.namespace(), request.name());
            if (acj == null) {
                actuator.rejections().clear(request.key());
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            String uid = acj.getMetadata().getUid();
            TemplateKind kind = acj.spec().template().kind();
            List<CronChild> children = switch (kind) {
                case JOB -> CronChildren.ofJobs(jobs.controlledBy(uid));
                case BROADCAST_JOB -> CronChildren.ofBroadcastJobs(bcjs.controlledBy(uid));
                case IMAGE_LIST_PULL_JOB -> CronChildren.ofImageListPullJobs(ilpjs.controlledBy(uid));
            };
            CronPlan plan = CronDecision.decide(acj, children, clock.instant(), defaultZone);
            // The last refused child stays the reason until a child is created again.
            ctx.plans().record(NAME, request, withRejection(plan, actuator, request));
            return actuator.apply(acj, plan).map(v -> {
                ctx.plans().record(NAME, request, withRejection(plan, actuator, request));
                return plan.requeueAfter() == null ? Result.done()
                        : Result.requeueAfter(plan.requeueAfter().plusMillis(CronActuator.REQUEUE_SLACK_MILLIS));
            });
        }, List.of(WatchSpec.of(AdvancedCronJob.class, EventMapper.self()),
                WatchSpec.of(Job.class, toOwner()),
                WatchSpec.of(BroadcastJob.class, toOwner()),
                WatchSpec.of(dev.kruisevertx.api.apps.v1beta1.ImageListPullJob.class, toOwner())));
    }

    private static dev.kruisevertx.controller.PlanSummary withRejection(CronPlan plan, CronActuator actuator,
                                                                       Request request) {
        return plan.debugSummary().withReasons(actuator.rejections().last(request.key()).map(List::of)
                .orElse(List.of()));
    }

    /** A child's event reconciles the AdvancedCronJob that controls it. */
    static <T extends HasMetadata> EventMapper<T> toOwner() {
        return (event, queue) -> {
            T child = event.object();
            if (child == null || child.getMetadata().getOwnerReferences() == null) {
                return;
            }
            for (OwnerReference ref : child.getMetadata().getOwnerReferences()) {
                if (Boolean.TRUE.equals(ref.getController()) && AdvancedCronJob.KIND.equals(ref.getKind())
                        && ref.getApiVersion() != null && ref.getApiVersion().startsWith(AdvancedCronJob.GROUP + "/")) {
                    queue.add(new Request(child.getMetadata().getNamespace(), ref.getName()));
                }
            }
        };
    }
}
