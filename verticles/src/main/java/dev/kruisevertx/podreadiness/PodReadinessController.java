package dev.kruisevertx.podreadiness;

import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.NamedControllerDefinition;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.Reconciler;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.kube.ObjectEdits;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.vertx.core.Future;

import java.time.Instant;
import java.util.List;

/** The podreadiness controller of OpenKruise: marks pods with the KruisePodReady gate ready once. */
public final class PodReadinessController extends NamedControllerDefinition {
    public static final String NAME = "podreadiness";

    public PodReadinessController() {
        super(NAME, Pod.class);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        EventMapper<Pod> onlyGated = (event, queue) -> {
            Pod pod = event.newObject();
            // Only pods that could need the condition: cheap check, no copy.
            if (pod != null && PodReadinessDecision.hasGate(pod) && PodReadinessDecision.condition(pod) == null) {
                queue.add(Request.of(pod));
            }
        };
        return new Controller(reconciler(ctx, ctx.cache().resource(Pod.class)),
                List.of(WatchSpec.of(Pod.class, onlyGated)));
    }

    static Reconciler reconciler(ControllerContext ctx, CachedResource<Pod> pods) {
        return request -> {
            Pod cached = pods.get(request.namespace(), request.name());
            PodReadinessPlan plan = PodReadinessDecision.decide(cached);
            if (plan.action() == PodReadinessPlan.Action.NONE) {
                if (cached == null) {
                    ctx.plans().forget(NAME, request);
                } else {
                    ctx.plans().record(NAME, request, plan.debugSummary());
                }
                return Future.succeededFuture(Result.done());
            }
            ctx.plans().record(NAME, request, plan.debugSummary());
            // From the cached pod, guarded by its resourceVersion: another writer's change (the kubelet's status)
            // makes it re-read and decide again; a condition someone added meanwhile is kept, a pod gone is done.
            return ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), cached, ObjectEdits.Part.STATUS, live -> {
                if (PodReadinessDecision.condition(live) != null) {
                    return live;
                }
                return new PodBuilder(live).editOrNewStatus().addToConditions(new PodConditionBuilder()
                        .withType(PodReadinessDecision.KRUISE_POD_READY)
                        .withStatus("True")
                        .withLastTransitionTime(Instant.now().toString())
                        .build()).endStatus().build();
            })).map(written -> Result.done());
        };
    }
}
