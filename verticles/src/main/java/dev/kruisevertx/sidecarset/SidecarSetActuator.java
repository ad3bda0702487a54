package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.ObjectEdits;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Carries out a {@link SidecarSetPlan}, in OpenKruise's order: the latest revision (created, or renumbered for a
 * rollback, and its custom-version label), history pruning, the status over the resourceVersion it was computed
 * from (a newer SidecarSet answers 409: the plan is stale), then the pods: idle hot-upgrade containers reset, sidecars upgraded (each write expected in the cache before
 * the next decision), and the {@code SidecarSetUpgradable} condition. Pod edits re-apply the pure edit to the live pod
 * on a conflict ({@link ObjectEdits}), so a concurrent writer's change is kept.
 */
final class SidecarSetActuator {
    private final ControllerContext ctx;
    private final ResourceVersionExpectations expectations;
    private final EventRecorder setEvents;
    private final EventRecorder podEvents;
    private final Clock clock;

    SidecarSetActuator(ControllerContext ctx, ResourceVersionExpectations expectations, EventRecorder setEvents,
                       EventRecorder podEvents, Clock clock) {
        this.ctx = ctx;
        this.expectations = expectations;
        this.setEvents = setEvents;
        this.podEvents = podEvents;
        this.clock = clock;
    }

