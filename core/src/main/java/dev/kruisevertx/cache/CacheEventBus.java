package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageCodec;

/**
 * Delivers cache events to controller verticles as Vert.x event-bus messages without copying them.
 *
 * <p>Address per kind: {@code kruise.cache.<group>.<version>.<Kind>}, the group left out for the core
 * group — e.g. {@code kruise.cache.v1.Pod}, {@code kruise.cache.apps.kruise.io.v1alpha1.CloneSet}. The
 * body is the {@link CacheEvent} instance the informer produced (same objects as the cache), published
 * local-only; every consumer of the address receives it. Consumers must treat it as read-only and keep
 * their handlers O(1) (map to a key and enqueue it). A consumer buffers at most 1000 messages by default.
 *
 * <p>Call {@link #registerCodec} once per Vert.x instance before bridging.
 */
public final class CacheEventBus {
    public static final String ADDRESS_PREFIX = "kruise.cache.";
    public static final String CODEC_NAME = "kruise-cache-event";

    private static final DeliveryOptions LOCAL = new DeliveryOptions().setLocalOnly(true);

    private CacheEventBus() {
    }

    /** The address events of {@code type} are published to. */
    public static String address(Class<?> type) {
        if (!HasMetadata.class.isAssignableFrom(type)) {
            throw new IllegalArgumentException(type.getName() + " is not a Kubernetes resource type");
        }
        @SuppressWarnings("unchecked")
        Class<? extends HasMetadata> resourceType = (Class<? extends HasMetadata>) type;
        String group = HasMetadata.getGroup(resourceType);
        String version = HasMetadata.getVersion(resourceType);
        String kind = HasMetadata.getKind(resourceType);
        return ADDRESS_PREFIX + (group == null || group.isEmpty() ? "" : group + ".") + version + "." + kind;
    }

    /** Makes {@link CacheEvent} travel by reference. Idempotent per Vert.x instance. */
    public static void registerCodec(Vertx vertx) {
        try {
            vertx.eventBus().registerDefaultCodec(CacheEvent.class, new LocalCodec());
        } catch (IllegalStateException alreadyRegistered) {
            // A second verticle or test wiring the same Vert.x instance; the first registration stands.
        }
    }

    /**
     * Publishes every event of {@code type}'s informer to {@link #address(Class)}. Idempotent: bridging
     * the same kind of the same cache to the same Vert.x instance again adds nothing, so every verticle
     * may ask for the kinds it consumes.
     */
    public static <T extends HasMetadata> void bridge(Vertx vertx, WatchCache cache, Class<T> type) {
        String address = address(type);
        if (!cache.claimBridge(vertx, type)) {
            return;
        }
        cache.resource(type).addListener(event -> vertx.eventBus().publish(address, event, LOCAL));
    }

    /** Hands the same instance to the consumer; refuses the wire because cache events never leave the process. */
    @SuppressWarnings("rawtypes")
    static final class LocalCodec implements MessageCodec<CacheEvent, CacheEvent> {
        @Override
        public void encodeToWire(Buffer buffer, CacheEvent event) {
            throw new IllegalStateException("cache events are local-only; publish them with DeliveryOptions.setLocalOnly(true)");
        }

        @Override
        public CacheEvent decodeFromWire(int pos, Buffer buffer) {
            throw new IllegalStateException("cache events are local-only and cannot be decoded from the wire");
        }

        @Override
        public CacheEvent transform(CacheEvent event) {
            return event;
        }

        @Override
        public String name() {
            return CODEC_NAME;
        }

        @Override
        public byte systemCodecID() {
            return -1;
        }
    }
}
