package dev.kruisevertx.queue;

/**
 * The keys a work queue has handed out and not yet seen done, oldest first, as an intrusive doubly linked list of
 * {@link ItemState}s: adding and removing cost no allocation, and the oldest start time and the sum of start times
 * (for the unfinished-work and longest-running gauges) are known without a walk. Not thread-safe: the queue's lock
 * guards it.
 */
final class ProcessingKeys<K> {
    private static final double NANOS_PER_SECOND = 1e9;

    private ItemState<K> head;
    private ItemState<K> tail;
    private int size;
    private long startedAtSum;

    /** Marks {@code s} processing since {@code startedAt} and appends it. */
    void add(ItemState<K> s, long startedAt) {
        s.processing = true;
        s.startedAt = startedAt;
        s.next = null;
        s.prev = tail;
        if (tail == null) {
            head = s;
        } else {
            tail.next = s;
        }
        tail = s;
        size++;
        startedAtSum += startedAt;
    }

    /** Unlinks {@code s}, which is no longer processing. */
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
        s.processing = false;
        size--;
        startedAtSum -= s.startedAt;
    }

    int size() {
        return size;
    }

    /** Seconds of work in progress summed over every key at {@code now}, as client-go's unfinished_work_seconds. */
    double unfinishedSeconds(long now) {
        return size == 0 ? 0 : (size * now - startedAtSum) / NANOS_PER_SECOND;
    }

    /** Seconds the oldest key has been processing at {@code now}; 0 when none is. */
    double longestSeconds(long now) {
        return head == null ? 0 : (now - head.startedAt) / NANOS_PER_SECOND;
    }
}
