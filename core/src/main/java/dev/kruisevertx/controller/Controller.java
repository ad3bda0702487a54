package dev.kruisevertx.controller;

import java.util.List;

/**
 * A built controller: its reconcile step, the kinds whose events feed its queue and, optionally, a source of keys
 * from kinds known only at run time.
 */
public record Controller(Reconciler reconciler, List<WatchSpec<?>> watches, ExternalSource externalSource) {
    public Controller {
        watches = List.copyOf(watches);
        externalSource = externalSource == null ? ExternalSource.NONE : externalSource;
    }

    public Controller(Reconciler reconciler, List<WatchSpec<?>> watches) {
        this(reconciler, watches, ExternalSource.NONE);
    }
}
