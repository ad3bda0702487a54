package dev.kruisevertx.queue;

/**
 * A chained hash table of {@link ItemState}s keyed by {@code key.equals}. It stores the states themselves as
 * nodes, which keeps one object per known key instead of a map entry plus a state. Not thread-safe: the queue
 * guards it with its lock.
 */
final class ItemTable<K> {

    private static final int INITIAL_CAPACITY = 64;

    private ItemState<K>[] buckets = newArray(INITIAL_CAPACITY);
    private int size;

    int size() {
        return size;
    }

    ItemState<K> get(Object key) {
        ItemState<K>[] b = buckets;
        for (ItemState<K> s = b[index(key.hashCode(), b.length)]; s != null; s = s.chain) {
            if (s.key == key || s.key.equals(key)) {
                return s;
            }
        }
        return null;
    }

    /** Adds a state whose key is known to be absent. */
    void insert(ItemState<K> s) {
        if (size >= buckets.length - (buckets.length >>> 2)) {
            grow();
        }
        int i = index(s.key.hashCode(), buckets.length);
        s.chain = buckets[i];
        buckets[i] = s;
        size++;
    }

    void remove(ItemState<K> s) {
        int i = index(s.key.hashCode(), buckets.length);
        ItemState<K> p = buckets[i];
        if (p == s) {
            buckets[i] = s.chain;
        } else {
            while (p.chain != s) {
                p = p.chain;
            }
            p.chain = s.chain;
        }
        s.chain = null;
        size--;
        // Give memory back after a burst of keys has drained; shrinking at 1/8 full leaves room before the
        // next grow, so a table hovering at one size does not resize back and forth.
        if (buckets.length > INITIAL_CAPACITY && size < buckets.length >>> 3) {
            resize(buckets.length >>> 1);
        }
    }

    private void grow() {
        resize(buckets.length << 1);
    }

    private void resize(int capacity) {
        ItemState<K>[] old = buckets;
        ItemState<K>[] b = newArray(capacity);
        for (ItemState<K> head : old) {
            for (ItemState<K> s = head; s != null; ) {
                ItemState<K> following = s.chain;
                int i = index(s.key.hashCode(), b.length);
                s.chain = b[i];
                b[i] = s;
                s = following;
            }
        }
        buckets = b;
    }

    private static int index(int h, int length) {
        // Spread the high bits down: many key types hash well only in their upper bits.
        return (h ^ (h >>> 16)) & (length - 1);
    }

    @SuppressWarnings("unchecked")
    private static <K> ItemState<K>[] newArray(int n) {
        return (ItemState<K>[]) new ItemState[n];
    }
}
