package dev.kruisevertx.controller;

import dev.kruisevertx.controller.reason.BlockReason;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code /debug/plans} shows of one decision: a one-line summary, named counts and one line per action
 * ("create pod web-x9k2f at revision web-7c9d"). It holds strings and numbers only, so the objects a plan carries
 * (pod specs with their env values, volumes, secrets) cannot reach a debug endpoint by way of it; controllers write
 * the action lines from names, revisions and reasons.
 *
 * @param summary        the reason and the shape of the decision, one line
 * @param counts         named numbers the decision was made from or produced (pods to create, updateNum, ...)
 * @param actions        one line per action, at most {@link #MAX_ACTIONS}
 * @param omittedActions actions beyond {@link #MAX_ACTIONS}, counted but not listed (a 10k-pod scale-up stays small)
 * @param reasons        what held the workload back in this decision (partition, maxUnavailable, ...): what
 *                       {@code kubectl kruise why} prints
 */
public record PlanSummary(String summary, Map<String, Long> counts, List<String> actions, int omittedActions,
                          List<BlockReason> reasons) {
    public static final int MAX_ACTIONS = 50;

    public PlanSummary {
        Objects.requireNonNull(summary, "summary");
        counts = Collections.unmodifiableMap(new LinkedHashMap<>(counts));
        actions = List.copyOf(actions);
        reasons = reasons == null ? List.of() : List.copyOf(reasons);
    }

    public PlanSummary(String summary, Map<String, Long> counts, List<String> actions, int omittedActions) {
        this(summary, counts, actions, omittedActions, List.of());
    }

    /** This summary with {@code more} reasons after its own. */
    public PlanSummary withReasons(List<BlockReason> more) {
        if (more.isEmpty()) {
            return this;
        }
        List<BlockReason> all = new ArrayList<>(reasons);
        all.addAll(more);
        return new PlanSummary(summary, counts, actions, omittedActions, all);
    }

    /** A decision that is only a reason (nothing to do, waiting, an error). */
    public static PlanSummary of(String summary) {
        return new PlanSummary(summary, Map.of(), List.of(), 0);
    }

    public static Builder builder(String summary) {
        return new Builder(summary);
    }

    /** Collects counts and action lines; actions past {@link #MAX_ACTIONS} are only counted. */
    public static final class Builder {
        private final String summary;
        private final Map<String, Long> counts = new LinkedHashMap<>();
        private final List<String> actions = new ArrayList<>();
        private final List<BlockReason> reasons = new ArrayList<>();
        private int omitted;

        private Builder(String summary) {
            this.summary = summary;
        }

        /** A named number; zeros are left out to keep the view short. */
        public Builder count(String name, long value) {
            if (value != 0) {
                counts.put(name, value);
            }
            return this;
        }

        /** One action, from names, revisions and reasons only. */
        public Builder action(String line) {
            if (actions.size() < MAX_ACTIONS) {
                actions.add(line);
            } else {
                omitted++;
            }
            return this;
        }

        /** What held the workload back. */
        public Builder reasons(List<BlockReason> more) {
            reasons.addAll(more);
            return this;
        }

        public PlanSummary build() {
            return new PlanSummary(summary, counts, actions, omitted, reasons);
        }
    }
}
