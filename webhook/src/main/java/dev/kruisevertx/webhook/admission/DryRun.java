package dev.kruisevertx.webhook.admission;

import io.vertx.core.Future;

import java.util.function.Supplier;

/** Keeps handler side effects out of dry-run requests. */
public final class DryRun {
    private DryRun() {
    }

    /** Runs {@code write} unless the request is a dry run, in which case nothing happens. */
    public static Future<Void> unlessDryRun(AdmissionRequest request, Supplier<Future<Void>> write) {
        if (request.dryRun()) {
            return Future.succeededFuture();
        }
        return write.get();
    }
}
