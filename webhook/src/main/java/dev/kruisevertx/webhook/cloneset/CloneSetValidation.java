package dev.kruisevertx.webhook.cloneset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetScaleStrategy;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategyType;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.api.common.UpdatePriorityOrderTerm;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.api.common.UpdatePriorityWeightTerm;
import dev.kruisevertx.api.common.UpdateScatterTerm;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * CloneSet v1alpha1 validation with OpenKruise's rules and messages. Pure apart from the pod lookup used
 * for podsToDelete; the controller may reuse it.
 */
public final class CloneSetValidation {
    private static final List<String> TYPES = List.of(CloneSetUpdateStrategyType.RECREATE.value(),
            CloneSetUpdateStrategyType.IN_PLACE_IF_POSSIBLE.value(), CloneSetUpdateStrategyType.IN_PLACE_ONLY.value());
    private static final Pattern IN_PLACE_ONLY_PATCH = Pattern.compile("^/containers/([0-9]+)/image$");
    static final String UPDATABLE_FIELDS_MESSAGE = "updates to cloneset spec for fields other than 'replicas', "
            + "'template', 'lifecycle', 'scaleStrategy', 'updateStrategy', 'minReadySeconds', "
            + "'progressDeadlineSeconds', 'volumeClaimTemplates' and 'revisionHistoryLimit' are forbidden";

    private CloneSetValidation() {
    }

    /** Errors for a new CloneSet (CREATE). */
    public static List<FieldError> validateCreate(CloneSet cloneSet, PodLookup pods) {
        return validate(cloneSet, null, pods);
    }

    /** Errors for an UPDATE: the update rules, then every create rule on the new object. */
    public static List<FieldError> validateUpdate(CloneSet cloneSet, CloneSet old, PodLookup pods) {
        List<FieldError> errors = new ArrayList<>();
        CloneSetSpec spec = cloneSet.getSpec();
        CloneSetSpec oldSpec = old.getSpec();
        if (spec != null && oldSpec != null) {
            ObjectNode now = Json.toTree(spec);
            ObjectNode before = Json.toTree(oldSpec);
            for (String updatable : List.of("replicas", "template", "scaleStrategy", "updateStrategy", "minReadySeconds",
                    "lifecycle", "revisionHistoryLimit", "volumeClaimTemplates", "progressDeadlineSeconds")) {
                now.remove(updatable);
                before.remove(updatable);
            }
            if (!now.equals(before)) {
                errors.add(FieldError.forbidden("spec", UPDATABLE_FIELDS_MESSAGE));
            }
            inPlaceOnlyTemplateChange(spec, oldSpec).ifPresent(errors::add);
        }
        errors.addAll(validate(cloneSet, old, pods));
        return errors;
    }

    /** With InPlaceOnly, only container images of the template may change. */
    static Optional<FieldError> inPlaceOnlyTemplateChange(CloneSetSpec spec, CloneSetSpec oldSpec) {
        CloneSetUpdateStrategy u = spec.getUpdateStrategy();
        if (u == null || !CloneSetUpdateStrategyType.IN_PLACE_ONLY.value().equals(u.getType())) {
            return Optional.empty();
        }
        JsonNode before = templateSpec(oldSpec);
        JsonNode after = templateSpec(spec);
        for (JsonNode op : ObjectMutation.diff(before, after)) {
            String operation = op.path("op").asText();
            String path = op.path("path").asText();
            if (!"replace".equals(operation) || !IN_PLACE_ONLY_PATCH.matcher(path).matches()) {
                return Optional.of(FieldError.forbidden("spec", "only allowed to update images in spec for "
                        + CloneSetUpdateStrategyType.IN_PLACE_ONLY.value() + ", but found " + operation + " " + path));
            }
        }
        return Optional.empty();
    }

    private static JsonNode templateSpec(CloneSetSpec spec) {
        if (spec.getTemplate() == null || spec.getTemplate().getSpec() == null) {
            return Json.MAPPER.createObjectNode();
        }
        return Json.toTree(spec.getTemplate().getSpec());
    }

