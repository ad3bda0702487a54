package dev.kruisevertx.webhook.statefulset;

import dev.kruisevertx.api.apps.v1beta1.PersistentVolumeClaimRetentionPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodManagementPolicyType;
import dev.kruisevertx.api.apps.v1beta1.PodUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategyType;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.webhook.admission.FieldError;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The webhook reads the policy fields through the model enums: every OpenKruise value is accepted and defaulted as
 * before, anything else (a different case included) is refused with the same message as OpenKruise's.
 */
class StatefulSetPolicyValuesTest {
    private static final StatefulSetDefaults.Options ALL_GATES = new StatefulSetDefaults.Options(true, true, true, true);

    @Test
    void everyOpenKruiseValueIsAccepted() {
        for (PodManagementPolicyType p : PodManagementPolicyType.values()) {
            for (PodUpdateStrategyType u : PodUpdateStrategyType.values()) {
                for (PersistentVolumeClaimRetentionPolicyType r : PersistentVolumeClaimRetentionPolicyType.values()) {
                    for (VolumeClaimUpdateStrategyType v : VolumeClaimUpdateStrategyType.values()) {
                        StatefulSet set = defaulted(s -> {
                            s.getSpec().setPodManagementPolicy(p.value());
                            s.getSpec().getUpdateStrategy().getRollingUpdate().setPodUpdatePolicy(u.value());
                            s.getSpec().getPersistentVolumeClaimRetentionPolicy().setWhenDeleted(r.value());
                            s.getSpec().getPersistentVolumeClaimRetentionPolicy().setWhenScaled(r.value());
                            s.getSpec().getVolumeClaimUpdateStrategy().setType(v.value());
                        });
                        String combination = p + "/" + u + "/" + r + "/" + v;
                        assertEquals(List.of(), StatefulSetValidation.validateCreate(set), combination);
                    }
                }
            }
        }
        StatefulSet onDelete = defaulted(s -> {
            s.getSpec().getUpdateStrategy().setType(StatefulSetUpdateStrategyType.ON_DELETE.value());
            s.getSpec().getUpdateStrategy().setRollingUpdate(null);
        });
        assertEquals(List.of(), StatefulSetValidation.validateCreate(onDelete));
    }

    @Test
    void valuesInAnotherCaseAreRefusedWithOpenKruisesMessages() {
        assertEquals("spec.podManagementPolicy: Invalid value: \"parallel\": must be 'OrderedReady' or 'Parallel'",
                errors(s -> s.getSpec().setPodManagementPolicy("parallel")));
        assertEquals("spec.updateStrategy: Invalid value: \"onDelete\": must be 'RollingUpdate' or 'OnDelete'",
                errors(s -> {
                    s.getSpec().getUpdateStrategy().setType("onDelete");
                    s.getSpec().getUpdateStrategy().setRollingUpdate(null);
                }));
        assertEquals("spec.updateStrategy.rollingUpdate.podUpdatePolicy: Invalid value: \"IN_PLACE_ONLY\": "
                        + "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'",
                errors(s -> s.getSpec().getUpdateStrategy().getRollingUpdate().setPodUpdatePolicy("IN_PLACE_ONLY")));
    }

    @Test
    void unsupportedRetentionAndClaimUpdateValuesListTheSupportedOnes() {
        assertEquals("spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: \"retain\": "
                        + "supported values: \"Retain\", \"Delete\"",
                errors(s -> s.getSpec().getPersistentVolumeClaimRetentionPolicy().setWhenDeleted("retain")));
        assertEquals("spec.volumeClaimUpdateStrategy.type: Unsupported value: \"RollingUpdate\": "
                        + "supported values: \"OnDelete\", \"OnPodRollingUpdate\"",
                errors(s -> s.getSpec().getVolumeClaimUpdateStrategy().setType("RollingUpdate")));
    }

    @Test
    void emptyValuesGetOpenKruisesDefaults() {
        StatefulSet set = bare();
        set.getSpec().setPodManagementPolicy("");
        set.getSpec().setUpdateStrategy(new StatefulSetUpdateStrategy());
        set.getSpec().getUpdateStrategy().setType("");
        set.getSpec().setPersistentVolumeClaimRetentionPolicy(new StatefulSetPersistentVolumeClaimRetentionPolicy());
        set.getSpec().getPersistentVolumeClaimRetentionPolicy().setWhenDeleted("");
        set.getSpec().setVolumeClaimUpdateStrategy(new VolumeClaimUpdateStrategy());
        set.getSpec().getVolumeClaimUpdateStrategy().setType("");
        StatefulSetDefaults.apply(set, ALL_GATES);
        StatefulSetSpec spec = set.getSpec();
        assertEquals("OrderedReady", spec.getPodManagementPolicy());
        assertEquals("RollingUpdate", spec.getUpdateStrategy().getType());
        assertEquals("ReCreate", spec.getUpdateStrategy().getRollingUpdate().getPodUpdatePolicy());
        assertEquals("Retain", spec.getPersistentVolumeClaimRetentionPolicy().getWhenDeleted());
        assertEquals("Retain", spec.getPersistentVolumeClaimRetentionPolicy().getWhenScaled());
        assertEquals("OnDelete", spec.getVolumeClaimUpdateStrategy().getType());
    }

    @Test
    void onlyTheInPlacePoliciesGetTheReadinessGate() {
        for (String policy : new String[]{"InPlaceIfPossible", "InPlaceOnly", "ReCreate", "inPlaceOnly"}) {
            StatefulSet set = bare();
            StatefulSetDefaults.apply(set, ALL_GATES);
            set.getSpec().getTemplate().getSpec().setReadinessGates(null);
            set.getSpec().getUpdateStrategy().getRollingUpdate().setPodUpdatePolicy(policy);
            StatefulSetDefaults.apply(set, ALL_GATES);
            List<PodReadinessGate> gates = set.getSpec().getTemplate().getSpec().getReadinessGates();
            boolean gated = gates != null && gates.stream()
                    .anyMatch(g -> WellKnown.INPLACE_UPDATE_READY_CONDITION.equals(g.getConditionType()));
            assertEquals(policy.startsWith("InPlace"), gated, policy);
        }
        // An unknown value is not replaced by the defaults: validation refuses it, quoting it back.
        StatefulSet unknown = defaulted(s -> s.getSpec().getUpdateStrategy().getRollingUpdate()
                .setPodUpdatePolicy("inPlaceOnly"));
        String message = FieldError.aggregate(StatefulSetValidation.validateCreate(unknown));
        assertTrue(message.contains("Invalid value: \"inPlaceOnly\""), message);
    }

    private static StatefulSet bare() {
        StatefulSet set = new StatefulSet();
        set.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("default").build());
        set.setSpec(new StatefulSetSpec());
        set.getSpec().setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "web").build());
        set.getSpec().setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "web")
                .endMetadata().withNewSpec().addNewContainer().withName("c").withImage("nginx").endContainer()
                .endSpec().build());
        return set;
    }

    /** A defaulted set after {@code change}, defaulted again (so an in-place policy gets its readiness gate). */
    private static StatefulSet defaulted(Consumer<StatefulSet> change) {
        StatefulSet set = bare();
        StatefulSetDefaults.apply(set, ALL_GATES);
        change.accept(set);
        StatefulSetDefaults.apply(set, ALL_GATES);
        return set;
    }

    private static String errors(Consumer<StatefulSet> change) {
        return FieldError.aggregate(StatefulSetValidation.validateCreate(defaulted(change)));
    }
}
