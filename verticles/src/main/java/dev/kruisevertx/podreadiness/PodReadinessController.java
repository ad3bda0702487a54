package dev.kruisevertx.podreadiness;

import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.Reconciler;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;

import java.time.Instant;
import java.util.List;

/** The podreadiness controller of OpenKruise: marks pods with the KruisePodReady gate ready once. */
public final class PodReadinessController implements ControllerDefinition {
    public static final String NAME = "podreadiness";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Class<Pod> primaryType() {
        return Pod.class;
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        EventMapper<Pod> onlyGated = (event, queue) -> {
            Pod pod = event.newObject();
            // Only pods that could need the condition: cheap check, no copy.
            if (pod != null && PodReadinessDecision.hasGate(pod) && PodReadinessDecision.condition(pod) == null) {
                queue.add(Request.of(pod));
            }
        };
        Reconciler reconciler = request -> {
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
            return ctx.kube().write(() -> {
                // editStatus reads the live pod first, so a condition another writer added meanwhile is kept
                // and a second reconcile before the cache catches up changes nothing.
                try {
                ctx.client().pods().inNamespace(request.namespace()).withName(request.name()).editStatus(live -> {
                    if (PodReadinessDecision.condition(live) != null) {
                        return live;
                    }
                    return new PodBuilder(live).editOrNewStatus().addToConditions(new PodConditionBuilder()
                            .withType(PodReadinessDecision.KRUISE_POD_READY)
                            .withStatus("True")
                            .withLastTransitionTime(Instant.now().toString())
                            .build()).endStatus().build();
                });
                } catch (KubernetesClientException e) {
                    if (e.getCode() != 404) {
                        throw e;
                    }
                    // The pod went away between the cache read and the write: nothing left to do.
                }
                return Result.done();
            });
        };
        return new Controller(reconciler, List.of(WatchSpec.of(Pod.class, onlyGated)));
    }
}
