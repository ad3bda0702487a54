package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the checker reads one workload kind: its replicas, its update budget, whether it names pods by ordinal. A later
 * controller (DaemonSet, ...) adds its kind here and its own {@link Invariant}s.
 *
 * @param defaultMaxUnavailable the budget when the spec leaves it out, as OpenKruise defaults it
 * @param minReadySecondsPath   where the kind keeps minReadySeconds (Advanced StatefulSet has it in its rolling update
 *                              strategy, not in the spec as CloneSet does)
 * @param perNode               one pod per node (Advanced DaemonSet): no replicas, budgets count nodes; the replica
 *                              invariants leave it to {@link DaemonSetNodeInvariant}
 */
public record WorkloadKind(String apiVersion, String kind, String maxUnavailablePath, String maxSurgePath,
                           String defaultMaxUnavailable, boolean ordinals, String minReadySecondsPath, boolean perNode) {
    private static final Pattern ORDINAL = Pattern.compile("-(\\d+)$");

    public static final WorkloadKind CLONESET = new WorkloadKind("apps.kruise.io/v1alpha1", "CloneSet",
            "/spec/updateStrategy/maxUnavailable", "/spec/updateStrategy/maxSurge", "20%", false,
            "/spec/minReadySeconds", false);
    public static final WorkloadKind ADVANCED_STATEFULSET = new WorkloadKind("apps.kruise.io/v1beta1", "StatefulSet",
            "/spec/updateStrategy/rollingUpdate/maxUnavailable", null, "1", true,
            "/spec/updateStrategy/rollingUpdate/minReadySeconds", false);
    /** Budgets are of nodes, scaled on status.desiredNumberScheduled (percentages rounded up, as OpenKruise). */
    public static final WorkloadKind ADVANCED_DAEMONSET = new WorkloadKind("apps.kruise.io/v1beta1", "DaemonSet",
            "/spec/updateStrategy/rollingUpdate/maxUnavailable", "/spec/updateStrategy/rollingUpdate/maxSurge", "1",
            false, "/spec/minReadySeconds", true);

    public boolean matches(String apiVersion, String kind) {
        return this.kind.equals(kind) && this.apiVersion.split("/")[0].equals(apiVersion.split("/")[0]);
    }

    public int replicas(JsonNode workload) {
        if (perNode) {
            return workload.at("/status/desiredNumberScheduled").asInt(0);
        }
        JsonNode r = workload.at("/spec/replicas");
        return r.isMissingNode() || r.isNull() ? 1 : r.asInt();
    }

    /** The update budget as a count; percentages round up, the lenient side, so only a real breach is reported. */
    public int maxUnavailable(JsonNode workload) {
        JsonNode v = workload.at(maxUnavailablePath);
        String text = v.isMissingNode() || v.isNull() ? defaultMaxUnavailable : v.asText();
        return Math.max(1, scaled(text, replicas(workload)));
    }

    public int maxSurge(JsonNode workload) {
        if (maxSurgePath == null) {
            return 0;
        }
        JsonNode v = workload.at(maxSurgePath);
        return v.isMissingNode() || v.isNull() ? 0 : scaled(v.asText(), replicas(workload));
    }

    public int minReadySeconds(JsonNode workload) {
        return workload.at(minReadySecondsPath).asInt(0);
    }

    /** The pod's ordinal from its name, or -1 for kinds without ordinals. */
    public int ordinal(String podName) {
        if (!ordinals) {
            return -1;
        }
        Matcher m = ORDINAL.matcher(podName);
        return m.find() ? Integer.parseInt(m.group(1)) : -1;
    }

    static int scaled(String value, int replicas) {
        if (value.endsWith("%")) {
            int percent = Integer.parseInt(value.substring(0, value.length() - 1));
            return (int) Math.ceil(percent * replicas / 100.0);
        }
        return Integer.parseInt(value);
    }
}
