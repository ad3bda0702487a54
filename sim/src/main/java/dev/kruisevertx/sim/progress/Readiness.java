package dev.kruisevertx.sim.progress;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether an object has converged, with a one-line summary: pods are ready when their Ready condition is True;
 * replica workloads (Deployment, StatefulSet, CloneSet, Advanced StatefulSet, UnitedDeployment, ...) when the
 * controller has observed the current generation and all replicas are updated and ready; daemon-style workloads
 * when every scheduled pod is updated and ready; jobs when complete. Objects without such fields are ready.
 */
public record Readiness(boolean ready, String summary) {

    public static Readiness of(JsonNode o) {
        String kind = o.path("kind").asText("");
        JsonNode spec = o.path("spec");
        JsonNode status = o.path("status");
        if (kind.equals("Pod")) {
            return pod(o);
        }
        if (kind.equals("ContainerRecreateRequest")) {
            return containerRecreateRequest(status);
        }
        if (kind.equals("AdvancedCronJob")) {
            return advancedCronJob(status);
        }
        if (kind.equals("SidecarSet")) {
            return sidecarSet(o, status);
        }
        if (kind.equals("WorkloadSpread")) {
            return workloadSpread(o, status);
        }
        if (kind.equals("PersistentPodState")) {
            return persistentPodState(o, status);
        }
        if (kind.equals("ImagePullJob")) {
            return imagePullJob(status);
        }
        boolean observed = !status.has("observedGeneration")
                ? false : status.path("observedGeneration").asLong() >= o.path("metadata").path("generation").asLong(0);
        if (spec.has("replicas") || status.has("updatedReplicas") || status.has("readyReplicas")) {
            long desired = spec.path("replicas").asLong(1);
            long replicas = status.path("replicas").asLong(0);
            long updated = status.path("updatedReplicas").asLong(0);
            long readyCount = status.path("readyReplicas").asLong(0);
            // A partitioned rollout (CloneSet) has converged when the pods it should update are updated.
            long wantUpdated = status.has("expectedUpdatedReplicas")
                    ? status.path("expectedUpdatedReplicas").asLong() : desired;
            boolean ok = observed && replicas == desired && updated == wantUpdated && readyCount == desired;
            if (status.has("updatedReadyReplicas")) {
                ok &= status.path("updatedReadyReplicas").asLong() == wantUpdated;
            }
            return new Readiness(ok, readyCount + "/" + desired + " ready, " + updated + "/" + wantUpdated + " updated"
                    + (replicas != desired ? ", " + replicas + " replicas" : "") + (observed ? "" : ", generation not observed yet"));
        }
        if (kind.equals("DaemonSet") && !status.has("desiredNumberScheduled")) {
            // A daemon workload's status always has it once its controller has looked at it.
            return new Readiness(false, "no status yet");
        }
        if (status.has("desiredNumberScheduled")) {
            long desired = status.path("desiredNumberScheduled").asLong();
            long readyCount = status.path("numberReady").asLong(0);
            long updated = status.path("updatedNumberScheduled").asLong(0);
            // A partitioned rollout (Advanced DaemonSet) has converged when the nodes it should update are updated.
            long wantUpdated = Math.max(0, desired - daemonPartition(spec, desired));
            boolean ok = observed && readyCount == desired && updated >= wantUpdated;
            return new Readiness(ok, readyCount + "/" + desired + " ready, " + updated + "/" + wantUpdated + " updated"
                    + (observed ? "" : ", generation not observed yet"));
        }
        for (JsonNode c : status.path("conditions")) {
            String type = c.path("type").asText();
            if ((type.equals("Complete") || type.equals("Completed")) && c.path("status").asText().equals("True")) {
                return new Readiness(true, "complete");
            }
            if (type.equals("Failed") && c.path("status").asText().equals("True")) {
                return new Readiness(false, "failed: " + c.path("message").asText(""));
            }
        }
        if (kind.endsWith("Job")) {
            return new Readiness(false, "phase " + status.path("phase").asText("unknown")
                    + ", " + status.path("succeeded").asLong(0) + " succeeded");
        }
        return new Readiness(true, "present");
    }

