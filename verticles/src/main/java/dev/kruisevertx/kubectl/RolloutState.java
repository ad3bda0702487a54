package dev.kruisevertx.kubectl;

/**
 * Where a workload's rollout stands.
 *
 * @param done    every replica runs the newest revision (up to the partition) and is ready
 * @param message what {@code rollout status} prints
 */
public record RolloutState(boolean done, String message) {
}
