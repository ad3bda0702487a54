package dev.kruisevertx.sim.testing;

import dev.kruisevertx.controller.Enqueuer;
import dev.kruisevertx.controller.Request;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** An {@link Enqueuer} that records what an event handler enqueued, in order, with its delay (zero for {@code add}). */
public final class RecordingEnqueuer implements Enqueuer {
    /** One enqueued key. */
    public record Added(Request request, Duration after) {
    }

    public final List<Added> adds = new ArrayList<>();

    @Override
    public void add(Request request) {
        adds.add(new Added(request, Duration.ZERO));
    }

    @Override
    public void addAfter(Request request, Duration delay) {
        adds.add(new Added(request, delay));
    }
}
