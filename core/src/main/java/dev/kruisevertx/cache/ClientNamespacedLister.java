package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceList;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link NamespacedLister} over the API server: Namespaces with one direct list (cluster-scoped and small next to the
 * pods), the kind with one paged list per namespace. With the cache limited to one namespace, only that one is listed.
 */
final class ClientNamespacedLister<T extends HasMetadata> implements NamespacedLister<T> {
    private final KubernetesClient client;
    private final Class<T> type;
    /** The only namespace the cache watches, or null for all. */
    private final String onlyNamespace;
    private final long fillPageSize;

    ClientNamespacedLister(KubernetesClient client, Class<T> type, String onlyNamespace, long fillPageSize) {
        this.client = client;
        this.type = type;
        this.onlyNamespace = onlyNamespace;
        this.fillPageSize = fillPageSize;
    }

    @Override
    public Namespaces namespaces() {
        if (onlyNamespace != null) {
            return new Namespaces(List.of(onlyNamespace), null);
        }
        NamespaceList list = client.namespaces().list();
        List<String> names = new ArrayList<>(list.getItems().size());
        for (Namespace ns : list.getItems()) {
            names.add(ns.getMetadata().getName());
        }
        return new Namespaces(names, list.getMetadata() == null ? null : list.getMetadata().getResourceVersion());
    }

    @Override
    public KubernetesResourceList<T> page(String namespace, Long limit, String continueToken) {
        return client.resources(type).inNamespace(namespace)
                .list(new ListOptionsBuilder().withLimit(limit).withContinue(continueToken).build());
    }

    @Override
    public long fillPageSize() {
        return fillPageSize;
    }
}
