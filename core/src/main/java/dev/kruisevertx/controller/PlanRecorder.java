package dev.kruisevertx.controller;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the last plan each controller made for each object, so that "why does nothing move?" can be answered
 * from {@code /debug/plans} without turning up log levels. Plans are immutable values (records); an entry is
 * dropped when its object is gone.
 */
public final class PlanRecorder {
    /** A decision as it was taken. */
    public record Entry(Instant at, String summary, Object plan) {
    }

    private final Clock clock;
    private final Map<String, Map<String, Entry>> byController = new ConcurrentHashMap<>();

    public PlanRecorder(Clock clock) {
        this.clock = clock;
    }

    public PlanRecorder() {
        this(Clock.systemUTC());
    }

    public void record(String controller, Request request, String summary, Object plan) {
        byController.computeIfAbsent(controller, c -> new ConcurrentHashMap<>())
                .put(request.key(), new Entry(clock.instant(), summary, plan));
    }

    public Entry last(String controller, Request request) {
        Map<String, Entry> plans = byController.get(controller);
        return plans == null ? null : plans.get(request.key());
    }

    public void forget(String controller, Request request) {
        Map<String, Entry> plans = byController.get(controller);
        if (plans != null) {
            plans.remove(request.key());
        }
    }

    /** A sorted snapshot of one controller's plans (all controllers when null). */
    public Map<String, Map<String, Entry>> snapshot(String controller) {
        Map<String, Map<String, Entry>> out = new TreeMap<>();
        byController.forEach((name, plans) -> {
            if (controller == null || controller.equals(name)) {
                out.put(name, new TreeMap<>(plans));
            }
        });
        return out;
    }
}
