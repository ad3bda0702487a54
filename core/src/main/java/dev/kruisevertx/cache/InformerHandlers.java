package dev.kruisevertx.cache;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;

import java.util.function.Consumer;

/**
 * fabric8 informer handlers for informers outside {@link WatchCache} (node agent, simulated nodes, webhook
 * certificate sync, progress output), built from what the caller does with an object rather than from three
 * callbacks written out each time.
 */
public final class InformerHandlers {
    private InformerHandlers() {
    }

    /** {@code onChange} with the object's new state on add and update; {@code onDelete} with its last known state. */
    public static <T> ResourceEventHandler<T> changesAndDeletes(Consumer<? super T> onChange,
                                                                Consumer<? super T> onDelete) {
        return new ResourceEventHandler<>() {
            @Override
            public void onAdd(T obj) {
                onChange.accept(obj);
            }

            @Override
            public void onUpdate(T oldObj, T newObj) {
                onChange.accept(newObj);
            }

            @Override
            public void onDelete(T obj, boolean deletedFinalStateUnknown) {
                onDelete.accept(obj);
            }
        };
    }

    /** {@code onEvent} with the object on every add, update (new state) and delete alike. */
    public static <T> ResourceEventHandler<T> anyEvent(Consumer<? super T> onEvent) {
        return changesAndDeletes(onEvent, onEvent);
    }
}
