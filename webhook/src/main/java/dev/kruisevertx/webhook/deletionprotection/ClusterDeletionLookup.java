package dev.kruisevertx.webhook.deletionprotection;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ListOptions;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import dev.kruisevertx.podutil.Pods;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The manager's {@link DeletionProtectionLookup}: active pods from the shared pod cache (from the API server when the
 * cache does not watch that namespace), claims and custom resources from the API server, page by page, stopping at the
 * first page that holds one. Everything runs on a worker: counting grows with the namespace and listing blocks.
 */
public final class ClusterDeletionLookup implements DeletionProtectionLookup {
    /** Small pages keep each read cheap; a page is enough to know whether anything exists. */
    static final long PAGE = 100;

    private final Vertx vertx;
    private final KubernetesClient client;
    private final Function<String, Optional<List<Pod>>> cachedPods;

    /**
     * @param cachedPods the cached pods of a namespace, or empty when the cache does not watch it ({@code --namespace})
     */
    public ClusterDeletionLookup(Vertx vertx, KubernetesClient client, Function<String, Optional<List<Pod>>> cachedPods) {
        this.vertx = vertx;
        this.client = client;
        this.cachedPods = cachedPods;
    }

    @Override
    public Future<Integer> activePods(String namespace) {
        return vertx.executeBlocking(() -> {
            Optional<List<Pod>> cached = cachedPods.apply(namespace);
            if (cached.isPresent()) {
                return (int) cached.get().stream().filter(Pods::isActive).count();
            }
            int active = 0;
            String token = null;
            do {
                var page = client.pods().inNamespace(namespace).list(page(token));
                active += (int) page.getItems().stream().filter(Pods::isActive).count();
                token = page.getMetadata() == null ? null : page.getMetadata().getContinue();
            } while (active == 0 && token != null && !token.isEmpty());
            return active;
        }, false);
    }

    @Override
    public Future<Integer> boundClaims(String namespace) {
        return vertx.executeBlocking(() -> {
            int bound = 0;
            String token = null;
            do {
                PersistentVolumeClaimList page = client.persistentVolumeClaims().inNamespace(namespace).list(page(token));
                for (PersistentVolumeClaim claim : page.getItems()) {
                    if (claim.getMetadata().getDeletionTimestamp() == null && claim.getStatus() != null
                            && "Bound".equals(claim.getStatus().getPhase())) {
                        bound++;
                    }
                }
                token = page.getMetadata() == null ? null : page.getMetadata().getContinue();
            } while (bound == 0 && token != null && !token.isEmpty());
            return bound;
        }, false);
    }

    @Override
    public Future<Integer> activeCustomResources(CustomResourceType type) {
        ResourceDefinitionContext context = new ResourceDefinitionContext.Builder().withGroup(type.group())
                .withVersion(type.version()).withKind(type.kind()).withPlural(type.plural())
                .withNamespaced(type.namespaced()).build();
        return vertx.executeBlocking(() -> {
            int active = 0;
            String token = null;
            do {
                GenericKubernetesResourceList page = type.namespaced()
                        ? client.genericKubernetesResources(context).inAnyNamespace().list(page(token))
                        : client.genericKubernetesResources(context).list(page(token));
                for (GenericKubernetesResource object : page.getItems()) {
                    if (object.getMetadata() == null || object.getMetadata().getDeletionTimestamp() == null) {
                        active++;
                    }
                }
                token = page.getMetadata() == null ? null : page.getMetadata().getContinue();
            } while (active == 0 && token != null && !token.isEmpty());
            return active;
        }, false);
    }

    private static ListOptions page(String token) {
        return new ListOptionsBuilder().withLimit(PAGE).withContinue(token).build();
    }
}
