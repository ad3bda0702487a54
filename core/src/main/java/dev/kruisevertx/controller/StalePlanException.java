package dev.kruisevertx.controller;

/**
 * A plan was abandoned part-way because what it was made for changed under it: the owner was deleted, replaced or
 * is being deleted, or its spec changed. Not an error: the event that changed the owner reconciles it again, so a
 * reconciler ends quietly (no status write, no retry with backoff).
 */
public final class StalePlanException extends RuntimeException {
    public StalePlanException(String message) {
        // An expected outcome: no stack trace to fill or print.
        super(message, null, false, false);
    }
}
