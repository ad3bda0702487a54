package dev.kruisevertx.controller;

import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * OpenKruise's (and kube's) slow start for creating many objects: batches of 1, 2, 4, ... in parallel, stopping
 * after the first batch with a failure, so a request the server keeps refusing (quota, admission, a deleted
 * namespace) costs a handful of calls instead of one per object. Before each batch a guard is asked whether the
 * plan is still worth carrying out; the owner may have gone meanwhile.
 */
public final class SlowStart {
    /** The size of the first batch. */
    public static final int INITIAL_BATCH = 1;

    private SlowStart() {
    }

    /**
     * Runs {@code action} for every item in slow-start batches. The Future fails with the first failure of the
     * batch that failed (after that whole batch completed), or with a {@link StalePlanException} when the guard
     * stopped it; either way {@code notStarted} is told about every item never started, so expectations raised for
     * them can be lowered.
     *
     * @param stopReason asked before each batch (on the caller's context): null to go on, else why to stop
     */
    public static <T> Future<Void> run(List<T> items, Function<T, Future<?>> action, Supplier<String> stopReason,
                                       Consumer<T> notStarted) {
        return batch(List.copyOf(items), action, stopReason, notStarted, 0, INITIAL_BATCH);
    }

    private static <T> Future<Void> batch(List<T> items, Function<T, Future<?>> action, Supplier<String> stopReason,
                                          Consumer<T> notStarted, int from, int size) {
        if (from >= items.size()) {
            return Future.succeededFuture();
        }
        String stop = stopReason.get();
        if (stop != null) {
            skip(items, from, notStarted);
            return Future.failedFuture(new StalePlanException("stopped after " + from + " of " + items.size()
                    + ": " + stop));
        }
        int to = Math.min(items.size(), from + size);
        List<Future<?>> running = new ArrayList<>(to - from);
        for (T item : items.subList(from, to)) {
            running.add(start(action, item));
        }
        return Future.join(running).transform(ar -> {
            if (ar.failed()) {
                skip(items, to, notStarted);
                return Future.failedFuture(ar.cause());
            }
            return batch(items, action, stopReason, notStarted, to, size * 2);
        });
    }

    private static <T> Future<?> start(Function<T, Future<?>> action, T item) {
        try {
            Future<?> f = action.apply(item);
            return f == null ? Future.succeededFuture() : f;
        } catch (RuntimeException e) {
            return Future.failedFuture(e);
        }
    }

    private static <T> void skip(List<T> items, int from, Consumer<T> notStarted) {
        for (T item : items.subList(from, items.size())) {
            notStarted.accept(item);
        }
    }
}
