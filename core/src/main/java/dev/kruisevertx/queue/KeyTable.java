package dev.kruisevertx.queue;

/**
 * A chained hash table whose nodes are the caller's own per-key objects ({@link ItemState}, the delay
 * wheel's entries), keyed by {@code key.equals}. Compared with a {@code HashMap<K, State>} this saves the
 * map entry: one object and one pointer chase less per key. Not thread-safe: callers guard it.
 */
final class KeyTable<K, N extends KeyTable.Node<K>> {

    /** A table entry; subclasses add the per-key state. */
    abstract static class Node<K> {
        final K key;
        /** Next node in the same bucket. */
        Node<K> chain;

        Node(K key) {
            this.key = key;
        }
    }

    private static final int INITIAL_CAPACITY = 64;

    private Node<K>[] buckets = newArray(INITIAL_CAPACITY);
    private int size;

    int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    N get(Object key) {
        Node<K>[] b = buckets;
        for (Node<K> s = b[index(key.hashCode(), b.length)]; s != null; s = s.chain) {
            if (s.key == key || s.key.equals(key)) {
                return (N) s;
            }
        }
        return null;
    }

    /** Adds a state whose key is known to be absent. */
    void insert(N s) {
        if (size >= buckets.length - (buckets.length >>> 2)) {
            grow();
        }
        int i = index(s.key.hashCode(), buckets.length);
        s.chain = buckets[i];
        buckets[i] = s;
        size++;
    }

    void remove(N s) {
        int i = index(s.key.hashCode(), buckets.length);
        Node<K> p = buckets[i];
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
        Node<K>[] old = buckets;
        Node<K>[] b = newArray(capacity);
        for (Node<K> head : old) {
            for (Node<K> s = head; s != null; ) {
                Node<K> following = s.chain;
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

    /** Drops every node. */
    void clear() {
        buckets = newArray(INITIAL_CAPACITY);
        size = 0;
    }

    @SuppressWarnings("unchecked")
    private static <K> Node<K>[] newArray(int n) {
        return (Node<K>[]) new Node[n];
    }
}
