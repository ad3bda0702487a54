package dev.kruisevertx.sim.invariants;

/** Where invariants report. */
@FunctionalInterface
public interface Violations {
    void report(Violation v);
}
