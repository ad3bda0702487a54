package dev.kruisevertx.uniteddeployment;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.cloneset.CloneSetStatusCalculator;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.StatusWrites;
import dev.kruisevertx.revision.RevisionWrites;
import dev.kruisevertx.revision.TemplateRevisions;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
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

/**
 * Carries out a UnitedDeployment decision: first its ControllerRevisions ({@link #revisions}: expired ones deleted,
 * the update revision created or renumbered), then the {@link UnitedDeploymentPlan} on subset workloads of any kind
 * ({@link SubsetAdapter}): deletions and creations under scale expectations (subset workloads named here, so they can
 * be expected before they exist), updates as a JSON merge patch of the subset's labels, annotations and spec, then
 * the status over the resourceVersion it was computed from.
 */
final class UnitedDeploymentActuator {
    private static final Logger LOG = LoggerFactory.getLogger(UnitedDeploymentActuator.class);
    private static final String SUFFIX_ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

    private final ControllerContext ctx;
    private final ScaleExpectations scale;
    private final EventRecorder events;
    private final SecureRandom random = new SecureRandom();

    UnitedDeploymentActuator(ControllerContext ctx, ScaleExpectations scale, EventRecorder events) {
        this.ctx = ctx;
        this.scale = scale;
        this.events = events;
    }

    /** The revisions one decision works with. */
    record Revisions(String updated, String current, int collisionCount) {
    }

    /**
     * Deletes the expired revisions and writes the update revision (blocking calls on a worker); a failure emits a
     * Warning {@code FailedRevisionProvision} event, as OpenKruise does.
     */
    Future<Revisions> revisions(UnitedDeployment ud, UnitedDeploymentSnapshot snapshot) {
        UnitedDeploymentRevisions.Cleaned cleaned = UnitedDeploymentRevisions.clean(ud,
                UnitedDeploymentRevisions.history(ud, snapshot.history()));
        TemplateRevisions.Resolution resolved = UnitedDeploymentRevisions.resolve(ud, cleaned.kept());
        String owner = "UnitedDeployment " + ud.getMetadata().getNamespace() + "/" + ud.getMetadata().getName();
        return ctx.kube().write(() -> {
            for (ControllerRevision r : cleaned.expired()) {
                ApiErrors.ignoreNotFound(() -> ctx.client().apps().controllerRevisions()
                        .inNamespace(r.getMetadata().getNamespace()).withName(r.getMetadata().getName()).delete());
            }
            if (resolved.renumber() == null && resolved.toCreate() == null) {
                return resolved;
            }
            return RevisionWrites.write(ctx.client(), resolved, owner,
                    (refused, existing) -> UnitedDeploymentRevisions.afterConflict(ud, refused, existing));
        }).map(written -> {
            if (!cleaned.expired().isEmpty()) {
                LOG.debug("{}: deleted {} expired revisions", owner, cleaned.expired().size());
            }
            String updated = written.update().getMetadata().getName();
            return new Revisions(updated, UnitedDeploymentRevisions.currentRevision(ud, cleaned.kept(), updated),
                    written.collisionCount());
        }).onFailure(e -> events.emit(ud, EventRecorder.WARNING, "FailedRevisionProvision",
                "Failed to provision the revision: " + (e instanceof KubernetesClientException k
                        ? "API error " + k.getCode() : e.getClass().getSimpleName())));
    }

    Future<Void> apply(UnitedDeployment ud, UnitedDeploymentSnapshot snapshot, Revisions revisions,
                       List<SubsetWorkload> workloads, UnitedDeploymentPlan plan) {
        return apply(ud, snapshot, revisions, workloads, plan, ud.getStatus(), status -> { }, Map.of());
    }

    /**
     * @param base           the status the calculator starts from (subset statuses and conditions already set)
     * @param finish         the last status steps ({@link UnitedDeploymentConditions#finish})
     * @param maxUnavailable per subset, a maxUnavailable its workload gets when updated (Adaptive reservation)
     */
    Future<Void> apply(UnitedDeployment ud, UnitedDeploymentSnapshot snapshot, Revisions revisions,
                       List<SubsetWorkload> workloads, UnitedDeploymentPlan plan,
                       UnitedDeploymentStatus base, java.util.function.Consumer<UnitedDeploymentStatus> finish,
                       Map<String, Integer> maxUnavailable) {
        if (plan.allocationError() != null) {
            events.emit(ud, EventRecorder.WARNING, "AllocateFailed", plan.allocationError());
            return Future.succeededFuture();
        }
        String key = ud.getMetadata().getNamespace() + "/" + ud.getMetadata().getName();
        List<Future<?>> writes = new ArrayList<>();
        Map<String, SubsetWorkloads.Kind> kinds = snapshot.kinds();
        for (UnitedDeploymentPlan.Delete d : plan.deletes()) {
            writes.add(delete(ud, key, SubsetAdapter.of(kinds.get(d.workload())).type(), d));
        }
        SubsetWorkloads.Kind kind = SubsetWorkloads.kindOf(ud.spec().getTemplate()).orElse(null);
        if (kind != null) {
            Class<? extends HasMetadata> type = SubsetAdapter.of(kind).type();
            for (UnitedDeploymentPlan.Create c : plan.creates()) {
                writes.add(create(ud, key, type, revisions.updated(), c));
            }
            for (UnitedDeploymentPlan.Update u : plan.updates()) {
                if (!"updating".equals(u.reason())) {
                    // An unfinished rollout of the subset itself needs no write: its own controller carries it on.
                    writes.add(update(ud, type, revisions.updated(), u, maxUnavailable.get(u.subset())));
                }
            }
        }
        return Future.join(writes).mapEmpty().compose(v -> writeStatus(ud, revisions, workloads, plan, base, finish));
    }

