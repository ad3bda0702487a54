package dev.kruisevertx.daemonset;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Back-off for replacing failed daemon pods, per DaemonSet generation and node (upstream's failedPodsBackoff, 1 s
 * doubling to 15 min): a kubelet that keeps rejecting the pod (a host port taken, a missing device) would otherwise
 * see a delete and a create on every sync. Thread-safe; entries idle for twice the maximum are dropped.
 */
final class FailedPodBackoff {
    static final Duration INITIAL = Duration.ofSeconds(1);
    static final Duration MAX = Duration.ofMinutes(15);

    private record Entry(Duration delay, Instant last) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();

    static String key(String uid, long observedGeneration, String node) {
        return uid + "/" + observedGeneration + "/" + node;
    }

    /** How long the node's failed pod must still wait before it is replaced (zero when it may go now). */
    Duration remaining(String key, Instant now) {
        Entry e = entries.get(key);
        if (e == null) {
            return Duration.ZERO;
        }
        Duration left = Duration.between(now, e.last().plus(e.delay()));
        return left.isNegative() ? Duration.ZERO : left;
    }

    /** Records a replacement now: the next one waits twice as long (capped). */
    void next(String key, Instant now) {
        entries.compute(key, (k, e) -> e == null || Duration.between(e.last(), now).compareTo(MAX.multipliedBy(2)) > 0
                ? new Entry(INITIAL, now)
                : new Entry(e.delay().multipliedBy(2).compareTo(MAX) > 0 ? MAX : e.delay().multipliedBy(2), now));
        entries.entrySet().removeIf(x -> Duration.between(x.getValue().last(), now).compareTo(MAX.multipliedBy(2)) > 0);
    }
}
