package dev.kruisevertx.containerlaunchpriority;

import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.NamedControllerDefinition;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.launchpriority.BarrierDecision;
import dev.kruisevertx.launchpriority.LaunchPriority;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;

import java.time.Duration;
import java.util.List;

/**
 * OpenKruise's containerlaunchpriority controller: for a pod whose containers carry launch barriers
 * ({@link LaunchPriority}), creates ConfigMap {@code <pod>-barrier} (owned by the pod), adds the key of the highest
 * priority not ready yet, and marks the pod {@code apps.kruise.io/container-launch-priority-completed: "true"} once
 * every priority is released. The barrier is read from the API server (on a worker), not cached: only pods with
 * barriers ever need one.
 */
public final class ContainerLaunchPriorityController extends NamedControllerDefinition {
    public static final String NAME = "containerlaunchpriority";

    public ContainerLaunchPriorityController() {
        super(NAME, Pod.class);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        EventMapper<Pod> withBarriers = (event, queue) -> {
            Pod pod = event.newObject();
            if (pod != null && BarrierDecision.concerns(pod)) {
                queue.add(Request.of(pod));
            }
        };
        return new Controller(request -> {
            Pod pod = pods.get(request.namespace(), request.name());
            if (!BarrierDecision.concerns(pod)) {
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            String ns = request.namespace();
            String barrierName = LaunchPriority.barrierName(request.name());
            return ctx.kube().call(() -> ctx.client().configMaps().inNamespace(ns).withName(barrierName).get())
                    .compose(barrier -> {
                        BarrierDecision.Plan plan = BarrierDecision.decide(pod, barrier);
                        PlanSummary.Builder summary = PlanSummary.builder(plan.reason());
                        if (plan.action() != BarrierDecision.Action.NONE) {
                            summary.action(plan.action().name().toLowerCase()
                                    + (plan.key() == null ? "" : " " + plan.key()));
                        }
                        ctx.plans().record(NAME, request, summary.build());
                        return act(ctx, pod, plan);
                    });
        }, List.of(WatchSpec.of(Pod.class, withBarriers)));
    }

    private static Future<Result> act(ControllerContext ctx, Pod pod, BarrierDecision.Plan plan) {
        String ns = pod.getMetadata().getNamespace();
        String name = pod.getMetadata().getName();
        String barrierName = LaunchPriority.barrierName(name);
        return switch (plan.action()) {
            case NONE -> Future.succeededFuture(Result.done());
            case CREATE_BARRIER -> ctx.kube().write(() -> ApiErrors.ignoringAlreadyExists(() -> ctx.client()
                    .configMaps().inNamespace(ns).resource(new ConfigMapBuilder().withNewMetadata()
                            .withName(barrierName).withNamespace(ns).addNewOwnerReference().withApiVersion("v1")
                            .withKind("Pod").withName(name).withUid(pod.getMetadata().getUid()).endOwnerReference()
                            .endMetadata().build()).create()))
                    // Decide again with the barrier in place, as OpenKruise's Requeue.
                    .map(created -> Result.requeueAfter(Duration.ofMillis(10)));
            case RELEASE -> release(ctx, ns, barrierName, plan.key()).map(Result.done());
            case RELEASE_AND_COMPLETE -> release(ctx, ns, barrierName, plan.key())
                    .compose(v -> complete(ctx, ns, name)).map(Result.done());
            case COMPLETE -> complete(ctx, ns, name).map(Result.done());
        };
    }

    private static Future<Void> release(ControllerContext ctx, String ns, String barrier, String key) {
        String patch = "{\"data\":{" + ApiJson.toJson(key) + ":\"true\"}}";
        return ctx.kube().write(() -> {
            ctx.client().configMaps().inNamespace(ns).withName(barrier).patch(PatchContext.of(PatchType.JSON_MERGE),
                    patch);
            return null;
        });
    }

    private static Future<Void> complete(ControllerContext ctx, String ns, String pod) {
        String patch = "{\"metadata\":{\"annotations\":{\"" + LaunchPriority.COMPLETED_ANNOTATION + "\":\"true\"}}}";
        return ctx.kube().write(() -> {
            ApiErrors.ignoreNotFound(() -> ctx.client().pods().inNamespace(ns).withName(pod)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch));
            return null;
        });
    }
}
