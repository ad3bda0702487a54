package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Which version of a workload a pod belongs to, for the versioned subset status: only for the workload kinds named
 * by {@code --ws-enabled-versioned-status} (default {@value WorkloadSpreads#DEFAULT_VERSIONED_STATUS_WORKLOADS});
 * every other pod is {@value WorkloadSpreads#VERSION_IGNORED}.
 */
public final class PodVersions {
    private final Set<String> enabledKinds;

    private PodVersions(Set<String> enabledKinds) {
        this.enabledKinds = enabledKinds;
    }

    /** The flag's default. */
    public static PodVersions defaults() {
        return of(WorkloadSpreads.DEFAULT_VERSIONED_STATUS_WORKLOADS);
    }

    /**
     * Reads the flag as OpenKruise does: comma-separated kinds, case-insensitive; naming deployment also enables
     * replicaset (a Deployment's pods are owned by its ReplicaSets).
     */
    public static PodVersions of(String flag) {
        Set<String> kinds = new LinkedHashSet<>();
        for (String k : (flag == null ? "" : flag).toLowerCase(Locale.ROOT).split(",", -1)) {
            kinds.add(k);
        }
        if (kinds.contains("deployment")) {
            kinds.add("replicaset");
        }
        return new PodVersions(Set.copyOf(kinds));
    }

    /** Whether objects of {@code kind} (or pods owned by one) use versioned status. */
    public boolean enabled(String kind) {
        return kind != null && enabledKinds.contains(kind.toLowerCase(Locale.ROOT));
    }

    /**
     * OpenKruise's {@code GetPodVersion}: for a pod whose controller kind is enabled, its {@code pod-template-hash}
     * label, else the short form of its {@code controller-revision-hash} label; otherwise (and when neither label is
     * set) {@value WorkloadSpreads#VERSION_IGNORED}.
     */
    public String of(Pod pod) {
        String controllerKind = Pods.controllerOf(pod).map(OwnerReference::getKind).orElse(null);
        if (!enabled("Pod") && !enabled(controllerKind)) {
            return WorkloadSpreads.VERSION_IGNORED;
        }
        String hash = Pods.label(pod, WellKnown.POD_TEMPLATE_HASH_LABEL);
        if (hash != null) {
            return hash;
        }
        String revision = Pods.label(pod, WellKnown.CONTROLLER_REVISION_HASH_LABEL);
        if (revision != null) {
            return Pods.shortHash(revision);
        }
        return WorkloadSpreads.VERSION_IGNORED;
    }
}
