package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.cloneset.PodFactory;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.PlanStaleness;
import dev.kruisevertx.controller.SlowStart;
import dev.kruisevertx.expectations.ExpectedDeletes;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.inplace.InPlaceUpdateSpec;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.lifecycle.LifecycleChange;
import dev.kruisevertx.lifecycle.LifecycleWrites;
import dev.kruisevertx.lifecycle.LifecycleTransitions;
import dev.kruisevertx.lifecycle.Lifecycles;
import dev.kruisevertx.podutil.PodPatches;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import dev.kruisevertx.kube.ObjectEdits;
import dev.kruisevertx.podutil.Pods;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * Writes a {@link DaemonSetPlan}: pods created in slow-start batches (stopping when the set changed or went) and
 * deleted under the scale expectations, PreparingDelete marks, in-place updates and the next steps of in-place
 * updates in flight under the resourceVersion expectations. Decides nothing.
 */
final class DaemonSetActuator {
    private static final Logger LOG = LoggerFactory.getLogger(DaemonSetActuator.class);
    static final String COMPONENT = "daemonset-controller";

    /** The next step of an in-place update in flight: a JSON patch of the pod or of its status. */
    record Refresh(Pod pod, String patch, boolean status) {
    }

    /** An old pod to update in place with the computed spec. */
    record InPlace(Pod pod, InPlaceUpdateSpec spec) {
    }

    private final ControllerContext ctx;
    private final ScaleExpectations scale;
    private final ResourceVersionExpectations versions;
    private final Clock clock;
    private final BiFunction<String, String, DaemonSet> cachedSet;
    private final EventRecorder events;

    DaemonSetActuator(ControllerContext ctx, ScaleExpectations scale, ResourceVersionExpectations versions, Clock clock,
                      BiFunction<String, String, DaemonSet> cachedSet) {
        this.ctx = ctx;
        this.scale = scale;
        this.versions = versions;
        this.clock = clock;
        this.cachedSet = cachedSet;
        this.events = new EventRecorder(ctx.client(), ctx.kube(), clock, COMPONENT, DaemonSet.API_VERSION, DaemonSet.KIND);
    }

