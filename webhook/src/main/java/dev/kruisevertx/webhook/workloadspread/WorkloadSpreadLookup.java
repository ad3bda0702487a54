package dev.kruisevertx.webhook.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;

import java.util.List;
import java.util.function.BiFunction;
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

    /**
     * The target workload's pod template as JSON ({@code metadata} and {@code spec}; a CloneSet's or StatefulSet's
     * volumeClaimTemplates added as volumes, as OpenKruise does), or null when the workload is not known (then the
     * subset patches are not checked against it, as OpenKruise skips the check when the workload does not exist).
     * In memory (the shared cache): called on the event loop.
     */
    default JsonNode targetTemplate(String namespace, TargetReference ref) {
        return null;
    }

    /** As {@link #of(Function, Supplier)}, with the target workloads' pod templates. */
    static WorkloadSpreadLookup of(Function<String, List<WorkloadSpread>> byNamespace,
                                   Supplier<CustomWorkloadWhiteList> whitelist,
                                   BiFunction<String, TargetReference, JsonNode> templates) {
        WorkloadSpreadLookup base = of(byNamespace, whitelist);
        return new WorkloadSpreadLookup() {
            @Override
            public List<WorkloadSpread> inNamespace(String namespace) {
                return base.inNamespace(namespace);
            }

            @Override
            public CustomWorkloadWhiteList customWorkloads() {
                return base.customWorkloads();
            }

            @Override
            public JsonNode targetTemplate(String namespace, TargetReference ref) {
                return templates.apply(namespace, ref);
            }
        };
    }

    /** The WorkloadSpreads of {@code namespace} (the cache's objects: never modified). */
    List<WorkloadSpread> inNamespace(String namespace);

    /** The whitelisted custom workload kinds. */
    CustomWorkloadWhiteList customWorkloads();
}
