package dev.kruisevertx.webhook.resourcedistribution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionTargets;
import dev.kruisevertx.resourcedistribution.DistributedResource;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import dev.kruisevertx.webhook.validation.WorkloadNames;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * OpenKruise v1.9.0's validation of a ResourceDistribution: the name; {@code spec.resource} present, readable, a
 * core/v1 Secret or ConfigMap with a name, and on update the same apiVersion, kind and name; target namespace names
 * valid DNS labels, none both included and excluded; a readable namespace label selector. A same-named object in a
 * target namespace is not refused here: the controller leaves it alone and reports {@code ConflictOccurred}.
 *
 * <p>Not done: OpenKruise's dry-run create of the resource in the manager's namespace (a resource the API server would
 * refuse shows up as {@code CreateResourceFailed} in the status instead).
 */
public final class ResourceDistributionValidation {
    private ResourceDistributionValidation() {
    }

    public static List<FieldError> validate(ResourceDistribution rd, ResourceDistribution old) {
        List<FieldError> errors = new ArrayList<>();
        WorkloadNames.check(rd.getMetadata(), WorkloadNames.DNS_SUBDOMAIN_MAX, false,
                "ResourceDistribution names are DNS subdomains", errors);
        DistributedResource resource;
        try {
            resource = DistributedResource.parse(rd.spec().getResource());
        } catch (IllegalArgumentException e) {
            errors.add(FieldError.invalid("spec.resource", shown(rd.spec().getResource()), e.getMessage()));
            return errors; // as OpenKruise: without a resource the targets are not looked at
        }
        if (old != null) {
            JsonNode before = old.spec().getResource();
            String oldKey = before == null ? "" : before.path("apiVersion").asText("") + "/"
                    + before.path("kind").asText("") + "/" + before.path("metadata").path("name").asText("");
            String newKey = "v1/" + resource.kind() + "/" + resource.name();
            if (!Objects.equals(oldKey, newKey)) {
                errors.add(FieldError.invalid("spec.resource", newKey, "resource apiVersion, kind, and name are "
                        + "immutable"));
                return errors;
            }
        }
        validateTargets(rd.spec().targets(), errors);
        return errors;
    }

    static void validateTargets(ResourceDistributionTargets targets, List<FieldError> errors) {
        Set<String> included = new LinkedHashSet<>(targets.included());
        for (String name : targets.included()) {
            if (!LabelRules.isDnsLabel(name)) {
                errors.add(FieldError.invalid("spec.targets.includedNamespaces", name, WorkloadNames.LABEL_SYNTAX));
            }
        }
        List<String> conflicted = new ArrayList<>();
        for (String name : targets.excluded()) {
            if (!LabelRules.isDnsLabel(name)) {
                errors.add(FieldError.invalid("spec.targets.excludedNamespaces", name, WorkloadNames.LABEL_SYNTAX));
            }
            if (included.contains(name) && !conflicted.contains(name)) {
                conflicted.add(name);
            }
        }
        if (!conflicted.isEmpty()) {
            errors.add(FieldError.invalid("spec.targets", String.join(",", conflicted), "ambiguous targets because "
                    + "namespace " + conflicted + " is in both IncludedNamespaces.List and ExcludedNamespaces.List"));
        }
        if (targets.getNamespaceLabelSelector() != null) {
            // One error for the selector, as apimachinery's LabelSelectorAsSelector stops at the first problem.
            List<FieldError> selectorErrors = new ArrayList<>();
            LabelRules.validateSelector(targets.getNamespaceLabelSelector(), "spec.targets.namespaceLabelSelector",
                    selectorErrors);
            if (!selectorErrors.isEmpty()) {
                errors.add(FieldError.invalid("spec.targets.namespaceLabelSelector",
                        String.valueOf(targets.getNamespaceLabelSelector().getMatchLabels()),
                        "labelSelectorAsSelector error: " + selectorErrors.get(0).toString()));
            }
        }
    }

    private static String shown(JsonNode resource) {
        if (resource == null || resource.isNull() || resource.isMissingNode()) {
            return "null";
        }
        return resource.isObject() ? resource.path("kind").asText("<no kind>") + " "
                + resource.path("metadata").path("name").asText("<no name>") : resource.getNodeType().name().toLowerCase();
    }
}