    /** {@code spec.updateStrategy.rollingUpdate.partition} as an Advanced DaemonSet scales it (percentages down). */
    private static long daemonPartition(JsonNode spec, long desired) {
        JsonNode p = spec.path("updateStrategy").path("rollingUpdate").path("partition");
        if (p.isIntegralNumber()) {
            return Math.min(Math.max(p.asLong(), 0), desired);
        }
        String text = p.asText("");
        if (text.endsWith("%")) {
            try {
                return Math.min(Math.max(Long.parseLong(text.substring(0, text.length() - 1)) * desired / 100, 0), desired);
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return 0;
    }

    /**
     * A SidecarSet has converged when its controller observed the current generation and every matched pod runs its
     * latest sidecars and is ready (matchedPods == updatedPods == readyPods).
     */
    private static Readiness sidecarSet(JsonNode o, JsonNode status) {
        if (!status.has("observedGeneration")) {
            return new Readiness(false, "no status yet");
        }
        boolean observed = status.path("observedGeneration").asLong() >= o.path("metadata").path("generation").asLong(0);
        long matched = status.path("matchedPods").asLong(0);
        long updated = status.path("updatedPods").asLong(0);
        long readyCount = status.path("readyPods").asLong(0);
        return new Readiness(observed && updated == matched && readyCount == matched, matched + " matched, " + updated
                + " updated, " + readyCount + " ready" + (observed ? "" : ", generation not observed yet"));
    }

    /** Converged once the controller has observed the spec and recorded at least one pod's state. */
    private static Readiness persistentPodState(JsonNode o, JsonNode status) {
        if (!status.has("observedGeneration")) {
            return new Readiness(false, "no status yet");
        }
        boolean observed = status.path("observedGeneration").asLong() >= o.path("metadata").path("generation").asLong(0);
        int states = status.path("podStates").size();
        return new Readiness(observed && states > 0, states + (states == 1 ? " pod state" : " pod states")
                + " recorded" + (observed ? "" : ", generation not observed yet"));
    }

    /**
     * A WorkloadSpread has converged when its controller observed the current generation and no creation or deletion
     * the pod webhook recorded is still waiting for the controller to see it; the summary counts each subset's pods.
     */
    private static Readiness workloadSpread(JsonNode o, JsonNode status) {
        if (!status.has("observedGeneration") || !status.path("subsetStatuses").isArray()) {
            return new Readiness(false, "no status yet");
        }
        boolean observed = status.path("observedGeneration").asLong() >= o.path("metadata").path("generation").asLong(0);
        int pending = 0;
        List<String> parts = new ArrayList<>();
        for (JsonNode s : status.path("subsetStatuses")) {
            pending += s.path("creatingPods").size() + s.path("deletingPods").size();
            long missing = s.path("missingReplicas").asLong(0);
            long pods = s.path("replicas").asLong(0);
            parts.add(s.path("name").asText() + " " + pods + (pods == 1 ? " pod" : " pods")
                    + (missing < 0 ? "" : " (" + missing + " missing)"));
        }
        for (JsonNode version : status.path("versionedSubsetStatuses")) {
            for (JsonNode s : version) {
                pending += s.path("creatingPods").size() + s.path("deletingPods").size();
            }
        }
        return new Readiness(observed && pending == 0, String.join(", ", parts)
                + (pending == 0 ? "" : ", " + pending + " recorded creations/deletions not yet seen")
                + (observed ? "" : ", generation not observed yet"));
    }

    /**
     * An ImagePullJob has converged when it completed ({@code status.completionTime} set) with every target node
     * succeeded. A job that found no nodes (desired 0) completes at once without pulling anything: that is not
     * counted as converged, nor is one with failed nodes, so a sample that pulled nowhere shows as stuck.
     */
    private static Readiness imagePullJob(JsonNode status) {
        if (!status.has("desired")) {
            return new Readiness(false, "no status yet");
        }
        long desired = status.path("desired").asLong(0);
        long succeeded = status.path("succeeded").asLong(0);
        long failed = status.path("failed").asLong(0);
        long active = status.path("active").asLong(0);
        boolean completed = !status.path("completionTime").asText("").isEmpty();
        String message = status.path("message").asText("");
        return new Readiness(completed && desired > 0 && succeeded == desired, succeeded + "/" + desired
                + " nodes pulled, " + active + " pulling, " + failed + " failed"
                + (message.isEmpty() ? "" : ", " + message));
    }

    /** An AdvancedCronJob has converged once it scheduled a run (it never finishes). */
    private static Readiness advancedCronJob(JsonNode status) {
        String last = status.path("lastScheduleTime").asText("");
        String summary = (last.isEmpty() ? "no run scheduled yet" : status.path("type").asText("") + " runs, last at "
                + last) + ", " + status.path("active").size() + " active";
        return new Readiness(!last.isEmpty(), summary);
    }

    private static Readiness pod(JsonNode o) {
        JsonNode status = o.path("status");
        String phase = status.path("phase").asText("Pending");
        boolean ready = false;
        String unschedulable = null;
        for (JsonNode c : status.path("conditions")) {
            if (c.path("type").asText().equals("Ready")) {
                ready = c.path("status").asText().equals("True");
            }
            if (c.path("type").asText().equals("PodScheduled") && c.path("status").asText().equals("False")) {
                unschedulable = c.path("message").asText("unschedulable");
            }
        }
        StringBuilder s = new StringBuilder(o.path("metadata").has("deletionTimestamp") ? "Terminating" : phase);
        for (JsonNode cs : status.path("containerStatuses")) {
            JsonNode waiting = cs.path("state").path("waiting");
            if (waiting.has("reason")) {
                s.append(' ').append(cs.path("name").asText()).append('=').append(waiting.path("reason").asText());
            }
        }
        String node = o.path("spec").path("nodeName").asText("");
        if (!node.isEmpty()) {
            s.append(" on ").append(node);
        }
        if (unschedulable != null) {
            s.append(" (").append(unschedulable).append(')');
        }
        s.append(ready ? ", ready" : ", not ready");
        List<String> restarted = new ArrayList<>();
        for (JsonNode cs : status.path("containerStatuses")) {
            long restarts = cs.path("restartCount").asLong(0);
            if (restarts > 0) {
                restarted.add(cs.path("name").asText() + " " + restarts + "x");
            }
        }
        if (!restarted.isEmpty()) {
            s.append(", restarted ").append(String.join(", ", restarted));
        }
        return new Readiness(ready, s.toString());
    }

    /**
     * A ContainerRecreateRequest has converged when it is Completed with every container Succeeded; Completed with a
     * failed container never converges (a sample that fails should be seen as stuck).
     */
    private static Readiness containerRecreateRequest(JsonNode status) {
        String phase = status.path("phase").asText("");
        StringBuilder s = new StringBuilder(phase.isEmpty() ? "waiting for the node agent" : phase);
        boolean allSucceeded = true;
        List<String> states = new ArrayList<>();
        for (JsonNode c : status.path("containerRecreateStates")) {
            String p = c.path("phase").asText("");
            states.add(c.path("name").asText() + "=" + p);
            allSucceeded &= p.equals(ContainerRecreateRequestPhase.SUCCEEDED.value());
        }
        if (!states.isEmpty()) {
            s.append(", ").append(String.join(", ", states));
        }
        String message = status.path("message").asText("");
        if (!message.isEmpty()) {
            s.append(" (").append(message).append(')');
        }
        boolean completed = phase.equals(ContainerRecreateRequestPhase.COMPLETED.value());
        return new Readiness(completed && allSucceeded && !states.isEmpty(), s.toString());
    }
}
