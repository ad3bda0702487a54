package dev.kruisevertx.queue;

/**
 * Everything the queue knows about one key, in one object that is also the hash-table node, so each queue
 * operation costs one lookup and no allocation for keys already known.
 *
 * <p>A state is in at most one {@link ItemList} at a time: the queued keys or the keys being processed, each
 * oldest first. A key that is re-added while processing is only marked dirty; it is queued again when its
 * processing is done.
 */
final class ItemState<K> extends KeyTable.Node<K> {

    ItemState<K> prev;
    ItemState<K> next;
    /** When the key was last marked dirty (for the queue-duration histogram). */
    long addedAt;
    /** When the key was handed to a consumer (for work duration and the unfinished-work gauges). */
    long startedAt;
    boolean dirty;
    boolean processing;

    ItemState(K key) {
        super(key);
    }
}
