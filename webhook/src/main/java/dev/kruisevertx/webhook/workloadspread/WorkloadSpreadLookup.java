package dev.kruisevertx.webhook.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What WorkloadSpread validation reads besides the object: the other WorkloadSpreads of the namespace (no two may
 * target the same workload) and the custom workload kinds the {@code WorkloadSpread_Watch_Custom_Workload_WhiteList}
 * of ConfigMap {@code kruise-configuration} permits. Lookups run on the event loop, so they must be in-memory.
 */
public interface WorkloadSpreadLookup {
    /** No other WorkloadSpreads, no custom workloads. */
    WorkloadSpreadLookup NONE = of(namespace -> List.of());

    /**
     * A lookup over an in-memory namespace index (the shared cache's WorkloadSpreads); no custom workloads, so only
     * the built-in kinds are permitted.
     */
    static WorkloadSpreadLookup of(Function<String, List<WorkloadSpread>> byNamespace) {
        return of(byNamespace, () -> CustomWorkloadWhiteList.EMPTY);
    }

    /**
     * @param whitelist the parsed whitelist, in memory; may throw IllegalArgumentException for a malformed entry,
     *                  which the validation reports as an internal error, as OpenKruise does
     */
    static WorkloadSpreadLookup of(Function<String, List<WorkloadSpread>> byNamespace,
                                   Supplier<CustomWorkloadWhiteList> whitelist) {
        return new WorkloadSpreadLookup() {
            @Override
            public List<WorkloadSpread> inNamespace(String namespace) {
                return byNamespace.apply(namespace);
            }

            @Override
            public CustomWorkloadWhiteList customWorkloads() {
                return whitelist.get();
            }
        };
    }

    /** The WorkloadSpreads of {@code namespace} (the cache's objects: never modified). */
    List<WorkloadSpread> inNamespace(String namespace);

    /** The whitelisted custom workload kinds. */
    CustomWorkloadWhiteList customWorkloads();
}
