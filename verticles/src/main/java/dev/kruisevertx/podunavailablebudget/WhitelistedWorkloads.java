package dev.kruisevertx.podunavailablebudget;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.util.Map;
import java.util.Optional;

/**
 * Custom workloads a budget may name, as OpenKruise v1.9.0's controller finder resolves them: a kind the
 * {@value WellKnown#PPS_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY} entry of ConfigMap {@code kruise-configuration}
 * whitelists, its {@code spec.replicas} (0 when absent) and the pods it controls. One instance per reconcile: the
 * ConfigMap is read at most once, on first need, and only when the budget involves a kind the cache does not hold.
 * Blocking (API server reads): call from a worker thread.
 */
final class WhitelistedWorkloads implements PubTargets.CustomWorkloads {
    private final KubernetesClient client;
    private final String kruiseNamespace;
    private CustomWorkloadWhiteList whiteList;

    WhitelistedWorkloads(KubernetesClient client, String kruiseNamespace) {
        this.client = client;
        this.kruiseNamespace = kruiseNamespace;
    }

    /**
     * @throws IllegalStateException when the whitelist entry is malformed (the budget is retried, as OpenKruise
     *                               returns the error)
     */
    @Override
    public Optional<PubTargets.CustomWorkload> get(String namespace, String apiVersion, String kind, String name) {
        if (apiVersion == null || kind == null || name == null || name.isEmpty()
                || !whiteList().permits(PubTargets.group(apiVersion), kind)) {
            return Optional.empty();
        }
        GenericKubernetesResource workload = client.genericKubernetesResources(apiVersion, kind)
                .inNamespace(namespace).withName(name).get();
        if (workload == null || workload.getMetadata().getDeletionTimestamp() != null) {
            return Optional.empty();
        }
        return Optional.of(new PubTargets.CustomWorkload(workload.getMetadata().getUid(), replicas(workload)));
    }

    private CustomWorkloadWhiteList whiteList() {
        if (whiteList == null) {
            ConfigMap cm = client.configMaps().inNamespace(kruiseNamespace)
                    .withName(WellKnown.KRUISE_CONFIGURATION_CONFIGMAP).get();
            try {
                whiteList = CustomWorkloadWhiteList.fromConfigMapData(cm == null ? null : cm.getData(),
                        WellKnown.PPS_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY);
            } catch (IllegalArgumentException e) {
                // Not the budget's fault: retried (with back-off) rather than reported as a bad budget.
                throw new IllegalStateException(e.getMessage());
            }
        }
        return whiteList;
    }

    /** OpenKruise reads {@code spec.replicas} as an integer and counts 0 otherwise. */
    static int replicas(GenericKubernetesResource workload) {
        Object spec = workload.getAdditionalProperties().get("spec");
        if (spec instanceof Map<?, ?> m && m.get("replicas") instanceof Number n) {
            return n.intValue();
        }
        return 0;
    }
}
