package dev.kruisevertx.webhook.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;

import java.util.List;
import java.util.function.Function;

/**
 * What WorkloadSpread validation reads besides the object: the other WorkloadSpreads of the namespace (no two may
 * target the same workload) and the custom workload kinds the {@code WorkloadSpread_Watch_Custom_Workload_WhiteList}
 * of ConfigMap {@code kruise-configuration} permits. Lookups run on the event loop, so they must be in-memory.
 */
public interface WorkloadSpreadLookup {
    /** No other WorkloadSpreads, no custom workloads. */
    WorkloadSpreadLookup NONE = of(namespace -> List.of());

    /** A group and kind the whitelist permits as a target. */
    record CustomWorkload(String group, String kind) {
    }

    /**
     * A lookup over an in-memory namespace index (the shared cache's WorkloadSpreads); no custom workloads (the
     * whitelist is not read yet, so only the built-in kinds are permitted).
     */
    static WorkloadSpreadLookup of(Function<String, List<WorkloadSpread>> byNamespace) {
        return new WorkloadSpreadLookup() {
            @Override
            public List<WorkloadSpread> inNamespace(String namespace) {
                return byNamespace.apply(namespace);
            }

            @Override
            public List<CustomWorkload> customWorkloads() {
                return List.of();
            }
        };
    }

    /** The WorkloadSpreads of {@code namespace} (the cache's objects: never modified). */
    List<WorkloadSpread> inNamespace(String namespace);

    /** The whitelisted custom workload kinds. */
    List<CustomWorkload> customWorkloads();
}
