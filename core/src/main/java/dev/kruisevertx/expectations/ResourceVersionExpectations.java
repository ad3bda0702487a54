package dev.kruisevertx.expectations;

import io.fabric8.kubernetes.api.model.HasMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The resourceVersion a controller's own write produced, per object UID, so a reconcile does not act on
 * a cached copy older than that write. As in OpenKruise, versions are compared as unsigned integers
 * (the API server's etcd revisions); an unparsable expected version is always superseded, an
 * unparsable observed version never satisfies.
 *
 * <p>After {@code timeout} ({@code --expectation-timeout}) an unsatisfied expectation is dropped and
 * the object counts as satisfied, so a lost watch event cannot block a controller forever;
 * {@link #status} reports that case as {@code timedOut}. Thread-safe.
 */
public final class ResourceVersionExpectations {
    private static final Logger LOG = LoggerFactory.getLogger(ResourceVersionExpectations.class);

    /**
     * @param satisfied      whether the cached object is at least as new as the expected version
     * @param unsatisfiedFor how long the expectation has been checked and found unsatisfied
     * @param timedOut       the expectation was dropped because it exceeded the timeout
     */
    public record Status(boolean satisfied, Duration unsatisfiedFor, boolean timedOut) {
    }

    private static final Status SATISFIED = new Status(true, Duration.ZERO, false);

    private final Duration timeout;
    private final Clock clock;
    private final Map<String, Expected> byUid = new HashMap<>();

    public ResourceVersionExpectations(Duration timeout, Clock clock) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("expectation timeout must be positive, got " + timeout);
        }
        this.timeout = timeout;
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Record the object as returned by a successful write (create/update/patch response). */
    public synchronized void expect(HasMetadata written) {
        String uid = uid(written);
        Expected e = byUid.computeIfAbsent(uid, k -> new Expected());
        String rv = written.getMetadata().getResourceVersion();
        if (isNewer(e.version, rv)) {
            e.version = rv;
        }
    }

    /** Feed an object seen in the cache (typically from the event handler); drops a met expectation. */
    public synchronized void observe(HasMetadata seen) {
        String uid = uid(seen);
        Expected e = byUid.get(uid);
        if (e != null && isNewer(e.version, seen.getMetadata().getResourceVersion())) {
            byUid.remove(uid);
        }
    }

    /** Whether the cached object is at least as new as the last write expected for its UID. */
    public boolean isSatisfied(HasMetadata cached) {
        return status(cached).satisfied();
    }

    public Status status(HasMetadata cached) {
        String uid = uid(cached);
        Duration waited;
        synchronized (this) {
            Expected e = byUid.get(uid);
            if (e == null) {
                return SATISFIED;
            }
            if (isNewer(e.version, cached.getMetadata().getResourceVersion())) {
                byUid.remove(uid);
                return SATISFIED;
            }
            Instant now = clock.instant();
            if (e.firstUnsatisfied == null) {
                e.firstUnsatisfied = now;
            }
            waited = Duration.between(e.firstUnsatisfied, now);
            if (waited.compareTo(timeout) < 0) {
                return new Status(false, waited, false);
            }
            byUid.remove(uid);
        }
        LOG.info("resourceVersion expectation for {} {}/{} unsatisfied for {} (timeout {}), dropping it",
                cached.getKind(), cached.getMetadata().getNamespace(), cached.getMetadata().getName(), waited, timeout);
        return new Status(true, waited, true);
    }

    public synchronized void delete(String uid) {
        byUid.remove(uid);
    }

    public void delete(HasMetadata obj) {
        delete(uid(obj));
    }

    /** Number of objects with a pending expectation (for metrics and tests). */
    public synchronized int size() {
        return byUid.size();
    }

    /** True when {@code candidate} is at least as new as {@code expected} (OpenKruise's rule). */
    static boolean isNewer(String expected, String candidate) {
        if (expected == null || expected.isEmpty()) {
            return true;
        }
        long expectedCount;
        try {
            expectedCount = Long.parseUnsignedLong(expected);
        } catch (NumberFormatException e) {
            return true;
        }
        long candidateCount;
        try {
            candidateCount = Long.parseUnsignedLong(candidate == null ? "" : candidate);
        } catch (NumberFormatException e) {
            return false;
        }
        return Long.compareUnsigned(candidateCount, expectedCount) >= 0;
    }

    private static String uid(HasMetadata obj) {
        if (obj == null || obj.getMetadata() == null || obj.getMetadata().getUid() == null) {
            throw new IllegalArgumentException("object has no metadata.uid: " + obj);
        }
        return obj.getMetadata().getUid();
    }

    private static final class Expected {
        String version;
        Instant firstUnsatisfied;
    }
}
