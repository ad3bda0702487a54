package dev.kruisevertx.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes the Adaptive reservation mode's pod label {@code apps.kruise.io/united-deployment-reserved-pod}
 * ("true"/"false") as OpenKruise does, before the allocation's writes: a merge patch of that one label per pod.
 * A pod gone meanwhile is not an error.
 */
final class ReservedPodLabels {
    private final ControllerContext ctx;

    ReservedPodLabels(ControllerContext ctx) {
        this.ctx = ctx;
    }

    Future<Void> write(String namespace, Map<String, String> labels) {
        if (labels.isEmpty()) {
            return Future.succeededFuture();
        }
        List<Future<?>> writes = new ArrayList<>();
        labels.forEach((pod, value) -> {
            String patch = "{\"metadata\":{\"labels\":{\"" + UnitedDeployment.RESERVED_POD_LABEL + "\":\"" + value + "\"}}}";
            writes.add(ctx.kube().write(() -> {
                ApiErrors.ignoreNotFound(() -> ctx.client().resources(Pod.class).inNamespace(namespace).withName(pod)
                        .patch(PatchContext.of(PatchType.JSON_MERGE), patch));
                return null;
            }));
        });
        return Future.join(writes).mapEmpty();
    }
}
