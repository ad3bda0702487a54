package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.ObjectEdits;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;

/** Writes an Advanced StatefulSet's PVCs through the API: creates, deletes, ownerReferences, expansions. */
final class StatefulSetClaimWriter {
    private final ControllerContext ctx;
    private final StatefulSetEvents events;

    StatefulSetClaimWriter(ControllerContext ctx, StatefulSetEvents events) {
        this.ctx = ctx;
        this.events = events;
    }

    /** One after the other, each with its event; one that exists already is retained from an earlier pod. */
    Future<Void> create(StatefulSet set, String podName, List<PersistentVolumeClaim> claims) {
        Future<Void> chain = Future.succeededFuture();
        for (PersistentVolumeClaim c : claims) {
            chain = chain.compose(v -> ctx.kube().write(() -> ApiErrors.ignoringAlreadyExists(() -> ctx.client()
                    .persistentVolumeClaims().inNamespace(c.getMetadata().getNamespace()).resource(c).create()))
                    .transform(ar -> {
                        if (ar.failed() || ar.result() != null) {
                            events.claimAction(set, "create", c.getMetadata().getName(), podName, ar.cause());
                        }
                        return ar.failed() ? Future.failedFuture(ar.cause()) : Future.<Void>succeededFuture();
                    }));
        }
        return chain;
    }

    Future<Void> delete(StatefulSet set, List<String> names) {
        List<Future<Void>> out = new ArrayList<>();
        for (String name : names) {
            out.add(ctx.kube().write(() -> ctx.client().persistentVolumeClaims()
                    .inNamespace(set.getMetadata().getNamespace()).withName(name).delete()).mapEmpty());
        }
        return Future.join(out).mapEmpty();
    }

    /** The ownerReferences the retention policy asks for, worked out again on the live PVC after a conflict. */
    Future<Void> fixOwners(StatefulSet set, StatefulSetActions.ClaimOwners fix) {
        return ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), fix.claim(), ObjectEdits.Part.OBJECT, live -> {
            List<OwnerReference> refs = StatefulSetClaims.ownerReferencesFor(live, set, fix.pod(), fix.condemned());
            return refs == null ? live : new PersistentVolumeClaimBuilder(live).editMetadata()
                    .withOwnerReferences(refs).endMetadata().build();
        })).mapEmpty();
    }

    /**
     * Expands a PVC to its grown template (OnPodRollingUpdate), as OpenKruise: the storage class must allow
     * expansion; the PVC is annotated with the set that resized it.
     */
    Future<Void> resize(StatefulSet set, StatefulSetActions.ClaimResize r) {
        PersistentVolumeClaim claim = r.claim();
        String name = claim.getMetadata().getName();
        return ctx.kube().write(() -> {
            String className = claim.getSpec().getStorageClassName();
            if (className != null) {
                var storageClass = ctx.client().storage().v1().storageClasses().withName(className).get();
                if (storageClass == null) {
                    throw new IllegalStateException("could not get sc " + className + " for " + r.pod()
                            + " when checking PVC spec");
                }
                if (!Boolean.TRUE.equals(storageClass.getAllowVolumeExpansion())) {
                    throw new IllegalStateException("storage class " + className + " for " + r.pod()
                            + " does not support volume expansion");
                }
            }
            return ObjectEdits.edit(ctx.client(), claim, ObjectEdits.Part.OBJECT, live -> {
                var b = new PersistentVolumeClaimBuilder(live).editMetadata()
                        .addToAnnotations(StatefulSetClaims.OWNED_BY_ASTS_ANNOTATION, set.getMetadata().getName())
                        .endMetadata();
                if (StatefulSetClaims.needsExpansion(live, r.template())) {
                    b.editSpec().withResources(r.template().getSpec().getResources()).endSpec();
                }
                return b.build();
            });
        }).transform(ar -> {
            // A PVC that went meanwhile has nothing left to resize: no event.
            if (ar.failed() || ar.result() != null) {
                events.claimAction(set, "resize", name, r.pod(), ar.cause());
            }
            return ar.failed() ? Future.failedFuture(ar.cause()) : Future.<Void>succeededFuture();
        });
    }
}
