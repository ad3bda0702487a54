package dev.kruisevertx.webhook.statefulset;

import dev.kruisevertx.api.apps.v1beta1.PodManagementPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategyType;
import dev.kruisevertx.inplace.InPlaceUpdater;
import dev.kruisevertx.webhook.cloneset.WorkloadDefaults;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

import static dev.kruisevertx.api.apps.v1beta1.PersistentVolumeClaimRetentionPolicyType.RETAIN;

/**
 * Advanced StatefulSet defaults as OpenKruise's mutating webhook sets them (spec §2.4): replicas 1,
 * revisionHistoryLimit 10, podManagementPolicy OrderedReady, updateStrategy RollingUpdate with partition 0,
 * maxUnavailable 1, podUpdatePolicy ReCreate and minReadySeconds 0; the InPlaceUpdateReady readiness gate for the
 * in-place policies; PVC retention Retain/Retain (gate StatefulSetAutoDeletePVC) and volumeClaimUpdateStrategy
 * OnDelete (gate StatefulSetAutoResizePVCGate); core defaults on the templates. Pure.
 */
public final class StatefulSetDefaults {
    /**
     * @param injectTemplateDefaults apply core defaults to the templates (on CREATE, and on UPDATE only when they
     *                               changed; never with gate TemplateNoDefaults)
     * @param betaOnlyDefaults       also default the fields only v1beta1 has (false for a v1alpha1 request, whose
     *                               object cannot hold them)
     * @param autoDeletePvc          gate StatefulSetAutoDeletePVC
     * @param autoResizePvc          gate StatefulSetAutoResizePVCGate
     */
    public record Options(boolean injectTemplateDefaults, boolean betaOnlyDefaults, boolean autoDeletePvc,
                          boolean autoResizePvc) {
    }

    private StatefulSetDefaults() {
    }

    public static void apply(StatefulSet set, Options options) {
        if (set.getSpec() == null) {
            set.setSpec(new StatefulSetSpec());
        }
        StatefulSetSpec spec = set.getSpec();
        spec.setReplicas(WorkloadDefaults.replicas(spec.getReplicas()));
        spec.setRevisionHistoryLimit(WorkloadDefaults.revisionHistoryLimit(spec.getRevisionHistoryLimit()));
        spec.setPodManagementPolicy(WorkloadDefaults.orDefault(spec.getPodManagementPolicy(),
                PodManagementPolicyType.ORDERED_READY.value()));
        if (spec.getUpdateStrategy() == null) {
            spec.setUpdateStrategy(new StatefulSetUpdateStrategy());
        }
        StatefulSetUpdateStrategy update = spec.getUpdateStrategy();
        update.setType(WorkloadDefaults.orDefault(update.getType(),
                StatefulSetUpdateStrategyType.ROLLING_UPDATE.value()));
        if (update.typeValue().orElse(null) == StatefulSetUpdateStrategyType.ROLLING_UPDATE) {
            if (update.getRollingUpdate() == null) {
                update.setRollingUpdate(new RollingUpdateStatefulSetStrategy());
            }
            RollingUpdateStatefulSetStrategy ru = update.getRollingUpdate();
            if (ru.getPartition() == null) {
                ru.setPartition(0);
            }
            if (ru.getMaxUnavailable() == null) {
                ru.setMaxUnavailable(new IntOrString(1));
            }
            ru.setPodUpdatePolicy(WorkloadDefaults.orDefault(ru.getPodUpdatePolicy(),
                    PodUpdateStrategyType.RECREATE.value()));
            if (ru.getMinReadySeconds() == null) {
                ru.setMinReadySeconds(0);
            }
            if (ru.podUpdatePolicyValue().filter(PodUpdateStrategyType::inPlace).isPresent()) {
                if (spec.getTemplate() == null) {
                    spec.setTemplate(new PodTemplateSpec());
                }
                if (spec.getTemplate().getSpec() == null) {
                    spec.getTemplate().setSpec(new PodSpec());
                }
                InPlaceUpdater.injectReadinessGate(spec.getTemplate().getSpec());
            }
        }
        if (options.injectTemplateDefaults()) {
            WorkloadDefaults.templates(spec.getTemplate(), spec.getVolumeClaimTemplates());
        }
        if (!options.betaOnlyDefaults()) {
            return;
        }
        if (options.autoDeletePvc()) {
            if (spec.getPersistentVolumeClaimRetentionPolicy() == null) {
                spec.setPersistentVolumeClaimRetentionPolicy(new StatefulSetPersistentVolumeClaimRetentionPolicy());
            }
            StatefulSetPersistentVolumeClaimRetentionPolicy p = spec.getPersistentVolumeClaimRetentionPolicy();
            p.setWhenDeleted(WorkloadDefaults.orDefault(p.getWhenDeleted(), RETAIN.value()));
            p.setWhenScaled(WorkloadDefaults.orDefault(p.getWhenScaled(), RETAIN.value()));
        }
        if (options.autoResizePvc()) {
            if (spec.getVolumeClaimUpdateStrategy() == null) {
                spec.setVolumeClaimUpdateStrategy(new VolumeClaimUpdateStrategy());
            }
            VolumeClaimUpdateStrategy claimUpdate = spec.getVolumeClaimUpdateStrategy();
            claimUpdate.setType(WorkloadDefaults.orDefault(claimUpdate.getType(),
                    VolumeClaimUpdateStrategyType.ON_DELETE.value()));
        }
    }
}
