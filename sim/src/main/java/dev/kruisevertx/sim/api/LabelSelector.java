package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A parsed {@code labelSelector} query parameter: equality ({@code =}, {@code ==}, {@code !=}) and set-based
 * ({@code in}, {@code notin}, {@code key}, {@code !key}) requirements, all of which must hold.
 */
public final class LabelSelector {
    private record Requirement(String key, String op, Set<String> values) {
        boolean matches(JsonNode labels) {
            JsonNode v = labels.get(key);
            boolean has = v != null && !v.isNull();
            String value = has ? v.asText() : null;
            return switch (op) {
                case "exists" -> has;
                case "!" -> !has;
                case "=", "in" -> has && values.contains(value);
                case "!=", "notin" -> !has || !values.contains(value);
                default -> false;
            };
        }
    }

    private static final LabelSelector EVERYTHING = new LabelSelector(List.of());
    private final List<Requirement> requirements;

    private LabelSelector(List<Requirement> requirements) {
        this.requirements = requirements;
    }

    public static LabelSelector everything() {
        return EVERYTHING;
    }

    public boolean isEmpty() {
        return requirements.isEmpty();
    }

    public boolean matches(JsonNode object) {
        JsonNode labels = object.path("metadata").path("labels");
        for (Requirement r : requirements) {
            if (!r.matches(labels)) {
                return false;
            }
        }
        return true;
    }

    /** Parses the query form; throws ApiException 400 with the offending part on bad syntax. */
    public static LabelSelector parse(String text) {
        if (text == null || text.isBlank()) {
            return EVERYTHING;
        }
        List<Requirement> out = new ArrayList<>();
        for (String part : splitTopLevel(text)) {
            String p = part.trim();
            if (p.isEmpty()) {
                continue;
            }
            out.add(requirement(p, text));
        }
        return new LabelSelector(List.copyOf(out));
    }

    private static Requirement requirement(String p, String whole) {
        int paren = p.indexOf('(');
        if (paren > 0) {
            if (!p.endsWith(")")) {
                throw bad(whole, "unterminated value set in \"" + p + "\"");
            }
            String[] head = p.substring(0, paren).trim().split("\\s+");
            if (head.length != 2 || !(head[1].equals("in") || head[1].equals("notin"))) {
                throw bad(whole, "expected \"key in (...)\" or \"key notin (...)\" in \"" + p + "\"");
            }
            Set<String> values = new java.util.HashSet<>();
            for (String v : p.substring(paren + 1, p.length() - 1).split(",")) {
                if (!v.isBlank()) {
                    values.add(v.trim());
                }
            }
            return new Requirement(checkKey(head[0], whole), head[1], values);
        }
        int ne = p.indexOf("!=");
        if (ne > 0) {
            return new Requirement(checkKey(p.substring(0, ne).trim(), whole), "!=", Set.of(p.substring(ne + 2).trim()));
        }
        int eq = p.indexOf('=');
        if (eq > 0) {
            int valueStart = p.startsWith("==", eq) ? eq + 2 : eq + 1;
            return new Requirement(checkKey(p.substring(0, eq).trim(), whole), "=", Set.of(p.substring(valueStart).trim()));
        }
        if (p.startsWith("!")) {
            return new Requirement(checkKey(p.substring(1).trim(), whole), "!", Set.of());
        }
        return new Requirement(checkKey(p, whole), "exists", Set.of());
    }

    private static String checkKey(String key, String whole) {
        if (key.isEmpty() || key.contains(" ") || key.contains("(") || key.contains(")")) {
            throw bad(whole, "invalid label key \"" + key + "\"");
        }
        return key;
    }

    private static ApiException bad(String whole, String why) {
        return ApiException.badRequest("unable to parse requirement: " + why + " (labelSelector \"" + whole + "\")");
    }

    static List<String> splitTopLevel(String text) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '(') {
                depth++;
            } else if (c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(text.substring(start, i));
                start = i + 1;
            }
        }
        parts.add(text.substring(start));
        return parts;
    }
}