    private Future<Void> delete(UnitedDeployment ud, String key, Class<? extends HasMetadata> type,
                                UnitedDeploymentPlan.Delete d) {
        scale.expectDelete(key, d.workload());
        return ctx.kube().write(() -> {
            try {
                ctx.client().resources(type).inNamespace(ud.getMetadata().getNamespace())
                        .withName(d.workload()).delete();
            } catch (KubernetesClientException e) {
                scale.observeDelete(key, d.workload());
                if (!ApiErrors.isNotFound(e)) {
                    throw e;
                }
                return null;
            }
            events.emit(ud, EventRecorder.NORMAL, "SuccessfulDeleteSubset",
                    "Delete subset " + d.subset() + " workload " + d.workload() + ": " + d.reason());
            return null;
        }).mapEmpty();
    }

    private Future<Void> create(UnitedDeployment ud, String key, Class<? extends HasMetadata> type, String revision,
                                UnitedDeploymentPlan.Create c) {
        ObjectNode workload = SubsetWorkloads.build(ud, c.subset(), revision, c.replicas(), c.partition());
        ObjectNode meta = (ObjectNode) workload.get("metadata");
        String name = meta.path("generateName").asText() + suffix();
        meta.remove("generateName");
        meta.put("name", name);
        HasMetadata object = ApiJson.serialization().convertValue(workload, type);
        scale.expectCreate(key, name);
        return ctx.kube().write(() -> create(type, ud.getMetadata().getNamespace(), object)).transform(ar -> {
            if (ar.succeeded()) {
                events.emit(ud, EventRecorder.NORMAL, "SuccessfulCreateSubset",
                        "Create subset " + c.subset() + " workload " + name);
                return Future.succeededFuture();
            }
            scale.observeCreate(key, name);
            events.emit(ud, EventRecorder.WARNING, "FailedCreateSubset", "Create subset " + c.subset() + " failed");
            return Future.failedFuture(ar.cause());
        });
    }

    private <T extends HasMetadata> T create(Class<T> type, String namespace, HasMetadata object) {
        return ctx.client().resources(type).inNamespace(namespace).resource(type.cast(object)).create();
    }

    private Future<Void> update(UnitedDeployment ud, Class<? extends HasMetadata> type, String revision,
                                UnitedDeploymentPlan.Update u, Integer maxUnavailable) {
        ObjectNode wanted = SubsetWorkloads.build(ud, u.subset(), revision, u.replicas(), u.partition());
        ObjectNode patch = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        ObjectNode meta = patch.putObject("metadata");
        meta.set("labels", wanted.path("metadata").path("labels"));
        meta.set("annotations", wanted.path("metadata").path("annotations"));
        patch.set("spec", wanted.get("spec"));
        if (maxUnavailable != null) {
            // OpenKruise lets the pending pods of a subset with reserved pods count as unavailable, so they do not
            // hold its update back.
            ObjectNode spec = (ObjectNode) patch.get("spec");
            ObjectNode strategy = spec.get("updateStrategy") instanceof ObjectNode o ? o : spec.putObject("updateStrategy");
            strategy.put("maxUnavailable", maxUnavailable);
        }
        return ctx.kube().write(() -> {
            ApiErrors.ignoreNotFound(() -> ctx.client().resources(type)
                    .inNamespace(ud.getMetadata().getNamespace()).withName(u.workload())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString()));
            return null;
        }).onSuccess(v -> LOG.debug("UnitedDeployment {}/{}: updated subset {} ({})", ud.getMetadata().getNamespace(),
                ud.getMetadata().getName(), u.subset(), u.reason())).mapEmpty();
    }

    private Future<Void> writeStatus(UnitedDeployment ud, Revisions revisions, List<SubsetWorkload> workloads,
                                     UnitedDeploymentPlan plan, UnitedDeploymentStatus base,
                                     java.util.function.Consumer<UnitedDeploymentStatus> finish) {
        Map<String, SubsetWorkload> bySubset = new LinkedHashMap<>();
        SubsetWorkloads.Kind kind = SubsetWorkloads.kindOf(ud.spec().getTemplate()).orElse(null);
        workloads.stream().filter(w -> w.kind() == kind)
                .sorted(java.util.Comparator.comparing(SubsetWorkload::name))
                .forEach(w -> bySubset.putIfAbsent(w.subsetName(), w));
        UnitedDeploymentStatus status = UnitedDeploymentStatusCalculator.compute(base, plan, bySubset,
                revisions.current(), revisions.updated(), CloneSetStatusCalculator.selectorString(ud.spec().getSelector()),
                ud.getMetadata().getGeneration() == null ? 0 : ud.getMetadata().getGeneration());
        status.setCollisionCount(revisions.collisionCount());
        finish.accept(status);
        if (Objects.equals(ud.getStatus() == null ? null : ApiJson.toJson(ud.getStatus()), ApiJson.toJson(status))) {
            return Future.succeededFuture();
        }
        return ctx.kube().write(() -> StatusWrites.writeOverSameVersion(ctx.client(), UnitedDeployment.class, ud,
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
