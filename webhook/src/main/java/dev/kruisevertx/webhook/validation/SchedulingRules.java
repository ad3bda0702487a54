package dev.kruisevertx.webhook.validation;

import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirement;
import io.fabric8.kubernetes.api.model.NodeSelectorTerm;
import io.fabric8.kubernetes.api.model.Toleration;

import java.util.List;

/**
 * Kubernetes' rules for a node selector term and for tolerations, with its messages: what the API server would
 * refuse in a pod, refused before any pod is made from it.
 */
public final class SchedulingRules {
    static final List<String> TOLERATION_OPERATORS = List.of("Equal", "Exists");
    static final List<String> TAINT_EFFECTS = List.of("NoSchedule", "PreferNoSchedule", "NoExecute");
    /** The only field a node field selector may name. */
    static final String NODE_NAME_FIELD = "metadata.name";

    private SchedulingRules() {
    }

    /** A node selector term, as Kubernetes' ValidateNodeSelectorTerm (an empty term is allowed). */
    public static void checkNodeSelectorTerm(NodeSelectorTerm term, String path, List<FieldError> errors) {
        if (term == null) {
            return;
        }
        List<NodeSelectorRequirement> expressions = term.getMatchExpressions();
        for (int i = 0; expressions != null && i < expressions.size(); i++) {
            checkRequirement(expressions.get(i), path + ".matchExpressions[" + i + "]", errors);
        }
        List<NodeSelectorRequirement> fields = term.getMatchFields();
        for (int i = 0; fields != null && i < fields.size(); i++) {
            checkFieldRequirement(fields.get(i), path + ".matchFields[" + i + "]", errors);
        }
    }

    private static void checkRequirement(NodeSelectorRequirement rq, String path, List<FieldError> errors) {
        int values = rq.getValues() == null ? 0 : rq.getValues().size();
        String op = rq.getOperator() == null ? "" : rq.getOperator();
        switch (op) {
            case "In", "NotIn" -> {
                if (values == 0) {
                    errors.add(FieldError.required(path + ".values",
                            "must be specified when `operator` is 'In' or 'NotIn'"));
                }
            }
            case "Exists", "DoesNotExist" -> {
                if (values > 0) {
                    errors.add(FieldError.forbidden(path + ".values",
                            "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
                }
            }
            case "Gt", "Lt" -> {
                if (values != 1) {
                    errors.add(FieldError.required(path + ".values",
                            "must be specified single value when `operator` is 'Lt' or 'Gt'"));
                }
            }
            default -> errors.add(FieldError.invalid(path + ".operator", op, "not a valid selector operator"));
        }
        checkKey(rq.getKey(), path + ".key", errors);
    }

    private static void checkFieldRequirement(NodeSelectorRequirement rq, String path, List<FieldError> errors) {
        String op = rq.getOperator() == null ? "" : rq.getOperator();
        if ("In".equals(op) || "NotIn".equals(op)) {
            if (rq.getValues() == null || rq.getValues().size() != 1) {
                errors.add(FieldError.required(path + ".values",
                        "must be only one value when `operator` is 'In' or 'NotIn' for node field selector"));
            }
        } else {
            errors.add(FieldError.invalid(path + ".operator", op, "not a valid selector operator"));
        }
        if (!NODE_NAME_FIELD.equals(rq.getKey())) {
            errors.add(FieldError.invalid(path + ".key", rq.getKey() == null ? "" : rq.getKey(),
                    "not a valid field selector key"));
        }
    }

    /** Tolerations, as Kubernetes' ValidateTolerations. */
    public static void checkTolerations(List<Toleration> tolerations, String path, List<FieldError> errors) {
        for (int i = 0; tolerations != null && i < tolerations.size(); i++) {
            Toleration t = tolerations.get(i);
            String p = path + "[" + i + "]";
            String key = t.getKey() == null ? "" : t.getKey();
            String op = t.getOperator() == null ? "" : t.getOperator();
            String value = t.getValue() == null ? "" : t.getValue();
            String effect = t.getEffect() == null ? "" : t.getEffect();
            if (!key.isEmpty()) {
                checkKey(key, p + ".key", errors);
            }
            if (key.isEmpty() && !"Exists".equals(op)) {
                errors.add(FieldError.invalid(p + ".operator", op, "operator must be Exists when `key` is empty, "
                        + "which means \"match all values and all keys\""));
            }
            if (t.getTolerationSeconds() != null && !"NoExecute".equals(effect)) {
                errors.add(FieldError.invalid(p + ".effect", effect,
                        "effect must be 'NoExecute' when `tolerationSeconds` is set"));
            }
            switch (op) {
                case "Equal", "" -> {
                    String problem = LabelRules.valueProblem(value);
                    if (problem != null) {
                        errors.add(FieldError.invalid(p + ".operator", value, problem));
                    }
                }
                case "Exists" -> {
                    if (!value.isEmpty()) {
                        errors.add(FieldError.invalid(p + ".operator", value,
                                "value must be empty when `operator` is 'Exists'"));
                    }
                }
                default -> errors.add(FieldError.notSupported(p + ".operator", op, TOLERATION_OPERATORS));
            }
            if (!effect.isEmpty() && !TAINT_EFFECTS.contains(effect)) {
                errors.add(FieldError.notSupported(p + ".effect", effect, TAINT_EFFECTS));
            }
        }
    }

    private static void checkKey(String key, String path, List<FieldError> errors) {
        String problem = LabelRules.keyProblem(key == null ? "" : key);
        if (problem != null) {
            errors.add(FieldError.invalid(path, key == null ? "" : key, problem));
        }
    }
}
