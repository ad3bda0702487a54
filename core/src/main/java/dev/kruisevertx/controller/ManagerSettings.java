package dev.kruisevertx.controller;

import java.time.Duration;
import java.util.Map;

/**
 * The process-wide settings controllers read, taken from the manager's flags.
 *
 * @param extra controller-specific flags by name without dashes (e.g. {@code cloneset-scaling-exclude-preparing-delete})
 */
public record ManagerSettings(
        String namespace,
        Duration expectationTimeout,
        Duration rateLimiterBaseDelay,
        Duration rateLimiterMaxDelay,
        double rateLimiterQps,
        int rateLimiterBucketSize,
        Map<String, Integer> workers,
        Map<String, String> extra) {

    public ManagerSettings {
        workers = Map.copyOf(workers);
        extra = Map.copyOf(extra);
    }

    public static ManagerSettings defaults() {
        return new ManagerSettings(null, Duration.ofMinutes(5), Duration.ofMillis(5), Duration.ofSeconds(1000),
                10, 100, Map.of(), Map.of());
    }

    public int workersFor(ControllerDefinition definition) {
        return workers.getOrDefault(definition.name(), definition.defaultWorkers());
    }
}
