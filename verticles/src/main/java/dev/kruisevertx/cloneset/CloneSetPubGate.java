package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PubOperation;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RevisionLabels;
import dev.kruisevertx.pub.PubGuard;
import dev.kruisevertx.pub.PubStatusStore;
import io.vertx.core.Future;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenKruise's pubcontrol inside the CloneSet update (gate PodUnavailableBudgetUpdateGate): before a pod is updated
 * in place, its PodUnavailableBudget is asked, as user {@code kruise-manager}, and records the update. At the first
 * refusal that pod and the ones after it wait, the plan shows the budget as the reason and the CloneSet is looked at
 * again in a second; a refusal is a reason, not an error.
 */
final class CloneSetPubGate {
    static final String USER = "kruise-manager";
    static final Duration RECHECK = Duration.ofSeconds(1);

    /** The plan to carry out, and the budget's refusal when some in-place updates were held back. */
    record Admitted(CloneSetPlan plan, BlockReason refusal) {
    }

    private final PubGuard guard;

    private CloneSetPubGate(PubGuard guard) {
        this.guard = guard;
    }

    static CloneSetPubGate of(ControllerContext ctx, Clock clock) {
        if (!ctx.gates().enabled(Feature.PodUnavailableBudgetUpdateGate)) {
            return new CloneSetPubGate(null);
        }
        InPlaceUpdater inPlace = new InPlaceUpdater(RevisionLabels.plain());
        // The budgets' cache runs when a PUB gate is on and the CRD exists (the manager starts it); else none is seen.
        var budgets = ctx.cache().resource(PodUnavailableBudget.class);
        return new CloneSetPubGate(new PubGuard(ctx.vertx(), PubStatusStore.of(ctx.client(), ctx.kube()::write),
                budgets::get, pod -> inPlace.checkCompleted(pod).done(),
                ctx.gates().enabled(Feature.InPlacePodVerticalScaling), clock, ctx.registry(), null));
    }

    Future<Admitted> admit(CloneSetPlan plan) {
        if (guard == null || plan.inPlace().isEmpty()) {
            return Future.succeededFuture(new Admitted(plan, null));
        }
        return next(plan, new ArrayList<>(), 0);
    }

    private Future<Admitted> next(CloneSetPlan plan, List<CloneSetPlan.InPlace> kept, int i) {
        if (i >= plan.inPlace().size()) {
            return Future.succeededFuture(new Admitted(plan, null));
        }
        CloneSetPlan.InPlace u = plan.inPlace().get(i);
        return guard.admit(u.pod(), PubOperation.UPDATE, USER, false).compose(o -> {
            if (o.allowed()) {
                kept.add(u);
                return next(plan, kept, i + 1);
            }
            BlockReason why = Reasons.podUnavailableBudget("update", u.pod().getMetadata().getName(), o.message());
            return Future.succeededFuture(new Admitted(plan.withInPlace(kept).requeueWithin(RECHECK), why));
        });
    }
}
