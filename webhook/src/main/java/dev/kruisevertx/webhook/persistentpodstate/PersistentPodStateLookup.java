package dev.kruisevertx.webhook.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;

import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What the PersistentPodState webhooks read: the PersistentPodStates of a namespace (the shared watch cache) and the
 * {@code PPS_Watch_Custom_Workload_WhiteList} of {@code kruise-configuration}. In-memory only: it runs on the event
 * loop.
 */
public interface PersistentPodStateLookup {
    /** No PersistentPodStates, no custom workloads. */
    PersistentPodStateLookup NONE = of(namespace -> List.of(), () -> CustomWorkloadWhiteList.EMPTY);

    List<PersistentPodState> inNamespace(String namespace);

    CustomWorkloadWhiteList customWorkloads();

    static PersistentPodStateLookup of(Function<String, List<PersistentPodState>> byNamespace,
                                       Supplier<CustomWorkloadWhiteList> whiteList) {
        return new PersistentPodStateLookup() {
            @Override
            public List<PersistentPodState> inNamespace(String namespace) {
                return byNamespace.apply(namespace);
            }

            @Override
            public CustomWorkloadWhiteList customWorkloads() {
                return whiteList.get();
            }
        };
    }
}