    static List<FieldError> validate(CloneSet cloneSet, CloneSet old, PodLookup pods) {
        List<FieldError> errors = new ArrayList<>();
        String name = cloneSet.getMetadata() == null ? null : cloneSet.getMetadata().getName();
        String generateName = cloneSet.getMetadata() == null ? null : cloneSet.getMetadata().getGenerateName();
        if ((name == null || name.isEmpty()) && (generateName == null || generateName.isEmpty())) {
            errors.add(FieldError.required("metadata.name", "name or generateName is required"));
        } else if (name != null && !name.isEmpty() && !LabelRules.isDnsSubdomain(name)) {
            errors.add(FieldError.invalid("metadata.name", name, "a lowercase RFC 1123 subdomain must consist of "
                    + "lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character"));
        }
        validatePreDownloadAnnotations(cloneSet, errors);
        CloneSetSpec spec = cloneSet.getSpec();
        if (spec == null) {
            errors.add(FieldError.required("spec", ""));
            return errors;
        }
        int replicas = spec.getReplicas() == null ? CloneSetDefaults.DEFAULT_REPLICAS : spec.getReplicas();
        if (replicas < 0) {
            errors.add(FieldError.invalid("spec.replicas", replicas, "must be greater than or equal to 0"));
        }
        boolean selectorUsable = false;
        if (spec.getSelector() == null) {
            errors.add(FieldError.required("spec.selector", ""));
        } else {
            int before = errors.size();
            LabelRules.validateSelector(spec.getSelector(), "spec.selector", errors);
            selectorUsable = errors.size() == before;
            if (LabelRules.isEmpty(spec.getSelector())) {
                errors.add(FieldError.invalid("spec.selector", Json.toTree(spec.getSelector()).toString(),
                        "empty selector is invalid for cloneset"));
                selectorUsable = false;
            }
        }
        Map<String, String> templateLabels = spec.getTemplate() == null || spec.getTemplate().getMetadata() == null
                ? Map.of() : spec.getTemplate().getMetadata().getLabels();
        if (selectorUsable && !LabelRules.matches(spec.getSelector(), templateLabels)) {
            errors.add(FieldError.invalid("spec.template.metadata.labels", String.valueOf(templateLabels),
                    "`selector` does not match template `labels`"));
        }
        validateTemplate(spec, errors);
        validateProgressDeadline(spec, errors);
        validateScaleStrategy(cloneSet, old, pods, errors);
        validateUpdateStrategy(spec.getUpdateStrategy(), replicas, errors);
        return errors;
    }

    private static void validatePreDownloadAnnotations(CloneSet cloneSet, List<FieldError> errors) {
        Map<String, String> annotations = cloneSet.getMetadata() == null ? null : cloneSet.getMetadata().getAnnotations();
        if (annotations == null) {
            return;
        }
        for (String key : List.of(WellKnown.IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION,
                WellKnown.IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS_ANNOTATION,
                WellKnown.IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION)) {
            String value = annotations.get(key);
            if (value == null) {
                continue;
            }
            boolean ok;
            try {
                ok = Integer.parseInt(value.trim()) >= 0;
            } catch (NumberFormatException e) {
                ok = false;
            }
            if (!ok) {
                errors.add(FieldError.invalid("metadata.annotations[" + key + "]", value, "must be a non-negative integer"));
            }
        }
    }

