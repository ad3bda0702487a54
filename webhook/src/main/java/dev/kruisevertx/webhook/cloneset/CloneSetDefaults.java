package dev.kruisevertx.webhook.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetScaleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategyType;
import dev.kruisevertx.api.common.InPlaceUpdateStrategy;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

/**
 * CloneSet v1alpha1 defaults as OpenKruise's mutating webhook sets them: replicas 1, revisionHistoryLimit
 * 10, update type ReCreate, partition 0, maxUnavailable 20%, maxSurge 0, an empty inPlaceUpdateStrategy for
 * the in-place types, and core defaults on the pod and PVC templates. Pure: the controller may call it too.
 */
public final class CloneSetDefaults {
    public static final int DEFAULT_REPLICAS = WorkloadDefaults.REPLICAS;

    private CloneSetDefaults() {
    }

    /**
     * @param injectTemplateDefaults apply core defaults to the templates (OpenKruise: on CREATE, and on UPDATE
     *                               only when the template changed; never with gate TemplateNoDefaults)
     */
    public static void apply(CloneSet cloneSet, boolean injectTemplateDefaults) {
        if (cloneSet.getSpec() == null) {
            cloneSet.setSpec(new CloneSetSpec());
        }
        CloneSetSpec spec = cloneSet.getSpec();
        spec.setReplicas(WorkloadDefaults.replicas(spec.getReplicas()));
        spec.setRevisionHistoryLimit(WorkloadDefaults.revisionHistoryLimit(spec.getRevisionHistoryLimit()));
        if (injectTemplateDefaults) {
            if (spec.getTemplate() == null) {
                spec.setTemplate(new PodTemplateSpec());
            }
            WorkloadDefaults.templates(spec.getTemplate(), spec.getVolumeClaimTemplates());
        }
        if (spec.getScaleStrategy() == null) {
            spec.setScaleStrategy(new CloneSetScaleStrategy());
        }
        if (spec.getUpdateStrategy() == null) {
            spec.setUpdateStrategy(new CloneSetUpdateStrategy());
        }
        CloneSetUpdateStrategy update = spec.getUpdateStrategy();
        String type = update.getType();
        if (type == null || type.isEmpty()) {
            update.setType(CloneSetUpdateStrategyType.RECREATE.value());
        } else if (update.typeValue().filter(CloneSetUpdateStrategyType::inPlace).isPresent()
                && update.getInPlaceUpdateStrategy() == null) {
            update.setInPlaceUpdateStrategy(new InPlaceUpdateStrategy());
        }
        if (update.getPartition() == null) {
            update.setPartition(new IntOrString(0));
        }
        if (update.getMaxUnavailable() == null) {
            update.setMaxUnavailable(new IntOrString(WellKnown.DEFAULT_CLONESET_MAX_UNAVAILABLE));
        }
        if (update.getMaxSurge() == null) {
            update.setMaxSurge(new IntOrString(0));
        }
    }
}
