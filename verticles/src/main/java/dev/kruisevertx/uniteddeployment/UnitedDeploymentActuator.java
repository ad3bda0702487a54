package dev.kruisevertx.uniteddeployment;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.cloneset.CloneSetStatusCalculator;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.StatusWrites;
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
 * Carries out a {@link UnitedDeploymentPlan} for CloneSet subsets: deletions and creations under scale expectations
 * (subset workloads named here, so they can be expected before they exist), updates as a JSON merge patch of the
 * subset's labels, annotations and spec, then the status over the resourceVersion it was computed from.
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

    Future<Void> apply(UnitedDeployment ud, UnitedDeploymentSnapshot snapshot, UnitedDeploymentPlan plan) {
        return apply(ud, snapshot, plan, ud.getStatus(), status -> { }, Map.of());
    }

    /**
     * @param base           the status the calculator starts from (subset statuses and conditions already set)
     * @param finish         the last status steps ({@link UnitedDeploymentConditions#finish})
     * @param maxUnavailable per subset, a maxUnavailable its workload gets when updated (Adaptive reservation)
     */
    Future<Void> apply(UnitedDeployment ud, UnitedDeploymentSnapshot snapshot, UnitedDeploymentPlan plan,
                       UnitedDeploymentStatus base, java.util.function.Consumer<UnitedDeploymentStatus> finish,
                       Map<String, Integer> maxUnavailable) {
        if (plan.allocationError() != null) {
            events.emit(ud, EventRecorder.WARNING, "AllocateFailed", plan.allocationError());
            return Future.succeededFuture();
        }
        String key = ud.getMetadata().getNamespace() + "/" + ud.getMetadata().getName();
        List<Future<?>> writes = new ArrayList<>();
        for (UnitedDeploymentPlan.Delete d : plan.deletes()) {
            writes.add(delete(ud, key, d));
        }
        for (UnitedDeploymentPlan.Create c : plan.creates()) {
            writes.add(create(ud, key, snapshot.revision(), c));
        }
        for (UnitedDeploymentPlan.Update u : plan.updates()) {
            if (!"updating".equals(u.reason())) {
                // An unfinished rollout of the subset itself needs no write: the CloneSet carries it on.
                writes.add(update(ud, snapshot.revision(), u, maxUnavailable.get(u.subset())));
            }
        }
        return Future.join(writes).mapEmpty().compose(v -> writeStatus(ud, snapshot, plan, base, finish));
    }

    private Future<Void> delete(UnitedDeployment ud, String key, UnitedDeploymentPlan.Delete d) {
        scale.expectDelete(key, d.workload());
        return ctx.kube().write(() -> {
            try {
                ctx.client().resources(CloneSet.class).inNamespace(ud.getMetadata().getNamespace())
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

    private Future<Void> create(UnitedDeployment ud, String key, String revision, UnitedDeploymentPlan.Create c) {
        ObjectNode workload = SubsetWorkloads.build(ud, c.subset(), revision, c.replicas(), c.partition());
        ObjectNode meta = (ObjectNode) workload.get("metadata");
        String name = meta.path("generateName").asText() + suffix();
        meta.remove("generateName");
        meta.put("name", name);
        CloneSet cloneSet = ApiJson.serialization().convertValue(workload, CloneSet.class);
        scale.expectCreate(key, name);
        return ctx.kube().write(() -> ctx.client().resources(CloneSet.class)
                .inNamespace(ud.getMetadata().getNamespace()).resource(cloneSet).create()).transform(ar -> {
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

    private Future<Void> update(UnitedDeployment ud, String revision, UnitedDeploymentPlan.Update u,
                                Integer maxUnavailable) {
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
            ApiErrors.ignoreNotFound(() -> ctx.client().resources(CloneSet.class)
                    .inNamespace(ud.getMetadata().getNamespace()).withName(u.workload())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch.toString()));
            return null;
        }).onSuccess(v -> LOG.debug("UnitedDeployment {}/{}: updated subset {} ({})", ud.getMetadata().getNamespace(),
                ud.getMetadata().getName(), u.subset(), u.reason())).mapEmpty();
    }

    private Future<Void> writeStatus(UnitedDeployment ud, UnitedDeploymentSnapshot snapshot, UnitedDeploymentPlan plan,
                                     UnitedDeploymentStatus base,
                                     java.util.function.Consumer<UnitedDeploymentStatus> finish) {
        Map<String, SubsetWorkload> bySubset = new LinkedHashMap<>();
        snapshot.workloads().stream().sorted(java.util.Comparator.comparing(SubsetWorkload::name))
                .forEach(w -> bySubset.putIfAbsent(w.subsetName(), w));
        UnitedDeploymentStatus status = UnitedDeploymentStatusCalculator.compute(base, plan, bySubset,
                snapshot.revision(), snapshot.revision(), CloneSetStatusCalculator.selectorString(ud.spec().getSelector()),
                ud.getMetadata().getGeneration() == null ? 0 : ud.getMetadata().getGeneration());
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
