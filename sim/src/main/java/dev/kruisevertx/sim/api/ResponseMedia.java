package dev.kruisevertx.sim.api;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Which media type an answer is written in, from the request's Accept header, as kube-apiserver negotiates: the
 * clauses by descending q (ties in the client's order), the first one the server can write wins; no Accept or a
 * wildcard means JSON; nothing writable is 406. Protobuf only fits built-in kinds (the caller says whether the
 * answer is one), and a clause asking for another shape ({@code as=Table}, {@code as=PartialObjectMetadata}) is
 * never taken as protobuf: those shapes are served in JSON only.
 */
enum ResponseMedia {
    JSON("application/json"),
    YAML("application/yaml"),
    PROTOBUF(KubeProtobuf.MEDIA_TYPE);

    static final String ACCEPTED = "application/json, application/yaml, " + KubeProtobuf.MEDIA_TYPE;

    final String contentType;

    ResponseMedia(String contentType) {
        this.contentType = contentType;
    }

    private record Clause(String type, double q, boolean otherShape, int order) {
    }

    /**
     * @param protobufFits the answer is a built-in kind, a list of one or a Status
     * @throws ApiException 406 when no clause names a type the server writes
     */
    static ResponseMedia negotiate(String accept, boolean protobufFits) {
        if (accept == null || accept.isBlank()) {
            return JSON;
        }
        List<Clause> clauses = new ArrayList<>();
        String[] parts = accept.split(",");
        for (int i = 0; i < parts.length; i++) {
            Clause c = clause(parts[i], i);
            if (c != null && c.q() > 0) {
                clauses.add(c);
            }
        }
        clauses.sort(Comparator.comparingDouble(Clause::q).reversed().thenComparingInt(Clause::order));
        for (Clause c : clauses) {
            switch (c.type()) {
                case "application/json", "application/*", "*/*":
                    return JSON;
                case "application/yaml":
                    return YAML;
                case KubeProtobuf.MEDIA_TYPE:
                    if (protobufFits && !c.otherShape()) {
                        return PROTOBUF;
                    }
                    break;
                default:
                    break;
            }
        }
        throw new ApiException(406, "NotAcceptable", "only the following media types are accepted: " + ACCEPTED);
    }

    private static Clause clause(String text, int order) {
        String[] params = text.split(";");
        // ";" alone splits into nothing.
        String type = params.length == 0 ? "" : params[0].trim().toLowerCase(Locale.ROOT);
        if (type.isEmpty()) {
            return null;
        }
        double q = 1;
        boolean otherShape = false;
        for (int i = 1; i < params.length; i++) {
            String p = params[i].trim();
            int eq = p.indexOf('=');
            String key = eq < 0 ? p : p.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = eq < 0 ? "" : p.substring(eq + 1).trim();
            if (key.equals("q")) {
                try {
                    q = Double.parseDouble(value);
                } catch (NumberFormatException e) {
                    q = 0;
                }
            } else if (key.equals("as")) {
                otherShape = true;
            }
        }
        return new Clause(type, q, otherShape, order);
    }
}
