package dev.kruisevertx.webhook.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.PodInjectPolicyType;
import dev.kruisevertx.api.apps.v1beta1.ShareVolumePolicy;
import dev.kruisevertx.api.apps.v1beta1.ShareVolumePolicyType;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainerUpgradeStrategy;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainerUpgradeType;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevisionPolicy;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectionStrategy;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetPatchPodMetadata;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetPatchPolicyType;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetSpec;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.TransferEnvVar;
import dev.kruisevertx.sidecarset.SidecarSetHash;
import dev.kruisevertx.webhook.cloneset.PodTemplateDefaults;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * OpenKruise's SidecarSet defaults, applied on CREATE and UPDATE of either version: update strategy RollingUpdate
 * with maxUnavailable 1 and partition 0; containers BeforeAppContainer, init containers AfterAppContainer, both
 * ColdUpgrade and shareVolumePolicy disabled, with Kubernetes' container defaults; Kubernetes' volume defaults;
 * revisionHistoryLimit 10; patchPolicy Retain; injection revision policy Always. Then the two hash annotations.
 */
public final class SidecarSetDefaults {
    static final int DEFAULT_REVISION_HISTORY_LIMIT = 10;

    private SidecarSetDefaults() {
    }

    public static void apply(SidecarSet set) {
        if (set.getSpec() == null) {
            set.setSpec(new SidecarSetSpec());
        }
        SidecarSetSpec spec = set.getSpec();
        if (spec.getUpdateStrategy() == null) {
            spec.setUpdateStrategy(new SidecarSetUpdateStrategy());
        }
        SidecarSetUpdateStrategy update = spec.getUpdateStrategy();
        if (update.getType() == null || update.getType().isEmpty()) {
            update.setType(SidecarSetUpdateStrategyType.ROLLING_UPDATE.value());
        }
        if (update.getMaxUnavailable() == null) {
            update.setMaxUnavailable(new IntOrString(1));
        }
        if (update.getPartition() == null) {
            update.setPartition(new IntOrString(0));
        }
        containers(spec.getInitContainers(), PodInjectPolicyType.AFTER_APP_CONTAINER);
        containers(spec.getContainers(), PodInjectPolicyType.BEFORE_APP_CONTAINER);
        PodTemplateDefaults.volumes(spec.getVolumes());
        if (spec.getRevisionHistoryLimit() == null) {
            spec.setRevisionHistoryLimit(DEFAULT_REVISION_HISTORY_LIMIT);
        }
        if (spec.getPatchPodMetadata() != null) {
            for (SidecarSetPatchPodMetadata patch : spec.getPatchPodMetadata()) {
                if (patch != null && (patch.getPatchPolicy() == null || patch.getPatchPolicy().isEmpty())) {
                    patch.setPatchPolicy(SidecarSetPatchPolicyType.RETAIN.value());
                }
            }
        }
        SidecarSetInjectionStrategy injection = spec.getInjectionStrategy();
        if (injection != null && injection.getRevision() != null
                && (injection.getRevision().getPolicy() == null || injection.getRevision().getPolicy().isEmpty())) {
            injection.getRevision().setPolicy(SidecarSetInjectRevisionPolicy.ALWAYS.value());
        }
        stampHashes(set);
    }

    /** The hash annotations OpenKruise's webhook writes on every SidecarSet it admits. */
    static void stampHashes(SidecarSet set) {
        if (set.getMetadata() == null) {
            set.setMetadata(new ObjectMeta());
        }
        Map<String, String> annotations = set.getMetadata().getAnnotations() == null ? new LinkedHashMap<>()
                : new LinkedHashMap<>(set.getMetadata().getAnnotations());
        annotations.put(SidecarSetHash.HASH_ANNOTATION, SidecarSetHash.of(set));
        annotations.put(SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION, SidecarSetHash.withoutImage(set));
        set.getMetadata().setAnnotations(annotations);
    }

    private static void containers(List<SidecarContainer> containers, PodInjectPolicyType injectPolicy) {
        if (containers == null) {
            return;
        }
        for (SidecarContainer c : containers) {
            if (c.getPodInjectPolicy() == null || c.getPodInjectPolicy().isEmpty()) {
                c.setPodInjectPolicy(injectPolicy.value());
            }
            if (c.getUpgradeStrategy() == null) {
                c.setUpgradeStrategy(new SidecarContainerUpgradeStrategy());
            }
            if (c.getUpgradeStrategy().getUpgradeType() == null || c.getUpgradeStrategy().getUpgradeType().isEmpty()) {
                c.getUpgradeStrategy().setUpgradeType(SidecarContainerUpgradeType.COLD_UPGRADE.value());
            }
            if (c.getShareVolumePolicy() == null) {
                c.setShareVolumePolicy(new ShareVolumePolicy());
            }
            if (c.getShareVolumePolicy().getType() == null || c.getShareVolumePolicy().getType().isEmpty()) {
                c.getShareVolumePolicy().setType(ShareVolumePolicyType.DISABLED.value());
            }
            if (c.getTransferEnv() != null) {
                for (TransferEnvVar env : c.getTransferEnv()) {
                    if (env != null && env.getSourceContainerNameFrom() != null
                            && env.getSourceContainerNameFrom().getFieldRef() != null
                            && env.getSourceContainerNameFrom().getFieldRef().getApiVersion() == null) {
                        env.getSourceContainerNameFrom().getFieldRef().setApiVersion("v1");
                    }
                }
            }
        }
        PodTemplateDefaults.containers(containers);
    }
}
