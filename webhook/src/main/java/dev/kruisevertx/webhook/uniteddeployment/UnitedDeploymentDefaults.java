package dev.kruisevertx.webhook.uniteddeployment;

import dev.kruisevertx.api.apps.v1alpha1.ManualUpdate;
import dev.kruisevertx.api.apps.v1alpha1.StatefulSetTemplateSpec;
import dev.kruisevertx.api.apps.v1alpha1.Subset;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSpec;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentUpdateStrategy;
import dev.kruisevertx.webhook.cloneset.PodTemplateDefaults;
import dev.kruisevertx.webhook.cloneset.WorkloadDefaults;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;

/**
 * UnitedDeployment defaults as OpenKruise's SetDefaultsUnitedDeployment sets them: revisionHistoryLimit 10,
 * updateStrategy Manual with an empty manualUpdate, pod (and claim) template defaults for a statefulSetTemplate only,
 * and minReplicas 0 on every subset once any subset uses capacities and none uses fixed replicas. spec.replicas is
 * not defaulted (OpenKruise does not either; the allocator reads unset as "the subsets' fixed replicas"). Pure.
 */
public final class UnitedDeploymentDefaults {
    private UnitedDeploymentDefaults() {
    }

    /**
     * @param templateDefaults whether pod template defaults are injected (a create, or an update that changes the
     *                         template, unless the TemplateNoDefaults gate is on)
     */
    public static void apply(UnitedDeploymentSpec spec, boolean templateDefaults) {
        spec.setRevisionHistoryLimit(WorkloadDefaults.revisionHistoryLimit(spec.getRevisionHistoryLimit()));
        UnitedDeploymentUpdateStrategy update = spec.getUpdateStrategy() == null
                ? new UnitedDeploymentUpdateStrategy() : spec.getUpdateStrategy();
        update.setType(WorkloadDefaults.orDefault(update.getType(), UnitedDeploymentUpdateStrategy.MANUAL));
        if (UnitedDeploymentUpdateStrategy.MANUAL.equals(update.getType()) && update.getManualUpdate() == null) {
            update.setManualUpdate(new ManualUpdate());
        }
        spec.setUpdateStrategy(update);
        StatefulSetTemplateSpec sts = spec.getTemplate() == null ? null : spec.getTemplate().getStatefulSetTemplate();
        if (templateDefaults && sts != null && sts.getSpec() != null) {
            if (sts.getSpec().getTemplate() != null && sts.getSpec().getTemplate().getSpec() != null) {
                PodTemplateDefaults.apply(sts.getSpec().getTemplate().getSpec());
            }
            if (sts.getSpec().getVolumeClaimTemplates() != null) {
                for (PersistentVolumeClaim claim : sts.getSpec().getVolumeClaimTemplates()) {
                    PodTemplateDefaults.apply(claim);
                }
            }
        }
        boolean fixed = false;
        boolean capacities = false;
        for (Subset s : spec.topology().subsets()) {
            fixed |= s.getReplicas() != null;
            capacities |= s.getMinReplicas() != null || s.getMaxReplicas() != null;
        }
        if (capacities && !fixed) {
            for (Subset s : spec.topology().subsets()) {
                if (s.getMinReplicas() == null) {
                    s.setMinReplicas(new IntOrString(0));
                }
            }
        }
    }
}
