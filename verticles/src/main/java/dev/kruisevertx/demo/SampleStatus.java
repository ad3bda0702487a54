package dev.kruisevertx.demo;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

import java.util.List;
import java.util.Map;

/**
 * How the demo reads a sample's progress: one line of state and whether it has converged. Works on generic
 * objects so a new workload kind only adds a case here.
 */
final class SampleStatus {
    private SampleStatus() {
    }

    record View(String line, boolean ready) {
    }

    static View of(GenericKubernetesResource object) {
        if (object == null) {
            return new View("not found", false);
        }
        String kind = object.getKind();
        if ("Pod".equals(kind)) {
            return pod(object);
        }
        if ("CloneSet".equals(kind) || "StatefulSet".equals(kind)) {
            return workload(object);
        }
        return new View("exists", true);
    }

    private static View pod(GenericKubernetesResource pod) {
        Map<String, Object> status = map(pod.getAdditionalProperties().get("status"));
        String phase = string(status.get("phase"), "Pending");
        boolean ready = false;
        for (Object c : list(status.get("conditions"))) {
            Map<String, Object> condition = map(c);
            if ("Ready".equals(condition.get("type"))) {
                ready = "True".equals(condition.get("status"));
            }
        }
        String node = string(map(pod.getAdditionalProperties().get("spec")).get("nodeName"), "unscheduled");
        return new View(phase + (ready ? ", ready" : ", not ready") + " on " + node, ready);
    }

    private static View workload(GenericKubernetesResource workload) {
        Map<String, Object> spec = map(workload.getAdditionalProperties().get("spec"));
        Map<String, Object> status = map(workload.getAdditionalProperties().get("status"));
        long desired = number(spec.get("replicas"), 1);
        long replicas = number(status.get("replicas"), 0);
        long ready = number(status.get("readyReplicas"), 0);
        long updated = number(status.get("updatedReplicas"), 0);
        long updatedReady = number(status.get("updatedReadyReplicas"), updated == replicas ? ready : 0);
        long observed = number(status.get("observedGeneration"), 0);
        Long generation = workload.getMetadata().getGeneration();
        boolean converged = generation != null && observed >= generation && replicas == desired
                && updated == desired && ready == desired && updatedReady == desired;
        return new View(String.format("desired %d, replicas %d, updated %d, ready %d, updated-ready %d%s", desired,
                replicas, updated, ready, updatedReady, converged ? " (converged)" : ""), converged);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    private static List<?> list(Object o) {
        return o instanceof List<?> l ? l : List.of();
    }

    private static String string(Object o, String fallback) {
        return o == null ? fallback : o.toString();
    }

    private static long number(Object o, long fallback) {
        return o instanceof Number n ? n.longValue() : fallback;
    }
}
