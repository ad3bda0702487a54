package dev.kruisevertx.workloadspread;

import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Supplier;

/**
 * The {@value WellKnown#WORKLOADSPREAD_WATCH_CUSTOM_WORKLOAD_WHITELIST_KEY} entry of ConfigMap
 * {@code kruise-configuration}, read once (on the first reconcile, a worker thread: the read blocks) and kept, as
 * OpenKruise reads it once when its controller starts: change it and restart the manager. A ConfigMap that cannot be
 * read means no custom workloads (one log line); a malformed entry is an {@link IllegalArgumentException} naming the
 * entry, every time it is asked for.
 */
final class StartupWhiteList implements Supplier<CustomWorkloadWhiteList> {
    private static final Logger LOG = LoggerFactory.getLogger(StartupWhiteList.class);

    private final KubernetesClient client;
    private final String namespace;
    private volatile CustomWorkloadWhiteList whiteList;
    private volatile IllegalArgumentException malformed;

    StartupWhiteList(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    @Override
    public CustomWorkloadWhiteList get() {
        if (whiteList == null && malformed == null) {
            read();
        }
        if (malformed != null) {
            throw malformed;
        }
        return whiteList;
    }

    private synchronized void read() {
        if (whiteList != null || malformed != null) {
            return;
        }
        ConfigMap cm;
        try {
            cm = client.configMaps().inNamespace(namespace).withName(WellKnown.KRUISE_CONFIGURATION_CONFIGMAP).get();
        } catch (KubernetesClientException e) {
            LOG.info("ConfigMap {}/{} not readable ({}): no custom workloads for WorkloadSpread", namespace,
                    WellKnown.KRUISE_CONFIGURATION_CONFIGMAP, e.getCode());
            whiteList = CustomWorkloadWhiteList.EMPTY;
            return;
        }
        try {
            whiteList = CustomWorkloadWhiteList.fromConfigMapData(cm == null ? null : cm.getData());
        } catch (IllegalArgumentException e) {
            LOG.info("{}: WorkloadSpreads with custom targets are not counted", e.getMessage());
            malformed = e;
        }
    }
}
