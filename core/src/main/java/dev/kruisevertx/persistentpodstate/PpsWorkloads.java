package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The workloads a PersistentPodState may target — StatefulSets of {@code apps} and {@code apps.kruise.io} always, other
 * kinds when {@code PPS_Watch_Custom_Workload_WhiteList} lists their group and kind — and the one PersistentPodState
 * of a workload (same group, kind and name; the version does not matter), as OpenKruise matches them.
 */
public final class PpsWorkloads {
    private PpsWorkloads() {
    }

    /** Whether {@code apiVersion}/{@code kind} is a StatefulSet of apps or apps.kruise.io, or whitelisted. */
    public static boolean supported(String apiVersion, String kind, CustomWorkloadWhiteList whiteList) {
        Optional<String> group = group(apiVersion);
        if (group.isEmpty()) {
            return false;
        }
        if ("StatefulSet".equals(kind) && ("apps".equals(group.get())
                || PersistentPodState.GROUP.equals(group.get()))) {
            return true;
        }
        return whiteList != null && whiteList.permits(group.get(), kind == null ? "" : kind);
    }

    /**
     * The group of an apiVersion as apimachinery parses it: "" for "" or a bare version, the part before the one
     * '/'; empty (unparseable) for more than one '/' or an empty group or version around it.
     */
    public static Optional<String> group(String apiVersion) {
        if (apiVersion == null || apiVersion.isEmpty()) {
            return Optional.of("");
        }
        int slash = apiVersion.indexOf('/');
        if (slash < 0) {
            return Optional.of("");
        }
        if (apiVersion.indexOf('/', slash + 1) >= 0 || slash == 0 || slash == apiVersion.length() - 1) {
            return Optional.empty();
        }
        return Optional.of(apiVersion.substring(0, slash));
    }

    /** Same group, kind and name; false when either apiVersion does not parse. */
    public static boolean sameWorkload(TargetReference a, TargetReference b) {
        Optional<String> ga = group(a.getApiVersion());
        Optional<String> gb = group(b.getApiVersion());
        return ga.isPresent() && gb.isPresent() && ga.get().equals(gb.get()) && Objects.equals(a.getKind(), b.getKind())
                && Objects.equals(a.getName(), b.getName());
    }

    /**
     * A whitelisted custom workload as the recording decision sees it (OpenKruise's getPodStatefulSetLike): its
     * ordinals are 0 to {@code spec.replicas - 1}, and {@code spec.replicas} counts as 0 when it is absent or not a
     * whole number, so the states of its gone pods are then dropped under {@code WhenScaled}.
     */
    public static PodStateRecording.Workload customWorkload(io.fabric8.kubernetes.api.model.GenericKubernetesResource w) {
        long replicas = customReplicas(w);
        return new PodStateRecording.Workload(i -> i >= 0 && i < replicas,
                w.getMetadata() != null && w.getMetadata().getDeletionTimestamp() != null);
    }

    /** {@code spec.replicas} of a custom workload; 0 when absent, negative or not a whole number. */
    public static long customReplicas(io.fabric8.kubernetes.api.model.GenericKubernetesResource w) {
        Object spec = w.getAdditionalProperties() == null ? null : w.getAdditionalProperties().get("spec");
        if (!(spec instanceof java.util.Map<?, ?> m)) {
            return 0;
        }
        Object r = m.get("replicas");
        if (r instanceof Integer || r instanceof Long || r instanceof Short) {
            return Math.max(0, ((Number) r).longValue());
        }
        return 0;
    }

    /** The first PersistentPodState of the namespace's list that targets the workload and is not being deleted. */
    public static Optional<PersistentPodState> select(List<PersistentPodState> inNamespace, TargetReference workload) {
        for (PersistentPodState pps : inNamespace) {
            if (pps.getMetadata().getDeletionTimestamp() != null) {
                continue;
            }
            if (sameWorkload(workload, pps.spec().targetRef())) {
                return Optional.of(pps);
            }
        }
        return Optional.empty();
    }
}