    private static void validateProgressDeadline(CloneSetSpec spec, List<FieldError> errors) {
        Map<String, Object> extra = spec.getAdditionalProperties();
        Object raw = extra == null ? null : extra.get("progressDeadlineSeconds");
        if (raw == null) {
            return;
        }
        if (!(raw instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            errors.add(FieldError.invalid("spec.progressDeadlineSeconds", String.valueOf(raw), "must be an integer"));
            return;
        }
        long seconds = n.longValue();
        if (seconds < 0) {
            errors.add(FieldError.invalid("spec.progressDeadlineSeconds", seconds, "must be greater than or equal to 0"));
        }
        if (seconds <= spec.getMinReadySeconds()) {
            errors.add(FieldError.invalid("spec.progressDeadlineSeconds", seconds, "must be greater than minReadySeconds"));
        }
    }

    private static void validateTemplate(CloneSetSpec spec, List<FieldError> errors) {
        if (spec.getTemplate() == null || spec.getTemplate().getSpec() == null) {
            errors.add(FieldError.required("spec.template.spec", ""));
            return;
        }
        Map<String, String> labels = spec.getTemplate().getMetadata() == null ? null : spec.getTemplate().getMetadata().getLabels();
        if (labels != null) {
            labels.forEach((k, v) -> {
                String kp = LabelRules.keyProblem(k);
                if (kp != null) {
                    errors.add(FieldError.invalid("spec.template.metadata.labels", k, kp));
                }
                String vp = LabelRules.valueProblem(v);
                if (vp != null) {
                    errors.add(FieldError.invalid("spec.template.metadata.labels", v, vp));
                }
            });
        }
        PodSpec pod = spec.getTemplate().getSpec();
        Set<String> volumes = new HashSet<>();
        List<Volume> declared = pod.getVolumes() == null ? List.of() : pod.getVolumes();
        for (int i = 0; i < declared.size(); i++) {
            String n = declared.get(i).getName();
            String p = "spec.template.spec.volumes[" + i + "].name";
            if (n == null || n.isEmpty()) {
                errors.add(FieldError.required(p, ""));
            } else if (!LabelRules.isDnsLabel(n)) {
                errors.add(FieldError.invalid(p, n, "a lowercase RFC 1123 label must consist of lower case alphanumeric "
                        + "characters or '-', and must start and end with an alphanumeric character"));
            } else if (!volumes.add(n)) {
                errors.add(FieldError.duplicate(p, n));
            }
        }
        // Each volumeClaimTemplate becomes a PVC volume of the pods, so mounts may refer to it.
        if (spec.getVolumeClaimTemplates() != null) {
            for (PersistentVolumeClaim pvc : spec.getVolumeClaimTemplates()) {
                if (pvc.getMetadata() != null && pvc.getMetadata().getName() != null
                        && !volumes.add(pvc.getMetadata().getName())) {
                    errors.add(FieldError.duplicate("spec.template.spec.volumes", pvc.getMetadata().getName()));
                }
            }
        }
        if (pod.getContainers() == null || pod.getContainers().isEmpty()) {
            errors.add(FieldError.required("spec.template.spec.containers", ""));
        }
        Set<String> names = new HashSet<>();
        validateContainers(pod.getInitContainers(), "spec.template.spec.initContainers", names, volumes, errors);
        validateContainers(pod.getContainers(), "spec.template.spec.containers", names, volumes, errors);
        String restart = pod.getRestartPolicy();
        if (restart != null && !restart.isEmpty() && !"Always".equals(restart)) {
            errors.add(FieldError.notSupported("spec.template.spec.restartPolicy", restart, List.of("Always")));
        }
        if (pod.getActiveDeadlineSeconds() != null) {
            errors.add(FieldError.forbidden("spec.template.spec.activeDeadlineSeconds",
                    "activeDeadlineSeconds in cloneset is not Supported"));
        }
    }

    private static void validateContainers(List<Container> containers, String path, Set<String> names,
                                           Set<String> volumes, List<FieldError> errors) {
        if (containers == null) {
            return;
        }
        for (int i = 0; i < containers.size(); i++) {
            Container c = containers.get(i);
            String p = path + "[" + i + "]";
            if (c.getName() == null || c.getName().isEmpty()) {
                errors.add(FieldError.required(p + ".name", ""));
            } else if (!LabelRules.isDnsLabel(c.getName())) {
                errors.add(FieldError.invalid(p + ".name", c.getName(), "a lowercase RFC 1123 label must consist of "
                        + "lower case alphanumeric characters or '-', and must start and end with an alphanumeric character"));
            } else if (!names.add(c.getName())) {
                errors.add(FieldError.duplicate(p + ".name", c.getName()));
            }
            if (c.getImage() == null || c.getImage().isBlank()) {
                errors.add(FieldError.required(p + ".image", ""));
            }
            if (c.getVolumeMounts() != null) {
                for (int j = 0; j < c.getVolumeMounts().size(); j++) {
                    VolumeMount m = c.getVolumeMounts().get(j);
                    if (m.getName() == null || !volumes.contains(m.getName())) {
                        errors.add(FieldError.notFound(p + ".volumeMounts[" + j + "].name", m.getName()));
                    }
                    if (m.getMountPath() == null || m.getMountPath().isEmpty()) {
                        errors.add(FieldError.required(p + ".volumeMounts[" + j + "].mountPath", ""));
                    }
                }
            }
        }
    }

    private static void validateScaleStrategy(CloneSet cloneSet, CloneSet old, PodLookup pods, List<FieldError> errors) {
        CloneSetScaleStrategy strategy = cloneSet.getSpec().getScaleStrategy();
        if (strategy == null) {
            return;
        }
        String path = "spec.scaleStrategy";
        if (strategy.getMaxUnavailable() != null) {
            scaled(strategy.getMaxUnavailable(), 0, path + ".maxUnavailable", "maxUnavailable", errors);
        }
        List<String> toDelete = strategy.getPodsToDelete() == null ? List.of() : strategy.getPodsToDelete();
        Set<String> seen = new HashSet<>();
        Set<String> duplicated = new TreeSet<>();
        for (String p : toDelete) {
            if (!seen.add(p)) {
                duplicated.add(p);
            }
        }
        if (!duplicated.isEmpty()) {
            errors.add(FieldError.invalid(path + ".podsToDelete", String.valueOf(toDelete), "duplicated items " + duplicated));
            return;
        }
        Set<String> fresh = new LinkedHashSet<>(new TreeSet<>(toDelete));
        if (old != null && old.getSpec() != null && old.getSpec().getScaleStrategy() != null
                && old.getSpec().getScaleStrategy().getPodsToDelete() != null) {
            // A set: removeAll with a list argument can call List.contains per element, quadratic in the list.
            fresh.removeAll(new HashSet<>(old.getSpec().getScaleStrategy().getPodsToDelete()));
        }
        String namespace = cloneSet.getMetadata() == null ? null : cloneSet.getMetadata().getNamespace();
        String uid = cloneSet.getMetadata() == null ? null : cloneSet.getMetadata().getUid();
        for (String podName : fresh) {
            Optional<Pod> pod = pods.find(namespace, podName);
            if (pod.isEmpty()) {
                errors.add(FieldError.invalid(path + ".podsToDelete", podName, "find pod " + podName
                        + " failed: pods \"" + podName + "\" not found"));
            } else if (pod.get().getMetadata().getDeletionTimestamp() != null) {
                errors.add(FieldError.invalid(path + ".podsToDelete", podName, "find pod " + podName + " already terminating"));
            } else if (!controlledBy(pod.get(), uid)) {
                errors.add(FieldError.invalid(path + ".podsToDelete", podName, "find pod " + podName
                        + " owner is not this CloneSet"));
            }
        }
    }

    private static boolean controlledBy(Pod pod, String uid) {
        if (uid == null || pod.getMetadata().getOwnerReferences() == null) {
            return false;
        }
        for (OwnerReference ref : pod.getMetadata().getOwnerReferences()) {
            if (Boolean.TRUE.equals(ref.getController())) {
                return uid.equals(ref.getUid());
            }
        }
        return false;
    }

    private static void validateUpdateStrategy(CloneSetUpdateStrategy strategy, int replicas, List<FieldError> errors) {
        String path = "spec.updateStrategy";
        CloneSetUpdateStrategy s = strategy == null ? new CloneSetUpdateStrategy() : strategy;
        String type = s.getType() == null ? "" : s.getType();
        if (!TYPES.contains(type)) {
            errors.add(FieldError.invalid(path + ".type", type, "must be '" + TYPES.get(0) + "', " + TYPES.get(1)
                    + " or '" + TYPES.get(2) + "'"));
        }
        Integer partition = scaled(s.getPartition(), replicas, path + ".partition", "partition", errors);
        if (partition != null && partition < 0) {
            errors.add(FieldError.invalid(path + ".partition", partition, "must be greater than or equal to 0"));
        }
        String priority = priorityProblem(s.getPriorityStrategy());
        if (priority != null) {
            errors.add(FieldError.required(path + ".priorityStrategy", priority));
        }
        String scatter = scatterProblem(s.getScatterStrategy());
        if (scatter != null) {
            errors.add(FieldError.required(path + ".scatterStrategy", scatter));
        }
        int maxUnavailable = 0;
        if (s.getMaxUnavailable() != null) {
            maxUnavailable = Objects.requireNonNullElse(
                    scaled(s.getMaxUnavailable(), replicas, path + ".maxUnavailable", "maxUnavailable", errors), 0);
        }
        int maxSurge = 0;
        if (s.getMaxSurge() != null) {
            maxSurge = Objects.requireNonNullElse(scaled(s.getMaxSurge(), replicas, path + ".maxSurge", "maxSurge", errors), 0);
            if (CloneSetUpdateStrategyType.IN_PLACE_ONLY.value().equals(type) && maxSurge > 0) {
                errors.add(FieldError.invalid(path + ".maxSurge", render(s.getMaxSurge()),
                        "can not use maxSurge with strategy type InPlaceOnly"));
            }
        }
        if (replicas > 0 && maxUnavailable < 1 && maxSurge < 1) {
            errors.add(FieldError.invalid(path + ".maxUnavailable", render(s.getMaxUnavailable()),
                    "maxUnavailable and maxSurge should not both be less than 1"));
        }
    }

    /**
     * Scales an int-or-percent like OpenKruise's GetScaledValueFromIntOrPercent: strings must be percentages,
     * so {@code "5"} is rejected. Returns null (and records the error) when the value cannot be used.
     */
    private static Integer scaled(IntOrString value, int total, String path, String what, List<FieldError> errors) {
        if (value == null) {
            return 0;
        }
        try {
            return IntOrPercent.scaledValue(value, total, true);
        } catch (IllegalArgumentException e) {
            errors.add(FieldError.invalid(path, render(value), "failed getValueFromIntOrPercent for " + what + ": "
                    + e.getMessage()));
            return null;
        }
    }

    private static String render(IntOrString v) {
        if (v == null) {
            return "nil";
        }
        return v.getIntVal() != null ? String.valueOf(v.getIntVal()) : v.getStrVal();
    }

    static String priorityProblem(UpdatePriorityStrategy strategy) {
        if (strategy == null) {
            return null;
        }
        List<UpdatePriorityWeightTerm> weights = strategy.getWeightPriority() == null ? List.of() : strategy.getWeightPriority();
        List<UpdatePriorityOrderTerm> orders = strategy.getOrderPriority() == null ? List.of() : strategy.getOrderPriority();
        if (!weights.isEmpty() && !orders.isEmpty()) {
            return "only one of weightPriority and orderPriority can be used";
        }
        for (UpdatePriorityWeightTerm w : weights) {
            if (w.getWeight() < 0 || w.getWeight() > 100) {
                return "weight must be valid number in the range 1-100";
            }
            if (w.getMatchSelector() == null || LabelRules.isEmpty(w.getMatchSelector())) {
                return "selector can not be empty";
            }
            List<FieldError> selectorErrors = new ArrayList<>();
            LabelRules.validateSelector(w.getMatchSelector(), "matchSelector", selectorErrors);
            if (!selectorErrors.isEmpty()) {
                return "invalid selector " + selectorErrors.get(0);
            }
        }
        for (UpdatePriorityOrderTerm o : orders) {
            if (o.getOrderedKey() == null || o.getOrderedKey().isEmpty()) {
                return "order key can not be empty";
            }
        }
        return null;
    }

    static String scatterProblem(List<UpdateScatterTerm> terms) {
        if (terms == null) {
            return null;
        }
        Set<String> seen = new HashSet<>();
        for (UpdateScatterTerm t : terms) {
            if (t.getKey() == null || t.getKey().isEmpty()) {
                return "key should not be empty";
            }
            if (!seen.add(t.getKey() + ":" + t.getValue())) {
                return "duplicated term with key=" + t.getKey() + " value=" + t.getValue();
            }
        }
        return null;
    }
}
