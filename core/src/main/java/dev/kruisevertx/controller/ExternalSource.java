package dev.kruisevertx.controller;

/**
 * Keys from outside the controller's fixed {@link WatchSpec}s, e.g. informers of kinds known only at run time (a
 * whitelisted custom workload). Started with the controller's verticle (on its event loop: must not block; blocking
 * set-up goes to a worker) and closed when the verticle stops, so a controller that loses leadership stops adding
 * keys. The {@link Enqueuer} is thread-safe: its handlers may call it from informer threads, and must only enqueue.
 */
@FunctionalInterface
public interface ExternalSource {
    ExternalSource NONE = queue -> () -> { };

    /** @return what the verticle calls on stop to detach every handler this source attached */
    Runnable start(Enqueuer queue);
}
