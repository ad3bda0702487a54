package dev.kruisevertx.queue;

/**
 * The keys a work queue has handed out and not yet seen done, oldest first, with the sum of their start times, so
 * the unfinished-work and longest-running gauges need no walk. Not thread-safe: the queue's lock guards it.
 */
final class ProcessingKeys<K> {
    private static final double NANOS_PER_SECOND = 1e9;

    private final ItemList<K> keys = new ItemList<>();
    private long startedAtSum;

    /** Marks {@code s} processing since {@code startedAt} and appends it. */
    void add(ItemState<K> s, long startedAt) {
        s.processing = true;
        s.startedAt = startedAt;
        keys.addLast(s);
        startedAtSum += startedAt;
    }

    /** Unlinks {@code s}, which is no longer processing. */
    void remove(ItemState<K> s) {
        keys.remove(s);
        s.processing = false;
        startedAtSum -= s.startedAt;
    }

    int size() {
        return keys.size();
    }

    /** Seconds of work in progress summed over every key at {@code now}, as client-go's unfinished_work_seconds. */
    double unfinishedSeconds(long now) {
        int size = keys.size();
        return size == 0 ? 0 : (size * now - startedAtSum) / NANOS_PER_SECOND;
    }

    /** Seconds the oldest key has been processing at {@code now}; 0 when none is. */
    double longestSeconds(long now) {
        ItemState<K> oldest = keys.first();
        return oldest == null ? 0 : (now - oldest.startedAt) / NANOS_PER_SECOND;
    }
}
