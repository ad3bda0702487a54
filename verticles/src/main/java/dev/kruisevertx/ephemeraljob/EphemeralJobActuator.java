package dev.kruisevertx.ephemeraljob;

import dev.kruisevertx.api.apps.v1alpha1.EphemeralJob;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJobStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.ObjectEdits;
import dev.kruisevertx.kube.StatusWrites;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.EphemeralContainerBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Carries out an {@link EphemeralJobPlan}: the finalizer, the job's deletion after its TTL, the ephemeral containers
 * (a strategic merge patch of {@code pods/ephemeralcontainers} per pod, each container carrying
 * {@code KRUISE_EJOB_ID=<job uid>}, expected until the cache shows them), then the status over the resourceVersion it
 * was computed from.
 */
final class EphemeralJobActuator {
    private final ControllerContext ctx;
    private final ScaleExpectations scale;
    private final EventRecorder events;

    EphemeralJobActuator(ControllerContext ctx, ScaleExpectations scale, EventRecorder events) {
        this.ctx = ctx;
        this.scale = scale;
        this.events = events;
    }

    Future<Void> apply(EphemeralJob job, EphemeralJobPlan plan) {
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        if (plan.deleteJob()) {
            return ctx.kube().write(() -> {
                ApiErrors.ignoreNotFound(() -> ctx.client().resources(EphemeralJob.class).inNamespace(ns)
                        .withName(name).delete());
                return null;
            }).mapEmpty();
        }
        if (plan.removeFinalizer()) {
            return ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), job, ObjectEdits.Part.OBJECT,
                    live -> withFinalizer(live, false))).mapEmpty();
        }
        Future<EphemeralJob> current = !plan.addFinalizer() ? Future.succeededFuture(job)
                : ctx.kube().write(() -> ObjectEdits.edit(ctx.client(), job, ObjectEdits.Part.OBJECT,
                        live -> withFinalizer(live, true)));
        return current.compose(written -> {
            if (written == null) {
                return Future.succeededFuture(); // gone meanwhile
            }
            return inject(job, plan.injectInto()).compose(v -> writeStatus(written, plan.status()));
        });
    }

    private Future<Void> inject(EphemeralJob job, List<String> pods) {
        if (pods.isEmpty()) {
            return Future.succeededFuture();
        }
        String key = job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
        List<EphemeralContainer> containers = containersFor(job);
        String patch = ApiJson.toJson(Map.of("spec", Map.of("ephemeralContainers", containers)));
        List<Future<?>> all = new ArrayList<>();
        for (String pod : pods) {
            containers.forEach(c -> scale.expectCreate(key, expectationName(pod, c.getName())));
            all.add(ctx.kube().write(() -> {
                ctx.client().pods().inNamespace(job.getMetadata().getNamespace()).withName(pod)
                        .subresource("ephemeralcontainers").patch(PatchContext.of(PatchType.STRATEGIC_MERGE), patch);
                return null;
            }).onFailure(e -> {
                if (!(e instanceof KubernetesClientException k) || ApiErrors.definitelyNotWritten(k)) {
                    containers.forEach(c -> scale.observeCreate(key, expectationName(pod, c.getName())));
                }
                events.emit(job, EventRecorder.WARNING, "CreateFailed", "failed to create ephemeral container in pod "
                        + job.getMetadata().getNamespace() + "/" + pod + ": " + reasonOf(e));
            }));
        }
        return Future.join(all).mapEmpty();
    }

    /** What the expectations call one added container: {@code <pod>-<container>}, as OpenKruise. */
    static String expectationName(String pod, String container) {
        return pod + "-" + container;
    }

    /** The template's containers, each with {@code KRUISE_EJOB_ID} set to the job's uid. */
    static List<EphemeralContainer> containersFor(EphemeralJob job) {
        List<EphemeralContainer> out = new ArrayList<>();
        for (EphemeralContainer c : job.spec().template().containers()) {
            out.add(new EphemeralContainerBuilder(c)
                    .addToEnv(new EnvVar(EphemeralJob.JOB_ID_ENV, job.getMetadata().getUid(), null)).build());
        }
        return out;
    }

    private static String reasonOf(Throwable e) {
        if (e instanceof KubernetesClientException k && k.getStatus() != null && k.getStatus().getReason() != null) {
            return k.getStatus().getReason() + " (" + k.getCode() + ")";
        }
        return e.getClass().getSimpleName();
    }

    private static EphemeralJob withFinalizer(EphemeralJob job, boolean present) {
        List<String> finalizers = new ArrayList<>(job.getMetadata().getFinalizers() == null ? List.of()
                : job.getMetadata().getFinalizers());
        boolean has = finalizers.contains(EphemeralJobDecision.FINALIZER);
        if (has == present) {
            return job;
        }
        if (present) {
            finalizers.add(EphemeralJobDecision.FINALIZER);
        } else {
            finalizers.removeIf(EphemeralJobDecision.FINALIZER::equals);
        }
        job.getMetadata().setFinalizers(finalizers);
        return job;
    }

    private Future<Void> writeStatus(EphemeralJob job, EphemeralJobStatus status) {
        if (status == null) {
            return Future.succeededFuture();
        }
        return ctx.kube().write(() -> StatusWrites.writeOverSameVersion(ctx.client(), EphemeralJob.class, job,
                live -> live.setStatus(status))).mapEmpty();
    }
}
