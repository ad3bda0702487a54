package dev.kruisevertx.controller;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Keeps the last plan each controller made for each object, so that "why does nothing move?" can be answered
 * from {@code /debug/plans} without turning up log levels. Entries are {@link PlanSummary summaries} (names,
 * revisions, counts, reasons), never the objects a plan acts on; an entry is dropped when its object is gone.
 *
 * <p>Entries are kept sorted by controller and object key, so a page is found in logarithmic time and a continue
 * token stays valid while entries come and go, as with the API server's list paging.
 */
public final class PlanRecorder {
    /**
     * A decision as it was taken, by the reconcile of that id (0 when recorded outside of a reconcile), which was
     * started by {@code trigger}; grep the log for the id to follow that reconcile.
     */
    public record Entry(Instant at, PlanSummary plan, long reconcileId, String trigger) {
        public Entry(Instant at, PlanSummary plan) {
            this(at, plan, 0, null);
        }
    }

    /** One entry of a page. */
    public record Item(String controller, String key, Entry entry) {
    }

    /** A page of entries in (controller, key) order; {@code continueToken} is null on the last page. */
    public record Page(List<Item> items, String continueToken) {
    }

    private final Clock clock;
    private final ConcurrentNavigableMap<String, ConcurrentNavigableMap<String, Entry>> byController =
            new ConcurrentSkipListMap<>();

    public PlanRecorder(Clock clock) {
        this.clock = clock;
    }

    public PlanRecorder() {
        this(Clock.systemUTC());
    }

    public void record(String controller, Request request, PlanSummary plan) {
        byController.computeIfAbsent(controller, c -> new ConcurrentSkipListMap<>())
                .put(request.key(), entry(plan));
    }

    private Entry entry(PlanSummary plan) {
        ReconcileContext rc = ReconcileContext.current();
        return rc == null ? new Entry(clock.instant(), plan) : new Entry(clock.instant(), plan, rc.id(), rc.trigger());
    }

    /** A decision that is only a reason. */
    public void record(String controller, Request request, String summary) {
        record(controller, request, PlanSummary.of(summary));
    }

    public Entry last(String controller, Request request) {
        Map<String, Entry> plans = byController.get(controller);
        return plans == null ? null : plans.get(request.key());
    }

    public void forget(String controller, Request request) {
        Map<String, Entry> plans = byController.get(controller);
        if (plans != null) {
            plans.remove(request.key());
        }
    }

    /**
     * Up to {@code limit} entries of one controller (all controllers when null), starting after the position a
     * previous page's continue token names (from the start when null).
     *
     * @throws IllegalArgumentException when the token was not made by this class
     */
    public Page page(String controller, String continueToken, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        String[] after = continueToken == null ? null : decode(continueToken);
        NavigableMap<String, ConcurrentNavigableMap<String, Entry>> controllers = controller != null
                ? byController.subMap(controller, true, controller, true)
                : after == null ? byController : byController.tailMap(after[0], true);
        List<Item> items = new ArrayList<>(Math.min(limit, 1024));
        for (Map.Entry<String, ConcurrentNavigableMap<String, Entry>> c : controllers.entrySet()) {
            NavigableMap<String, Entry> entries = after != null && after[0].equals(c.getKey())
                    ? c.getValue().tailMap(after[1], false) : c.getValue();
            for (Map.Entry<String, Entry> e : entries.entrySet()) {
                if (items.size() == limit) {
                    Item last = items.get(items.size() - 1);
                    return new Page(items, encode(last.controller(), last.key()));
                }
                items.add(new Item(c.getKey(), e.getKey(), e.getValue()));
            }
        }
        return new Page(items, null);
    }

    private static String encode(String controller, String key) {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((controller + "\n" + key).getBytes(StandardCharsets.UTF_8));
    }

    private static String[] decode(String token) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int newline = text.indexOf('\n');
            if (newline > 0) {
                return new String[]{text.substring(0, newline), text.substring(newline + 1)};
            }
        } catch (IllegalArgumentException e) {
            // reported below
        }
        throw new IllegalArgumentException("invalid continue token; start again without one");
    }
}
