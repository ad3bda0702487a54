package dev.kruisevertx.webhook.advancedcronjob;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.webhook.admission.FieldError;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * OpenKruise's checks of an AdvancedCronJob's ImageListPullJob template, read from its JSON (the ImageListPullJob
 * model arrives with the image-pull issue). Like OpenKruise, the first problem found is the only one reported.
 */
final class ImageListPullJobTemplateRules {
    static final int MAX_IMAGES = 255;

    private ImageListPullJobTemplateRules() {
    }

    static void validate(JsonNode template, String path, List<FieldError> errors) {
        JsonNode spec = template.path("spec");
        JsonNode selector = spec.path("selector");
        boolean hasSelector = selector.isObject();
        if (hasSelector) {
            boolean labels = selector.has("matchLabels") && !selector.get("matchLabels").isNull()
                    || selector.has("matchExpressions") && !selector.get("matchExpressions").isNull();
            if (labels && selector.has("names") && !selector.get("names").isNull()) {
                errors.add(FieldError.invalid(path + ".spec.selector", selector.toString(),
                        "can not set both names and labelSelector in this spec.selector"));
                return;
            }
            if (labels && !selectorValid(selector)) {
                errors.add(FieldError.invalid(path + ".spec.selector.labelSelector", selector.toString(),
                        "invalid selector: a matchExpressions entry needs a key and the operator In, NotIn, Exists "
                                + "or DoesNotExist"));
                return;
            }
            if (selector.path("names").isArray()) {
                Set<String> names = new HashSet<>();
                for (JsonNode n : selector.get("names")) {
                    if (!names.add(n.asText())) {
                        errors.add(FieldError.invalid(path + ".spec.selector.names", selector.get("names").toString(),
                                "duplicated name in selector names"));
                        return;
                    }
                }
            }
        }
        JsonNode podSelector = spec.path("podSelector");
        if (podSelector.isObject()) {
            if (hasSelector) {
                errors.add(FieldError.invalid(path + ".spec", "", "can not set both selector and podSelector"));
                return;
            }
            if (!selectorValid(podSelector)) {
                errors.add(FieldError.invalid(path + ".spec.podSelector.labelSelector", podSelector.toString(),
                        "invalid selector: a matchExpressions entry needs a key and the operator In, NotIn, Exists "
                                + "or DoesNotExist"));
                return;
            }
        }
        List<String> images = new ArrayList<>();
        spec.path("images").forEach(i -> images.add(i.asText()));
        String shown = spec.path("images").toString();
        if (images.isEmpty()) {
            errors.add(FieldError.invalid(path + ".spec.images", shown, "image can not be empty"));
            return;
        }
        if (images.size() > MAX_IMAGES) {
            errors.add(FieldError.invalid(path + ".spec.images", shown, "the maximum number of images cannot > 255"));
            return;
        }
        if (new HashSet<>(images).size() != images.size()) {
            errors.add(FieldError.invalid(path + ".spec.images", shown, "images cannot have duplicate values"));
            return;
        }
        for (String image : images) {
            if (image.isBlank() || image.chars().anyMatch(Character::isWhitespace) || image.endsWith(":")
                    || image.startsWith(":") || !image.equals(image.strip())) {
                errors.add(FieldError.invalid(path + ".spec.images", shown, "invalid image " + image
                        + ": invalid reference format"));
                return;
            }
        }
        JsonNode completion = spec.path("completionPolicy");
        String type = completion.path("type").asText("");
        if (!"Always".equals(type)) {
            errors.add(FieldError.invalid(path + ".spec.completionPolicy.type", type,
                    "completionPolicy should be Always, but current value is: " + type));
            return;
        }
        JsonNode deadline = completion.path("activeDeadlineSeconds");
        if (deadline.isNumber() && deadline.asLong() > AdvancedCronJobValidation.MAX_ACTIVE_DEADLINE_SECONDS) {
            errors.add(FieldError.invalid(path + ".spec.completionPolicy.activeDeadlineSeconds", deadline.asLong(),
                    "activeDeadlineSeconds must be less than " + AdvancedCronJobValidation.MAX_ACTIVE_DEADLINE_SECONDS
                            + ", current value is: " + deadline.asLong()));
            return;
        }
        JsonNode timeout = spec.path("pullPolicy").path("timeoutSeconds");
        if (deadline.isNumber() && timeout.isNumber() && timeout.asLong() > deadline.asLong()) {
            errors.add(FieldError.invalid(path + ".spec.completionPolicy.activeDeadlineSeconds", deadline.asLong(),
                    "completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds("
                            + timeout.asLong() + ")"));
            return;
        }
        JsonNode ttl = completion.path("ttlSecondsAfterFinished");
        if (!ttl.isMissingNode() && !ttl.isNull()) {
            errors.add(FieldError.invalid(path + ".spec.completionPolicy.ttlSecondsAfterFinished", ttl.asText(),
                    "ttlSecondsAfterFinished is not supported in advancedCronJob"));
        }
    }

    private static boolean selectorValid(JsonNode selector) {
        for (JsonNode r : selector.path("matchExpressions")) {
            String op = r.path("operator").asText("");
            if (r.path("key").asText("").isEmpty() || !List.of("In", "NotIn", "Exists", "DoesNotExist").contains(op)) {
                return false;
            }
            int values = r.path("values").size();
            if ((op.equals("In") || op.equals("NotIn")) && values == 0
                    || (op.equals("Exists") || op.equals("DoesNotExist")) && values > 0) {
                return false;
            }
        }
        return true;
    }
}
