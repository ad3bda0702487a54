package dev.kruisevertx.queue;

/**
 * A list of {@link ItemState}s linked through their own {@code prev}/{@code next} fields, oldest first: adding,
 * taking the oldest and unlinking any one cost no allocation and no search. A state is in at most one list at a
 * time. Not thread-safe: the queue's lock guards it.
 */
final class ItemList<K> {
    private ItemState<K> head;
    private ItemState<K> tail;
    private int size;

    void addLast(ItemState<K> s) {
        s.next = null;
        s.prev = tail;
        if (tail == null) {
            head = s;
        } else {
            tail.next = s;
        }
        tail = s;
        size++;
    }

    /** Unlinks {@code s}, which must be in this list. */
    void remove(ItemState<K> s) {
        if (s.prev == null) {
            head = s.next;
        } else {
            s.prev.next = s.next;
        }
        if (s.next == null) {
            tail = s.prev;
        } else {
            s.next.prev = s.prev;
        }
        s.prev = null;
        s.next = null;
        size--;
    }

    /** Unlinks and returns the oldest state; the list must not be empty. */
    ItemState<K> removeFirst() {
        ItemState<K> s = head;
        remove(s);
        return s;
    }

    /** The oldest state, or null. */
    ItemState<K> first() {
        return head;
    }

    boolean isEmpty() {
        return head == null;
    }

    int size() {
        return size;
    }
}
