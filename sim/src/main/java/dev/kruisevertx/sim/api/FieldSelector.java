package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * A parsed {@code fieldSelector}: {@code path=value}, {@code path==value} and {@code path!=value} terms joined
 * by commas. Paths are dotted field paths ({@code spec.nodeName}, {@code metadata.name}, {@code status.phase}).
 */
public final class FieldSelector {
    private record Term(String path, String value, boolean negated) {
        boolean matches(JsonNode object) {
            JsonNode v = JsonPaths.at(object, path);
            String actual = JsonPaths.missing(v) ? "" : v.asText();
            return negated != actual.equals(value);
        }
    }

    private final List<Term> terms;

    private FieldSelector(List<Term> terms) {
        this.terms = terms;
    }

    public static FieldSelector parse(String text) {
        List<Term> terms = new ArrayList<>();
        if (text != null) {
            for (String raw : text.split(",")) {
                String p = raw.trim();
                if (p.isEmpty()) {
                    continue;
                }
                int ne = p.indexOf("!=");
                int eq = p.indexOf('=');
                if (ne > 0) {
                    terms.add(new Term(p.substring(0, ne).trim(), p.substring(ne + 2).trim(), true));
                } else if (eq > 0) {
                    int valueStart = p.startsWith("==", eq) ? eq + 2 : eq + 1;
                    terms.add(new Term(p.substring(0, eq).trim(), p.substring(valueStart).trim(), false));
                } else {
                    throw ApiException.badRequest("invalid field selector \"" + text + "\": \"" + p
                            + "\" is not of the form field=value or field!=value");
                }
            }
        }
        return new FieldSelector(List.copyOf(terms));
    }

    /** True when the selector has no term (it matches everything). */
    public boolean isEmpty() {
        return terms.isEmpty();
    }

    public boolean matches(JsonNode object) {
        for (Term t : terms) {
            if (!t.matches(object)) {
                return false;
            }
        }
        return true;
    }
}
