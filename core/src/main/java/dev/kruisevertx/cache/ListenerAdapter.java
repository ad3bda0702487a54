package dev.kruisevertx.cache;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashSet;
import java.util.Set;

/**
 * Turns fabric8 handler calls into {@link CacheEvent}s for one listener. fabric8 calls one handler
 * serially, so the fields need no locking.
 */
final class ListenerAdapter<T extends HasMetadata> implements ResourceEventHandler<T> {
    private static final Logger LOG = LoggerFactory.getLogger(ListenerAdapter.class);

    private final String kind;
    final CacheListener<T> listener;
    // Until the informer's first list completes, every add is part of it.
    private boolean firstListDone;
    // For a listener joining a running informer: keys of the objects fabric8 replays to it as adds.
    private Set<String> replayKeys;

    ListenerAdapter(String kind, CacheListener<T> listener, boolean informerSynced, Iterable<String> cachedKeys) {
        this.kind = kind;
        this.listener = listener;
        this.firstListDone = informerSynced;
        if (informerSynced) {
            replayKeys = new HashSet<>();
            cachedKeys.forEach(replayKeys::add);
        }
    }

    @Override
    public void onList(String resourceVersion, boolean isFirstList) {
        firstListDone = true;
    }

    @Override
    public void onAdd(T obj) {
        boolean initial = !firstListDone || consumeReplay(obj);
        deliver(CacheEvent.added(obj, initial));
    }

    @Override
    public void onUpdate(T oldObj, T newObj) {
        deliver(CacheEvent.updated(oldObj, newObj));
    }

    @Override
    public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        deliver(CacheEvent.deleted(obj));
    }

    private boolean consumeReplay(T obj) {
        if (replayKeys == null) {
            return false;
        }
        boolean replayed = replayKeys.remove(InformerResource.keyOf(obj));
        if (replayKeys.isEmpty()) {
            replayKeys = null;
        }
        return replayed;
    }

    private void deliver(CacheEvent<T> event) {
        try {
            listener.onEvent(event);
        } catch (RuntimeException e) {
            T obj = event.object();
            LOG.error("cache listener failed on {} {} {}/{}", event.type(), kind,
                    obj.getMetadata().getNamespace(), obj.getMetadata().getName(), e);
        }
    }
}
