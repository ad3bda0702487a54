package dev.kruisevertx.controller;

import java.util.List;

/** A built controller: its reconcile step and the kinds whose events feed its queue. */
public record Controller(Reconciler reconciler, List<WatchSpec<?>> watches) {
    public Controller {
        watches = List.copyOf(watches);
    }
}
