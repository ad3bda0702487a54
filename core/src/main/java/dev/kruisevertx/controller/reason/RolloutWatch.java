package dev.kruisevertx.controller.reason;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Notices rollouts that stopped moving. A workload is <em>blocked</em> while its last plan carries a reason that is
 * not {@link ReasonCode#intended() intended}; it is <em>stuck</em> once it stayed blocked with the same progress
 * (the numbers of its status: replicas, ready, available, updated) for its progress deadline. The moment it turns
 * stuck the caller writes one Warning Event naming the reasons; while stuck,
 * {@code kruise_workload_blocked{kind,namespace,name,reason}} is 1 for each blocking reason. Progress, or no blocking
 * reason left, ends it (the series go away).
 */
public final class RolloutWatch {
    /** The progress deadline of a kind that has no field for it (Kubernetes' Deployment default). */
    public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(600);
    public static final String METRIC = "kruise_workload_blocked";
    public static final String EVENT_REASON = "RolloutStuck";
    /** Key of {@link dev.kruisevertx.controller.ManagerSettings#extra()}: the manager's default deadline, in ms. */
    public static final String DEADLINE_FLAG = "workload-progress-deadline";

    /** The deadline for workloads without a field of their own: the manager's flag, else {@link #DEFAULT_DEADLINE}. */
    public static Duration defaultDeadline(dev.kruisevertx.controller.ManagerSettings settings) {
        String ms = settings == null ? null : settings.extra().get(DEADLINE_FLAG);
        return ms == null ? DEFAULT_DEADLINE : Duration.ofMillis(Long.parseLong(ms));
    }

    private final String kind;
    private final MeterRegistry registry;
    private final Map<String, Track> tracks = new HashMap<>();

    /**
     * What to do now.
     *
     * @param becameStuck write the Event now (first observation past the deadline)
     * @param recheckIn   look again this much later even without an event, to notice the deadline; zero for never
     * @param blocking    the reasons that block it
     * @param message     the Event's message (when {@code becameStuck})
     */
    public record Verdict(boolean becameStuck, Duration recheckIn, List<BlockReason> blocking, String message) {
    }

    private static final class Track {
        String progress;
        Instant since;
        boolean stuck;
        final Map<ReasonCode, Gauge> gauges = new HashMap<>();
    }

    /** {@code registry} may be null (no metric). */
    public RolloutWatch(String kind, MeterRegistry registry) {
        this.kind = kind;
        this.registry = registry == null ? new io.micrometer.core.instrument.simple.SimpleMeterRegistry() : registry;
    }

    public synchronized Verdict observe(String namespace, String name, String progress, List<BlockReason> reasons,
                                        Duration deadline, Instant now) {
        String key = namespace + "/" + name;
        List<BlockReason> blocking = reasons.stream().filter(r -> !r.code().intended()).toList();
        Track t = tracks.get(key);
        if (blocking.isEmpty()) {
            if (t != null) {
                unregister(t);
                tracks.remove(key);
            }
            return new Verdict(false, Duration.ZERO, blocking, null);
        }
        if (t == null || !t.progress.equals(progress)) {
            if (t != null) {
                unregister(t);
            }
            t = new Track();
            t.progress = progress;
            t.since = now;
            tracks.put(key, t);
        }
        Duration elapsed = Duration.between(t.since, now);
        if (elapsed.compareTo(deadline) < 0) {
            return new Verdict(false, deadline.minus(elapsed), blocking, null);
        }
        boolean became = !t.stuck;
        t.stuck = true;
        Set<ReasonCode> codes = new LinkedHashSet<>();
        blocking.forEach(r -> codes.add(r.code()));
        for (ReasonCode gone : new ArrayList<>(t.gauges.keySet())) {
            if (!codes.contains(gone)) {
                registry.remove(t.gauges.remove(gone));
            }
        }
        for (ReasonCode c : codes) {
            t.gauges.computeIfAbsent(c, code -> Gauge.builder(METRIC, () -> 1)
                    .description("1 while a workload's rollout is stuck, per reason that holds it")
                    .tags("kind", kind, "namespace", namespace, "name", name, "reason", code.wireName())
                    .register(registry));
        }
        String message = null;
        if (became) {
            StringBuilder b = new StringBuilder("rollout has not progressed for " + deadline.toSeconds() + "s: ");
            for (int i = 0; i < blocking.size(); i++) {
                b.append(i == 0 ? "" : "; ").append(blocking.get(i).text());
            }
            message = b.length() > 1000 ? b.substring(0, 1000) + "..." : b.toString();
        }
        return new Verdict(became, Duration.ZERO, blocking, message);
    }

    /** The workload is gone. */
    public synchronized void forget(String namespace, String name) {
        Track t = tracks.remove(namespace + "/" + name);
        if (t != null) {
            unregister(t);
        }
    }

    private void unregister(Track t) {
        t.gauges.values().forEach(registry::remove);
        t.gauges.clear();
    }
}
