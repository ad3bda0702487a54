package dev.kruisevertx.manager;

import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.util.function.Consumer;

/**
 * Follows one entry of ConfigMap {@code kruise-configuration} with a watch of that one object (by name): the
 * webhook's copy of a whitelist stays current without a restart. The handler runs on the informer's thread and only
 * stores the value (null when the entry or the ConfigMap is gone). A ConfigMap that cannot be read keeps the last
 * value; the watch retries with fabric8's backoff.
 */
final class WhiteListWatch {
    private WhiteListWatch() {
    }

    /** Starts the watch without waiting for its first list; stop the returned informer on close. */
    static SharedIndexInformer<ConfigMap> start(KubernetesClient client, String namespace, String key,
                                                Consumer<String> onValue) {
        SharedIndexInformer<ConfigMap> informer = client.configMaps().inNamespace(namespace)
                .withName(WellKnown.KRUISE_CONFIGURATION_CONFIGMAP).runnableInformer(0);
        informer.exceptionHandler((isStarted, t) -> true);
        informer.addEventHandler(new ResourceEventHandler<>() {
            @Override
            public void onAdd(ConfigMap cm) {
                onValue.accept(cm.getData() == null ? null : cm.getData().get(key));
            }

            @Override
            public void onUpdate(ConfigMap oldCm, ConfigMap newCm) {
                onAdd(newCm);
            }

            @Override
            public void onDelete(ConfigMap cm, boolean finalStateUnknown) {
                onValue.accept(null);
            }
        });
        informer.start();
        return informer;
    }
}
