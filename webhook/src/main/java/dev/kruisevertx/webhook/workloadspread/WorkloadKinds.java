package dev.kruisevertx.webhook.workloadspread;

import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.fabric8.kubernetes.api.model.OwnerReference;

import java.util.List;
import java.util.Set;

/**
 * The workload kinds whose pods a WorkloadSpread can place (OpenKruise's {@code matchReference}): Deployment,
 * ReplicaSet and StatefulSet of {@code apps}, CloneSet and StatefulSet of {@code apps.kruise.io}, Job of
 * {@code batch}, plus the whitelisted custom workloads and their sub-resources.
 */
final class WorkloadKinds {
    private static final Set<String> BUILT_IN = Set.of("apps/Deployment", "apps/ReplicaSet", "apps/StatefulSet",
            "apps.kruise.io/CloneSet", "apps.kruise.io/StatefulSet", "batch/Job");

    private WorkloadKinds() {
    }

    /** The group of an apiVersion ({@code ""} for the core group). */
    static String group(String apiVersion) {
        if (apiVersion == null) {
            return "";
        }
        int slash = apiVersion.indexOf('/');
        return slash < 0 ? "" : apiVersion.substring(0, slash);
    }

    static boolean builtIn(String group, String kind) {
        return BUILT_IN.contains(group + "/" + kind);
    }

    static boolean known(OwnerReference ref, java.util.function.Supplier<CustomWorkloadWhiteList> whitelist) {
        if (ref == null || ref.getKind() == null) {
            return false;
        }
        String group = group(ref.getApiVersion());
        if (BUILT_IN.contains(group + "/" + ref.getKind())) {
            return true;
        }
        return permits(whitelist.get().workloads(), group, ref.getKind());
    }

    private static boolean permits(List<CustomWorkloadWhiteList.Workload> workloads, String group, String kind) {
        for (CustomWorkloadWhiteList.Workload w : workloads) {
            if (group.equals(w.group()) && kind.equals(w.kind())) {
                return true;
            }
            if (permits(w.subResources(), group, kind)) {
                return true;
            }
        }
        return false;
    }
}
