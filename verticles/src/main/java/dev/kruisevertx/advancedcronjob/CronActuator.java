package dev.kruisevertx.advancedcronjob;

import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobStatus;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobSpec;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobTemplateSpec;
import dev.kruisevertx.api.apps.v1beta1.TemplateKind;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.reason.WriteRejections;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.StatusWrites;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpec;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Carries out a {@link CronPlan}: the status (over the resourceVersion it was computed from), the history pruning
 * and Replace deletions (background propagation, a 404 is done), the new child (an AlreadyExists is the same run
 * created before), and Kubernetes Events as Kubernetes' CronJob controller writes them.
 */
final class CronActuator {
    /** Added to the next run's delay so the reconcile lands after the scheduled second, not just before it. */
    static final long REQUEUE_SLACK_MILLIS = 20;
    private static final Logger LOG = LoggerFactory.getLogger(CronActuator.class);

    private final ControllerContext ctx;
    private final EventRecorder events;
    /** The last child an admission webhook refused, per AdvancedCronJob, until a child is created again. */
    private final WriteRejections rejections = new WriteRejections();

    CronActuator(ControllerContext ctx, EventRecorder events) {
        this.ctx = ctx;
        this.events = events;
    }

    WriteRejections rejections() {
        return rejections;
    }

    private static String key(AdvancedCronJob acj) {
        return acj.getMetadata().getNamespace() + "/" + acj.getMetadata().getName();
    }

    Future<Void> apply(AdvancedCronJob acj, CronPlan plan) {
        if (plan.error() != null) {
            events.emit(acj, EventRecorder.WARNING, plan.error().eventReason(), plan.error().message());
        }
        AdvancedCronJobStatus status = status(acj, plan);
        Future<Void> statusWritten = sameJson(acj.getStatus(), status) ? Future.succeededFuture()
                : ctx.kube().write(() -> StatusWrites.writeOverSameVersion(ctx.client(), AdvancedCronJob.class, acj,
                live -> live.setStatus(status))).mapEmpty();
        return statusWritten.compose(v -> ctx.kube().write(() -> {
            for (CronPlan.Pruned p : plan.prune()) {
                if (delete(acj, plan.kind(), p.child())) {
                    events.emit(acj, EventRecorder.NORMAL, "SuccessfulDelete", "Deleted job " + p.child().name());
                }
            }
            for (CronChild c : plan.replace()) {
                if (delete(acj, plan.kind(), c)) {
                    events.emit(acj, EventRecorder.NORMAL, "SuccessfulDelete", "Deleted job " + c.name());
                }
            }
            if (plan.create() != null) {
                HasMetadata created = create(acj, plan.kind(), plan.create());
                if (created != null) {
                    rejections.clear(key(acj));
                    events.emit(acj, EventRecorder.NORMAL, "SuccessfulCreate",
                            "Created job " + created.getMetadata().getName());
                }
            }
            return null;
        })).mapEmpty();
    }

    static AdvancedCronJobStatus status(AdvancedCronJob acj, CronPlan plan) {
        AdvancedCronJobStatus s = new AdvancedCronJobStatus();
        acj.status().getAdditionalProperties().forEach(s::setAdditionalProperty);
        s.setType(plan.kind().value());
        if (!plan.active().isEmpty()) {
            List<ObjectReference> refs = new ArrayList<>();
            String apiVersion = plan.kind() == TemplateKind.JOB ? "batch/v1"
                    : plan.kind() == TemplateKind.IMAGE_LIST_PULL_JOB
                    ? dev.kruisevertx.api.apps.v1beta1.ImageListPullJob.API_VERSION : BroadcastJob.API_VERSION;
            for (CronChild c : plan.active()) {
                refs.add(new ObjectReferenceBuilder().withApiVersion(apiVersion).withKind(plan.kind().value())
                        .withNamespace(acj.getMetadata().getNamespace()).withName(c.name()).withUid(c.uid())
                        .withResourceVersion(c.resourceVersion()).build());
            }
            s.setActive(refs);
        }
        s.setLastScheduleTime(plan.lastScheduleTime() == null ? null : Pods.formatTime(plan.lastScheduleTime()));
        return s;
    }

    private static boolean sameJson(Object a, Object b) {
        return Objects.equals(a == null ? null : ApiJson.toJson(a), b == null ? null : ApiJson.toJson(b));
    }

