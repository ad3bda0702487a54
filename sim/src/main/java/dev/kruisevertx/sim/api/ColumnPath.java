package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The JSONPath of a CRD's {@code additionalPrinterColumns} entry, in the subset CRDs use: fields ({@code .a.b}, with
 * {@code \.} for a dot inside a key, or {@code ['a.b']}), indexes ({@code [0]}, {@code [-1]}) and wildcards
 * ({@code [*]}). Like kube-apiserver's table convertor, a column shows the first match
 * ({@code .spec.containers[*].image} is the first container's image). Filters and recursive descent are refused.
 */
final class ColumnPath {
    private sealed interface Step permits Field, Index, All {
    }

    private record Field(String name) implements Step {
    }

    private record Index(int index) implements Step {
    }

    private record All() implements Step {
    }

    private final List<Step> steps;

    private ColumnPath(List<Step> steps) {
        this.steps = steps;
    }

    /** @throws IllegalArgumentException naming what is not supported or malformed */
    static ColumnPath parse(String path) {
        String p = path.trim();
        if (p.startsWith("{") && p.endsWith("}")) {
            p = p.substring(1, p.length() - 1).trim();
        }
        List<Step> steps = new ArrayList<>();
        int i = 0;
        while (i < p.length()) {
            char c = p.charAt(i);
            if (c == '.') {
                if (i + 1 < p.length() && p.charAt(i + 1) == '.') {
                    throw new IllegalArgumentException("recursive descent (..) is not supported in " + path);
                }
                StringBuilder name = new StringBuilder();
                i++;
                while (i < p.length() && p.charAt(i) != '.' && p.charAt(i) != '[') {
                    if (p.charAt(i) == '\\' && i + 1 < p.length()) {
                        i++;
                    }
                    name.append(p.charAt(i));
                    i++;
                }
                if (!name.isEmpty()) {
                    steps.add(new Field(name.toString()));
                }
            } else if (c == '[') {
                int end = p.indexOf(']', i);
                if (end < 0) {
                    throw new IllegalArgumentException("unclosed [ in " + path);
                }
                steps.add(bracket(p.substring(i + 1, end).trim(), path));
                i = end + 1;
            } else {
                throw new IllegalArgumentException("unexpected '" + c + "' at " + i + " in " + path);
            }
        }
        return new ColumnPath(List.copyOf(steps));
    }

    private static Step bracket(String inner, String path) {
        if (inner.equals("*")) {
            return new All();
        }
        if ((inner.startsWith("'") && inner.endsWith("'") || inner.startsWith("\"") && inner.endsWith("\""))
                && inner.length() >= 2) {
            return new Field(inner.substring(1, inner.length() - 1));
        }
        try {
            return new Index(Integer.parseInt(inner));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("[" + inner + "] is not supported in " + path
                    + " (fields, [n] and [*] are)", e);
        }
    }

    /** The first value the path reaches in {@code object}; MissingNode when none (a null value counts as none). */
    JsonNode first(JsonNode object) {
        return first(object, 0);
    }

    private JsonNode first(JsonNode node, int step) {
        if (node == null || node.isMissingNode() || node.isNull()) {
            return MissingNode.getInstance();
        }
        if (step == steps.size()) {
            return node;
        }
        Step s = steps.get(step);
        if (s instanceof Field f) {
            return node.isObject() ? first(node.get(f.name()), step + 1) : MissingNode.getInstance();
        }
        if (s instanceof Index x) {
            if (!node.isArray()) {
                return MissingNode.getInstance();
            }
            int at = x.index() < 0 ? node.size() + x.index() : x.index();
            return at < 0 || at >= node.size() ? MissingNode.getInstance() : first(node.get(at), step + 1);
        }
        if (node.isArray() || node.isObject()) {
            for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
                JsonNode found = first(it.next(), step + 1);
                if (!found.isMissingNode()) {
                    return found;
                }
            }
        }
        return MissingNode.getInstance();
    }
}
