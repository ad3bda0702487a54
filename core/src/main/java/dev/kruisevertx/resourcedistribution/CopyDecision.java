package dev.kruisevertx.resourcedistribution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionConditionType;

import java.util.Objects;

/**
 * What a ResourceDistribution does in one namespace, as OpenKruise v1.9.0 decides it: a target namespace gets the
 * copy created, updated when its content or hash differs (a copy edited by hand is restored), or reported when the
 * namespace is missing or a same-named object someone else controls is there (left alone); a namespace that is no
 * longer a target loses the copy the distribution controls.
 */
public final class CopyDecision {
    private CopyDecision() {
    }

    public enum Action {
        CREATE, UPDATE, IN_SYNC, CONFLICT, NAMESPACE_NOT_EXISTS, DELETE, NOTHING;

        /** The condition a failure of this action (or the action itself, for the two reports) lands in. */
        public ResourceDistributionConditionType failureCondition() {
            return switch (this) {
                case CREATE -> ResourceDistributionConditionType.CREATE_RESOURCE_FAILED;
                case UPDATE -> ResourceDistributionConditionType.UPDATE_RESOURCE_FAILED;
                case DELETE -> ResourceDistributionConditionType.DELETE_RESOURCE_FAILED;
                case CONFLICT -> ResourceDistributionConditionType.CONFLICT_OCCURRED;
                case NAMESPACE_NOT_EXISTS -> ResourceDistributionConditionType.NAMESPACE_NOT_EXISTS;
                default -> ResourceDistributionConditionType.GET_RESOURCE_FAILED;
            };
        }
    }

    /** One namespace's decision and why. */
    public record Step(String namespace, Action action, String reason) {
    }

    /**
     * @param distribution the distribution's name
     * @param resource     the parsed {@code spec.resource}
     * @param namespace    the namespace decided for
     * @param target       whether it is a target namespace
     * @param nsUsable     whether the namespace exists and is not terminating
     * @param live         the same-named object of the resource's kind there, as JSON, or null
     */
    public static Step decide(String distribution, DistributedResource resource, String namespace, boolean target,
                              boolean nsUsable, JsonNode live) {
        if (!target) {
            if (!nsUsable || live == null) {
                return new Step(namespace, Action.NOTHING, "not a target; no copy");
            }
            return controlledBy(live, distribution)
                    ? new Step(namespace, Action.DELETE, "not a target any more; removing the copy")
                    : new Step(namespace, Action.NOTHING, "not a target; the object there is not ours");
        }
        if (!nsUsable) {
            return new Step(namespace, Action.NAMESPACE_NOT_EXISTS, "namespace not found or is terminating");
        }
        if (live == null) {
            return new Step(namespace, Action.CREATE, "no copy yet");
        }
        if (!controlledBy(live, distribution)) {
            return new Step(namespace, Action.CONFLICT, "conflict with existing resources because of the same "
                    + "namespace, group, version, kind and name");
        }
        if (!DistributedResource.comparable(live).equals(DistributedResource.comparable(resource.content()))) {
            return new Step(namespace, Action.UPDATE, "the copy's content differs from spec.resource");
        }
        String hash = live.path("metadata").path("annotations").path(ResourceDistribution.HASH_ANNOTATION).asText("");
        if (!hash.equals(resource.hash())) {
            return new Step(namespace, Action.UPDATE, "the copy's hash annotation differs from spec.resource's");
        }
        return new Step(namespace, Action.IN_SYNC, "in sync");
    }

    /**
     * OpenKruise's isControlledByDistributor: the controller reference names a ResourceDistribution of this name
     * (by apiVersion, kind and name; a distribution deleted and created again under the same name takes its copies
     * back).
     */
    public static boolean controlledBy(JsonNode object, String distribution) {
        for (JsonNode ref : object.path("metadata").path("ownerReferences")) {
            if (ref.path("controller").asBoolean(false)) {
                return ResourceDistribution.API_VERSION.equals(ref.path("apiVersion").asText())
                        && ResourceDistribution.KIND.equals(ref.path("kind").asText())
                        && Objects.equals(distribution, ref.path("name").asText());
            }
        }
        return false;
    }
}
