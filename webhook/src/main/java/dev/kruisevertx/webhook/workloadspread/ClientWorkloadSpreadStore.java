package dev.kruisevertx.webhook.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.cache.WatchCache;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * {@link WorkloadSpreadStore} over the shared watch cache and the API server. Blocking: worker threads only.
 */
public final class ClientWorkloadSpreadStore implements WorkloadSpreadStore {
    private final KubernetesClient client;
    private final WatchCache cache;
    private final Supplier<CustomWorkloadWhiteList> whitelist;

    public ClientWorkloadSpreadStore(KubernetesClient client, WatchCache cache,
                                     Supplier<CustomWorkloadWhiteList> whitelist) {
        this.client = client;
        this.cache = cache;
        this.whitelist = whitelist;
    }

    @Override
    public Optional<WorkloadSpread> cached(String namespace, String name) {
        return Optional.ofNullable(cache.resource(WorkloadSpread.class).get(namespace, name));
    }

    @Override
    public Optional<WorkloadSpread> latest(String namespace, String name) {
        return Optional.ofNullable(client.resources(WorkloadSpread.class).inNamespace(namespace).withName(name).get());
    }

    @Override
    public WorkloadSpread updateStatus(WorkloadSpread ws) {
        return client.resources(WorkloadSpread.class).inNamespace(ws.getMetadata().getNamespace()).resource(ws)
                .updateStatus();
    }

    @Override
    public Optional<OwnerReference> controllerOf(String namespace, OwnerReference owner) {
        GenericKubernetesResource object = client.genericKubernetesResources(owner.getApiVersion(), owner.getKind())
                .inNamespace(namespace).withName(owner.getName()).get();
        if (object == null) {
            throw new KubernetesClientException(owner.getKind() + " " + namespace + "/" + owner.getName()
                    + " not found", 404, null);
        }
        return object.getMetadata().getOwnerReferences() == null ? Optional.empty()
                : object.getMetadata().getOwnerReferences().stream()
                .filter(r -> Boolean.TRUE.equals(r.getController())).findFirst();
    }

    @Override
    public int workloadReplicas(WorkloadSpread ws) {
        var ref = ws.getSpec().getTargetRef();
        GenericKubernetesResource object;
        try {
            object = client.genericKubernetesResources(ref.getApiVersion(), ref.getKind())
                    .inNamespace(ws.getMetadata().getNamespace()).withName(ref.getName()).get();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                return 0;
            }
            throw e;
        }
        if (object == null) {
            return 0;
        }
        List<String> paths = ws.getSpec().getTargetFilter() == null ? null
                : ws.getSpec().getTargetFilter().getReplicasPathList();
        if (paths != null && !paths.isEmpty()) {
            int sum = 0;
            for (String path : paths) {
                sum += intAt(object.getAdditionalProperties(), path);
            }
            return sum;
        }
        String group = WorkloadKinds.group(ref.getApiVersion());
        if ("batch".equals(group) && "Job".equals(ref.getKind())) {
            return intAt(object.getAdditionalProperties(), "spec.parallelism");
        }
        if (WorkloadKinds.builtIn(group, ref.getKind())) {
            return intAt(object.getAdditionalProperties(), "spec.replicas");
        }
        for (CustomWorkloadWhiteList.Workload w : whitelist.get().workloads()) {
            if (w.group().equals(group) && w.kind().equals(ref.getKind())) {
                return w.replicasPath().isEmpty() ? 0 : intAt(object.getAdditionalProperties(), w.replicasPath());
            }
        }
        return 0;
    }

    /** The integer at a dot path (array indexes as numbers); 0 when absent or not an integer. */
    static int intAt(Map<String, Object> root, String path) {
        Object node = root;
        for (String part : path.split("\\.")) {
            if (node instanceof Map<?, ?> map) {
                node = map.get(part);
            } else if (node instanceof List<?> list && part.chars().allMatch(Character::isDigit) && !part.isEmpty()) {
                int i = Integer.parseInt(part);
                node = i < list.size() ? list.get(i) : null;
            } else {
                return 0;
            }
        }
        return node instanceof Number n ? n.intValue() : 0;
    }
}
