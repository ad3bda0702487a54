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
import dev.kruisevertx.api.common.WireEnum;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import dev.kruisevertx.webhook.validation.IntOrPercentRule;
import dev.kruisevertx.webhook.validation.ResourceQuantities;
import dev.kruisevertx.webhook.validation.WorkloadNames;
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
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * CloneSet v1alpha1 validation with OpenKruise's rules and messages. Pure apart from the pod lookup used
 * for podsToDelete; the controller may reuse it.
 */
public final class CloneSetValidation {
    private static final List<String> TYPES = WireEnum.values(CloneSetUpdateStrategyType.class);
    private static final Pattern IN_PLACE_ONLY_PATCH = Pattern.compile("^/containers/([0-9]+)/image$");
    /** Longest name whose {@code <name>-<hash>} fits a label value. */
    static final int REVISION_LABEL_NAME_MAX = WorkloadNames.DNS_LABEL_MAX - 1 - WorkloadNames.REVISION_HASH_LENGTH;
    static final String NAME_LIMIT_REASON = "ControllerRevisions are named <name>-<hash> and may have at most "
            + WorkloadNames.DNS_SUBDOMAIN_MAX + " characters";
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

    /**
     * What a new CloneSet should know although it is valid: with a name past {@value #REVISION_LABEL_NAME_MAX}
     * characters, the label {@code controller-revision-hash=<name>-<hash>} on its pods is longer than a label value
     * may be, so a Kubernetes API server refuses the pods unless feature gate CloneSetShortHash puts only the hash
     * there. The webhook does not know the manager's gates, so this is a warning, not an error.
     */
    public static List<String> warnings(CloneSet cloneSet, CloneSet old) {
        String name = cloneSet.getMetadata() == null ? null : cloneSet.getMetadata().getName();
        if (old != null || name == null || name.length() <= REVISION_LABEL_NAME_MAX) {
            return List.of();
        }
        return List.of("metadata.name: a CloneSet name longer than " + REVISION_LABEL_NAME_MAX + " characters makes "
                + "its pods' controller-revision-hash label longer than 63 characters, which the API server refuses "
                + "unless feature gate CloneSetShortHash is enabled");
    }