    /**
     * @return false when the plan turned out stale: the latest revision's name was taken by other data (a hash
     * collision: the collision count moved on), or the SidecarSet changed since the cache copy the plan was made from
     * (its status was not written); nothing else is written and the caller decides again
     */
    Future<Boolean> apply(SidecarSet cached, SidecarSetPlan plan) {
        return ctx.kube().write(() -> {
            SidecarSetRevisions.Resolution written = writeRevision(cached, plan.revisions());
            if (!written.latest().getMetadata().getName().equals(plan.revisions().latest().getMetadata().getName())) {
                return false;
            }
            for (ControllerRevision r : plan.prune()) {
                ApiErrors.ignoreNotFound(() -> ctx.client().apps().controllerRevisions()
                        .inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName()).delete());
            }
            // The SidecarSet's own status updates are not reconciled (only spec changes are), so a status computed from
            // a cache that is behind (our last status write not seen yet) must not be dropped silently: nothing would
            // write it again. The plan is then stale as a whole; the caller decides again once the cache caught up.
            return plan.status() == null || writeStatus(cached, plan);
        }).compose(done -> done ? pods(plan).map(true) : Future.succeededFuture(false));
    }

    /**
     * The status as one update carrying the cached copy's resourceVersion (one call where a read-then-write takes two:
     * start-up with many SidecarSets is mostly status writes); a 409 means the copy was behind.
     */
    private boolean writeStatus(SidecarSet cached, SidecarSetPlan plan) {
        SidecarSet copy = ApiJson.serialization().clone(cached);
        copy.setStatus(plan.status());
        try {
            ctx.client().resource(copy).updateStatus();
            return true;
        } catch (KubernetesClientException e) {
            if (ApiErrors.isConflict(e)) {
                return false;
            }
            throw e;
        }
    }

    /** Creates or renumbers the latest revision; a name taken by other data moves on to the next collision count. */
    private SidecarSetRevisions.Resolution writeRevision(SidecarSet set, SidecarSetRevisions.Resolution resolution) {
        SidecarSetRevisions.Resolution r = resolution;
        var revisions = ctx.client().apps().controllerRevisions();
        if (r.renumber() != null) {
            ControllerRevision old = r.renumber();
            revisions.inNamespace(old.getMetadata().getNamespace()).withName(old.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"revision\":" + r.latest().getRevision() + "}");
        }
        for (int attempt = 0; r.toCreate() != null && attempt < 5; attempt++) {
            ControllerRevision create = r.toCreate();
            try {
                revisions.inNamespace(create.getMetadata().getNamespace()).resource(create).create();
                break;
            } catch (KubernetesClientException e) {
                if (!ApiErrors.isConflict(e)) {
                    throw e;
                }
                ControllerRevision existing = revisions.inNamespace(create.getMetadata().getNamespace())
                        .withName(create.getMetadata().getName()).get();
                r = SidecarSetRevisions.afterConflict(set, r, existing, create.getMetadata().getNamespace());
            }
        }
        if (r.customVersion() != null) {
            ControllerRevision latest = r.latest();
            String custom = r.customVersion();
            revisions.inNamespace(latest.getMetadata().getNamespace()).withName(latest.getMetadata().getName())
                    .edit(live -> new ControllerRevisionBuilder(live).editMetadata()
                            .addToLabels(SidecarSet.CUSTOM_VERSION_LABEL, custom).endMetadata().build());
        }
        return r;
    }

    private Future<Void> pods(SidecarSetPlan plan) {
        SidecarSet set = plan.set();
        List<Future<?>> all = new ArrayList<>();
        for (Pod pod : plan.resets()) {
            all.add(ctx.kube().write(() -> {
                Pod written = ObjectEdits.edit(ctx.client(), pod, ObjectEdits.Part.OBJECT,
                        live -> orSame(live, SidecarPodUpgrade.resetIdle(set, live, clock.instant())));
                expect(pod, written);
                return null;
            }).onComplete(ar -> podEvents.emit(pod, ar.succeeded() ? EventRecorder.NORMAL : EventRecorder.WARNING,
                    ar.succeeded() ? "ResetContainerSucceed" : "ResetContainerFailed",
                    ar.succeeded() ? "reset sidecar container image empty successfully"
                            : "reset sidecar container image empty failed: " + ar.cause().getMessage())));
        }
        for (Pod pod : plan.notUpgradable()) {
            all.add(ctx.kube().write(() -> {
                writeCondition(pod, set.getMetadata().getName(), false);
                return null;
            }));
        }
        if (!plan.notUpgradable().isEmpty()) {
            setEvents.emit(set, EventRecorder.NORMAL, "NotUpgradablePods", "SidecarSet in-place update detected "
                    + plan.notUpgradable().size() + " not upgradable pod(s) in this round, will skip them.");
        }
        for (Pod pod : plan.upgrades()) {
            all.add(ctx.kube().write(() -> {
                Pod written = ObjectEdits.edit(ctx.client(), pod, ObjectEdits.Part.OBJECT,
                        live -> SidecarPodUpgrade.upgrade(set, live, clock.instant()).pod());
                expect(pod, written);
                if (written != null) {
                    writeCondition(written, set.getMetadata().getName(), true);
                }
                return null;
            }));
        }
        return Future.all(all).mapEmpty();
    }

    private void expect(Pod cached, Pod written) {
        if (written != null && !written.getMetadata().getResourceVersion().equals(cached.getMetadata().getResourceVersion())) {
            expectations.expect(written);
        }
    }

    /** Sets the SidecarSetUpgradable condition on the pod's status when it changes. */
    private void writeCondition(Pod pod, String setName, boolean upgradable) {
        PodCondition condition = SidecarPodUpgrade.upgradableCondition(pod, setName, upgradable, clock.instant());
        if (condition == null) {
            return;
        }
        Pod written = ObjectEdits.edit(ctx.client(), pod, ObjectEdits.Part.STATUS, live -> {
            PodCondition c = SidecarPodUpgrade.upgradableCondition(live, setName, upgradable, clock.instant());
            if (c == null) {
                return live;
            }
            if (live.getStatus() == null) {
                live.setStatus(new PodStatus());
            }
            List<PodCondition> conditions = live.getStatus().getConditions() == null ? new ArrayList<>()
                    : new ArrayList<>(live.getStatus().getConditions());
            conditions.removeIf(x -> SidecarPodState.UPGRADABLE_CONDITION.equals(x.getType()));
            conditions.add(c);
            live.getStatus().setConditions(conditions);
            return live;
        });
        if (written != null) {
            expectations.expect(written);
        }
    }

    private static Pod orSame(Pod live, Pod changed) {
        return changed == null ? live : changed;
    }
}
