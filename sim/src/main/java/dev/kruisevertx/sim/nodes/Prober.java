package dev.kruisevertx.sim.nodes;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Probe;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The kubelet's probe workers, computed rather than run: a container's probes fire at
 * {@code startedAt + initialDelaySeconds + k × periodSeconds} (both × the probe time scale) and answer as the
 * {@link ProbeRule}s for its image say. From that sequence: a startup probe gates the others (they count only from
 * its first success, and {@code failureThreshold} failures before one kill the container); readiness turns true
 * after {@code successThreshold} successes in a row and false after {@code failureThreshold} failures in a row
 * (false until the first success); liveness kills the container after {@code failureThreshold} failures in a row.
 * Pure, given the rules: the same inputs give the same verdict.
 */
final class Prober {
    /** How far back a verdict looks: beyond this many probes, the oldest state counts as the initial one. */
    private static final int HISTORY = 2_000;

    /** What the probes say about one run of a container at one moment. */
    record Verdict(boolean started, boolean ready, Optional<Instant> killedAt, Optional<Instant> nextChange) {
    }

    private final Supplier<List<ProbeRule>> rules;
    private final double scale;

    Prober(Supplier<List<ProbeRule>> rules, double scale) {
        this.rules = rules;
        this.scale = scale;
    }

    Verdict verdict(Container c, Instant startedAt, Instant now) {
        Instant startedFrom = startedAt;
        Instant next = null;
        Probe startup = c.getStartupProbe();
        if (startup != null) {
            Timeline t = new Timeline(startup, rule(c, ProbeRule.Kind.STARTUP), startedAt, startedAt, scale);
            Optional<Long> success = t.firstSuccess(now);
            Optional<Long> failure = t.failureRun(now);
            if (failure.isPresent() && (success.isEmpty() || failure.get() < success.get())) {
                return new Verdict(false, false, Optional.of(t.at(failure.get())), Optional.empty());
            }
            if (success.isEmpty()) {
                long k = t.count(now);
                return new Verdict(false, false, Optional.empty(), Optional.of(t.at(k)));
            }
            startedFrom = t.at(success.get());
        }
        boolean ready = true;
        Probe readiness = c.getReadinessProbe();
        if (readiness != null) {
            Timeline t = new Timeline(readiness, rule(c, ProbeRule.Kind.READINESS), startedAt, startedFrom, scale);
            ready = t.readyAt(now);
            next = t.nextReadinessChange(now, ready).orElse(null);
        }
        Probe liveness = c.getLivenessProbe();
        if (liveness != null) {
            Timeline t = new Timeline(liveness, rule(c, ProbeRule.Kind.LIVENESS), startedAt, startedFrom, scale);
            Optional<Long> failure = t.failureRun(now);
            if (failure.isPresent()) {
                return new Verdict(true, false, Optional.of(t.at(failure.get())), Optional.empty());
            }
            Optional<Long> future = t.failureRun(t.at(t.count(now) + HISTORY / 10));
            if (future.isPresent()) {
                Instant kill = t.at(future.get());
                next = next == null || kill.isBefore(next) ? kill : next;
            }
        }
        return new Verdict(true, ready, Optional.empty(), Optional.ofNullable(next));
    }

    private ProbeRule rule(Container c, ProbeRule.Kind kind) {
        for (ProbeRule r : rules.get()) {
            if (r.matches(c.getImage(), kind)) {
                return r;
            }
        }
        return new ProbeRule("*", null, ProbeRule.Result.PASS);
    }

    /** The instants and answers of one probe of one container run. */
    private static final class Timeline {
        private final ProbeRule rule;
        private final Instant first;
        private final long periodMs;
        private final int successThreshold;
        private final int failureThreshold;
        /** Probes before this index fired before the startup probe succeeded and do not count. */
        private final long firstCounted;

        Timeline(Probe p, ProbeRule rule, Instant startedAt, Instant countFrom, double scale) {
            this.rule = rule;
            long delayMs = (long) (seconds(p.getInitialDelaySeconds(), 0) * 1000 * scale);
            this.periodMs = Math.max(10, (long) (seconds(p.getPeriodSeconds(), 10) * 1000 * scale));
            this.first = startedAt.plusMillis(delayMs);
            this.successThreshold = Math.max(1, seconds(p.getSuccessThreshold(), 1));
            this.failureThreshold = Math.max(1, seconds(p.getFailureThreshold(), 3));
            long skip = 0;
            if (countFrom.isAfter(first)) {
                skip = (Duration.between(first, countFrom).toMillis() + periodMs - 1) / periodMs;
            }
            this.firstCounted = skip;
        }

        private static int seconds(Integer v, int dflt) {
            return v == null || v < 0 ? dflt : v;
        }

        Instant at(long k) {
            return first.plusMillis(k * periodMs);
        }

        /** How many probes have fired by {@code now}. */
        long count(Instant now) {
            if (now.isBefore(first)) {
                return 0;
            }
            return Duration.between(first, now).toMillis() / periodMs + 1;
        }

        private long from(long upTo) {
            return Math.max(firstCounted, upTo - HISTORY);
        }

        Optional<Long> firstSuccess(Instant now) {
            long n = count(now);
            for (long k = from(n); k < n; k++) {
                if (rule.succeeds(k)) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }

        /** The probe at which {@code failureThreshold} failures in a row were first reached, by {@code now}. */
        Optional<Long> failureRun(Instant now) {
            long n = count(now);
            int run = 0;
            for (long k = from(n); k < n; k++) {
                run = rule.succeeds(k) ? 0 : run + 1;
                if (run >= failureThreshold) {
                    return Optional.of(k);
                }
            }
            return Optional.empty();
        }

        boolean readyAt(Instant now) {
            return readyAfter(count(now));
        }

        private boolean readyAfter(long n) {
            boolean ready = false;
            int successes = 0;
            int failures = 0;
            for (long k = from(n); k < n; k++) {
                if (rule.succeeds(k)) {
                    successes++;
                    failures = 0;
                    if (successes >= successThreshold) {
                        ready = true;
                    }
                } else {
                    failures++;
                    successes = 0;
                    if (failures >= failureThreshold) {
                        ready = false;
                    }
                }
            }
            return ready;
        }

        /** When readiness next differs from {@code ready}, looking a bounded number of probes ahead. */
        Optional<Instant> nextReadinessChange(Instant now, boolean ready) {
            long n = count(now);
            long horizon = n + 2L * (successThreshold + failureThreshold + rule.flapEvery()) + 2;
            for (long m = Math.max(n + 1, firstCounted + 1); m <= horizon; m++) {
                if (readyAfter(m) != ready) {
                    return Optional.of(at(m - 1));
                }
            }
            return Optional.empty();
        }
    }
}
