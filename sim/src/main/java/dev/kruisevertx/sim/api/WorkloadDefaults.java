package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * What kube-apiserver fills in for the workload kinds the built-in controllers run: the defaults of apps/v1
 * Deployment, ReplicaSet and StatefulSet and batch/v1 Job, and a Job's generated selector and pod labels
 * ({@code batch.kubernetes.io/controller-uid}, {@code batch.kubernetes.io/job-name} and their legacy
 * {@code controller-uid}/{@code job-name} twins) unless it sets {@code manualSelector}.
 */
final class WorkloadDefaults {
    static final String CONTROLLER_UID = "batch.kubernetes.io/controller-uid";
    static final String JOB_NAME = "batch.kubernetes.io/job-name";

    private WorkloadDefaults() {
    }

    private static boolean is(ResourceType type, String group, String kind) {
        return !type.custom() && type.group().equals(group) && type.kind().equals(kind);
    }

    /** Defaults applied to every create and update body. */
    static void normalize(ResourceType type, ObjectNode o) {
        if (!(o.get("spec") instanceof ObjectNode spec)) {
            return;
        }
        if (is(type, "apps", "Deployment")) {
            putIfMissing(spec, "replicas", 1);
            putIfMissing(spec, "revisionHistoryLimit", 10);
            putIfMissing(spec, "progressDeadlineSeconds", 600);
            ObjectNode strategy = object(spec, "strategy");
            putTextIfAbsent(strategy, "type", "RollingUpdate");
            if ("RollingUpdate".equals(strategy.path("type").asText())) {
                ObjectNode ru = object(strategy, "rollingUpdate");
                putTextIfAbsent(ru, "maxSurge", "25%");
                putTextIfAbsent(ru, "maxUnavailable", "25%");
            }
        } else if (is(type, "apps", "ReplicaSet")) {
            putIfMissing(spec, "replicas", 1);
        } else if (is(type, "apps", "StatefulSet")) {
            putIfMissing(spec, "replicas", 1);
            putIfMissing(spec, "revisionHistoryLimit", 10);
            putTextIfAbsent(spec, "podManagementPolicy", "OrderedReady");
            ObjectNode strategy = object(spec, "updateStrategy");
            putTextIfAbsent(strategy, "type", "RollingUpdate");
            if ("RollingUpdate".equals(strategy.path("type").asText())) {
                ObjectNode ru = object(strategy, "rollingUpdate");
                putIfMissing(ru, "partition", 0);
            }
            ObjectNode retention = object(spec, "persistentVolumeClaimRetentionPolicy");
            putTextIfAbsent(retention, "whenDeleted", "Retain");
            putTextIfAbsent(retention, "whenScaled", "Retain");
        } else if (is(type, "batch", "Job")) {
            if (!spec.hasNonNull("completions") && !spec.hasNonNull("parallelism")) {
                spec.put("completions", 1);
            }
            putIfMissing(spec, "parallelism", 1);
            if (!spec.has("backoffLimit") && !spec.has("backoffLimitPerIndex")) {
                spec.put("backoffLimit", 6);
            }
            putTextIfAbsent(spec, "completionMode", "NonIndexed");
            putIfMissing(spec, "suspend", false);
        }
    }

    /** A new Job's generated selector and pod labels, which need its uid. */
    static void onCreate(ResourceType type, ObjectNode o) {
        if (!is(type, "batch", "Job") || !(o.get("spec") instanceof ObjectNode spec)
                || spec.path("manualSelector").asBoolean(false)) {
            return;
        }
        String uid = o.path("metadata").path("uid").asText();
        String name = o.path("metadata").path("name").asText();
        ObjectNode selector = spec.putObject("selector");
        selector.putObject("matchLabels").put(CONTROLLER_UID, uid);
        ObjectNode labels = object(object(object(spec, "template"), "metadata"), "labels");
        labels.put(CONTROLLER_UID, uid).put(JOB_NAME, name).put("controller-uid", uid).put("job-name", name);
    }

    private static void putIfMissing(ObjectNode o, String field, int value) {
        if (!o.hasNonNull(field)) {
            o.put(field, value);
        }
    }

    private static void putIfMissing(ObjectNode o, String field, boolean value) {
        if (!o.hasNonNull(field)) {
            o.put(field, value);
        }
    }

    /** Text defaults apply where the field is absent; a field sent as null is kept as it is. */
    private static void putTextIfAbsent(ObjectNode o, String field, String value) {
        if (!o.has(field)) {
            o.put(field, value);
        }
    }

    private static ObjectNode object(ObjectNode parent, String field) {
        JsonNode n = parent.get(field);
        return n instanceof ObjectNode on ? on : parent.putObject(field);
    }
}
