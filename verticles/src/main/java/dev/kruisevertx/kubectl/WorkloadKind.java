package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

import java.util.List;

/**
 * A workload kind the plugin's rollout commands handle. Each kruise workload describes itself here and is added
 * to {@link WorkloadKinds}; the commands themselves only use this interface.
 */
public interface WorkloadKind {
    /** Kind as in the API, e.g. {@code CloneSet}. */
    String kind();

    /** Names accepted on the command line (lower case), e.g. {@code cloneset}, {@code clone}. */
    List<String> aliases();

    /** API group, version and plural used for reads and writes. */
    ResourceDefinitionContext context();

    /** Path of the boolean that pauses the rollout, from the object's root (e.g. spec, updateStrategy, paused). */
    List<String> pausedPath();

    /** The rollout state of one object (read as JSON). */
    RolloutState rolloutState(JsonNode object);

    /** Whether the rollout and set commands apply (a PodUnavailableBudget is only for {@code why}). */
    default boolean rollsOut() {
        return true;
    }

    /** Whether objects of this kind live in a namespace (a SidecarSet does not). */
    default boolean namespaced() {
        return context().isNamespaceScoped();
    }

    /** The manager's controller of this kind (its {@code /why/CONTROLLER/...} path), e.g. {@code cloneset}. */
    default String controller() {
        return kind().toLowerCase(java.util.Locale.ROOT);
    }

    /** {@code cloneset.apps.kruise.io/name}, as kubectl names objects in its output. */
    default String displayName(String name) {
        return kind().toLowerCase(java.util.Locale.ROOT) + "." + context().getGroup() + "/" + name;
    }
}
