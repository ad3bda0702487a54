package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.WellKnown;

import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * Converts ContainerRecreateRequests between v1alpha1 (the hub, stored) and v1beta1 (served), as JSON trees so that
 * fields this model does not know pass through untouched. The spec is the same; two v1alpha1 annotations are
 * v1beta1 status fields:
 * <ul>
 *   <li>{@code crr.apps.kruise.io/sync-container-statuses} (a JSON list) is {@code status.containerStatusSnapshot};</li>
 *   <li>{@code crr.apps.kruise.io/unready-acquired} (an RFC 3339 time) is the {@code PreRecreateGrace} condition in
 *       {@code status.conditions} with master's reason and message.</li>
 * </ul>
 * Unlike OpenKruise (which keeps the annotations next to the fields on v1beta1, logs and drops what it cannot parse,
 * and drops every other condition going to v1alpha1), every value lives in one place so round trips change nothing:
 * an annotation is promoted only when its text is exactly what the conversion back writes (and the object has a
 * status to hold it), otherwise it stays an annotation; conditions that are not exactly one such PreRecreateGrace
 * condition are kept in the v1alpha1 annotation {@link #CONDITIONS_ANNOTATION} (and a PreRecreateGrace condition
 * with status True among them still writes the unready-acquired time, as OpenKruise does). Going to v1alpha1 a set
 * field replaces the annotation it stands for (the field wins).
 */
public final class ContainerRecreateRequestConversion {
    public static final String ALPHA = dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest.API_VERSION;
    public static final String BETA = ContainerRecreateRequest.API_VERSION;
    public static final String SYNC = WellKnown.CRR_SYNC_CONTAINER_STATUSES_ANNOTATION;
    public static final String UNREADY = "crr.apps.kruise.io/unready-acquired";
    /** The v1alpha1 annotation holding v1beta1 conditions that are not a single PreRecreateGrace, as compact JSON. */
    public static final String CONDITIONS_ANNOTATION = "crr.apps.kruise.io/v1beta1-conditions";
    static final String GRACE_MESSAGE = "Pod has been forced to not-ready for unreadyGracePeriodSeconds drain";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ISO_INSTANT;

    private ContainerRecreateRequestConversion() {
    }

    /** A v1alpha1 ContainerRecreateRequest as v1beta1; the input is not modified. */
    public static ObjectNode toV1beta1(JsonNode alpha) {
        ObjectNode out = copyOf(alpha, ALPHA);
        out.put("apiVersion", BETA);
        ObjectNode annotations = annotations(out);
        if (annotations == null || !(out.get("status") instanceof ObjectNode status)) {
            return out; // without a status object there is nowhere to put the fields: the annotations stay
        }
        ArrayNode snapshot = canonicalList(annotations.get(SYNC));
        if (snapshot != null && !status.has("containerStatusSnapshot")) {
            status.set("containerStatusSnapshot", snapshot);
            annotations.remove(SYNC);
        }
        if (!status.has("conditions")) {
            ArrayNode stashed = canonicalList(annotations.get(CONDITIONS_ANNOTATION));
            if (stashed != null && graceTime(stashed) == null) {
                status.set("conditions", stashed);
                annotations.remove(CONDITIONS_ANNOTATION);
                String derived = trueGraceTime(stashed);
                if (derived != null && derived.equals(annotations.path(UNREADY).asText(null))) {
                    annotations.remove(UNREADY); // written from the stashed condition: the condition holds it
                }
            } else {
                String time = canonicalTime(annotations.get(UNREADY));
                if (time != null) {
                    status.putArray("conditions").add(graceCondition(time));
                    annotations.remove(UNREADY);
                }
            }
        }
        if (annotations.isEmpty()) {
            ((ObjectNode) out.get("metadata")).remove("annotations");
        }
        return out;
    }

    /**
     * A v1beta1 ContainerRecreateRequest as v1alpha1; the input is not modified.
     *
     * @throws IllegalArgumentException for a status field v1alpha1 cannot hold (a snapshot or conditions not a list)
     */
    public static ObjectNode toV1alpha1(JsonNode beta) {
        ObjectNode out = copyOf(beta, BETA);
        out.put("apiVersion", ALPHA);
        if (!(out.get("status") instanceof ObjectNode status)) {
            return out;
        }
        JsonNode snapshot = status.remove("containerStatusSnapshot");
        JsonNode conditions = status.remove("conditions");
        if (snapshot != null && !snapshot.isNull()) {
            annotationsOrNew(out).put(SYNC, compact(listOfObjects(snapshot, "status.containerStatusSnapshot")));
        }
        if (conditions != null && !conditions.isNull()) {
            ArrayNode list = listOfObjects(conditions, "status.conditions");
            String time = graceTime(list);
            if (time != null) {
                annotationsOrNew(out).put(UNREADY, time);
            } else {
                // Everything is kept aside; a v1alpha1 reader still sees when the pod was made not-ready.
                annotationsOrNew(out).put(CONDITIONS_ANNOTATION, compact(list));
                String derived = trueGraceTime(list);
                if (derived != null) {
                    annotationsOrNew(out).put(UNREADY, derived);
                }
            }
        }
        return out;
    }