    /** With InPlaceOnly, only container images of the template may change. */
    static Optional<FieldError> inPlaceOnlyTemplateChange(CloneSetSpec spec, CloneSetSpec oldSpec) {
        CloneSetUpdateStrategy u = spec.getUpdateStrategy();
        if (u == null || u.typeValue().orElse(null) != CloneSetUpdateStrategyType.IN_PLACE_ONLY) {
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
        WorkloadNames.checkUnlessKept(cloneSet.getMetadata(), old == null ? null : old.getMetadata(),
                WorkloadNames.CLONESET_MAX, false, NAME_LIMIT_REASON, errors);
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
        // Stricter than OpenKruise, which takes these and then works with nonsense; Kubernetes' Deployment refuses them.
        if (spec.getRevisionHistoryLimit() != null && spec.getRevisionHistoryLimit() < 0) {
            errors.add(FieldError.invalid("spec.revisionHistoryLimit", spec.getRevisionHistoryLimit(),
                    "must be greater than or equal to 0"));
        }
        if (spec.getMinReadySeconds() < 0) {
            errors.add(FieldError.invalid("spec.minReadySeconds", spec.getMinReadySeconds(),
                    "must be greater than or equal to 0"));
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
        validateTemplate(spec, cloneSet.getMetadata() == null ? null : cloneSet.getMetadata().getName(), errors);
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
            if (!isNonNegativeInt(value)) {
                errors.add(FieldError.invalid("metadata.annotations[" + key + "]", value, "must be a non-negative integer"));
            }
        }
    }

    /**
     * A non-negative int as Go's strconv.Atoi reads one: an optional '+', then ASCII digits only (Java's parseInt
     * would also take digits of other scripts).
     */
    static boolean isNonNegativeInt(String value) {
        String digits = value.startsWith("+") ? value.substring(1) : value;
        if (digits.isEmpty() || digits.length() > 10 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return false;
        }
        return Long.parseLong(digits) <= Integer.MAX_VALUE;
    }

    /** A typed field since issue 17 (the stuck-rollout deadline); decoding already refused non-integers. */
    private static void validateProgressDeadline(CloneSetSpec spec, List<FieldError> errors) {
        Integer seconds = spec.getProgressDeadlineSeconds();
        if (seconds == null) {
            return;
        }
        if (seconds < 0) {
            errors.add(FieldError.invalid("spec.progressDeadlineSeconds", seconds, "must be greater than or equal to 0"));
        }
        if (seconds <= spec.getMinReadySeconds()) {
            errors.add(FieldError.invalid("spec.progressDeadlineSeconds", seconds, "must be greater than minReadySeconds"));
        }
    }

    /** Length of the PVC names of a claim template: {@code <template>-<cloneset>-<5-character instance id>}. */
    private static int claimNameLength(String template, String cloneSet) {
        return template.length() + 1 + (cloneSet == null ? 0 : cloneSet.length()) + 1 + 5;
    }

    private static void validateTemplate(CloneSetSpec spec, String name, List<FieldError> errors) {
        if (spec.getTemplate() == null || spec.getTemplate().getSpec() == null) {
            errors.add(FieldError.required("spec.template.spec", ""));
            return;
        }
        LabelRules.validateLabels(spec.getTemplate().getMetadata() == null ? null
                : spec.getTemplate().getMetadata().getLabels(), "spec.template.metadata.labels", errors);
        PodSpec pod = spec.getTemplate().getSpec();
        Set<String> volumes = new HashSet<>();
        List<Volume> declared = pod.getVolumes() == null ? List.of() : pod.getVolumes();
        for (int i = 0; i < declared.size(); i++) {
            String n = declared.get(i).getName();
            String p = "spec.template.spec.volumes[" + i + "].name";
            if (n == null || n.isEmpty()) {
                errors.add(FieldError.required(p, ""));
            } else if (!LabelRules.isDnsLabel(n)) {
                errors.add(FieldError.invalid(p, n, WorkloadNames.LABEL_SYNTAX));
            } else if (!volumes.add(n)) {
                errors.add(FieldError.duplicate(p, n));
            }
        }
        // Each volumeClaimTemplate becomes a PVC volume of the pods, so mounts may refer to it.
        List<PersistentVolumeClaim> claims = spec.getVolumeClaimTemplates() == null ? List.of()
                : spec.getVolumeClaimTemplates();
        for (int i = 0; i < claims.size(); i++) {
            String n = WorkloadNames.claimTemplateName(claims.get(i), i, errors);
            if (n == null) {
                continue;
            }
            if (!volumes.add(n)) {
                errors.add(FieldError.duplicate("spec.template.spec.volumes", n));
            } else if (claimNameLength(n, name) > WorkloadNames.DNS_SUBDOMAIN_MAX) {
                errors.add(FieldError.invalid(WorkloadNames.claimTemplateNamePath(i), n, "the PVCs of this template "
                        + "would be named <template>-<cloneset>-<instance id> with " + claimNameLength(n, name) + " characters, more "
                        + "than " + WorkloadNames.DNS_SUBDOMAIN_MAX));
            }
        }
        if (pod.getContainers() == null || pod.getContainers().isEmpty()) {
            errors.add(FieldError.required("spec.template.spec.containers", ""));
        }
        Set<String> names = new HashSet<>();
        validateContainers(pod.getInitContainers(), "spec.template.spec.initContainers", names, volumes, errors);
        validateContainers(pod.getContainers(), "spec.template.spec.containers", names, volumes, errors);
        ResourceQuantities.checkPod(pod, "spec.template.spec", errors);
        ResourceQuantities.checkClaims(spec.getVolumeClaimTemplates(), "spec.volumeClaimTemplates", errors);
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
                errors.add(FieldError.invalid(p + ".name", c.getName(), WorkloadNames.LABEL_SYNTAX));
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
        // OpenKruise does not check this field at all. 0 is kept: it holds scale-up (only adoption fills the set).
        IntOrPercentRule.NON_NEGATIVE_AT_MOST_ALL.check(path + ".maxUnavailable", strategy.getMaxUnavailable(), errors);
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
        if (s.typeValue().isEmpty()) {
            errors.add(FieldError.invalid(path + ".type", type, "must be '" + TYPES.get(0) + "', " + TYPES.get(1)
                    + " or '" + TYPES.get(2) + "'"));
        }
        IntOrPercentRule.NON_NEGATIVE_AT_MOST_ALL.check(path + ".partition", s.getPartition(), errors);
        String priority = priorityProblem(s.getPriorityStrategy());
        if (priority != null) {
            errors.add(FieldError.required(path + ".priorityStrategy", priority));
        }
        String scatter = scatterProblem(s.getScatterStrategy());
        if (scatter != null) {
            errors.add(FieldError.required(path + ".scatterStrategy", scatter));
        }
        boolean usable = IntOrPercentRule.NON_NEGATIVE_AT_MOST_ALL.check(path + ".maxUnavailable", s.getMaxUnavailable(),
                errors);
        usable &= IntOrPercentRule.NON_NEGATIVE.check(path + ".maxSurge", s.getMaxSurge(), errors);
        if (!usable) {
            return;
        }
        int maxUnavailable = IntOrPercent.scaledValue(s.getMaxUnavailable(), replicas, true);
        int maxSurge = IntOrPercent.scaledValue(s.getMaxSurge(), replicas, true);
        if (s.typeValue().orElse(null) == CloneSetUpdateStrategyType.IN_PLACE_ONLY && maxSurge > 0) {
            errors.add(FieldError.invalid(path + ".maxSurge", render(s.getMaxSurge()),
                    "can not use maxSurge with strategy type InPlaceOnly"));
        }
        if (replicas > 0 && maxUnavailable < 1 && maxSurge < 1) {
            errors.add(FieldError.invalid(path + ".maxUnavailable", render(s.getMaxUnavailable()),
                    "maxUnavailable and maxSurge should not both be less than 1"));
        }
    }

    private static String render(IntOrString v) {
        if (v == null) {
            return "nil";
        }
        return v.getIntVal() != null ? String.valueOf(v.getIntVal()) : v.getStrVal();
    }

    /** What is wrong with a priority strategy (OpenKruise's FieldsValidation), null when nothing. */
    public static String priorityProblem(UpdatePriorityStrategy strategy) {
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

    /** What is wrong with a scatter strategy (OpenKruise's FieldsValidation), null when nothing. */
    public static String scatterProblem(List<UpdateScatterTerm> terms) {
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
