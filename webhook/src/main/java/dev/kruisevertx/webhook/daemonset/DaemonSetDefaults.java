package dev.kruisevertx.webhook.daemonset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetConversion;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetSpec;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateType;
import dev.kruisevertx.webhook.cloneset.WorkloadDefaults;
import io.fabric8.kubernetes.api.model.IntOrString;

/**
 * Advanced DaemonSet defaults as OpenKruise's mutating webhook sets them: burstReplicas 250, updateStrategy
 * RollingUpdate with rollingUpdateType Standard and, when neither is set, maxUnavailable 1 / maxSurge 0;
 * revisionHistoryLimit 10. The pod template is left as written (OpenKruise does not default it either). Pure.
 */
public final class DaemonSetDefaults {
    /** OpenKruise's burstReplicas default. */
    public static final int BURST_REPLICAS = 250;

    private DaemonSetDefaults() {
    }

    /** Defaults of the v1beta1 form (a v1alpha1 object goes through {@link #alphaSurging} first). */
    public static void apply(DaemonSet set) {
        if (set.getSpec() == null) {
            set.setSpec(new DaemonSetSpec());
        }
        DaemonSetSpec spec = set.getSpec();
        if (spec.getBurstReplicas() == null) {
            spec.setBurstReplicas(new IntOrString(BURST_REPLICAS));
        }
        if (spec.getUpdateStrategy() == null) {
            spec.setUpdateStrategy(new DaemonSetUpdateStrategy());
        }
        DaemonSetUpdateStrategy update = spec.getUpdateStrategy();
        update.setType(WorkloadDefaults.orDefault(update.getType(), DaemonSetUpdateStrategyType.ROLLING_UPDATE.value()));
        if (update.typeValue().orElse(null) == DaemonSetUpdateStrategyType.ROLLING_UPDATE) {
            if (update.getRollingUpdate() == null) {
                update.setRollingUpdate(new RollingUpdateDaemonSet());
            }
            RollingUpdateDaemonSet ru = update.getRollingUpdate();
            ru.setRollingUpdateType(WorkloadDefaults.orDefault(ru.getRollingUpdateType(), RollingUpdateType.STANDARD.value()));
            if (ru.getMaxUnavailable() == null && ru.getMaxSurge() == null) {
                ru.setMaxUnavailable(new IntOrString(1));
                ru.setMaxSurge(new IntOrString(0));
            }
        }
        spec.setRevisionHistoryLimit(WorkloadDefaults.revisionHistoryLimit(spec.getRevisionHistoryLimit()));
    }

    /**
     * The v1alpha1-only default, on the v1alpha1 JSON object before it is converted: the deprecated
     * {@code rollingUpdateType: Surging} gets maxSurge 1 and maxUnavailable 0 where unset (the surge it meant) and
     * becomes Standard. Changes {@code alpha} in place.
     */
    public static void alphaSurging(ObjectNode alpha) {
        JsonNode strategy = alpha.path("spec").path("updateStrategy");
        String type = strategy.path("type").asText("");
        if (!(type.isEmpty() || DaemonSetUpdateStrategyType.ROLLING_UPDATE.value().equals(type))
                || !(strategy.get("rollingUpdate") instanceof ObjectNode ru)
                || !DaemonSetConversion.DEPRECATED_SURGING.equals(ru.path("rollingUpdateType").asText(null))) {
            return;
        }
        if (!ru.has("maxSurge") || ru.get("maxSurge").isNull()) {
            ru.put("maxSurge", 1);
        }
        if (!ru.has("maxUnavailable") || ru.get("maxUnavailable").isNull()) {
            ru.put("maxUnavailable", 0);
        }
        ru.put("rollingUpdateType", RollingUpdateType.STANDARD.value());
    }
}
