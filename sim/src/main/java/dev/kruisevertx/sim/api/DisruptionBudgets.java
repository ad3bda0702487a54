package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.podutil.LabelSelectors;
import io.fabric8.kubernetes.api.model.LabelSelector;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * kube-controller-manager's disruption controller, inside the embedded API server: keeps each PodDisruptionBudget's
 * status (expectedPods, currentHealthy, desiredHealthy, disruptionsAllowed, disruptedPods, observedGeneration, the
 * DisruptionAllowed condition) in step with its pods. A change to a pod or budget marks its namespace, and the
 * namespace's budgets are recomputed shortly after, on the API server's context.
 */
final class DisruptionBudgets {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** How long an evicted pod counts as already disrupted while it is not yet deleted (the controller's timeout). */
    private static final Duration DELETION_TIMEOUT = Duration.ofMinutes(2);

    private final ApiServer api;
    private final Set<String> dirty = new HashSet<>();
    private boolean scheduled;

    DisruptionBudgets(ApiServer api) {
        this.api = api;
    }

    ResourceType budgets() {
        return api.registry().byKey("poddisruptionbudgets.policy").orElseThrow();
    }

    private ResourceType pods() {
        return api.registry().byKey("pods").orElseThrow();
    }

    /** Listens to pods and budgets. Call on the API server's context. */
    void start() {
        api.store().listen(pods(), e -> markDirty(e.object()));
        api.store().listen(budgets(), e -> markDirty(e.object()));
    }

    private void markDirty(ObjectNode o) {
        String ns = o == null ? null : o.path("metadata").path("namespace").asText(null);
        if (ns == null || api.store().list(budgets(), ns).isEmpty()) {
            return;
        }
        dirty.add(ns);
        if (!scheduled) {
            scheduled = true;
            api.vertx().setTimer(100, id -> api.context().runOnContext(v -> flush()));
        }
    }

    private void flush() {
        scheduled = false;
        List<String> namespaces = new ArrayList<>(dirty);
        dirty.clear();
        for (String ns : namespaces) {
            for (ObjectNode pdb : new ArrayList<>(api.store().list(budgets(), ns).values())) {
                refresh(pdb);
            }
        }
    }

    /** Writes the budget's status when it changed; returns the stored budget. */
    ObjectNode refresh(ObjectNode pdb) {
        ObjectNode status = status(pdb, Instant.now());
        if (status.equals(pdb.get("status"))) {
            return pdb;
        }
        ObjectNode next = pdb.deepCopy();
        next.set("status", status);
        return api.commitUpdate(budgets(), pdb, next);
    }

    /** The budgets of the pod's namespace whose selector matches the pod. */
    List<ObjectNode> matching(ObjectNode pod) {
        String ns = pod.path("metadata").path("namespace").asText();
        Map<String, String> labels = labels(pod);
        List<ObjectNode> out = new ArrayList<>();
        for (ObjectNode pdb : api.store().list(budgets(), ns).values()) {
            LabelSelector selector = selector(pdb);
            // An empty selector matches every pod of the namespace in policy/v1.
            if (selects(selector, labels)) {
                out.add(pdb);
            }
        }
        return out;
    }

    /** The status the disruption controller computes now. */
    ObjectNode status(ObjectNode pdb, Instant now) {
        String ns = pdb.path("metadata").path("namespace").asText();
        LabelSelector selector = selector(pdb);
        List<ObjectNode> pods = new ArrayList<>();
        if (selector != null) {
            for (ObjectNode p : api.store().list(pods(), ns).values()) {
                if (selects(selector, labels(p))) {
                    pods.add(p);
                }
            }
        }
        ObjectNode disrupted = MAPPER.createObjectNode();
        JsonNode oldDisrupted = pdb.path("status").path("disruptedPods");
        Set<String> present = new HashSet<>();
        pods.forEach(p -> present.add(p.path("metadata").path("name").asText()));
        for (Iterator<Map.Entry<String, JsonNode>> it = oldDisrupted.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            ObjectNode pod = api.store().get(pods(), ns, e.getKey());
            boolean stillThere = present.contains(e.getKey()) && pod != null && !pod.path("metadata").has("deletionTimestamp");
            if (stillThere && Instant.parse(e.getValue().asText()).plus(DELETION_TIMEOUT).isAfter(now)) {
                disrupted.set(e.getKey(), e.getValue());
            }
        }
        int healthy = 0;
        for (ObjectNode p : pods) {
            if (!p.path("metadata").has("deletionTimestamp") && ready(p) && !disrupted.has(p.path("metadata").path("name").asText())) {
                healthy++;
            }
        }
        JsonNode spec = pdb.path("spec");
        int expected;
        int desired;
        if (spec.has("maxUnavailable") && !spec.get("maxUnavailable").isNull()) {
            expected = expectedFromControllers(pods);
            desired = Math.max(0, expected - scaled(spec.get("maxUnavailable"), expected));
        } else if (spec.has("minAvailable") && !spec.get("minAvailable").isNull()) {
            JsonNode min = spec.get("minAvailable");
            expected = min.isTextual() && min.asText().endsWith("%") ? expectedFromControllers(pods) : pods.size();
            desired = scaled(min, expected);
        } else {
            expected = pods.size();
            desired = 0;
        }
        int allowed = Math.max(0, healthy - desired);
        ObjectNode status = MAPPER.createObjectNode();
        status.put("observedGeneration", pdb.path("metadata").path("generation").asLong(1));
        if (!disrupted.isEmpty()) {
            status.set("disruptedPods", disrupted);
        }
        status.put("disruptionsAllowed", allowed).put("currentHealthy", healthy).put("desiredHealthy", desired)
                .put("expectedPods", expected);
        ObjectNode cond = status.putArray("conditions").addObject();
        cond.put("type", "DisruptionAllowed").put("status", allowed > 0 ? "True" : "False")
                .put("reason", allowed > 0 ? "SufficientPods" : "InsufficientPods").put("message", "")
                .put("observedGeneration", pdb.path("metadata").path("generation").asLong(1));
        JsonNode oldCond = null;
        for (JsonNode c : pdb.path("status").path("conditions")) {
            if ("DisruptionAllowed".equals(c.path("type").asText())) {
                oldCond = c;
            }
        }
        cond.put("lastTransitionTime", oldCond != null && oldCond.path("status").asText().equals(cond.path("status").asText())
                ? oldCond.path("lastTransitionTime").asText(ApiServer.now()) : ApiServer.now());
        return status;
    }

    /**
     * The pods the pods' controllers want: the sum of {@code spec.replicas} of each distinct controller owner the server
     * stores (a pod whose owner is unknown counts for itself), as the disruption controller reads their scale.
     */
    private int expectedFromControllers(List<ObjectNode> pods) {
        Map<String, Integer> owners = new HashMap<>();
        int loose = 0;
        for (ObjectNode p : pods) {
            JsonNode ref = null;
            for (JsonNode r : p.path("metadata").path("ownerReferences")) {
                if (r.path("controller").asBoolean(false)) {
                    ref = r;
                }
            }
            Integer replicas = ref == null ? null : replicasOf(ref, p.path("metadata").path("namespace").asText());
            if (replicas == null) {
                loose++;
            } else {
                owners.put(ref.path("uid").asText(), replicas);
            }
        }
        return loose + owners.values().stream().mapToInt(Integer::intValue).sum();
    }

    private Integer replicasOf(JsonNode ref, String namespace) {
        return api.registry().byKind(ref.path("apiVersion").asText(), ref.path("kind").asText()).map(type -> {
            ObjectNode owner = api.store().get(type, type.namespaced() ? namespace : null, ref.path("name").asText());
            JsonNode replicas = owner == null ? null : owner.path("spec").get("replicas");
            return replicas != null && replicas.canConvertToInt() ? replicas.asInt() : null;
        }).orElse(null);
    }

    /** An int, or a percentage of {@code total} rounded up, as the disruption controller scales them. */
    static int scaled(JsonNode value, int total) {
        if (value.isTextual() && value.asText().endsWith("%")) {
            try {
                int pct = Integer.parseInt(value.asText().substring(0, value.asText().length() - 1));
                return (int) Math.ceil(pct * total / 100.0);
            } catch (NumberFormatException e) {
                return 0;
            }
        }
        return value.asInt(0);
    }

    static boolean ready(JsonNode pod) {
        for (JsonNode c : pod.path("status").path("conditions")) {
            if ("Ready".equals(c.path("type").asText())) {
                return "True".equals(c.path("status").asText());
            }
        }
        return false;
    }

    /** A selector kube-apiserver would refuse selects nothing. */
    private static boolean selects(LabelSelector selector, Map<String, String> labels) {
        try {
            return selector != null && LabelSelectors.matches(selector, labels);
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static LabelSelector selector(ObjectNode pdb) {
        JsonNode s = pdb.path("spec").get("selector");
        if (s == null || s.isNull()) {
            return null;
        }
        try {
            return MAPPER.treeToValue(s, LabelSelector.class);
        } catch (Exception e) {
            return null;
        }
    }

    private static Map<String, String> labels(JsonNode o) {
        Map<String, String> out = new HashMap<>();
        o.path("metadata").path("labels").fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }
}
