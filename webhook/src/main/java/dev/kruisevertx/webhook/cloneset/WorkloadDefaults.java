package dev.kruisevertx.webhook.cloneset;

import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

import java.util.List;

/**
 * The defaults OpenKruise's webhooks give every workload alike (CloneSet, Advanced StatefulSet, and the workloads
 * to come): replicas 1, revisionHistoryLimit 10, a string field left empty takes its default, and the core
 * defaults on the pod template and PVC templates ({@link PodTemplateDefaults}).
 */
public final class WorkloadDefaults {
    public static final int REPLICAS = 1;
    public static final int REVISION_HISTORY_LIMIT = 10;

    private WorkloadDefaults() {
    }

    public static int replicas(Integer replicas) {
        return replicas == null ? REPLICAS : replicas;
    }

    public static int revisionHistoryLimit(Integer limit) {
        return limit == null ? REVISION_HISTORY_LIMIT : limit;
    }

    /** {@code value}, or {@code otherwise} when it is unset (null or empty, as Go's zero string). */
    public static String orDefault(String value, String otherwise) {
        return value == null || value.isEmpty() ? otherwise : value;
    }

    /** Core defaults on the pod template (when it has a pod spec) and on each PVC template. */
    public static void templates(PodTemplateSpec template, List<PersistentVolumeClaim> claimTemplates) {
        if (template != null) {
            PodTemplateDefaults.apply(template.getSpec());
        }
        if (claimTemplates != null) {
            claimTemplates.forEach(PodTemplateDefaults::apply);
        }
    }
}
