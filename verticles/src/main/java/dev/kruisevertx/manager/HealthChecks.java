package dev.kruisevertx.manager;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Named liveness/readiness checks, answered like controller-runtime's healthz handler: 200 "ok", or 500 with one
 * {@code [-]name failed: reason} line per failing check; {@code ?verbose} lists every check.
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
        Map<String, String> failures = new LinkedHashMap<>();
        StringBuilder body = new StringBuilder();
        checks.keySet().stream().sorted().forEach(name -> {
            String reason;
            try {
                reason = checks.get(name).get();
            } catch (RuntimeException e) {
                reason = e.toString();
            }
            if (reason == null) {
                body.append("[+]").append(name).append(" ok\n");
            } else {
                failures.put(name, reason);
                body.append("[-]").append(name).append(" failed: ").append(reason).append('\n');
            }
        });
        if (failures.isEmpty()) {
            return new Report(true, verbose ? body + kind + " check passed\n" : "ok");
        }
        return new Report(false, body + kind + " check failed\n");
    }
}
