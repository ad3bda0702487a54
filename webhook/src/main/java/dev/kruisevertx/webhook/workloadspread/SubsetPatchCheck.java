package dev.kruisevertx.webhook.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.kube.StrategicMergePatch;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import dev.kruisevertx.webhook.validation.ResourceQuantities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * OpenKruise's check of a subset {@code patch} against the target workload's pod template: the patch is applied to
 * the template as a strategic merge patch on a Pod and the resulting pod spec is validated, with the errors under
 * {@code spec.subsets[i].patch}. OpenKruise runs Kubernetes' whole ValidatePodSpec; this checks the rules a patch
 * is likely to break: the merge itself, the decode into a Pod, containers present with valid, unique names and an
 * image, a supported restartPolicy, valid nodeSelector labels and parseable resource quantities.
 */
final class SubsetPatchCheck {
    static final List<String> RESTART_POLICIES = List.of("Always", "OnFailure", "Never");
    /** A decode error's message ends with Jackson's location, which names the parser and is of no use here. */
    private static final int MAX_DETAIL = 200;

    private SubsetPatchCheck() {
    }

    /**
     * @param template the workload's pod template as JSON ({@code metadata} and {@code spec})
     * @param patch    the subset's patch
     * @param path     {@code spec.subsets[i].patch}
     */
    static void check(JsonNode template, JsonNode patch, String path, List<FieldError> errors) {
        String raw = patch.toString();
        if (!patch.isObject()) {
            errors.add(FieldError.invalid(path, raw, "failed to merge patch: the patch must be a JSON object"));
            return;
        }
        ObjectNode merged;
        try {
            merged = StrategicMergePatch.apply(template, (ObjectNode) patch);
        } catch (RuntimeException e) {
            errors.add(FieldError.invalid(path, raw, "failed to merge patch: " + detail(e)));
            return;
        }
        Pod pod;
        try {
            pod = ApiJson.serialization().convertValue(merged, Pod.class);
        } catch (RuntimeException e) {
            errors.add(FieldError.invalid(path, raw, "failed to unmarshal: " + detail(e)));
            return;
        }
        PodSpec spec = pod.getSpec();
        if (spec == null || spec.getContainers() == null || spec.getContainers().isEmpty()) {
            errors.add(FieldError.required(path + ".containers", ""));
        } else {
            Set<String> names = new HashSet<>();
            for (int i = 0; i < spec.getContainers().size(); i++) {
                Container c = spec.getContainers().get(i);
                String cp = path + ".containers[" + i + "]";
                if (c == null) {
                    errors.add(FieldError.required(cp, ""));
                    continue;
                }
                if (c.getName() == null || c.getName().isEmpty()) {
                    errors.add(FieldError.required(cp + ".name", ""));
                } else if (!LabelRules.isDnsLabel(c.getName())) {
                    errors.add(FieldError.invalid(cp + ".name", c.getName(), "a lowercase RFC 1123 label must "
                            + "consist of lower case alphanumeric characters or '-', and must start and end with "
                            + "an alphanumeric character"));
                } else if (!names.add(c.getName())) {
                    errors.add(FieldError.duplicate(cp + ".name", c.getName()));
                }
                if (c.getImage() == null || c.getImage().isBlank()) {
                    errors.add(FieldError.required(cp + ".image", ""));
                }
            }
        }
        if (spec != null && spec.getRestartPolicy() != null && !spec.getRestartPolicy().isEmpty()
                && !RESTART_POLICIES.contains(spec.getRestartPolicy())) {
            errors.add(FieldError.notSupported(path + ".restartPolicy", spec.getRestartPolicy(), RESTART_POLICIES));
        }
        if (spec != null) {
            LabelRules.validateLabels(spec.getNodeSelector(), path + ".nodeSelector", errors);
            ResourceQuantities.checkPod(spec, path, errors);
        }
    }

    private static String detail(RuntimeException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        int at = m.indexOf(" at [Source");
        if (at > 0) {
            m = m.substring(0, at);
        }
        m = m.replaceAll("\\s+", " ").strip();
        return m.length() > MAX_DETAIL ? m.substring(0, MAX_DETAIL) + "..." : m;
    }
}
