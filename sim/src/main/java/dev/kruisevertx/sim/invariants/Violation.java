package dev.kruisevertx.sim.invariants;

/** One broken promise: which invariant, on which object (namespace/name), what was seen, and when (epoch millis). */
public record Violation(String invariant, String object, String message, long atMillis) {
    @Override
    public String toString() {
        return invariant + " " + object + ": " + message;
    }
}
