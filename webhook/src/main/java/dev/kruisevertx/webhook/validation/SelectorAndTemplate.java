package dev.kruisevertx.webhook.validation;

import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

import java.util.List;
import java.util.Map;

/**
 * OpenKruise's selector and pod template rules of the workloads whose pods always run (Advanced DaemonSet and
 * Advanced StatefulSet): a non-empty selector that matches the template's labels, valid labels, at least one
 * container with valid resources, restartPolicy Always and no activeDeadlineSeconds.
 */
public final class SelectorAndTemplate {
    private SelectorAndTemplate() {
    }

    /**
     * The selector, the template's labels, containers and resources.
     *
     * @param kind the kind in lower case, as the empty-selector message names it ({@code daemonset})
     * @return false when there is no template (nothing more of it to check)
     */
    public static boolean check(LabelSelector selector, PodTemplateSpec template, String kind,
                                List<FieldError> errors) {
        if (selector == null) {
            errors.add(FieldError.required("spec.selector", ""));
        } else {
            int before = errors.size();
            LabelRules.validateSelector(selector, "spec.selector", errors);
            if (LabelRules.isEmpty(selector)) {
                errors.add(FieldError.invalid("spec.selector", "", "empty selector is invalid for " + kind));
            }
            if (errors.size() > before) {
                selector = null;
            }
        }
        if (template == null) {
            errors.add(FieldError.required("spec.template", ""));
            return false;
        }
        // The pods get these labels; a label the API server refuses would fail every pod creation.
        Map<String, String> labels = template.getMetadata() == null || template.getMetadata().getLabels() == null
                ? Map.of() : template.getMetadata().getLabels();
        LabelRules.validateLabels(labels, "spec.template.metadata.labels", errors);
        if (selector != null) {
            try {
                if (!LabelSelectors.matches(selector, labels)) {
                    errors.add(FieldError.invalid("spec.template.metadata.labels", labels.toString(),
                            "`selector` does not match template `labels`"));
                }
            } catch (IllegalArgumentException e) {
                errors.add(FieldError.invalid("spec.selector", "", e.getMessage()));
            }
        }
        PodSpec ps = template.getSpec();
        if (ps == null || ps.getContainers() == null || ps.getContainers().isEmpty()) {
            errors.add(FieldError.required("spec.template.spec.containers", ""));
        }
        ResourceQuantities.checkPod(ps, "spec.template.spec", errors);
        return true;
    }

    /**
     * restartPolicy Always and no activeDeadlineSeconds. OpenKruise refuses an unset restartPolicy too (it has no
     * defaults for the template); the API server defaults pods to Always, so unset is taken as Always here.
     *
     * @param kindName the kind as the activeDeadlineSeconds message names it ({@code DaemonSet})
     */
    public static void checkAlwaysRunning(PodSpec ps, String kindName, List<FieldError> errors) {
        if (ps != null && ps.getRestartPolicy() != null && !ps.getRestartPolicy().isEmpty()
                && !"Always".equals(ps.getRestartPolicy())) {
            errors.add(FieldError.notSupported("spec.template.spec.restartPolicy", ps.getRestartPolicy(),
                    List.of("Always")));
        }
        if (ps != null && ps.getActiveDeadlineSeconds() != null) {
            errors.add(FieldError.forbidden("spec.template.spec.activeDeadlineSeconds",
                    "activeDeadlineSeconds in " + kindName + " is not Supported"));
        }
    }
}
