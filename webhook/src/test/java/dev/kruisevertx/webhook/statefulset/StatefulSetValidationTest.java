package dev.kruisevertx.webhook.statefulset;

import dev.kruisevertx.api.apps.v1beta1.RollingUpdateStatefulSetStrategy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetPersistentVolumeClaimRetentionPolicy;
import dev.kruisevertx.api.apps.v1beta1.StatefulSetScaleStrategy;
import dev.kruisevertx.api.apps.v1beta1.UnorderedUpdateStrategy;
import dev.kruisevertx.api.common.UpdatePriorityOrderTerm;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.webhook.admission.FieldError;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatefulSetValidationTest {
    static StatefulSet valid() {
        StatefulSet set = new StatefulSet();
        set.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("default").build());
        set.setSpec(new dev.kruisevertx.api.apps.v1beta1.StatefulSetSpec());
        set.getSpec().setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "web").build());
        set.getSpec().setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "web").endMetadata()
                .withNewSpec().addNewContainer().withName("c").withImage("nginx").endContainer().endSpec().build());
        StatefulSetDefaults.apply(set, new StatefulSetDefaults.Options(true, true, true, false));
        return set;
    }

    static String errors(Consumer<StatefulSet> change) {
        StatefulSet set = valid();
        change.accept(set);
        return FieldError.aggregate(StatefulSetValidation.validateCreate(set));
    }

    @Test
    void theDefaultedSetIsValid() {
        assertEquals(List.of(), StatefulSetValidation.validateCreate(valid()));
    }

    @Test
    void eachRuleHasItsMessage() {
        Object[][] cases = {
                {(Consumer<StatefulSet>) s -> s.getSpec().setPodManagementPolicy("Random"), "must be 'OrderedReady' or 'Parallel'"},
                {(Consumer<StatefulSet>) s -> s.getSpec().getUpdateStrategy().setType("Sometimes"), "must be 'RollingUpdate' or 'OnDelete'"},
                {(Consumer<StatefulSet>) s -> s.getSpec().getUpdateStrategy().setType("OnDelete"), "only allowed for updateStrategy 'RollingUpdate'"},
                {(Consumer<StatefulSet>) s -> ru(s).setPartition(-1), "partition"},
                {(Consumer<StatefulSet>) s -> ru(s).setMinReadySeconds(301), "must be less than 5 mins"},
                {(Consumer<StatefulSet>) s -> ru(s).setMaxUnavailable(new IntOrString(3)), "maxUnavailable can just work with Parallel PodManagementPolicyType"},
                {(Consumer<StatefulSet>) s -> {
                    s.getSpec().setPodManagementPolicy("Parallel");
                    ru(s).setMaxUnavailable(new IntOrString("5"));
                }, "a valid percent string"},
                {(Consumer<StatefulSet>) s -> {
                    s.getSpec().setPodManagementPolicy("Parallel");
                    ru(s).setMaxUnavailable(new IntOrString(0));
                }, "should not be less than 1"},
                {(Consumer<StatefulSet>) s -> ru(s).setPodUpdatePolicy("Sometimes"), "must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'"},
                {(Consumer<StatefulSet>) s -> ru(s).setPodUpdatePolicy("InPlaceOnly"), "must contains InPlaceUpdateReady when podUpdatePolicy is InPlaceOnly"},
                {(Consumer<StatefulSet>) s -> ru(s).setUnorderedUpdate(new UnorderedUpdateStrategy()), "unorderedUpdate can only work with Parallel PodManagementPolicyType"},
                {(Consumer<StatefulSet>) s -> {
                    s.getSpec().setPodManagementPolicy("Parallel");
                    UnorderedUpdateStrategy u = new UnorderedUpdateStrategy();
                    UpdatePriorityStrategy p = new UpdatePriorityStrategy();
                    p.setOrderPriority(List.of(new UpdatePriorityOrderTerm()));
                    u.setPriorityStrategy(p);
                    ru(s).setUnorderedUpdate(u);
                }, "order key can not be empty"},
                {(Consumer<StatefulSet>) s -> s.getSpec().setReplicas(-1), "spec.replicas"},
                {(Consumer<StatefulSet>) s -> s.getSpec().setSelector(new LabelSelectorBuilder().build()), "empty selector is invalid for statefulset"},
                {(Consumer<StatefulSet>) s -> s.getSpec().getTemplate().getMetadata().getLabels().put("app", "other"), "`selector` does not match template `labels`"},
                {(Consumer<StatefulSet>) s -> s.getSpec().getTemplate().getSpec().setRestartPolicy("Never"), "restartPolicy"},
                {(Consumer<StatefulSet>) s -> s.getSpec().getTemplate().getSpec().setActiveDeadlineSeconds(5L), "activeDeadlineSeconds in StatefulSet is not Supported"},
                {(Consumer<StatefulSet>) s -> s.getSpec().setReserveOrdinals(List.of(new IntOrString("3-1"))), "starts after it ends"},
                {(Consumer<StatefulSet>) s -> {
                    StatefulSetScaleStrategy ss = new StatefulSetScaleStrategy();
                    ss.setMaxUnavailable(new IntOrString(0));
                    s.getSpec().setScaleStrategy(ss);
                }, "spec.scaleStrategy.maxUnavailable"},
                {(Consumer<StatefulSet>) s -> {
                    StatefulSetPersistentVolumeClaimRetentionPolicy p = new StatefulSetPersistentVolumeClaimRetentionPolicy();
                    p.setWhenScaled("Keep");
                    s.getSpec().setPersistentVolumeClaimRetentionPolicy(p);
                }, "whenScaled"},
                {(Consumer<StatefulSet>) s -> s.getMetadata().setName("Web_1"), "RFC 1123 label"},
        };
        for (Object[] c : cases) {
            @SuppressWarnings("unchecked")
            String message = errors((Consumer<StatefulSet>) c[0]);
            assertTrue(message.contains((String) c[1]), "expected '" + c[1] + "' in: " + message);
        }
    }

    @Test
    void onlyTheUpdatableFieldsMayChange() {
        StatefulSet old = valid();
        StatefulSet changed = valid();
        changed.getSpec().setReplicas(5);
        changed.getSpec().setReserveOrdinals(List.of(new IntOrString(2)));
        ru(changed).setPartition(3);
        // OpenKruise v1.9 lets volumeClaimTemplates change (new templates, grown requests).
        changed.getSpec().setVolumeClaimTemplates(List.of(new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder()
                .withNewMetadata().withName("data").endMetadata().withNewSpec().withAccessModes("ReadWriteOnce")
                .withNewResources().addToRequests("storage", new io.fabric8.kubernetes.api.model.Quantity("2Gi"))
                .endResources().endSpec().build()));
        assertEquals(List.of(), StatefulSetValidation.validateUpdate(changed, old));
        changed.getSpec().setServiceName("other");
        String message = FieldError.aggregate(StatefulSetValidation.validateUpdate(changed, old));
        assertTrue(message.contains(StatefulSetValidation.UPDATABLE_FIELDS_MESSAGE), message);
        assertTrue(message.contains("`volumeClaimTemplates`, `VolumeClaimUpdateStrategy` and 'updateStrategy'"),
                message);
    }

    static io.fabric8.kubernetes.api.model.PersistentVolumeClaim vct(String name, String size, String mode) {
        return new io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder().withNewMetadata().withName(name)
                .endMetadata().withNewSpec().withAccessModes(mode).withNewResources()
                .addToRequests("storage", new io.fabric8.kubernetes.api.model.Quantity(size)).endResources().endSpec()
                .build();
    }

    @Test
    void onPodRollingUpdateTemplatesMayOnlyChangeTheirSize() {
        StatefulSet old = valid();
        old.getSpec().setVolumeClaimTemplates(List.of(vct("data", "1Gi", "ReadWriteOnce")));
        StatefulSet changed = valid();
        // Under OnDelete anything goes (the PVCs change when deleted).
        changed.getSpec().setVolumeClaimTemplates(List.of(vct("data", "1Gi", "ReadWriteMany"), vct("logs", "1Gi",
                "ReadWriteOnce")));
        assertEquals(List.of(), StatefulSetValidation.validateVolumeClaimTemplateUpdate(changed, old));

        dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategy strategy =
                new dev.kruisevertx.api.apps.v1beta1.VolumeClaimUpdateStrategy();
        strategy.setType("OnPodRollingUpdate");
        changed.getSpec().setVolumeClaimUpdateStrategy(strategy);
        assertTrue(FieldError.aggregate(StatefulSetValidation.validateVolumeClaimTemplateUpdate(changed, old))
                .contains("volumeClaimTemplate can not be added or deleted when OnRollingUpdate"));
        changed.getSpec().setVolumeClaimTemplates(List.of(vct("logs", "1Gi", "ReadWriteOnce")));
        assertTrue(FieldError.aggregate(StatefulSetValidation.validateVolumeClaimTemplateUpdate(changed, old))
                .contains("volumeClaimTemplate name can not be modified"));
        changed.getSpec().setVolumeClaimTemplates(List.of(vct("data", "1Gi", "ReadWriteMany")));
        assertTrue(FieldError.aggregate(StatefulSetValidation.validateVolumeClaimTemplateUpdate(changed, old))
                .contains("volumeClaimTemplate can not be modified when OnRollingUpdate"));
        changed.getSpec().setVolumeClaimTemplates(List.of(vct("data", "5Gi", "ReadWriteOnce")));
        assertEquals(List.of(), StatefulSetValidation.validateVolumeClaimTemplateUpdate(changed, old));
    }

    static RollingUpdateStatefulSetStrategy ru(StatefulSet s) {
        return s.getSpec().getUpdateStrategy().getRollingUpdate();
    }

    // Issue 13.

    @Test
    void anOverflowingPercentageIsAFieldErrorNotAFailure() {
        String message = errors(s -> {
            s.getSpec().setPodManagementPolicy("Parallel");
            ru(s).setMaxUnavailable(new IntOrString("99999999999999999999%"));
        });
        assertTrue(message.contains("spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "
                + "\"99999999999999999999%\": must not be greater than 100%"), message);
        message = errors(s -> {
            s.getSpec().setPodManagementPolicy("Parallel");
            ru(s).setMaxUnavailable(new IntOrString("150%"));
        });
        assertTrue(message.contains("must not be greater than 100%"), message);
        message = errors(s -> {
            s.getSpec().setPodManagementPolicy("Parallel");
            ru(s).setMaxUnavailable(new IntOrString("\u0665\u0660%"));
        });
        assertTrue(message.contains("a valid percent string"), message);
        assertEquals("", errors(s -> {
            s.getSpec().setPodManagementPolicy("Parallel");
            ru(s).setMaxUnavailable(new IntOrString("100%"));
        }).replace("[]", ""));
    }

    @Test
    void namesLeaveRoomForPodNamesAndRevisionLabels() {
        String message = errors(s -> s.getMetadata().setName("a".repeat(10_000)));
        assertTrue(message.contains("metadata.name: Too long: may not be more than 52 characters"), message);
        assertTrue(message.length() < 400, "the name is not echoed back");
        assertTrue(errors(s -> s.getMetadata().setName("a".repeat(53))).contains("Too long"));
        assertEquals(List.of(), StatefulSetValidation.validateCreate(withName("a".repeat(52))));
        assertTrue(errors(s -> s.getMetadata().setName("web.v1")).contains("RFC 1123 label"));
        String generated = errors(s -> {
            s.getMetadata().setName(null);
            s.getMetadata().setGenerateName("g".repeat(48));
        });
        assertTrue(generated.contains("metadata.generateName: Too long: may not be more than 47 characters"), generated);
    }

    @Test
    void aNameThatPredatesTheRuleDoesNotBlockUpdates() {
        StatefulSet old = withName("a".repeat(60));
        StatefulSet now = withName("a".repeat(60));
        now.getSpec().setReplicas(3);
        assertEquals(List.of(), StatefulSetValidation.validateUpdate(now, old));
    }

    @Test
    void podLabelsAndClaimTemplateNamesMustBeAcceptableToTheApiServer() {
        assertTrue(errors(s -> {
            s.getSpec().getTemplate().getMetadata().getLabels().put("tier", "x".repeat(64));
        }).contains("spec.template.metadata.labels: Invalid value"));
        assertTrue(errors(s -> s.getSpec().getTemplate().getMetadata().getLabels().put("bad key!", "x"))
                .contains("spec.template.metadata.labels: Invalid value: \"bad key!\""));
        assertTrue(errors(s -> s.getSpec().setVolumeClaimTemplates(List.of(vct("D".repeat(70), "1Gi", "ReadWriteOnce"))))
                .contains("spec.volumeClaimTemplates[0].metadata.name: Invalid value"));
        assertTrue(errors(s -> s.getSpec().setVolumeClaimTemplates(List.of(vct("data", "1Gi", "ReadWriteOnce"),
                vct("data", "1Gi", "ReadWriteOnce")))).contains("spec.volumeClaimTemplates[1].metadata.name: Duplicate value"));
        assertTrue(errors(s -> s.getSpec().getSelector().getMatchExpressions().add(
                new io.fabric8.kubernetes.api.model.LabelSelectorRequirement("app", null, List.of())))
                .contains("spec.selector.matchExpressions[0].operator"));
    }

    @Test
    void ordinalsMayNotPassTheIntRange() {
        assertTrue(errors(s -> {
            s.getSpec().setOrdinals(new dev.kruisevertx.api.apps.v1beta1.StatefulSetOrdinals());
            s.getSpec().getOrdinals().setStart(Integer.MAX_VALUE - 1);
            s.getSpec().setReplicas(5);
        }).contains("spec.ordinals.start"));
        assertTrue(errors(s -> s.getSpec().setReserveOrdinals(List.of(new IntOrString("0-999999"),
                new IntOrString("2000000-2999999")))).contains("more than 1000000 ordinals are reserved"));
        assertTrue(errors(s -> s.getSpec().setReserveOrdinals(List.of(new IntOrString("99999999999999999999"))))
                .contains("spec.reserveOrdinals"));
    }

    static StatefulSet withName(String name) {
        StatefulSet set = valid();
        set.getMetadata().setName(name);
        return set;
    }
}
