package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.Map;

/** A request the API server refuses, carried to the HTTP layer as a {@code Status} body with {@link #code()}. */
public final class ApiException extends RuntimeException {
    private final int code;
    private final String reason;
    private final String kind;
    private final String name;
    private final String group;
    /** {@code details.causes}: reason and message pairs. */
    private final java.util.List<Map.Entry<String, String>> causes = new java.util.ArrayList<>();

    public ApiException(int code, String reason, String message) {
        this(code, reason, message, null, null, null);
    }

    public ApiException(int code, String reason, String message, String group, String kind, String name) {
        super(message);
        this.code = code;
        this.reason = reason;
        this.group = group;
        this.kind = kind;
        this.name = name;
    }

    public static ApiException notFound(ResourceType type, String name) {
        return new ApiException(404, "NotFound", qualified(type) + " \"" + name + "\" not found",
                type.group(), type.plural(), name);
    }

    public static ApiException alreadyExists(ResourceType type, String name) {
        return new ApiException(409, "AlreadyExists", qualified(type) + " \"" + name + "\" already exists",
                type.group(), type.plural(), name);
    }

    public static ApiException conflict(ResourceType type, String name, String why) {
        return new ApiException(409, "Conflict", "Operation cannot be fulfilled on " + qualified(type) + " \"" + name
                + "\": " + why, type.group(), type.plural(), name);
    }

    public static ApiException badRequest(String message) {
        return new ApiException(400, "BadRequest", message);
    }

    public static ApiException invalid(ResourceType type, String name, String message) {
        return new ApiException(422, "Invalid", type.kind() + " \"" + name + "\" is invalid: " + message,
                type.group(), type.kind(), name);
    }

    private static String qualified(ResourceType type) {
        return type.group().isEmpty() ? type.plural() : type.plural() + "." + type.group();
    }

    /** Adds a {@code details.causes} entry (kube-apiserver explains a refused eviction this way). */
    public ApiException withCause(String causeReason, String causeMessage) {
        causes.add(Map.entry(causeReason, causeMessage));
        return this;
    }

    public int code() {
        return code;
    }

    public String reason() {
        return reason;
    }

    public ObjectNode toStatus() {
        ObjectNode status = JsonNodeFactory.instance.objectNode();
        status.put("kind", "Status").put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure").put("message", getMessage()).put("reason", reason);
        if (name != null || kind != null || !causes.isEmpty()) {
            ObjectNode details = status.putObject("details");
            if (!causes.isEmpty()) {
                com.fasterxml.jackson.databind.node.ArrayNode list = details.putArray("causes");
                causes.forEach(c -> list.addObject().put("reason", c.getKey()).put("message", c.getValue()));
            }
            if (name != null) {
                details.put("name", name);
            }
            if (group != null) {
                details.put("group", group);
            }
            if (kind != null) {
                details.put("kind", kind);
            }
        }
        status.put("code", code);
        return status;
    }
}
