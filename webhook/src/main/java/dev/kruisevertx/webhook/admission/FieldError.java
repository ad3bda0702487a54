package dev.kruisevertx.webhook.admission;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A validation error on one field, printed the way the Kubernetes API server prints them
 * ({@code spec.replicas: Invalid value: -1: must be greater than or equal to 0}) so messages look familiar.
 */
public record FieldError(Type type, String field, Object value, String detail) {
    /** Characters of a value a message repeats. */
    static final int MAX_SHOWN = 256;
    /** Errors an aggregate message lists. */
    static final int MAX_ERRORS = 50;

    public enum Type {
        REQUIRED("Required value"),
        INVALID("Invalid value"),
        FORBIDDEN("Forbidden"),
        NOT_SUPPORTED("Unsupported value"),
        DUPLICATE("Duplicate value"),
        NOT_FOUND("Not found"),
        TOO_LONG("Too long"),
        INTERNAL("Internal error");

        private final String text;

        Type(String text) {
            this.text = text;
        }
    }

    public static FieldError required(String field, String detail) {
        return new FieldError(Type.REQUIRED, field, null, detail);
    }

    public static FieldError invalid(String field, Object value, String detail) {
        return new FieldError(Type.INVALID, field, value, detail);
    }

    public static FieldError forbidden(String field, String detail) {
        return new FieldError(Type.FORBIDDEN, field, null, detail);
    }

    public static FieldError notSupported(String field, Object value, List<String> supported) {
        return new FieldError(Type.NOT_SUPPORTED, field, value, "supported values: "
                + supported.stream().map(s -> "\"" + s + "\"").collect(Collectors.joining(", ")));
    }

    public static FieldError notFound(String field, Object value) {
        return new FieldError(Type.NOT_FOUND, field, value, null);
    }

    /**
     * A string longer than {@code max}; like the API server, the value itself is not repeated.
     *
     * @param why what the limit comes from, or null
     */
    public static FieldError tooLong(String field, int max, String why) {
        return new FieldError(Type.TOO_LONG, field, null, "may not be more than " + max + " characters"
                + (why == null || why.isEmpty() ? "" : " (" + why + ")"));
    }

    /** Kubernetes' InternalError: the detail says what is wrong, the value is not repeated. */
    public static FieldError internal(String field, String detail) {
        return new FieldError(Type.INTERNAL, field, null, detail);
    }

    public static FieldError duplicate(String field, Object value) {
        return new FieldError(Type.DUPLICATE, field, value, null);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder(field).append(": ").append(type.text);
        if (type == Type.INVALID || type == Type.NOT_SUPPORTED || type == Type.DUPLICATE || type == Type.NOT_FOUND) {
            b.append(": ").append(render(value));
        }
        if (detail != null && !detail.isEmpty()) {
            b.append(": ").append(detail);
        }
        return b.toString();
    }

    private static String render(Object value) {
        if (value == null) {
            return "null";
        }
        String text = value instanceof String s ? s : String.valueOf(value);
        // A hostile value may be megabytes long: the message quotes its start and says how much is left out.
        if (text.length() > MAX_SHOWN) {
            text = text.substring(0, MAX_SHOWN) + "... (" + (text.length() - MAX_SHOWN) + " more characters)";
        }
        return value instanceof String ? "\"" + text + "\"" : text;
    }

    /** One error as is, several as {@code [e1, e2]}, like the API server's aggregate. */
    public static String aggregate(List<FieldError> errors) {
        if (errors.size() == 1) {
            return errors.get(0).toString();
        }
        // Bounded, so that an object with thousands of bad entries gets a readable answer of a sane size.
        List<String> shown = new ArrayList<>(errors.stream().limit(MAX_ERRORS).map(FieldError::toString).toList());
        if (errors.size() > MAX_ERRORS) {
            shown.add("and " + (errors.size() - MAX_ERRORS) + " more errors");
        }
        return "[" + String.join(", ", shown) + "]";
    }
}
