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
    /**
     * Old buckets moved per insert or remove while a resize is under way. The table doubles at 3/4 full and
     * halves at 1/8, so at least capacity/16 operations pass between two resizes; moving 32 buckets each
     * finishes a resize well before the next one is due.
     */
    private static final int MIGRATE_STEP = 32;

    private Node<K>[] buckets = newArray(INITIAL_CAPACITY);
    /**
     * The buckets being emptied into {@link #buckets} during a resize, else null. A resize moves a few old
     * buckets per operation instead of rehashing every node in one call: with a million keys that one call took
     * tens of milliseconds, during which the caller (the delay thread, the queue lock holder) did nothing else.
     */
    private Node<K>[] old;
    /** Old buckets below this index are empty. */
    private int migrated;
    private int size;

    int size() {
        return size;
    }

    @SuppressWarnings("unchecked")
    N get(Object key) {
        int h = spread(key.hashCode());
        Node<K> s = find(buckets, h, key);
        if (s == null && old != null) {
            s = find(old, h, key);
        }
        return (N) s;
    }

    /** Adds {@code s} unless a node with its key is present; returns that node, or null if {@code s} was added. */
    @SuppressWarnings("unchecked")
    N putIfAbsent(N s) {
        int h = spread(s.key.hashCode());
        Node<K> existing = find(buckets, h, s.key);
        if (existing == null && old != null) {
            existing = find(old, h, s.key);
        }
        if (existing != null) {
            return (N) existing;
        }
        link(s, h);
        return null;
    }

    /** Adds a state whose key is known to be absent. */
    void insert(N s) {
        link(s, spread(s.key.hashCode()));
    }

    private void link(Node<K> s, int h) {
        if (old != null) {
            migrateSome();
        } else if (size >= buckets.length - (buckets.length >>> 2)) {
            startResize(buckets.length << 1);
        }
        Node<K>[] b = buckets;
        int i = h & (b.length - 1);
        s.chain = b[i];
        b[i] = s;
        size++;
    }

    void remove(N s) {
        int h = spread(s.key.hashCode());
        if (!unlink(buckets, h, s)) {
            unlink(old, h, s);
        }
        s.chain = null;
        size--;
        if (old != null) {
            migrateSome();
        } else if (buckets.length > INITIAL_CAPACITY && size < buckets.length >>> 3) {
            // Give memory back after a burst of keys has drained; shrinking at 1/8 full leaves room before the
            // next grow, so a table hovering at one size does not resize back and forth.
            startResize(buckets.length >>> 1);
        }
    }

    private static <K> Node<K> find(Node<K>[] b, int h, Object key) {
        for (Node<K> s = b[h & (b.length - 1)]; s != null; s = s.chain) {
            if (s.key == key || s.key.equals(key)) {
                return s;
            }
        }
        return null;
    }

    /** Unlinks {@code s} from its bucket in {@code b}; false if it is not there. */
    private static <K> boolean unlink(Node<K>[] b, int h, Node<K> s) {
        int i = h & (b.length - 1);
        Node<K> p = b[i];
        if (p == s) {
            b[i] = s.chain;
            return true;
        }
        while (p != null && p.chain != s) {
            p = p.chain;
        }
        if (p == null) {
            return false;
        }
        p.chain = s.chain;
        return true;
    }

    private void startResize(int capacity) {
        old = buckets;
        migrated = 0;
        buckets = newArray(capacity);
    }

    /** Moves the next {@link #MIGRATE_STEP} old buckets into the new ones; ends the resize once all moved. */
    private void migrateSome() {
        Node<K>[] from = old;
        Node<K>[] to = buckets;
        int mask = to.length - 1;
        int end = Math.min(from.length, migrated + MIGRATE_STEP);
        for (int j = migrated; j < end; j++) {
            Node<K> s = from[j];
            from[j] = null;
            while (s != null) {
                Node<K> following = s.chain;
                int i = spread(s.key.hashCode()) & mask;
                s.chain = to[i];
                to[i] = s;
                s = following;
            }
        }
        migrated = end;
        if (end == from.length) {
            old = null;
        }
    }

    private static int spread(int h) {
        // Spread the high bits down: many key types hash well only in their upper bits.
        return h ^ (h >>> 16);
    }

    /** Drops every node. */
    void clear() {
        buckets = newArray(INITIAL_CAPACITY);
        old = null;
        migrated = 0;
        size = 0;
    }

    @SuppressWarnings("unchecked")
    private static <K> Node<K>[] newArray(int n) {
        return (Node<K>[]) new Node[n];
    }
}
