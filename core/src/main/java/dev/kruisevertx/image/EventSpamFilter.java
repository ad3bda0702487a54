package dev.kruisevertx.image;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * client-go's EventSourceObjectSpamFilter: per source and involved object, a token bucket of {@code burst} Events
 * refilled one per {@code refill}; an Event without a token is dropped. client-go's recorder uses 25 and 5 minutes,
 * so a node whose pulls keep failing writes at most 25 Events about one job, then one every 5 minutes. At most
 * {@code maxKeys} objects are remembered (least recently used first out), as client-go's LRU cache of 4096.
 * Thread-safe.
 */
public final class EventSpamFilter {
    public static final int BURST = 25;
    public static final Duration REFILL = Duration.ofMinutes(5);
    public static final int MAX_KEYS = 4096;

    private record Bucket(double tokens, Instant at) {
    }

    private final int burst;
    private final Duration refill;
    private final Clock clock;
    private final Map<String, Bucket> buckets;

    public EventSpamFilter(int burst, Duration refill, int maxKeys, Clock clock) {
        if (burst < 1 || refill.isNegative() || refill.isZero() || maxKeys < 1) {
            throw new IllegalArgumentException("burst and maxKeys must be at least 1 and refill positive");
        }
        this.burst = burst;
        this.refill = refill;
        this.clock = clock;
        this.buckets = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Bucket> eldest) {
                return size() > maxKeys;
            }
        };
    }

    public EventSpamFilter(Clock clock) {
        this(BURST, REFILL, MAX_KEYS, clock);
    }

    /** Whether an Event about {@code key} (source and involved object) may be written now; takes its token. */
    public synchronized boolean allow(String key) {
        Instant now = clock.instant();
        Bucket b = buckets.get(key);
        double tokens = b == null ? burst : Math.min(burst,
                b.tokens() + (double) Duration.between(b.at(), now).toNanos() / refill.toNanos());
        if (tokens < 1) {
            buckets.put(key, new Bucket(tokens, now));
            return false;
        }
        buckets.put(key, new Bucket(tokens - 1, now));
        return true;
    }

    /** The key client-go's spam filter uses: the source and the involved object's identity. */
    public static String key(String component, String host, io.fabric8.kubernetes.api.model.ObjectReference on) {
        return component + "|" + host + "|" + on.getKind() + "|" + on.getNamespace() + "|" + on.getName() + "|"
                + on.getUid() + "|" + on.getApiVersion();
    }
}
