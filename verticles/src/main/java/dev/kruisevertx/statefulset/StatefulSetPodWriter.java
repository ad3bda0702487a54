package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.expectations.ExpectedDeletes;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import dev.kruisevertx.inplace.RevisionLabels;
import dev.kruisevertx.lifecycle.LifecycleChange;
import dev.kruisevertx.lifecycle.LifecycleWrites;
import dev.kruisevertx.lifecycle.Lifecycles;
import dev.kruisevertx.podutil.PodPatches;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.PodResource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * Writes an Advanced StatefulSet's pods through the API, under the scale expectations (creates, deletes) and the
 * resourceVersion expectations (updates the next decision must see). Decides nothing; holds only its
 * collaborators.
 */
record StatefulSetPodWriter(ControllerContext ctx, ScaleExpectations scale, ResourceVersionExpectations versions,
                            StatefulSetEvents events, Clock clock) {
    private static final InPlaceUpdater UPDATER = new InPlaceUpdater(RevisionLabels.plain());

    private PodResource pod(Pod p) {
        return ctx.client().pods().inNamespace(p.getMetadata().getNamespace()).withName(p.getMetadata().getName());
    }

    Future<Void> create(StatefulSet set, String key, Pod pod) {
        String name = pod.getMetadata().getName();
        scale.expectCreate(key, name);
        return ctx.kube().write(() -> {
            try {
                return ctx.client().pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).create();
            } catch (KubernetesClientException e) {
                if (ApiErrors.isAlreadyExists(e)) {
                    // The cache has not shown it yet; the ADDED event observes the expectation. (Any other 409 was a
                    // refusal: nothing was created, so no event will come and the expectation goes below.)
                    return null;
                }
                scale.observeCreate(key, name);
                throw e;
            }
        }).transform(ar -> reported(set, "create", name, ar.failed() ? ar.cause() : null, ar.failed() || ar.result() != null));
    }

    Future<Void> delete(StatefulSet set, String key, String name) {
        String namespace = set.getMetadata().getNamespace();
        scale.expectDelete(key, name);
        return ctx.kube().write(() -> ExpectedDeletes.delete(ctx.client().pods().inNamespace(namespace).withName(name),
                scale, key, name)).transform(ar -> reported(set, "delete", name, ar.failed() ? ar.cause() : null,
                ar.failed() || ar.result()));
    }

    /** The pod event (only for a write that happened or failed), then the outcome as it was. */
    private Future<Void> reported(StatefulSet set, String verb, String name, Throwable failure, boolean happened) {
        if (happened) {
            events.podAction(set, verb, name, failure);
        }
        return failure != null ? Future.failedFuture(failure) : Future.succeededFuture();
    }

    /** InPlaceUpdateReady=False through the status, then the new spec through a resourceVersion-guarded patch. */
    Future<Void> updateInPlace(StatefulSetActions.InPlace u) {
        Pod pod = u.pod();
        return ctx.kube().write(() -> {
            Pod live = pod(pod).get();
            if (live == null) {
                return null;
            }
            Pod starting = UPDATER.markUpdateStarting(live, clock.instant());
            if (starting != live) {
                live = pod(pod).subresource("status").patch(PatchContext.of(PatchType.JSON),
                        PodPatches.forStatus(live, starting));
            }
            Pod prepared = UPDATER.prepare(live, u.spec(), clock.instant());
            if (u.withLifecycle()) {
                Lifecycles.setState(prepared.getMetadata(), LifecycleState.UPDATING, clock.instant());
            }
            return pod(pod).patch(PatchContext.of(PatchType.JSON), PodPatches.forPod(live, prepared, true));
        }).map(this::expect);
    }

    /** Writes a lifecycle change: the status (KruisePodReady) first, then the labels, guarded by resourceVersion. */
    Future<Void> writeLifecycle(Pod pod, LifecycleChange change) {
        if (!change.changed()) {
            return Future.succeededFuture();
        }
        return ctx.kube().write(() -> LifecycleWrites.write(pod(pod), pod, change)).map(this::expect);
    }

    /** A refresh patch; one of the pod itself is expected back in the cache before the next decision. */
    Future<Void> patch(StatefulSetActions.PodPatch p) {
        if (p.status()) {
            return ctx.kube().write(() -> pod(p.pod()).subresource("status")
                    .patch(PatchContext.of(PatchType.JSON), p.patch())).mapEmpty();
        }
        return ctx.kube().write(() -> pod(p.pod()).patch(PatchContext.of(PatchType.JSON), p.patch())).map(this::expect);
    }

    /** Puts back the identity labels a pod lost, as upstream. */
    Future<Void> restoreIdentity(StatefulSetActions.Identity fix) {
        return edit(fix.pod(), live -> {
            var meta = new PodBuilder(live).editMetadata();
            for (Map.Entry<String, String> e : fix.labels().entrySet()) {
                meta.addToLabels(e.getKey(), e.getValue());
            }
            return meta.endMetadata().build();
        }).map(this::expect);
    }

    /**
     * Pods that stopped matching the selector lose their ownerReference; orphans named like this set's pods that
     * match it gain one, as upstream's ClaimPods. Each edit re-checks on the live pod after a conflict, so a race with
     * another controller adopting it first does no harm.
     */
    Future<Void> releaseAndAdopt(StatefulSet set, List<Pod> release, List<Pod> adopt) {
        String uid = set.getMetadata().getUid();
        List<Future<Void>> out = new ArrayList<>();
        for (Pod p : release) {
            out.add(edit(p, live -> {
                List<OwnerReference> refs = new ArrayList<>(live.getMetadata().getOwnerReferences());
                refs.removeIf(r -> uid.equals(r.getUid()));
                return new PodBuilder(live).editMetadata().withOwnerReferences(refs).endMetadata().build();
            }).mapEmpty());
        }
        for (Pod p : adopt) {
            out.add(edit(p, live -> Pods.controllerOf(live).isPresent() ? live
                    : new PodBuilder(live).editMetadata().addToOwnerReferences(StatefulSetRevisions.ownerReference(set))
                    .endMetadata().build()).mapEmpty());
        }
        return Future.join(out).mapEmpty();
    }

    /** Changes a pod from its cached state (conflicts retried from the live state); a pod that is gone is skipped. */
    private Future<Pod> edit(Pod pod, UnaryOperator<Pod> change) {
        return ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), pod, ObjectEdits.Part.OBJECT, change));
    }

    private Void expect(Pod written) {
        if (written != null) {
            versions.expect(written);
        }
        return null;
    }
}
