package dev.kruisevertx.webhook.cloneset;

import dev.kruisevertx.webhook.admission.FieldError;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/** Kubernetes label and selector syntax, and selector matching. */
public final class LabelRules {
    private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    private static final Pattern DNS_SUBDOMAIN = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    private static final Set<String> OPERATORS = Set.of("In", "NotIn", "Exists", "DoesNotExist");

    private LabelRules() {
    }

    public static boolean isDnsSubdomain(String s) {
        return s != null && !s.isEmpty() && s.length() <= 253 && DNS_SUBDOMAIN.matcher(s).matches();
    }

    public static boolean isDnsLabel(String s) {
        return s != null && !s.isEmpty() && s.length() <= 63 && DNS_LABEL.matcher(s).matches();
    }

    /** Label keys: optional DNS-subdomain prefix and '/', then a name of at most 63 characters. */
    public static String keyProblem(String key) {
        if (key == null || key.isEmpty()) {
            return "name part must be non-empty";
        }
        String name = key;
        int slash = key.indexOf('/');
        if (slash >= 0) {
            String prefix = key.substring(0, slash);
            name = key.substring(slash + 1);
            if (!isDnsSubdomain(prefix)) {
                return "prefix part must be a lowercase RFC 1123 subdomain";
            }
        }
        if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
            return "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with "
                    + "an alphanumeric character (at most 63 characters)";
        }
        return null;
    }

    public static String valueProblem(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        if (value.length() > 63 || !NAME.matcher(value).matches()) {
            return "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
                    + "and must start and end with an alphanumeric character (at most 63 characters)";
        }
        return null;
    }

    /** Checks the keys and values of a label map, such as a pod template's labels. */
    public static void validateLabels(Map<String, String> labels, String path, List<FieldError> errors) {
        if (labels == null) {
            return;
        }
        labels.forEach((k, v) -> {
            String kp = keyProblem(k);
            if (kp != null) {
                errors.add(FieldError.invalid(path, k, kp));
            }
            String vp = valueProblem(v);
            if (vp != null) {
                errors.add(FieldError.invalid(path, v, vp));
            }
        });
    }

    public static void validateSelector(LabelSelector selector, String path, List<FieldError> errors) {
        if (selector.getMatchLabels() != null) {
            selector.getMatchLabels().forEach((k, v) -> {
                String kp = keyProblem(k);
                if (kp != null) {
                    errors.add(FieldError.invalid(path + ".matchLabels", k, kp));
                }
                String vp = valueProblem(v);
                if (vp != null) {
                    errors.add(FieldError.invalid(path + ".matchLabels", v, vp));
                }
            });
        }
        List<LabelSelectorRequirement> exprs = selector.getMatchExpressions();
        if (exprs != null) {
            for (int i = 0; i < exprs.size(); i++) {
                LabelSelectorRequirement r = exprs.get(i);
                String p = path + ".matchExpressions[" + i + "]";
                if (r.getOperator() == null || !OPERATORS.contains(r.getOperator())) {
                    errors.add(FieldError.invalid(p + ".operator", r.getOperator(), "not a valid selector operator"));
                    continue;
                }
                boolean hasValues = r.getValues() != null && !r.getValues().isEmpty();
                if ((r.getOperator().equals("In") || r.getOperator().equals("NotIn")) && !hasValues) {
                    errors.add(FieldError.required(p + ".values", "must be specified when `operator` is 'In' or 'NotIn'"));
                }
                if ((r.getOperator().equals("Exists") || r.getOperator().equals("DoesNotExist")) && hasValues) {
                    errors.add(FieldError.forbidden(p + ".values", "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
                }
                String kp = keyProblem(r.getKey());
                if (kp != null) {
                    errors.add(FieldError.invalid(p + ".key", r.getKey(), kp));
                }
            }
        }
    }

    /** Whether a (valid) selector selects a set of labels; an empty selector selects everything. */
    public static boolean matches(LabelSelector selector, Map<String, String> labels) {
        Map<String, String> l = labels == null ? Map.of() : labels;
        if (selector.getMatchLabels() != null) {
            for (Map.Entry<String, String> e : selector.getMatchLabels().entrySet()) {
                // A JSON null reads as the empty value, as in Go.
                if (!Objects.requireNonNullElse(e.getValue(), "").equals(l.get(e.getKey()))) {
                    return false;
                }
            }
        }
        if (selector.getMatchExpressions() != null) {
            for (LabelSelectorRequirement r : selector.getMatchExpressions()) {
                String v = l.get(r.getKey());
                List<String> values = r.getValues() == null ? List.of() : r.getValues();
                boolean ok = switch (r.getOperator()) {
                    case "In" -> v != null && values.contains(v);
                    case "NotIn" -> v == null || !values.contains(v);
                    case "Exists" -> l.containsKey(r.getKey());
                    case "DoesNotExist" -> !l.containsKey(r.getKey());
                    default -> false;
                };
                if (!ok) {
                    return false;
                }
            }
        }
        return true;
    }

    public static boolean isEmpty(LabelSelector selector) {
        return (selector.getMatchLabels() == null || selector.getMatchLabels().isEmpty())
                && (selector.getMatchExpressions() == null || selector.getMatchExpressions().isEmpty());
    }
}