    /** The condition master writes for an unready-acquired time. */
    static ObjectNode graceCondition(String time) {
        ObjectNode c = JsonNodeFactory.instance.objectNode();
        c.put("type", ContainerRecreateRequest.PRE_RECREATE_GRACE);
        c.put("status", "True");
        c.put("lastTransitionTime", time);
        c.put("reason", ContainerRecreateRequest.PRE_RECREATE_GRACE);
        c.put("message", GRACE_MESSAGE);
        return c;
    }

    /** The time of a list that is exactly one canonical PreRecreateGrace condition, else null. */
    static String graceTime(ArrayNode conditions) {
        if (conditions.size() != 1) {
            return null;
        }
        String time = canonicalTime(conditions.get(0).get("lastTransitionTime"));
        return time != null && graceCondition(time).equals(conditions.get(0)) ? time : null;
    }

    /** The time of the first PreRecreateGrace condition with status True, when it is a canonical time, else null. */
    static String trueGraceTime(ArrayNode conditions) {
        for (JsonNode c : conditions) {
            if (ContainerRecreateRequest.PRE_RECREATE_GRACE.equals(c.path("type").asText(null))
                    && "True".equals(c.path("status").asText(null))) {
                return canonicalTime(c.get("lastTransitionTime"));
            }
        }
        return null;
    }

    /** An RFC 3339 time in seconds, UTC ("2024-06-01T10:00:00Z"), when the text is exactly that, else null. */
    static String canonicalTime(JsonNode text) {
        if (text == null || !text.isTextual()) {
            return null;
        }
        try {
            Instant t = Instant.parse(text.asText());
            String canonical = RFC3339.format(t.truncatedTo(ChronoUnit.SECONDS));
            return canonical.equals(text.asText()) ? canonical : null;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /** The list of objects an annotation holds when its text is exactly the compact JSON of it, else null. */
    static ArrayNode canonicalList(JsonNode annotation) {
        if (annotation == null || !annotation.isTextual()) {
            return null;
        }
        try {
            JsonNode parsed = JSON.readTree(annotation.asText());
            if (!(parsed instanceof ArrayNode list)) {
                return null;
            }
            for (JsonNode item : list) {
                if (!item.isObject()) {
                    return null;
                }
            }
            return annotation.asText().equals(compact(list)) ? list : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static ArrayNode listOfObjects(JsonNode node, String field) {
        if (!(node instanceof ArrayNode list)) {
            throw new IllegalArgumentException(field + ": Invalid value: " + shown(node) + ": must be a list");
        }
        for (int i = 0; i < list.size(); i++) {
            if (!list.get(i).isObject()) {
                throw new IllegalArgumentException(field + "[" + i + "]: Invalid value: " + shown(list.get(i))
                        + ": must be an object");
            }
        }
        return list;
    }

    private static String compact(JsonNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot be written: " + e.getMessage(), e);
        }
    }

    private static ObjectNode annotations(ObjectNode object) {
        return object.get("metadata") instanceof ObjectNode m && m.get("annotations") instanceof ObjectNode a ? a : null;
    }

    private static ObjectNode annotationsOrNew(ObjectNode object) {
        ObjectNode metadata = object.get("metadata") instanceof ObjectNode m ? m : object.putObject("metadata");
        return metadata.get("annotations") instanceof ObjectNode a ? a : metadata.putObject("annotations");
    }

    private static String shown(JsonNode v) {
        String s = v.toString();
        return s.length() > 64 ? s.substring(0, 64) + "..." : s;
    }

    private static ObjectNode copyOf(JsonNode object, String expected) {
        if (object == null || !object.isObject()) {
            throw new IllegalArgumentException("a ContainerRecreateRequest to convert must be a JSON object");
        }
        String apiVersion = object.path("apiVersion").asText("");
        if (!apiVersion.equals(expected)) {
            throw new IllegalArgumentException("expected a ContainerRecreateRequest of " + expected
                    + ", got apiVersion '" + apiVersion + "'");
        }
        return ((ObjectNode) object).deepCopy();
    }
}