    /** @return whether this call deleted it (false when it was gone already) */
    private boolean delete(AdvancedCronJob acj, TemplateKind kind, CronChild child) {
        String ns = acj.getMetadata().getNamespace();
        io.fabric8.kubernetes.client.dsl.Resource<? extends HasMetadata> resource = kind == TemplateKind.JOB
                ? ctx.client().resources(Job.class).inNamespace(ns).withName(child.name())
                : kind == TemplateKind.IMAGE_LIST_PULL_JOB
                ? ctx.client().resources(dev.kruisevertx.api.apps.v1beta1.ImageListPullJob.class).inNamespace(ns)
                .withName(child.name())
                : ctx.client().resources(BroadcastJob.class).inNamespace(ns).withName(child.name());
        try {
            List<?> deleted = ApiErrors.ignoringNotFound(() -> resource
                    .withPropagationPolicy(DeletionPropagation.BACKGROUND).delete());
            return deleted != null && !deleted.isEmpty();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private HasMetadata create(AdvancedCronJob acj, TemplateKind kind, Instant scheduled) {
        ObjectMeta meta = childMeta(acj, kind, scheduled);
        HasMetadata child;
        if (kind == TemplateKind.JOB) {
            JobTemplateSpec template = acj.spec().template().getJobTemplate();
            Job job = new Job();
            job.setMetadata(meta);
            job.setSpec(template == null || template.getSpec() == null ? new JobSpec()
                    : copy(template.getSpec(), JobSpec.class));
            child = job;
        } else if (kind == TemplateKind.BROADCAST_JOB) {
            BroadcastJobTemplateSpec template = acj.spec().template().getBroadcastJobTemplate();
            BroadcastJob bcj = new BroadcastJob();
            bcj.setMetadata(meta);
            bcj.setSpec(template == null || template.getSpec() == null ? new BroadcastJobSpec()
                    : copy(template.getSpec(), BroadcastJobSpec.class));
            child = bcj;
        } else if (kind == TemplateKind.IMAGE_LIST_PULL_JOB) {
            com.fasterxml.jackson.databind.JsonNode template = acj.spec().template().getImageListPullJobTemplate();
            var ilpj = new dev.kruisevertx.api.apps.v1beta1.ImageListPullJob();
            ilpj.setMetadata(meta);
            ilpj.setSpec(template == null || template.get("spec") == null
                    ? new dev.kruisevertx.api.apps.v1beta1.ImageListPullJobSpec()
                    : ApiJson.serialization().convertValue(template.get("spec"),
                    dev.kruisevertx.api.apps.v1beta1.ImageListPullJobSpec.class));
            child = ilpj;
        } else {
            LOG.info("AdvancedCronJob {}/{}: {} children are not created yet (that kind is not served)",
                    acj.getMetadata().getNamespace(), acj.getMetadata().getName(), kind.value());
            return null;
        }
        try {
            return ApiErrors.ignoringAlreadyExists(() -> ctx.client().resource(child).create());
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            if (ApiErrors.isInvalid(e) || ApiErrors.isForbidden(e)) {
                // The API server (or an admission webhook) refuses this child: retrying the same object cannot
                // help, the run is reported and the next one is tried at its time.
                rejections.record(key(acj), e);
                events.emit(acj, EventRecorder.WARNING, "FailedCreate", "Error creating job: "
                        + (e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage()
                        : "code " + e.getCode()));
                return null;
            }
            throw e;
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code <name>-<unix seconds>}, the template's labels and annotations, the scheduled time, the owner. */
    static ObjectMeta childMeta(AdvancedCronJob acj, TemplateKind kind, Instant scheduled) {
        ObjectMeta templateMeta = kind == TemplateKind.IMAGE_LIST_PULL_JOB
                ? (acj.spec().template().getImageListPullJobTemplate() == null
                || acj.spec().template().getImageListPullJobTemplate().get("metadata") == null ? null
                : ApiJson.serialization().convertValue(acj.spec().template().getImageListPullJobTemplate()
                .get("metadata"), ObjectMeta.class))
                : kind == TemplateKind.JOB
                ? (acj.spec().template().getJobTemplate() == null ? null
                : acj.spec().template().getJobTemplate().getMetadata())
                : (acj.spec().template().getBroadcastJobTemplate() == null ? null
                : acj.spec().template().getBroadcastJobTemplate().getMetadata());
        Map<String, String> labels = new LinkedHashMap<>();
        Map<String, String> annotations = new LinkedHashMap<>();
        if (templateMeta != null) {
            if (templateMeta.getLabels() != null) {
                labels.putAll(templateMeta.getLabels());
            }
            if (templateMeta.getAnnotations() != null) {
                annotations.putAll(templateMeta.getAnnotations());
            }
        }
        annotations.put(WellKnown.SCHEDULED_AT_ANNOTATION, Pods.formatTime(scheduled));
        ObjectMeta meta = new ObjectMeta();
        meta.setName(acj.getMetadata().getName() + "-" + scheduled.getEpochSecond());
        meta.setNamespace(acj.getMetadata().getNamespace());
        meta.setLabels(labels);
        meta.setAnnotations(annotations);
        meta.setOwnerReferences(List.of(new OwnerReferenceBuilder().withApiVersion(AdvancedCronJob.API_VERSION)
                .withKind(AdvancedCronJob.KIND).withName(acj.getMetadata().getName())
                .withUid(acj.getMetadata().getUid()).withController(true).withBlockOwnerDeletion(true).build()));
        return meta;
    }

    private static <T> T copy(T value, Class<T> type) {
        return ApiJson.serialization().unmarshal(ApiJson.toJson(value), type);
    }
}
