package dev.kruisevertx.agent.imagepuller;

import io.vertx.core.Future;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.Supplier;

/**
 * {@code --max-workers-for-pull-image}: at most that many pulls run at once, the others wait in arrival order
 * (a limit of 0 or less: no limit, as kruise-daemon). Used from one Vert.x context only.
 */
final class WorkerSlots {
    private final int limit;
    private final Deque<Supplier<Future<Void>>> waiting = new ArrayDeque<>();
    private int running;

    WorkerSlots(int limit) {
        this.limit = limit;
    }

    /** Runs the work when a slot is free; the slot is held until the work's future completes. */
    void submit(Supplier<Future<Void>> work) {
        if (limit > 0 && running >= limit) {
            waiting.addLast(work);
            return;
        }
        start(work);
    }

    private void start(Supplier<Future<Void>> work) {
        running++;
        Future<Void> f;
        try {
            f = work.get();
        } catch (RuntimeException e) {
            f = Future.failedFuture(e);
        }
        f.onComplete(ar -> {
            running--;
            Supplier<Future<Void>> next = waiting.pollFirst();
            if (next != null) {
                start(next);
            }
        });
    }

    int running() {
        return running;
    }

    int waiting() {
        return waiting.size();
    }
}
