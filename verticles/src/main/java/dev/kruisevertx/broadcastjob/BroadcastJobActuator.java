package dev.kruisevertx.broadcastjob;

import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.PlanStaleness;
import dev.kruisevertx.controller.SlowStart;
import dev.kruisevertx.controller.StalePlanException;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.StatusWrites;
import dev.kruisevertx.scheduling.DaemonPlacement;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * Carries out a {@link BroadcastJobPlan}: the job's deletion after its TTL, {@code spec.paused} for failurePolicy
 * Pause, pod deletions and slow-start creations (with scale expectations, pods named by this controller so they
 * can be expected before they exist), the status over the resourceVersion it was computed from, and the events.
 */
final class BroadcastJobActuator {
    private static final Logger LOG = LoggerFactory.getLogger(BroadcastJobActuator.class);
    private static final String SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private final ControllerContext ctx;
    private final ScaleExpectations scale;
    private final EventRecorder events;
    private final boolean byScheduler;
    private final BiFunction<String, String, BroadcastJob> cached;
    private final SecureRandom random = new SecureRandom();

    BroadcastJobActuator(ControllerContext ctx, ScaleExpectations scale, EventRecorder events, boolean byScheduler,
                         BiFunction<String, String, BroadcastJob> cached) {
        this.ctx = ctx;
        this.scale = scale;
        this.events = events;
        this.byScheduler = byScheduler;
        this.cached = cached;
    }

