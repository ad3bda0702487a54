package dev.kruisevertx.webhook.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.kube.StrategicMergePatch;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.validation.PodSpecRules;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.List;

/**
 * OpenKruise's check of a subset {@code patch} against the target workload's pod template: the patch is applied to
 * the template as a strategic merge patch on a Pod and the resulting pod spec is validated, with the errors under
 * {@code spec.subsets[i].patch}: the merge itself, the decode into a Pod, then Kubernetes' pod spec rules as
 * {@link PodSpecRules} covers them (OpenKruise runs the whole ValidatePodSpec; see there for what is left out).
 */
final class SubsetPatchCheck {
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
        PodSpecRules.validate(pod.getSpec(), path, errors);
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
