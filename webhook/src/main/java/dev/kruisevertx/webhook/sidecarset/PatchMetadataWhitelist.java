package dev.kruisevertx.webhook.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetPatchPodMetadata;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.podutil.LabelSelectors;
import io.fabric8.kubernetes.api.model.LabelSelector;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which annotations a SidecarSet may patch onto pods (OpenKruise's {@code ValidateSidecarSetPatchMetadataWhitelist}):
 * the key {@code SidecarSet_PatchPodMetadata_WhiteList} of the ConfigMap {@code kruise-configuration} in the kruise
 * namespace holds {@code {"rules": [{"selector": <label selector on the SidecarSet>, "allowedAnnotationKeyExprs":
 * [<regular expressions>]}]}}; every patched key must match an expression of a rule whose selector (if any) selects
 * the SidecarSet. Without the whitelist, or without any expression for the SidecarSet, patching is refused unless
 * gate SidecarSetPatchPodMetadataDefaultsAllowed is on.
 */
public final class PatchMetadataWhitelist {
    private PatchMetadataWhitelist() {
    }

    /** The reason the SidecarSet's patchPodMetadata is not allowed, empty when it is. */
    public static Optional<String> problem(SidecarSet set, Optional<String> whitelist, boolean defaultsAllowed) {
        List<SidecarSetPatchPodMetadata> patches = set.getSpec() == null ? null : set.getSpec().getPatchPodMetadata();
        if (patches == null || patches.isEmpty()) {
            return Optional.empty();
        }
        if (whitelist.isEmpty()) {
            return defaultsAllowed ? Optional.empty() : Optional.of("SidecarSet patch metadata whitelist not found");
        }
        JsonNode rules;
        try {
            rules = ApiJson.serialization().unmarshal(whitelist.get(), JsonNode.class).path("rules");
        } catch (RuntimeException e) {
            return Optional.of("the SidecarSet_PatchPodMetadata_WhiteList of kruise-configuration is not JSON");
        }
        Map<String, String> labels = set.getMetadata().getLabels() == null ? Map.of() : set.getMetadata().getLabels();
        List<Pattern> allowed = new ArrayList<>();
        for (JsonNode rule : rules) {
            JsonNode selector = rule.get("selector");
            try {
                if (selector != null && !selector.isNull() && !LabelSelectors.matches(
                        ApiJson.serialization().convertValue(selector, LabelSelector.class), labels)) {
                    continue;
                }
                for (JsonNode expr : rule.path("allowedAnnotationKeyExprs")) {
                    allowed.add(Pattern.compile(expr.asText()));
                }
            } catch (PatternSyntaxException e) {
                return Optional.of("invalid allowedAnnotationKeyExprs in the SidecarSet patch metadata whitelist: "
                        + e.getDescription());
            } catch (RuntimeException e) {
                return Optional.of("invalid selector in the SidecarSet patch metadata whitelist: " + e.getMessage());
            }
        }
        if (allowed.isEmpty()) {
            return defaultsAllowed ? Optional.empty()
                    : Optional.of("sidecarSet patch metadata annotation is not allowed");
        }
        for (SidecarSetPatchPodMetadata patch : patches) {
            if (patch.getAnnotations() == null) {
                continue;
            }
            for (String key : patch.getAnnotations().keySet()) {
                if (allowed.stream().noneMatch(p -> p.matcher(key).find())) {
                    return Optional.of("sidecarSet patch metadata annotation(" + key + ") is not allowed");
                }
            }
        }
        return Optional.empty();
    }
}