    /**
     * Upstream's ClaimPods: owned pods that stopped matching the selector lose this set's controller reference;
     * orphans matching it gain one (a pod that found another controller meanwhile is left alone).
     */
    io.vertx.core.Future<Void> releaseAndAdopt(DaemonSet set, List<Pod> release, List<Pod> adopt) {
        String uid = set.getMetadata().getUid();
        List<io.vertx.core.Future<Void>> out = new java.util.ArrayList<>();
        for (Pod p : release) {
            out.add(ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), p, ObjectEdits.Part.OBJECT, live -> {
                List<io.fabric8.kubernetes.api.model.OwnerReference> refs =
                        new java.util.ArrayList<>(live.getMetadata().getOwnerReferences());
                refs.removeIf(r -> uid.equals(r.getUid()));
                return new io.fabric8.kubernetes.api.model.PodBuilder(live).editMetadata().withOwnerReferences(refs)
                        .endMetadata().build();
            })).mapEmpty());
        }
        for (Pod p : adopt) {
            out.add(ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), p, ObjectEdits.Part.OBJECT,
                    live -> Pods.controllerOf(live).isPresent() ? live
                            : new io.fabric8.kubernetes.api.model.PodBuilder(live).editMetadata()
                            .addToOwnerReferences(DaemonSetRevisions.ownerReference(set)).endMetadata().build()))
                    .mapEmpty());
        }
        return io.vertx.core.Future.join(out).mapEmpty();
    }

    /** A rollout that stopped moving ({@link dev.kruisevertx.controller.reason.RolloutWatch}): one Warning Event. */
    void stuck(DaemonSet set, String reason, String message) {
        events.emit(set, EventRecorder.WARNING, reason, message);
    }

    private PodResource pod(Pod p) {
        return ctx.client().pods().inNamespace(p.getMetadata().getNamespace()).withName(p.getMetadata().getName());
    }

    Future<Void> execute(DaemonSet set, String hash, DaemonSetPlan plan, List<InPlace> inPlace, List<Refresh> refresh) {
        String key = set.getMetadata().getNamespace() + "/" + set.getMetadata().getName();
        List<Future<Void>> writes = new ArrayList<>();
        for (Refresh r : refresh) {
            writes.add(patch(r));
        }
        for (Pod p : plan.prepareDelete()) {
            LifecycleChange change = Lifecycles.withState(p, LifecycleState.PREPARING_DELETE, clock.instant(),
                    LifecycleTransitions.preDeleteMarkPodNotReady(set.getSpec().getLifecycle()));
            writes.add(writeLifecycle(p, change));
        }
        for (InPlace u : inPlace) {
            writes.add(updateInPlace(set, u));
        }
        for (DaemonSetPlan.Deletion d : plan.deletions()) {
            writes.add(delete(set, key, d));
        }
        boolean byScheduler = !"false".equals(ctx.settings().extra().get(DaemonSetController.ASSIGN_PODS_BY_SCHEDULER_FLAG));
        Future<Void> creates = SlowStart.run(plan.createOnNodes(), node -> create(set, key, hash, node, byScheduler),
                () -> PlanStaleness.reason(set, cachedSet.apply(set.getMetadata().getNamespace(), set.getMetadata().getName())),
                // A name (and its expectation) is made only when a create starts, so skipped nodes owe nothing.
                node -> { });
        writes.add(creates);
        return Future.join(writes).transform(ar -> {
            if (ar.failed()) {
                for (Future<Void> f : writes) {
                    if (f.failed()) {
                        return Future.failedFuture(f.cause());
                    }
                }
            }
            return Future.succeededFuture();
        });
    }

    private Future<Void> create(DaemonSet set, String key, String hash, String node, boolean byScheduler) {
        // Named here, not by generateName, so the create expectation waits for exactly this pod.
        String name = set.getMetadata().getName() + "-" + PodFactory.newInstanceId(java.util.concurrent.ThreadLocalRandom.current(), java.util.Set.of());
        Pod pod = DaemonSetPods.forNode(set, hash, node, byScheduler);
        pod.getMetadata().setGenerateName(null);
        pod.getMetadata().setName(name);
        scale.expectCreate(key, name);
        return ctx.kube().write(() -> {
            try {
                return ctx.client().pods().inNamespace(set.getMetadata().getNamespace()).resource(pod).create();
            } catch (KubernetesClientException e) {
                scale.observeCreate(key, name);
                throw e;
            }
        }).transform(ar -> {
            if (ar.failed()) {
                events.emit(set, EventRecorder.WARNING, "FailedCreate", "Error creating pod on node " + node + ": "
                        + ar.cause().getMessage());
                return Future.failedFuture(ar.cause());
            }
            events.emit(set, EventRecorder.NORMAL, "SuccessfulCreate", "Created pod: " + name);
            return Future.succeededFuture();
        });
    }

    private Future<Void> delete(DaemonSet set, String key, DaemonSetPlan.Deletion d) {
        String name = d.pod().getMetadata().getName();
        scale.expectDelete(key, name);
        return ctx.kube().write(() -> ExpectedDeletes.delete(pod(d.pod()), scale, key, name)).transform(ar -> {
            if (ar.failed()) {
                events.emit(set, EventRecorder.WARNING, "FailedDelete", "Error deleting pod " + name + ": "
                        + ar.cause().getMessage());
                return Future.failedFuture(ar.cause());
            }
            if (d.reason() == DaemonSetPlan.DeleteReason.FAILED) {
                events.emit(set, EventRecorder.WARNING, "FailedDaemonPod", "Found failed daemon pod " + name
                        + " on node " + d.node() + ", will try to kill it");
            }
            events.emit(set, EventRecorder.NORMAL, "SuccessfulDelete", "Deleted pod: " + name);
            return Future.succeededFuture();
        });
    }

    /** InPlaceUpdateReady=False through the status, then the new spec through a resourceVersion-guarded patch. */
    private Future<Void> updateInPlace(DaemonSet set, InPlace u) {
        return ctx.kube().write(() -> {
            Pod live = pod(u.pod()).get();
            if (live == null) {
                return null;
            }
            Pod starting = DaemonSetReconciler.UPDATER.markUpdateStarting(live, clock.instant());
            if (starting != live) {
                live = pod(u.pod()).subresource("status").patch(PatchContext.of(PatchType.JSON),
                        PodPatches.forStatus(live, starting));
            }
            Pod prepared = DaemonSetReconciler.UPDATER.prepare(live, u.spec(), clock.instant());
            return pod(u.pod()).patch(PatchContext.of(PatchType.JSON), PodPatches.forPod(live, prepared, true));
        }).map(this::expect).onSuccess(v -> events.emit(set, EventRecorder.NORMAL, "SuccessfulUpdatePodInPlace",
                "successfully update pod " + u.pod().getMetadata().getName() + " in-place"));
    }

    private Future<Void> writeLifecycle(Pod pod, LifecycleChange change) {
        if (!change.changed()) {
            return Future.succeededFuture();
        }
        return ctx.kube().write(() -> LifecycleWrites.write(pod(pod), pod, change)).map(this::expect);
    }

    private Future<Void> patch(Refresh r) {
        if (r.status()) {
            return ctx.kube().write(() -> pod(r.pod()).subresource("status").patch(PatchContext.of(PatchType.JSON), r.patch()))
                    .mapEmpty();
        }
        return ctx.kube().write(() -> pod(r.pod()).patch(PatchContext.of(PatchType.JSON), r.patch())).map(this::expect);
    }

    private Void expect(Pod written) {
        if (written != null) {
            versions.expect(written);
        }
        return null;
    }
}
