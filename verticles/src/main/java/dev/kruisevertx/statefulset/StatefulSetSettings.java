package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.PodManagementPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategyType;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.inplace.InPlaceUpdateOptions;

import static dev.kruisevertx.api.apps.v1beta1.PersistentVolumeClaimRetentionPolicyType.DELETE;

/**
 * An Advanced StatefulSet's spec as the decision reads it, with the feature gates applied: the policies resolved to
 * flags and numbers, the defaults filled in.
 *
 * @param parallel            podManagementPolicy Parallel
 * @param rollingUpdate       updateStrategy.type RollingUpdate (else OnDelete)
 * @param partition           rollingUpdate.partition
 * @param maxUnavailable      rollingUpdate.maxUnavailable against the desired replicas (at least 1)
 * @param paused              rollingUpdate.paused
 * @param scaleMaxUnavailable scaleStrategy.maxUnavailable (Parallel only), or null for no limit
 * @param minReadySeconds     rollingUpdate.minReadySeconds
 * @param inPlacePolicy       podUpdatePolicy InPlaceIfPossible or InPlaceOnly
 * @param inPlaceOnly         podUpdatePolicy InPlaceOnly
 * @param priority            unorderedUpdate.priorityStrategy (Parallel only), or null
 * @param inPlaceOptions      the in-place update options (gates, grace period)
 * @param lifecycle           spec.lifecycle, or null
 * @param autoDeletePvc       gate StatefulSetAutoDeletePVC
 * @param claimsOwnedBySet    autoDeletePvc and whenDeleted Delete: PVCs reference the set
 * @param deleteClaimsOnScale autoDeletePvc and whenScaled Delete: condemned pods' PVCs go with them
 * @param resizeClaims        volumeClaimUpdateStrategy OnPodRollingUpdate with gate StatefulSetAutoResizePVCGate
 * @param podIndexLabel       gate PodIndexLabel
 */
record StatefulSetSettings(boolean parallel, boolean rollingUpdate, int partition, int maxUnavailable, boolean paused,
                           Integer scaleMaxUnavailable, int minReadySeconds, boolean inPlacePolicy, boolean inPlaceOnly,
                           UpdatePriorityStrategy priority, InPlaceUpdateOptions inPlaceOptions, Lifecycle lifecycle,
                           boolean autoDeletePvc, boolean claimsOwnedBySet, boolean deleteClaimsOnScale,
                           boolean resizeClaims, boolean podIndexLabel) {
    /**
     * The settings of {@code set} running {@code replicas} pods.
     *
     * @throws IllegalArgumentException when a maxUnavailable cannot be read
     */
    static StatefulSetSettings of(StatefulSet set, int replicas, FeatureGates gates) {
        StatefulSetSpec spec = set.getSpec();
        RollingUpdateStatefulSetStrategy ru = spec.getUpdateStrategy() == null ? null
                : spec.getUpdateStrategy().getRollingUpdate();
        boolean parallel = spec.podManagementPolicyValue().orElse(null) == PodManagementPolicyType.PARALLEL;
        boolean rolling = spec.getUpdateStrategy() == null
                || spec.getUpdateStrategy().typeValue().orElse(null) != StatefulSetUpdateStrategyType.ON_DELETE;
        PodUpdateStrategyType policy = ru == null ? PodUpdateStrategyType.RECREATE
                : ru.podUpdatePolicyValue().orElse(PodUpdateStrategyType.RECREATE);
        int minReady = ru == null || ru.getMinReadySeconds() == null ? 0 : Math.max(0, ru.getMinReadySeconds());
        int maxUnavailable = ru == null || ru.getMaxUnavailable() == null ? 1
                : Math.max(1, IntOrPercent.scaledValue(ru.getMaxUnavailable(), replicas, false));
        Integer scaleMaxUnavailable = null;
        if (parallel && spec.getScaleStrategy() != null && spec.getScaleStrategy().getMaxUnavailable() != null) {
            scaleMaxUnavailable = Math.max(1,
                    IntOrPercent.scaledValue(spec.getScaleStrategy().getMaxUnavailable(), replicas, false));
        }
        InPlaceUpdateOptions options = InPlaceUpdateOptions.of(gates).withGracePeriodSeconds(
                ru == null || ru.getInPlaceUpdateStrategy() == null ? 0
                        : ru.getInPlaceUpdateStrategy().getGracePeriodSeconds());
        boolean autoDeletePvc = gates.enabled(Feature.StatefulSetAutoDeletePVC);
        var retention = spec.getPersistentVolumeClaimRetentionPolicy();
        var claimUpdate = spec.getVolumeClaimUpdateStrategy();
        return new StatefulSetSettings(parallel, rolling, ru == null || ru.getPartition() == null ? 0 : ru.getPartition(),
                maxUnavailable, ru != null && ru.isPaused(), scaleMaxUnavailable, minReady,
                policy.inPlace(), policy == PodUpdateStrategyType.IN_PLACE_ONLY,
                parallel && ru != null && ru.getUnorderedUpdate() != null
                        ? ru.getUnorderedUpdate().getPriorityStrategy() : null,
                options, spec.getLifecycle(), autoDeletePvc,
                autoDeletePvc && retention != null && retention.whenDeletedValue().orElse(null) == DELETE,
                autoDeletePvc && retention != null && retention.whenScaledValue().orElse(null) == DELETE,
                gates.enabled(Feature.StatefulSetAutoResizePVCGate) && claimUpdate != null
                        && claimUpdate.typeValue().orElse(null) == VolumeClaimUpdateStrategyType.ON_POD_ROLLING_UPDATE,
                gates.enabled(Feature.PodIndexLabel));
    }
}
