package dev.kruisevertx.expectations;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Pod creations and deletions a controller has asked for but not yet seen in its cache, per controller
 * key ({@code namespace/name}). A controller records an expectation before each create/delete call,
 * its pod event handler observes it, and {@link #satisfied} tells the reconciler whether the cache
 * has caught up with its own writes; while it has not, the reconciler must not count pods again, or it
 * would create or delete twice.
 *
 * <p>Semantics follow OpenKruise's {@code pkg/util/expectations} scale expectations: observing a name
 * that was never expected is ignored; a key whose sets all become empty is dropped; the unsatisfied
 * clock starts the first time {@link #satisfied} finds pending names. After {@code timeout}
 * ({@code --expectation-timeout}, 5m) the expectation counts as leaked: it is dropped, the leakage
 * counter (e.g. {@code cloneset_scale_expectation_leakage{namespace,name}}) is incremented, and the
 * key is reported satisfied so the controller can make progress again.
 *
 * <p>Thread-safe; every method is O(1) in the number of controller keys.
 */
public final class ScaleExpectations {
    private static final Logger LOG = LoggerFactory.getLogger(ScaleExpectations.class);

    /**
     * Result of {@link #satisfied}.
     *
     * @param satisfied      true when nothing is pending, or when the pending names timed out
     * @param unsatisfiedFor how long the key has been unsatisfied; non-zero with {@code satisfied}
     *                       true means the expectation leaked and was dropped
     * @param details        the pending pod names per action (empty when satisfied normally)
     */
    public record Satisfied(boolean satisfied, Duration unsatisfiedFor, Map<ScaleAction, Set<String>> details) {
        public Satisfied {
            Objects.requireNonNull(unsatisfiedFor, "unsatisfiedFor");
            details = details == null ? Map.of() : details;
        }

        /** True when the expectation timed out and was dropped rather than observed. */
        public boolean leaked() {
            return satisfied && !unsatisfiedFor.isZero();
        }
    }

    private static final Satisfied SATISFIED = new Satisfied(true, Duration.ZERO, Map.of());

    private final Duration timeout;
    private final Clock clock;
    private final MeterRegistry registry;
    private final String leakageMetricName;
    private final Map<String, Pending> byController = new HashMap<>();

    /**
     * @param timeout           {@code --expectation-timeout} (OpenKruise default 5 minutes)
     * @param registry          where the leakage counter lives
     * @param leakageMetricName counter name, tagged {@code namespace} and {@code name} from the controller key
     */
    public ScaleExpectations(Duration timeout, Clock clock, MeterRegistry registry, String leakageMetricName) {
        if (timeout == null || timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("expectation timeout must be positive, got " + timeout);
        }
        this.timeout = timeout;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.leakageMetricName = Objects.requireNonNull(leakageMetricName, "leakageMetricName");
    }

    public void expectCreate(String controllerKey, String podName) {
        expect(controllerKey, ScaleAction.CREATE, podName);
    }

    public void expectDelete(String controllerKey, String podName) {
        expect(controllerKey, ScaleAction.DELETE, podName);
    }

    public void observeCreate(String controllerKey, String podName) {
        observe(controllerKey, ScaleAction.CREATE, podName);
    }

    public void observeDelete(String controllerKey, String podName) {
        observe(controllerKey, ScaleAction.DELETE, podName);
    }

    public synchronized void expect(String controllerKey, ScaleAction action, String podName) {
        byController.computeIfAbsent(controllerKey, k -> new Pending())
                .names.computeIfAbsent(action, a -> new LinkedHashSet<>())
                .add(podName);
    }

    public synchronized void observe(String controllerKey, ScaleAction action, String podName) {
        Pending pending = byController.get(controllerKey);
        if (pending == null) {
            return;
        }
        Set<String> names = pending.names.get(action);
        if (names == null) {
            return;
        }
        names.remove(podName);
        if (pending.isEmpty()) {
            byController.remove(controllerKey);
        }
    }

    /** Whether the cache has seen every pending create/delete of this controller; see the class comment for the timeout. */
    public Satisfied satisfied(String controllerKey) {
        Satisfied result;
        synchronized (this) {
            Pending pending = byController.get(controllerKey);
            if (pending == null) {
                return SATISFIED;
            }
            if (pending.isEmpty()) {
                byController.remove(controllerKey);
                return SATISFIED;
            }
            Instant now = clock.instant();
            if (pending.firstUnsatisfied == null) {
                pending.firstUnsatisfied = now;
            }
            Duration waited = Duration.between(pending.firstUnsatisfied, now);
            Map<ScaleAction, Set<String>> details = pending.snapshot();
            if (waited.compareTo(timeout) < 0) {
                return new Satisfied(false, waited, details);
            }
            byController.remove(controllerKey);
            result = new Satisfied(true, waited, details);
        }
        // Outside the lock: metrics and logging must not extend the critical section.
        LOG.warn("scale expectations of {} unsatisfied for {} (timeout {}), dropping them; pending {}",
                controllerKey, result.unsatisfiedFor(), timeout, result.details());
        leakageCounter(controllerKey).increment();
        return result;
    }

    /** Forget a controller's expectations, e.g. when the workload is deleted. */
    public synchronized void delete(String controllerKey) {
        byController.remove(controllerKey);
    }

    /** A copy of the pending names, empty when none. */
    public synchronized Map<ScaleAction, Set<String>> pending(String controllerKey) {
        Pending pending = byController.get(controllerKey);
        return pending == null ? Map.of() : pending.snapshot();
    }

    private Counter leakageCounter(String controllerKey) {
        int slash = controllerKey.indexOf('/');
        String namespace = slash < 0 ? "" : controllerKey.substring(0, slash);
        String name = slash < 0 ? controllerKey : controllerKey.substring(slash + 1);
        return Counter.builder(leakageMetricName)
                .description("Scale expectations dropped after the expectation timeout")
                .tag("namespace", namespace)
                .tag("name", name)
                .register(registry);
    }

    private static final class Pending {
        final Map<ScaleAction, Set<String>> names = new EnumMap<>(ScaleAction.class);
        Instant firstUnsatisfied;

        boolean isEmpty() {
            for (Set<String> s : names.values()) {
                if (!s.isEmpty()) {
                    return false;
                }
            }
            return true;
        }

        Map<ScaleAction, Set<String>> snapshot() {
            Map<ScaleAction, Set<String>> copy = new EnumMap<>(ScaleAction.class);
            names.forEach((action, set) -> {
                if (!set.isEmpty()) {
                    copy.put(action, Collections.unmodifiableSet(new TreeSet<>(set)));
                }
            });
            return Collections.unmodifiableMap(copy);
        }
    }
}
