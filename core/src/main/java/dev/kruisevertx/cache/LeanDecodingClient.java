package dev.kruisevertx.cache;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.impl.BaseClient;
import io.fabric8.kubernetes.client.impl.KubernetesClientImpl;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The client the {@link WatchCache}'s informers list and watch through: it decodes every object without
 * {@code metadata.managedFields}. {@link LeanObjects} drops them from every cached object anyway, but only after
 * Jackson built them, and in a realistic Pod they are the biggest part of the document (nested untyped maps): a
 * profile of the Pod informer's list put about a fifth of its CPU in decoding them. Here the parser skips their tokens
 * instead of building objects.
 *
 * <p>It is a second view of the main client, not a second connection pool: it shares the main client's HTTP client
 * (so its connections, TLS set-up, authentication and token refresh) and its task executor, and differs only in its
 * serialization. Consequences:
 * <ul>
 *   <li>It is for reading into the cache. Nothing writes through it (the cache only lists, watches and asks
 *       discovery). Should a write ever go through it, it would be sent without managedFields, and an update or
 *       patch without them keeps the object's own on the API server (it takes them from the stored object), so
 *       even that would lose nothing.</li>
 *   <li>It must not be closed on its own: that would close the shared HTTP client under the main client. It lives
 *       as long as the main client; the informers made through it are stopped by {@link WatchCache#close()}.</li>
 *   <li>Webhooks and controllers' own reads keep the main client: an object read there keeps its managedFields.</li>
 * </ul>
 * Only managedFields are skipped while parsing. Pods' last-applied annotation is one entry of a map shared by every
 * kind's metadata (other kinds keep it in the cache), and interning strings needs the finished object, so both stay
 * with {@link LeanObjects}.
 */
public final class LeanDecodingClient {
    private static final Logger LOG = LoggerFactory.getLogger(LeanDecodingClient.class);

    private LeanDecodingClient() {
    }

    /**
     * A client over {@code main}'s HTTP client and executor whose decoding skips managedFields; {@code main} itself
     * when it already decodes so, or when it is not fabric8's implementation (then objects are decoded whole and
     * {@link LeanObjects} still drops managedFields afterwards).
     */
    public static KubernetesClient over(KubernetesClient main) {
        if (main.getKubernetesSerialization() instanceof WithoutManagedFields) {
            return main;
        }
        if (!(main instanceof BaseClient base)) {
            LOG.debug("client {} is not fabric8's own implementation: the cache decodes managedFields and drops them after",
                    main.getClass().getName());
            return main;
        }
        // The default onClose does nothing, so closing this view never shuts down the main client's executor.
        KubernetesClientBuilder.ExecutorSupplier shared = base::getExecutor;
        return new KubernetesClientImpl(base.getHttpClient(), base.getConfiguration(), shared, serialization());
    }

    /** A fabric8 serialization like the default one, except that it neither reads nor writes managedFields. */
    public static KubernetesSerialization serialization() {
        ObjectMapper mapper = new ObjectMapper().addMixIn(ObjectMeta.class, IgnoreManagedFields.class);
        return new WithoutManagedFields(mapper);
    }

    /** Whether {@code client} decodes without managedFields (it came from {@link #over}). */
    public static boolean skipsManagedFields(KubernetesClient client) {
        return client.getKubernetesSerialization() instanceof WithoutManagedFields;
    }

    /**
     * Marks the serialization so that {@link #over} is idempotent. fabric8 configures the given mapper (modules,
     * inclusion, its deserializer for kinds found on the class path) exactly as for its default serialization.
     */
    private static final class WithoutManagedFields extends KubernetesSerialization {
        WithoutManagedFields(ObjectMapper mapper) {
            super(mapper, true);
        }
    }

    /**
     * Mix-in for {@link ObjectMeta}: the parser skips the property's tokens instead of building its entries (an
     * ignored property is never handed to the "additional properties" setter either).
     */
    @JsonIgnoreProperties({"managedFields"})
    private abstract static class IgnoreManagedFields {
    }
}
