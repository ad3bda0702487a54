package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One promise the controllers keep, checked on every pod and workload event. Implementations keep their own state;
 * the checker calls them one event at a time (never concurrently).
 */
public interface Invariant {
    String name();

    default void onPod(PodEvent event, ClusterView view, Violations out) {
    }

    default void onWorkload(WorkloadEvent event, ClusterView view, Violations out) {
    }

    /**
     * An event of an object kind the checker watches without treating it as a replicated workload (nodes, jobs and
     * their owners: see {@link InvariantChecker#watch(io.fabric8.kubernetes.client.KubernetesClient, String,
     * java.util.List, java.util.List)}).
     */
    default void onObject(PodEvent.Type type, JsonNode object, long atMillis, Violations out) {
    }

    /** Called at the end of a run and periodically: decide what was waiting for later events. */
    default void settle(ClusterView view, long nowMillis, boolean finalCheck, Violations out) {
    }
}
