package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSpec;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadStatus;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubset;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetCondition;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpreadSubsetStatus;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Small builders for WorkloadSpread tables: subsets as "a:2", "b:50%" or "c" (no maxReplicas). */
final class Fixtures {
    static final String T0 = "2026-01-01T00:00:00Z";

    private Fixtures() {
    }

    static WorkloadSpread ws(String kind, String... subsets) {
        WorkloadSpread ws = new WorkloadSpread();
        ws.setMetadata(new ObjectMetaBuilder().withName("ws").withNamespace("ns").withGeneration(3L).build());
        WorkloadSpreadSpec spec = new WorkloadSpreadSpec();
        String apiVersion = switch (kind) {
            case "CloneSet" -> "apps.kruise.io/v1alpha1";
            case "Job" -> "batch/v1";
            default -> "apps/v1";
        };
        spec.setTargetRef(new TargetReference(apiVersion, kind, "w"));
        List<WorkloadSpreadSubset> list = new ArrayList<>();
        for (String s : subsets) {
            String[] p = s.split(":");
            IntOrString max = p.length < 2 ? null
                    : p[1].endsWith("%") || !p[1].matches("-?[0-9]+") ? new IntOrString(p[1])
                    : new IntOrString(Integer.parseInt(p[1]));
            list.add(new WorkloadSpreadSubset(p[0], max));
        }
        spec.setSubsets(list);
        ws.setSpec(spec);
        return ws;
    }

    /** An entry "name:missing" with optional creating/deleting pod names. */
    static WorkloadSpreadSubsetStatus entry(String name, int replicas, int missing, List<String> creating,
                                            List<String> deleting) {
        WorkloadSpreadSubsetStatus s = new WorkloadSpreadSubsetStatus(name, replicas, missing);
        if (!creating.isEmpty()) {
            Map<String, String> m = new LinkedHashMap<>();
            creating.forEach(p -> m.put(p, T0));
            s.setCreatingPods(m);
        }
        if (!deleting.isEmpty()) {
            Map<String, String> m = new LinkedHashMap<>();
            deleting.forEach(p -> m.put(p, T0));
            s.setDeletingPods(m);
        }
        return s;
    }

    static WorkloadSpreadSubsetStatus entry(String name, int missing) {
        return entry(name, 0, missing, List.of(), List.of());
    }

    static WorkloadSpreadSubsetStatus unschedulable(WorkloadSpreadSubsetStatus s, String status) {
        s.setConditions(new ArrayList<>(List.of(new WorkloadSpreadSubsetCondition(
                WorkloadSpreadSubsetCondition.SCHEDULABLE, status, T0, "", ""))));
        return s;
    }

    static WorkloadSpread withVersioned(WorkloadSpread ws, String version, WorkloadSpreadSubsetStatus... entries) {
        WorkloadSpreadStatus status = ws.getStatus() == null ? new WorkloadSpreadStatus() : ws.getStatus();
        Map<String, List<WorkloadSpreadSubsetStatus>> v = status.getVersionedSubsetStatuses() == null
                ? new LinkedHashMap<>() : status.getVersionedSubsetStatuses();
        v.put(version, new ArrayList<>(List.of(entries)));
        status.setVersionedSubsetStatuses(v);
        ws.setStatus(status);
        return ws;
    }

    static WorkloadSpread withSubsetStatuses(WorkloadSpread ws, WorkloadSpreadSubsetStatus... entries) {
        WorkloadSpreadStatus status = ws.getStatus() == null ? new WorkloadSpreadStatus() : ws.getStatus();
        status.setSubsetStatuses(new ArrayList<>(List.of(entries)));
        ws.setStatus(status);
        return ws;
    }

    static Pod pod(String name, String ownerKind, Map<String, String> labels) {
        return new PodBuilder().withMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns")
                        .withLabels(labels)
                        .withOwnerReferences(new OwnerReferenceBuilder().withApiVersion("apps/v1").withKind(ownerKind)
                                .withName("owner").withUid("owner-uid").withController(true).build())
                        .build())
                .withNewSpec().endSpec().build();
    }

    static Pod pod(String name) {
        return pod(name, "CloneSet", Map.of());
    }
}