    Future<Void> apply(BroadcastJob job, BroadcastJobPlan plan) {
        String ns = job.getMetadata().getNamespace();
        String name = job.getMetadata().getName();
        if (plan.deleteJob()) {
            return ctx.kube().write(() -> {
                ApiErrors.ignoreNotFound(() -> ctx.client().resources(BroadcastJob.class).inNamespace(ns).withName(name)
                        .delete());
                return null;
            }).mapEmpty();
        }
        Future<Void> paused = !plan.pauseSpec() ? Future.succeededFuture() : ctx.kube().write(() -> {
            ApiErrors.ignoreNotFound(() -> ctx.client().resources(BroadcastJob.class).inNamespace(ns).withName(name)
                    .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"paused\":true}}"));
            return null;
        }).mapEmpty();
        return paused.compose(v -> deletePods(job, plan))
                .compose(v -> createPods(job, plan))
                .compose(v -> writeStatus(job, plan.status()))
                .onComplete(ar -> plan.events().forEach(e -> events.emit(job, e.type(), e.reason(), e.message())));
    }

    private Future<Void> deletePods(BroadcastJob job, BroadcastJobPlan plan) {
        String key = job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
        List<Future<?>> all = new ArrayList<>();
        for (BroadcastJobPlan.Delete d : plan.deletes()) {
            String pod = d.pod().getMetadata().getName();
            scale.expectDelete(key, pod);
            all.add(ctx.kube().write(() -> {
                try {
                    ctx.client().pods().inNamespace(job.getMetadata().getNamespace()).withName(pod).delete();
                } catch (KubernetesClientException e) {
                    scale.observeDelete(key, pod);
                    if (!ApiErrors.isNotFound(e)) {
                        throw e;
                    }
                    return null;
                }
                events.emit(job, EventRecorder.NORMAL, "SuccessfulDelete", "Delete pod: " + pod);
                return null;
            }));
        }
        return Future.join(all).mapEmpty();
    }

    private Future<Void> createPods(BroadcastJob job, BroadcastJobPlan plan) {
        if (plan.createOn().isEmpty()) {
            return Future.succeededFuture();
        }
        String key = job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
        List<Pod> pods = new ArrayList<>();
        for (String node : plan.createOn()) {
            Pod pod = podFor(job, node, job.getMetadata().getName() + "-" + suffix(), byScheduler);
            scale.expectCreate(key, pod.getMetadata().getName());
            pods.add(pod);
        }
        return SlowStart.run(pods, pod -> create(job, key, pod),
                () -> PlanStaleness.reason(job, cached.apply(job.getMetadata().getNamespace(),
                        job.getMetadata().getName())),
                pod -> scale.observeCreate(key, pod.getMetadata().getName()))
                .recover(e -> {
                    if (e instanceof StalePlanException) {
                        LOG.info("BroadcastJob {}: pod creation {}", key, e.getMessage());
                        return Future.succeededFuture();
                    }
                    return Future.failedFuture(e);
                });
    }

    private Future<Void> create(BroadcastJob job, String key, Pod pod) {
        String name = pod.getMetadata().getName();
        return ctx.kube().write(() -> ctx.client().pods().inNamespace(job.getMetadata().getNamespace()).resource(pod)
                .create()).transform(ar -> {
            if (ar.succeeded()) {
                events.emit(job, EventRecorder.NORMAL, "SuccessfulCreate", "Created pod: " + name);
                return Future.succeededFuture();
            }
            if (ar.cause() instanceof KubernetesClientException k && ApiErrors.definitelyNotWritten(k)) {
                scale.observeCreate(key, name);
            }
            events.emit(job, EventRecorder.WARNING, "FailedCreate", "Error creating: "
                    + (ar.cause() instanceof KubernetesClientException k && k.getStatus() != null
                    && k.getStatus().getMessage() != null ? k.getStatus().getMessage() : "pod " + name));
            return Future.failedFuture(ar.cause());
        });
    }

    /** The pod for {@code node}: the template, the job's labels, the owner, and the node pin. */
    static Pod podFor(BroadcastJob job, String node, String name, boolean byScheduler) {
        var template = job.spec().getTemplate();
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, String> annotations = new LinkedHashMap<>();
        if (template != null && template.getMetadata() != null) {
            if (template.getMetadata().getLabels() != null) {
                labels.putAll(template.getMetadata().getLabels());
            }
            if (template.getMetadata().getAnnotations() != null) {
                annotations.putAll(template.getMetadata().getAnnotations());
            }
        }
        labels.put(BroadcastJobDecision.JOB_NAME_LABEL, job.getMetadata().getName());
        labels.put(BroadcastJobDecision.CONTROLLER_UID_LABEL, job.getMetadata().getUid());
        ObjectMeta meta = new ObjectMeta();
        meta.setName(name);
        meta.setNamespace(job.getMetadata().getNamespace());
        meta.setLabels(labels);
        meta.setAnnotations(annotations.isEmpty() ? null : annotations);
        meta.setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion(BroadcastJob.API_VERSION)
                .withKind(BroadcastJob.KIND).withName(job.getMetadata().getName()).withUid(job.getMetadata().getUid())
                .withController(true).withBlockOwnerDeletion(true).build()));
        PodSpec spec = template == null || template.getSpec() == null ? new PodSpec()
                : new PodSpecBuilder(template.getSpec()).build();
        if (byScheduler) {
            DaemonPlacement.pinToNode(spec, node);
        } else {
            spec.setNodeName(node);
        }
        Pod pod = new Pod();
        pod.setMetadata(meta);
        pod.setSpec(spec);
        return pod;
    }

    private Future<Void> writeStatus(BroadcastJob job, BroadcastJobStatus status) {
        if (status == null || Objects.equals(job.getStatus() == null ? null : ApiJson.toJson(job.getStatus()),
                ApiJson.toJson(status))) {
            return Future.succeededFuture();
        }
        return ctx.kube().write(() -> StatusWrites.writeOverSameVersion(ctx.client(), BroadcastJob.class, job,
                live -> live.setStatus(status))).mapEmpty();
    }

    private String suffix() {
        StringBuilder b = new StringBuilder(5);
        for (int i = 0; i < 5; i++) {
            b.append(SUFFIX_ALPHABET.charAt(random.nextInt(SUFFIX_ALPHABET.length())));
        }
        return b.toString();
    }
}
