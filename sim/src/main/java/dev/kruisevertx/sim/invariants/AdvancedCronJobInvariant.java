package dev.kruisevertx.sim.invariants;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * AdvancedCronJob's promises, from its children (batch/v1 Jobs or BroadcastJobs, by controller ownerReference) and
 * itself: under concurrencyPolicy Forbid a child is never created while another is active
 * ({@code acj-forbid-one-active}), and never two children for one scheduled time ({@code acj-one-run-per-time}, by
 * the {@code apps.kruise.io/scheduled-at} annotation, remembered after the first child is gone: a pruned run must not
 * start again).
 */
public final class AdvancedCronJobInvariant extends RuleInvariant {
    public static final String FORBID = "acj-forbid-one-active";
    public static final String ONE_RUN_PER_TIME = "acj-one-run-per-time";
    static final String SCHEDULED_AT = "apps.kruise.io/scheduled-at";

    private final Map<String, String> policies = new HashMap<>();
    /** Per AdvancedCronJob uid: child uid to the child, as last seen. */
    private final Map<String, Map<String, JsonNode>> children = new HashMap<>();
    /** AdvancedCronJob uid + scheduled time to the child uids seen for it. */
    private final Map<String, Set<String>> runs = new LinkedHashMap<>();

    /** The invariant that checks {@code rule} (one of the names above). */
    AdvancedCronJobInvariant(String rule) {
        super(rule);
    }

    /** Every rule, one invariant each (so each has its own count). */
    static java.util.List<Invariant> all() {
        return java.util.List.of(new AdvancedCronJobInvariant(FORBID), new AdvancedCronJobInvariant(ONE_RUN_PER_TIME));
    }

    @Override
    public void onObject(PodEvent.Type type, JsonNode object, long atMillis, Violations out) {
        String kind = object.path("kind").asText();
        if ("AdvancedCronJob".equals(kind)) {
            String uid = ClusterView.uid(object);
            if (type == PodEvent.Type.DELETED) {
                policies.remove(uid);
                children.remove(uid);
            } else {
                policies.put(uid, object.at("/spec/concurrencyPolicy").asText("Allow"));
            }
            return;
        }
        if (!"Job".equals(kind) && !"BroadcastJob".equals(kind)) {
            return;
        }
        String owner = ownerUid(object);
        if (owner == null) {
            return;
        }
        String uid = ClusterView.uid(object);
        Map<String, JsonNode> mine = children.computeIfAbsent(owner, k -> new HashMap<>());
        if (type == PodEvent.Type.DELETED) {
            mine.remove(uid);
            return;
        }
        boolean isNew = !mine.containsKey(uid);
        mine.put(uid, object);
        if (!isNew) {
            return;
        }
        String key = ClusterView.key(object);
        String at = object.at("/metadata/annotations").path(SCHEDULED_AT).asText("");
        if (!at.isEmpty()) {
            Set<String> seen = runs.computeIfAbsent(owner + "@" + at, k -> new HashSet<>());
            if (seen.add(uid) && seen.size() > 1) {
                report(out, new Violation(ONE_RUN_PER_TIME, key, seen.size() + " children for the run scheduled at "
                        + at, atMillis));
            }
        }
        if ("Forbid".equals(policies.get(owner))) {
            long others = mine.entrySet().stream().filter(e -> !e.getKey().equals(uid))
                    .filter(e -> running(e.getValue())).count();
            if (others > 0) {
                report(out, new Violation(FORBID, key, "created under concurrencyPolicy Forbid while " + others
                        + " other run(s) are active", atMillis));
            }
        }
    }

    /** Not being deleted and without a Complete or Failed condition that is True. */
    static boolean running(JsonNode child) {
        if (ClusterView.terminating(child)) {
            return false;
        }
        for (JsonNode c : child.at("/status/conditions")) {
            String type = c.path("type").asText();
            if (("Complete".equals(type) || "Failed".equals(type)) && "True".equals(c.path("status").asText())) {
                return false;
            }
        }
        return true;
    }

    private static String ownerUid(JsonNode child) {
        for (JsonNode ref : child.at("/metadata/ownerReferences")) {
            if (ref.path("controller").asBoolean(false) && "AdvancedCronJob".equals(ref.path("kind").asText())) {
                return ref.path("uid").asText();
            }
        }
        return null;
    }
}
