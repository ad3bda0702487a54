package dev.kruisevertx.controller;

import org.apache.logging.log4j.core.util.ContextDataProvider;

import java.util.Map;

/**
 * Adds the {@link ReconcileContext} of the running reconcile to the context data (MDC) of every log event, read
 * from the current Vert.x context rather than a thread-local, so a line logged on a worker thread during a reconcile
 * carries its id too. Registered with log4j2 through {@code META-INF/services}; log4j-core is optional for this
 * module, so without it nothing loads this class.
 */
public final class ReconcileLogContext implements ContextDataProvider {
    @Override
    public Map<String, String> supplyContextData() {
        ReconcileContext current = ReconcileContext.current();
        return current == null ? Map.of() : current.logContext();
    }
}
