package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.inplace.RevisionLabels;
import dev.kruisevertx.lifecycle.LifecycleChange;
import dev.kruisevertx.lifecycle.Lifecycles;
import dev.kruisevertx.podutil.PodPatches;
import dev.kruisevertx.controller.PlanStaleness;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.SlowStart;
import dev.kruisevertx.controller.StalePlanException;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.kube.KubeExecutor;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Carries out a {@link CloneSetPlan} against the API server, every call on the Kubernetes worker pool. Each
 * create and delete is announced to the scale expectations before it is sent, so no reconcile counts pods
 * again before the cache has seen it; a create that failed in a way that may still have succeeded on the server
 * (timeout, 5xx, 409) keeps its expectation, so a failed create never turns into a second create. Every write
 * to an existing pod is recorded in the resourceVersion expectations.
 */
record CloneSetActuator(KubernetesClient client, KubeExecutor kube, ScaleExpectations scale,
                        ResourceVersionExpectations versions, CloneSetEvents events, Clock clock,
                        InPlaceUpdater updater, BiFunction<String, String, CloneSet> cached) {
    private static final Logger LOG = LoggerFactory.getLogger(CloneSetActuator.class);

    /** @param cached the CloneSet as the cache holds it now, by namespace and name (null when gone) */
    CloneSetActuator(KubernetesClient client, KubeExecutor kube, ScaleExpectations scale,
                     ResourceVersionExpectations versions, CloneSetEvents events, Clock clock, boolean shortHash,
                     BiFunction<String, String, CloneSet> cached) {
        this(client, kube, scale, versions, events, clock, new InPlaceUpdater(RevisionLabels.cloneSet(shortHash)),
                cached);
    }

    Future<Void> execute(CloneSet cs, CloneSetPlan plan, String updateRevision) {
        String key = Request.of(cs).key();
        return sequentially(plan.pvcDeletes(), pvc -> deleteClaim(cs, key, pvc))
                .compose(v -> sequentially(plan.lifecycle(), c -> setLifecycle(c.pod(), c.state(), c.markPodNotReady())))
                .compose(v -> createInBatches(cs, key, plan.creates()))
                .compose(v -> sequentially(plan.deletes(), d -> deletePod(cs, key, d)))
                .compose(v -> sequentially(plan.recreates(), p -> markForRecreate(cs, p, updateRevision)))
                .compose(v -> sequentially(plan.inPlace(), u -> updateInPlace(cs, u, updateRevision)))
                .compose(v -> sequentially(plan.podWrites(), this::continueInPlace))
                .compose(v -> sequentially(plan.statusWrites(), this::finishInPlace));
    }

    private static <T> Future<Void> sequentially(List<T> items, Function<T, Future<?>> step) {
        Future<Void> chain = Future.succeededFuture();
        for (T item : items) {
            chain = chain.compose(v -> step.apply(item).mapEmpty());
        }
        return chain;
    }

    /**
     * Slow start (batches of 1, 2, 4, ...; stops after the first failing batch, as OpenKruise does), and before
     * each batch the CloneSet must still be the one planned for: a CloneSet deleted, replaced or changed meanwhile
     * gets no more pods. Pods never sent lose their expectations at once, so no reconcile waits for them.
     */
    private Future<Void> createInBatches(CloneSet cs, String key, List<CloneSetPlan.Create> creates) {
        if (creates.isEmpty()) {
            return Future.succeededFuture();
        }
        for (CloneSetPlan.Create c : creates) {
            scale.expectCreate(key, c.pod().getMetadata().getName());
        }
        String ns = cs.getMetadata().getNamespace();
        String name = cs.getMetadata().getName();
        return SlowStart.run(creates, c -> createOne(cs, key, c),
                () -> PlanStaleness.reason(cs, cached.apply(ns, name)),
                c -> scale.observeCreate(key, c.pod().getMetadata().getName()))
                .onFailure(e -> {
                    if (e instanceof StalePlanException) {
                        LOG.info("CloneSet {}: pod creation {}", key, e.getMessage());
                    }
                });
    }

    private Future<Void> createOne(CloneSet cs, String key, CloneSetPlan.Create c) {
        String ns = cs.getMetadata().getNamespace();
        Pod pod = c.pod();
        String name = pod.getMetadata().getName();
        return kube.write(() -> {
            for (PersistentVolumeClaim claim : c.claims()) {
                scale.expectCreate(key, claim.getMetadata().getName());
                try {
                    client.persistentVolumeClaims().inNamespace(ns).resource(claim).create();
                } catch (KubernetesClientException e) {
                    if (!ApiErrors.isAlreadyExists(e)) {
                        if (ApiErrors.definitelyNotWritten(e)) {
                            scale.observeCreate(key, claim.getMetadata().getName());
                        }
                        throw e;
                    }
                    // Already there (an earlier attempt): the claim is what this instance needs.
                    scale.observeCreate(key, claim.getMetadata().getName());
                }
            }
            return client.pods().inNamespace(ns).resource(pod).create();
        }).transform(ar -> {
            if (ar.succeeded()) {
                events.normal(cs, "SuccessfulCreate", "succeed to create pod " + name);
                return Future.succeededFuture();
            }
            Throwable e = ar.cause();
            if (e instanceof KubernetesClientException k && ApiErrors.definitelyNotWritten(k)) {
                scale.observeCreate(key, name);
            }
            events.warning(cs, "FailedCreate", "failed to create pod: " + e.getMessage() + ", pod: " + name);
            return Future.failedFuture(e);
        });
    }

    private Future<Void> deletePod(CloneSet cs, String key, CloneSetPlan.Delete d) {
        String ns = cs.getMetadata().getNamespace();
        String name = d.pod().getMetadata().getName();
        scale.expectDelete(key, name);
        return kube.write(() -> client.pods().inNamespace(ns).withName(name).delete()).transform(ar -> {
            if (ar.failed()) {
                scale.observeDelete(key, name);
                events.warning(cs, "FailedDelete", "failed to delete pod " + name + ": " + ar.cause().getMessage());
                return Future.failedFuture(ar.cause());
            }
            if (ar.result() == null || ar.result().isEmpty()) {
                // Already gone from the server; the cache will drop it.
                scale.observeDelete(key, name);
            } else {
                events.normal(cs, "SuccessfulDelete", "succeed to delete pod " + name);
            }
            return sequentially(d.claims(), pvc -> deleteClaim(cs, key, pvc));
        });
    }

    private Future<Void> deleteClaim(CloneSet cs, String key, PersistentVolumeClaim pvc) {
        String name = pvc.getMetadata().getName();
        scale.expectDelete(key, name);
        return kube.write(() -> client.persistentVolumeClaims().inNamespace(cs.getMetadata().getNamespace())
                .withName(name).delete()).transform(ar -> {
            if (ar.failed() || ar.result() == null || ar.result().isEmpty()) {
                scale.observeDelete(key, name);
            }
            if (ar.failed()) {
                events.warning(cs, "FailedDelete", "failed to delete pvc " + name + ": " + ar.cause().getMessage());
                return Future.failedFuture(ar.cause());
            }
            return Future.succeededFuture();
        });
    }

    /** The label (and KruisePodReady with markPodNotReady) from the live pod: metadata first, then status. */
    private Future<Void> setLifecycle(Pod pod, LifecycleState state, boolean markPodNotReady) {
        return editPod(pod, live -> Lifecycles.withState(live, state, clock.instant(), markPodNotReady).pod())
                .compose(v -> markPodNotReady ? editStatus(pod, live -> {
                    LifecycleChange change = Lifecycles.withState(live, state, clock.instant(), true);
                    return change.statusChanged() ? change.pod() : live;
                }) : Future.succeededFuture());
    }

    /**
     * Starts an in-place update: InPlaceUpdateReady=False through the status, then the new images / metadata and the
     * in-place state through a patch guarded by the resourceVersion it was computed from.
     */
    private Future<Void> updateInPlace(CloneSet cs, CloneSetPlan.InPlace u, String updateRevision) {
        String ns = u.pod().getMetadata().getNamespace();
        String name = u.pod().getMetadata().getName();
        return kube.write(() -> {
            Pod live = client.pods().inNamespace(ns).withName(name).get();
            if (live == null) {
                return null;
            }
            Pod starting = updater.markUpdateStarting(live, clock.instant());
            if (starting != live) {
                live = client.pods().inNamespace(ns).withName(name).subresource("status")
                        .patch(PatchContext.of(PatchType.JSON), PodPatches.forStatus(live, starting));
            }
            Pod prepared = updater.prepare(live, u.spec(), clock.instant());
            Lifecycles.setState(prepared.getMetadata(), LifecycleState.UPDATING, clock.instant());
            return client.pods().inNamespace(ns).withName(name)
                    .patch(PatchContext.of(PatchType.JSON), PodPatches.forPod(live, prepared, true));
        }).transform(ar -> {
            if (ar.failed()) {
                events.warning(cs, "FailedUpdatePodInPlace", "failed to update pod " + name + " in-place(revision "
                        + updateRevision + "): " + ar.cause().getMessage());
                return Future.failedFuture(ar.cause());
            }
            if (ar.result() != null) {
                versions.expect(ar.result());
                events.normal(cs, "SuccessfulUpdatePodInPlace", "successfully update pod " + name
                        + " in-place(revision " + updateRevision + ")");
            }
            return Future.succeededFuture();
        });
    }

    /** The next step of an in-place update (grace over, next batch), guarded by the cached resourceVersion. */
    private Future<Void> continueInPlace(CloneSetPlan.PodWrite w) {
        String patch = PodPatches.forPod(w.before(), w.after(), true);
        if (PodPatches.isEmpty(patch)) {
            return Future.succeededFuture();
        }
        return kube.write(() -> client.pods().inNamespace(w.before().getMetadata().getNamespace())
                .withName(w.before().getMetadata().getName()).patch(PatchContext.of(PatchType.JSON), patch))
                .map(written -> {
                    versions.expect(written);
                    return null;
                });
    }

    /** InPlaceUpdateReady=True once the update took effect (also for new pods, which start without it). */
    private Future<Void> finishInPlace(Pod pod) {
        return editStatus(pod, live -> updater.finish(live, clock.instant()));
    }

    private Future<Void> markForRecreate(CloneSet cs, Pod pod, String updateRevision) {
        String name = pod.getMetadata().getName();
        return editPod(pod, live -> new PodBuilder(live).editMetadata()
                .addToLabels(WellKnown.SPECIFIED_DELETE_LABEL, "true").endMetadata().build()).transform(ar -> {
            if (ar.failed()) {
                events.warning(cs, "FailedUpdatePodReCreate", "failed to patch pod " + name
                        + " specified-delete for update(revision " + updateRevision + "): " + ar.cause().getMessage());
                return Future.failedFuture(ar.cause());
            }
            events.normal(cs, "SuccessfulUpdatePodReCreate", "successfully patch pod " + name
                    + " specified-delete for update(revision " + updateRevision + ")");
            return Future.succeededFuture();
        });
    }

    /** Changes a pod's status from its cached state; conflicts with the kubelet are retried from the live state. */
    private Future<Void> editStatus(Pod pod, java.util.function.UnaryOperator<Pod> change) {
        return edit(pod, ObjectEdits.Part.STATUS, change);
    }

    /** Changes an existing pod from its cached state; a pod that is gone is skipped. */
    private Future<Void> editPod(Pod pod, java.util.function.UnaryOperator<Pod> change) {
        return edit(pod, ObjectEdits.Part.OBJECT, change);
    }

    private Future<Void> edit(Pod pod, ObjectEdits.Part part, java.util.function.UnaryOperator<Pod> change) {
        return kube.write(() -> ObjectEdits.edit(client, pod, part, change)).map(written -> {
            if (written != null) {
                versions.expect(written);
            }
            return null;
        });
    }
}
