package dev.kruisevertx.controller;

import io.vertx.core.Future;

/**
 * One controller's reconcile step. It runs on the controller verticle's event loop and must not block: read the
 * shared cache, decide, and hand API writes to {@link dev.kruisevertx.kube.KubeExecutor}. The runtime guarantees
 * that one key is never reconciled by two workers at once.
 */
@FunctionalInterface
public interface Reconciler {
    Future<Result> reconcile(Request request);
}
