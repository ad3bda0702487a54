package dev.kruisevertx.webhook.validation;

import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.PreferredSchedulingTerm;
import io.fabric8.kubernetes.api.model.Toleration;

import java.util.List;

/**
 * Kubernetes' checks of node selector terms, preferred scheduling terms and tolerations (core validation of
 * Kubernetes 1.32, the version OpenKruise v1.9.0 builds against), with its field paths and messages, for webhooks
 * that accept these fields outside a pod (WorkloadSpread subsets).
 */
public final class NodeSchedulingRules {
    private NodeSchedulingRules() {
    }

    /**
     * @param allowInvalidLabelValue false checks the values of In/NotIn expressions as label values (required node
     *                               affinity); true leaves them alone (preferred terms)
     */
    public static void validateNodeSelectorTerm(NodeSelectorTerm term, boolean allowInvalidLabelValue, String path,
                                                List<FieldError> errors) {
        List<NodeSelectorRequirement> expressions = term.getMatchExpressions();
        if (expressions != null) {
            for (int j = 0; j < expressions.size(); j++) {
                validateRequirement(expressions.get(j), allowInvalidLabelValue,
                        path + ".matchExpressions[" + j + "]", errors);
            }
        }
        List<NodeSelectorRequirement> fields = term.getMatchFields();
        if (fields != null) {
            for (int j = 0; j < fields.size(); j++) {
                validateFieldRequirement(fields.get(j), path + ".matchFields[" + j + "]", errors);
            }
        }
    }

    static void validateRequirement(NodeSelectorRequirement rq, boolean allowInvalidLabelValue, String path,
                                    List<FieldError> errors) {
        List<String> values = rq.getValues() == null ? List.of() : rq.getValues();
        String op = rq.getOperator() == null ? "" : rq.getOperator();
        switch (op) {
            case "In", "NotIn" -> {
                if (values.isEmpty()) {
                    errors.add(FieldError.required(path + ".values",
                            "must be specified when `operator` is 'In' or 'NotIn'"));
                }
            }
            case "Exists", "DoesNotExist" -> {
                if (!values.isEmpty()) {
                    errors.add(FieldError.forbidden(path + ".values",
                            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
                }
            }
            case "Gt", "Lt" -> {
                if (values.size() != 1) {
                    errors.add(FieldError.required(path + ".values",
                            "must be specified single value when `operator` is 'Lt' or 'Gt'"));
                }
            }
            default -> errors.add(FieldError.invalid(path + ".operator", op, "not a valid selector operator"));
        }
        if (!allowInvalidLabelValue) {
            for (int i = 0; i < values.size(); i++) {
                String problem = LabelRules.valueProblem(values.get(i));
                if (problem != null) {
                    errors.add(FieldError.invalid(path + ".values[" + i + "]", values.get(i), problem));
                }
            }
        }
        String keyProblem = LabelRules.keyProblem(rq.getKey());
        if (keyProblem != null) {
            errors.add(FieldError.invalid(path + ".key", rq.getKey() == null ? "" : rq.getKey(), keyProblem));
        }
    }

    static void validateFieldRequirement(NodeSelectorRequirement rq, String path, List<FieldError> errors) {
        List<String> values = rq.getValues() == null ? List.of() : rq.getValues();
        String op = rq.getOperator() == null ? "" : rq.getOperator();
        if (op.equals("In") || op.equals("NotIn")) {
            if (values.size() != 1) {
                errors.add(FieldError.required(path + ".values",
                        "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
            }
        } else {
            errors.add(FieldError.invalid(path + ".operator", op, "not a valid selector operator"));
        }
        if (!"metadata.name".equals(rq.getKey())) {
            errors.add(FieldError.invalid(path + ".key", rq.getKey() == null ? "" : rq.getKey(),
                    "not a valid field selector key"));
            return;
        }
        for (int i = 0; i < values.size(); i++) {
            if (!LabelRules.isDnsSubdomain(values.get(i))) {
                errors.add(FieldError.invalid(path + ".values[" + i + "]", values.get(i),
                        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
                                + "'.', and must start and end with an alphanumeric character"));
            }
        }
    }

    /** Weights in 1-100; preferences checked without the label-value rule. */
    public static void validatePreferredSchedulingTerms(List<PreferredSchedulingTerm> terms, String path,
                                                        List<FieldError> errors) {
        for (int i = 0; i < terms.size(); i++) {
            PreferredSchedulingTerm term = terms.get(i);
            int weight = term.getWeight() == null ? 0 : term.getWeight();
            if (weight <= 0 || weight > 100) {
                errors.add(FieldError.invalid(path + "[" + i + "].weight", weight, "must be in the range 1-100"));
            }
            if (term.getPreference() != null) {
                validateNodeSelectorTerm(term.getPreference(), true, path + "[" + i + "].preference", errors);
            }
        }
    }

    /** Keys are label names; an empty key needs Exists; tolerationSeconds needs NoExecute; known operators and effects. */
    public static void validateTolerations(List<Toleration> tolerations, String path, List<FieldError> errors) {
        for (int i = 0; i < tolerations.size(); i++) {
            Toleration t = tolerations.get(i);
            String at = path + "[" + i + "]";
            String key = t.getKey() == null ? "" : t.getKey();
            String op = t.getOperator() == null ? "" : t.getOperator();
            String effect = t.getEffect() == null ? "" : t.getEffect();
            String value = t.getValue() == null ? "" : t.getValue();
            if (!key.isEmpty()) {
                String problem = LabelRules.keyProblem(key);
                if (problem != null) {
                    errors.add(FieldError.invalid(at + ".key", key, problem));
                }
            }
            if (key.isEmpty() && !op.equals("Exists")) {
                errors.add(FieldError.invalid(at + ".operator", op,
                        "operator must be Exists when `key` is empty, which means \"match all values and all keys\""));
            }
            if (t.getTolerationSeconds() != null && !effect.equals("NoExecute")) {
                errors.add(FieldError.invalid(at + ".effect", effect,
                        "effect must be 'NoExecute' when `tolerationSeconds` is set"));
            }
            switch (op) {
                case "Equal", "" -> {
                    String problem = LabelRules.valueProblem(value);
                    if (problem != null) {
                        errors.add(FieldError.invalid(at + ".operator", value, problem));
                    }
                }
                case "Exists" -> {
                    if (!value.isEmpty()) {
                        errors.add(FieldError.invalid(at + ".operator", "{key:" + key + ", operator:" + op
                                + ", value:" + value + "}", "value must be empty when `operator` is 'Exists'"));
                    }
                }
                default -> errors.add(FieldError.notSupported(at + ".operator", op, List.of("Equal", "Exists")));
            }
            if (!effect.isEmpty() && !List.of("NoSchedule", "PreferNoSchedule", "NoExecute").contains(effect)) {
                errors.add(FieldError.notSupported(at + ".effect", effect,
                        List.of("NoSchedule", "PreferNoSchedule", "NoExecute")));
            }
        }
    }
}
