package dev.kruisevertx.manager;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Named liveness/readiness checks, answered like controller-runtime's healthz handler: 200 "ok", or 500 with one
 * {@code [-]name failed: reason} line per failing check; {@code ?verbose} lists every check, {@code ?exclude=NAME}
 * skips one. {@code /readyz/NAME} runs one check; a name that is not a check is unknown (404), not healthy.
 */
public final class HealthChecks {
    /** A check returns null when healthy, or the reason it is not. Must be cheap and non-blocking. */
    @FunctionalInterface
    public interface Check extends Supplier<String> {
    }

    public record Report(boolean healthy, String body) {
    }

    private final Map<String, Check> checks = new ConcurrentHashMap<>();
    private final String kind;

    public HealthChecks(String kind) {
        this.kind = kind;
    }

    public void add(String name, Check check) {
        checks.put(name, check);
    }

    public Report evaluate(boolean verbose) {
        return evaluate(verbose, Set.of());
    }

    /** All checks but the excluded ones; excluding a name that is no check only adds a warning line. */
    public Report evaluate(boolean verbose, Set<String> excluded) {
        Map<String, String> failures = new LinkedHashMap<>();
        StringBuilder body = new StringBuilder();
        checks.keySet().stream().sorted().forEach(name -> {
            if (excluded.contains(name)) {
                body.append("[+]").append(name).append(" excluded: ok\n");
                return;
            }
            String reason = run(name);
            if (reason == null) {
                body.append("[+]").append(name).append(" ok\n");
            } else {
                failures.put(name, reason);
                body.append("[-]").append(name).append(" failed: ").append(reason).append('\n');
            }
        });
        Set<String> unknown = new TreeSet<>(excluded);
        unknown.removeAll(checks.keySet());
        if (!unknown.isEmpty()) {
            body.append("warn: some health checks cannot be excluded: no matches for ")
                    .append(String.join(",", unknown.stream().map(n -> "\"" + n + "\"").toList())).append('\n');
        }
        if (failures.isEmpty()) {
            return new Report(true, verbose ? body + kind + " check passed\n" : "ok");
        }
        return new Report(false, body + kind + " check failed\n");
    }

    /** One check by name; empty when there is no such check. */
    public Optional<Report> evaluateOne(String name) {
        if (!checks.containsKey(name)) {
            return Optional.empty();
        }
        String reason = run(name);
        return Optional.of(reason == null ? new Report(true, "ok")
                : new Report(false, "internal server error: " + reason + "\n"));
    }

    private String run(String name) {
        try {
            return checks.get(name).get();
        } catch (RuntimeException e) {
            return e.toString();
        }
    }
}
