package dev.kruisevertx.nodeimage;

import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.controller.PlanSummary;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What the nodeimage controller does for one node now.
 *
 * @param action       what to write
 * @param labels       the NodeImage's labels after an UPDATE (the node's)
 * @param images       the NodeImage's {@code spec.images} after an UPDATE
 * @param requeueAfter when to look again without an event (creation delay, a tag's TTL), or null
 * @param messages     why: one line per change or wait, names only
 */
public record NodeImagePlan(Action action, Map<String, String> labels, Map<String, ImageSpec> images,
                            Duration requeueAfter, List<String> messages) {
    public enum Action { NONE, CREATE, DELETE, UPDATE }

    public NodeImagePlan {
        messages = List.copyOf(messages);
    }

    static NodeImagePlan none(Duration requeueAfter, String why) {
        return new NodeImagePlan(Action.NONE, null, null, requeueAfter, List.of(why));
    }

    public PlanSummary debugSummary() {
        PlanSummary.Builder b = PlanSummary.builder(action == Action.NONE ? String.join("; ", messages)
                : action.name().toLowerCase(java.util.Locale.ROOT) + " NodeImage");
        if (action != Action.NONE) {
            messages.forEach(b::action);
        }
        return b.build();
    }
}
