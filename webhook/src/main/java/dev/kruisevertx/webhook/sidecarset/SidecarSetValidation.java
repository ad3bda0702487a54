package dev.kruisevertx.webhook.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.PodInjectPolicyType;
import dev.kruisevertx.api.apps.v1beta1.ResourceExprValues;
import dev.kruisevertx.api.apps.v1beta1.ResourcesPolicy;
import dev.kruisevertx.sidecarset.PodMetadataPatch;
import dev.kruisevertx.sidecarset.ResourceExpression;
import dev.kruisevertx.api.apps.v1beta1.ShareVolumePolicyType;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevision;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevisionPolicy;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetPatchPodMetadata;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetPatchPolicyType;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetSpec;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetUpdateStrategyType;
import dev.kruisevertx.api.apps.v1beta1.TargetContainersModeType;
import dev.kruisevertx.api.apps.v1beta1.TransferEnvVar;
import dev.kruisevertx.api.common.WireEnum;
import dev.kruisevertx.sidecarset.SidecarSetHash;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.CloneSetValidation;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import dev.kruisevertx.webhook.validation.IntOrPercentRule;
import dev.kruisevertx.webhook.validation.ResourceQuantities;
import dev.kruisevertx.webhook.validation.WorkloadNames;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectFieldSelector;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeDevice;
import io.fabric8.kubernetes.api.model.VolumeMount;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * OpenKruise v1.9's SidecarSet validation, on the v1beta1 form of either version: the name, selectors, injection
 * and update strategies, volumes, containers (inject and share-volume policies, transferEnv field references,
 * resourcesPolicy), patchPodMetadata, on UPDATE the immutable upgrade type, and the conflicts with the other
 * SidecarSets that may meet on a pod (same container, init container or differing volume name, overwritten
 * annotations).
 */
public final class SidecarSetValidation {
    /** OpenKruise's limit and syntax for SidecarSet names. */
    static final int NAME_MAX = 63;
    static final Pattern NAME = Pattern.compile("[a-zA-Z0-9\\-]+");
    static final String NAME_MESSAGE = "sidecarset name must consist of alphanumeric characters or '-' (e.g. "
            + "'example-com', regex used for validation is '^[a-zA-Z0-9\\-]+$')";
    static final List<String> FIELD_PATHS = List.of("metadata.annotations", "metadata.labels", "metadata.name");
    private SidecarSetValidation() {
    }

    public static List<FieldError> validateCreate(SidecarSet set, SidecarSetLookup lookup) {
        return validate(set, null, lookup);
    }

    public static List<FieldError> validateUpdate(SidecarSet set, SidecarSet old, SidecarSetLookup lookup) {
        return validate(set, old, lookup);
    }

    static List<FieldError> validate(SidecarSet set, SidecarSet old, SidecarSetLookup lookup) {
        List<FieldError> errors = new ArrayList<>();
        // The decoded request object is this call's own copy: an absent spec or metadata is judged as empty.
        if (set.getMetadata() == null) {
            set.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
        }
        if (set.getSpec() == null) {
            set.setSpec(new SidecarSetSpec());
        }
        validateName(set, old, errors);
        SidecarSetSpec spec = set.getSpec() == null ? new SidecarSetSpec() : set.getSpec();
        validateSpec(set, spec, lookup, errors);
        if (old != null && old.getSpec() != null) {
            validateUpgradeTypes(spec.getContainers(), old.getSpec().getContainers(), errors);
        }
        if (errors.isEmpty()) {
            validateConflicts(set, lookup.sidecarSets(), errors);
        }
        return errors;
    }

    private static void validateName(SidecarSet set, SidecarSet old, List<FieldError> errors) {
        String name = set.getMetadata() == null ? null : set.getMetadata().getName();
        if (old != null) {
            return; // names are immutable: one admitted before is not judged again
        }
        if (name == null || name.isEmpty()) {
            String generate = set.getMetadata() == null ? null : set.getMetadata().getGenerateName();
            if (generate == null || generate.isEmpty()) {
                errors.add(FieldError.required("metadata.name", "name or generateName is required"));
            }
            return;
        }
        if (!NAME.matcher(name).matches()) {
            errors.add(FieldError.invalid("metadata.name", name, NAME_MESSAGE));
        }
        if (name.length() > NAME_MAX) {
            errors.add(FieldError.invalid("metadata.name", name, "must be no more than " + NAME_MAX + " characters"));
        }
    }

    private static void validateSpec(SidecarSet set, SidecarSetSpec spec, SidecarSetLookup lookup,
                                     List<FieldError> errors) {
        SidecarSetUpdateStrategy update = spec.getUpdateStrategy() == null ? new SidecarSetUpdateStrategy()
                : spec.getUpdateStrategy();
        boolean rolling = update.typeValue().orElse(null) == SidecarSetUpdateStrategyType.ROLLING_UPDATE;
        for (SidecarContainer c : list(spec.getInitContainers())) {
            if (SidecarSetHash.isNativeSidecar(c) && rolling) {
                errors.add(FieldError.required("spec.updateStrategy",
                        "The initContainer in-place upgrade is not currently supported."));
            }
        }
        if (spec.getSelector() == null) {
            errors.add(FieldError.required("spec.selector", "no selector defined for SidecarSet"));
        } else {
            validateSelector(spec.getSelector(), "spec.selector", errors);
        }
        if (spec.getNamespaceSelector() != null) {
            validateSelector(spec.getNamespaceSelector(), "spec.namespaceSelector", errors);
        }
        validateInjectionRevision(set, lookup, errors);
        validateUpdateStrategy(update, errors);
        Set<String> volumes = validateVolumes(spec.getVolumes(), errors);
        if (list(spec.getInitContainers()).isEmpty() && list(spec.getContainers()).isEmpty()) {
            errors.add(FieldError.required("spec", "no initContainer or container defined for SidecarSet"));
        } else {
            validateContainers(spec, volumes, errors);
        }
        validatePatchPodMetadata(spec.getPatchPodMetadata(), errors);
    }

    private static void validateSelector(LabelSelector selector, String path, List<FieldError> errors) {
        LabelRules.validateSelector(selector, path, errors);
        List<io.fabric8.kubernetes.api.model.LabelSelectorRequirement> exprs = list(selector.getMatchExpressions());
        for (int i = 0; i < exprs.size(); i++) {
            for (String value : list(exprs.get(i).getValues())) {
                String problem = LabelRules.valueProblem(value);
                if (problem != null) {
                    errors.add(FieldError.invalid(path + ".matchExpressions[" + i + "].values", value, problem));
                }
            }
        }
        if (LabelRules.isEmpty(selector)) {
            errors.add(FieldError.invalid(path, "{}", "empty selector is not valid for sidecarset."));
        }
    }

    private static void validateInjectionRevision(SidecarSet set, SidecarSetLookup lookup, List<FieldError> errors) {
        SidecarSetInjectRevision revision = set.getSpec().getInjectionStrategy() == null ? null
                : set.getSpec().getInjectionStrategy().getRevision();
        if (revision == null) {
            return;
        }
        if (revision.getRevisionName() == null && revision.getCustomVersion() == null) {
            errors.add(FieldError.invalid("spec.injectionStrategy.revision", "{}",
                    "revisionName and customVersion cannot be empty simultaneously"));
        } else if (!lookup.hasRevision(set, revision)) {
            errors.add(FieldError.invalid("spec.injectionStrategy.revision", shown(revision),
                    "Cannot find specific ControllerRevision"));
        }
        String policy = revision.getPolicy();
        if (policy != null && !policy.isEmpty() && revision.policyValue().isEmpty()) {
            errors.add(FieldError.notSupported("spec.injectionStrategy.revision.policy", policy,
                    WireEnum.values(SidecarSetInjectRevisionPolicy.class)));
        }
    }

    private static String shown(SidecarSetInjectRevision r) {
        return r.getRevisionName() != null ? "revisionName=" + r.getRevisionName()
                : "customVersion=" + r.getCustomVersion();
    }

    private static void validateUpdateStrategy(SidecarSetUpdateStrategy s, List<FieldError> errors) {
        String path = "spec.updateStrategy";
        String type = s.getType() == null ? "" : s.getType();
        if (s.typeValue().isEmpty()) {
            errors.add(FieldError.notSupported(path + ".type", type, WireEnum.values(SidecarSetUpdateStrategyType.class)));
            return;
        }
        if (s.typeValue().get() != SidecarSetUpdateStrategyType.ROLLING_UPDATE) {
            return; // as OpenKruise: NotUpdate's other fields are not read
        }
        if (partitionSet(s.getPartition()) && s.getSelector() != null) {
            errors.add(FieldError.invalid(path, "partition and selector", "Partition and Selector cannot be used together"));
        }
        if (s.getSelector() != null) {
            validateSelector(s.getSelector(), path + ".selector", errors);
        }
        IntOrPercentRule.NON_NEGATIVE_AT_MOST_ALL.check(path + ".partition", s.getPartition(), errors);
        IntOrPercentRule.NON_NEGATIVE_AT_MOST_ALL.check(path + ".maxUnavailable", s.getMaxUnavailable(), errors);
        String priority = CloneSetValidation.priorityProblem(s.getPriorityStrategy());
        if (priority != null) {
            errors.add(FieldError.required(path + ".priorityStrategy", priority));
        }
        String scatter = CloneSetValidation.scatterProblem(s.getScatterStrategy());
        if (scatter != null) {
            errors.add(FieldError.required(path + ".scatterStrategy", scatter));
        }
    }

    /** OpenKruise's intStrIsSet: any string, or an integer other than 0. */
    private static boolean partitionSet(IntOrString p) {
        return p != null && (p.getStrVal() != null || (p.getIntVal() != null && p.getIntVal() != 0));
    }

    private static Set<String> validateVolumes(List<Volume> volumes, List<FieldError> errors) {
        Set<String> names = new HashSet<>();
        List<Volume> declared = list(volumes);
        for (int i = 0; i < declared.size(); i++) {
            String n = declared.get(i) == null ? null : declared.get(i).getName();
            String p = "spec.volumes[" + i + "].name";
            if (n == null || n.isEmpty()) {
                errors.add(FieldError.required(p, ""));
            } else if (!LabelRules.isDnsLabel(n)) {
                errors.add(FieldError.invalid(p, n, WorkloadNames.LABEL_SYNTAX));
            } else if (!names.add(n)) {
                errors.add(FieldError.duplicate(p, n));
            }
            // A volume is its name and exactly one source; defaults give a bare volume an emptyDir.
            if (declared.get(i) != null && dev.kruisevertx.webhook.admission.Json.toNode(declared.get(i)).size() < 2) {
                errors.add(FieldError.required("spec.volumes[" + i + "]", "must specify a volume type"));
            }
        }
        return names;
    }

    private static void validateContainers(SidecarSetSpec spec, Set<String> volumes, List<FieldError> errors) {
        Set<String> names = new HashSet<>();
        List<SidecarContainer> inits = list(spec.getInitContainers());
        for (int i = 0; i < inits.size(); i++) {
            SidecarContainer c = inits.get(i);
            String p = "spec.initContainers[" + i + "]";
            if (c.getResourcesPolicy() != null) {
                if (!SidecarSetHash.isNativeSidecar(c)) {
                    errors.add(FieldError.invalid(p + ".resourcesPolicy", "resourcesPolicy",
                            "resourcesPolicy is only supported for containers with RestartPolicy Always"));
                }
                validateResourcesPolicy(c, p + ".resourcesPolicy", errors);
            }
            validateContainer(c, p, names, volumes, errors);
        }
        List<SidecarContainer> containers = list(spec.getContainers());
        for (int i = 0; i < containers.size(); i++) {
            SidecarContainer c = containers.get(i);
            String p = "spec.containers[" + i + "]";
            if (c.podInjectPolicyValue().isEmpty()) {
                errors.add(FieldError.notSupported(p + ".podInjectPolicy", Objects.toString(c.getPodInjectPolicy(), ""),
                        WireEnum.values(PodInjectPolicyType.class)));
            }
            String share = c.getShareVolumePolicy() == null ? "" : Objects.toString(c.getShareVolumePolicy().getType(), "");
            if (c.getShareVolumePolicy() == null || c.getShareVolumePolicy().typeValue().isEmpty()) {
                errors.add(FieldError.notSupported(p + ".shareVolumePolicy.type", share,
                        WireEnum.values(ShareVolumePolicyType.class)));
            }
            List<TransferEnvVar> transfer = list(c.getTransferEnv());
            for (int j = 0; j < transfer.size(); j++) {
                TransferEnvVar t = transfer.get(j);
                if (t != null && t.getSourceContainerNameFrom() != null && t.getSourceContainerNameFrom().getFieldRef() != null) {
                    validateFieldRef(t.getSourceContainerNameFrom().getFieldRef(),
                            p + ".transferEnv[" + j + "].sourceContainerNameFrom.fieldRef", errors);
                }
            }
            if (c.getResourcesPolicy() != null) {
                validateResourcesPolicy(c, p + ".resourcesPolicy", errors);
            }
            validateContainer(c, p, names, volumes, errors);
        }
        PodSpec quantities = new PodSpec();
        quantities.setInitContainers(new ArrayList<>(inits));
        quantities.setContainers(new ArrayList<>(containers));
        ResourceQuantities.checkPod(quantities, "spec", errors);
    }

    /** The parts of Kubernetes' container validation a sidecar needs: name, image, mounts of the SidecarSet's volumes. */
    private static void validateContainer(Container c, String p, Set<String> names, Set<String> volumes,
                                          List<FieldError> errors) {
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
        List<VolumeMount> mounts = list(c.getVolumeMounts());
        for (int j = 0; j < mounts.size(); j++) {
            VolumeMount m = mounts.get(j);
            if (m.getName() == null || !volumes.contains(m.getName())) {
                errors.add(FieldError.notFound(p + ".volumeMounts[" + j + "].name", m.getName()));
            }
            if (m.getMountPath() == null || m.getMountPath().isEmpty()) {
                errors.add(FieldError.required(p + ".volumeMounts[" + j + "].mountPath", ""));
            }
        }
        Set<String> mountPaths = new HashSet<>();
        mounts.forEach(m -> mountPaths.add(m.getMountPath()));
        List<VolumeDevice> devices = list(c.getVolumeDevices());
        for (int j = 0; j < devices.size(); j++) {
            VolumeDevice d = devices.get(j);
            String dp = p + ".volumeDevices[" + j + "]";
            if (d.getName() == null || !volumes.contains(d.getName())) {
                errors.add(FieldError.notFound(dp + ".name", d.getName()));
            }
            if (d.getDevicePath() == null || d.getDevicePath().isEmpty()) {
                errors.add(FieldError.required(dp + ".devicePath", ""));
            } else if (mountPaths.contains(d.getDevicePath())) {
                errors.add(FieldError.invalid(dp + ".devicePath", d.getDevicePath(),
                        "must not be already mounted in volumeMounts"));
            }
            for (int k = 0; k < mounts.size(); k++) {
                if (d.getDevicePath() != null && d.getDevicePath().equals(mounts.get(k).getMountPath())) {
                    errors.add(FieldError.invalid(p + ".volumeMounts[" + k + "].mountPath", d.getDevicePath(),
                            "must not already exist as a path in volumeDevices"));
                }
            }
            boolean mountedToo = mounts.stream().anyMatch(m -> Objects.equals(m.getName(), d.getName()));
            if (mountedToo) {
                errors.add(FieldError.invalid(dp + ".name", d.getName(),
                        "can not be used with volumeMounts of the same volume"));
            }
        }
    }

    private static void validateFieldRef(ObjectFieldSelector ref, String path, List<FieldError> errors) {
        if (ref.getApiVersion() == null || ref.getApiVersion().isEmpty()) {
            errors.add(FieldError.required(path + ".apiVersion", ""));
            return;
        }
        String fieldPath = ref.getFieldPath();
        if (fieldPath == null || fieldPath.isEmpty()) {
            errors.add(FieldError.required(path + ".fieldPath", ""));
            return;
        }
        if (!"v1".equals(ref.getApiVersion())) {
            errors.add(FieldError.invalid(path + ".fieldPath", fieldPath, "error converting fieldPath: unsupported "
                    + "apiVersion " + ref.getApiVersion() + " (only v1)"));
            return;
        }
        int open = fieldPath.indexOf('[');
        if (open > 0 && fieldPath.endsWith("']") && fieldPath.startsWith("['", open)) {
            String base = fieldPath.substring(0, open);
            String key = fieldPath.substring(open + 2, fieldPath.length() - 2);
            if ("metadata.annotations".equals(base) || "metadata.labels".equals(base)) {
                String problem = LabelRules.keyProblem("metadata.annotations".equals(base) ? key.toLowerCase() : key);
                if (problem != null) {
                    errors.add(FieldError.invalid(path, key, problem));
                }
            } else {
                errors.add(FieldError.invalid(path, base, "does not support subscript"));
            }
        } else if (!FIELD_PATHS.contains(fieldPath)) {
            errors.add(FieldError.notSupported(path + ".fieldPath", fieldPath, FIELD_PATHS));
        }
    }

    private static void validateResourcesPolicy(SidecarContainer c, String path, List<FieldError> errors) {
        ResourcesPolicy policy = c.getResourcesPolicy();
        if (c.getResources() != null && (nonEmpty(c.getResources().getLimits()) || nonEmpty(c.getResources().getRequests()))) {
            errors.add(FieldError.invalid(path, "resourcesPolicy", "resourcesPolicy and resources cannot be configured together"));
            return;
        }
        if (policy.targetContainersModeValue().isEmpty()) {
            errors.add(FieldError.notSupported(path + ".targetContainersMode",
                    Objects.toString(policy.getTargetContainersMode(), ""), WireEnum.values(TargetContainersModeType.class)));
        }
        String regex = policy.getTargetContainersNameRegex();
        if (regex == null || regex.isEmpty()) {
            errors.add(FieldError.required(path + ".targetContainersNameRegex", "invalid empty regex"));
        } else {
            try {
                Pattern.compile(regex);
            } catch (PatternSyntaxException e) {
                errors.add(FieldError.invalid(path + ".targetContainersNameRegex", regex,
                        "invalid regex pattern: " + e.getDescription()));
            }
        }
        if (policy.getResourcesExpr() == null
                || (policy.getResourcesExpr().getLimits() == null && policy.getResourcesExpr().getRequests() == null)) {
            errors.add(FieldError.invalid(path + ".resourcesExpr", "{}", "at least one of limits or requests must be configured"));
            return;
        }
        expressions(policy.getResourcesExpr().getLimits(), path + ".resourcesExpr.limits", errors);
        expressions(policy.getResourcesExpr().getRequests(), path + ".resourcesExpr.requests", errors);
    }

    private static boolean nonEmpty(Map<?, ?> m) {
        return m != null && !m.isEmpty();
    }

    private static void expressions(ResourceExprValues values, String path, List<FieldError> errors) {
        if (values == null) {
            return;
        }
        expression(values.getCpu(), "cpu", path + ".cpu", errors);
        expression(values.getMemory(), "memory", path + ".memory", errors);
    }

    /**
     * A resources expression as OpenKruise checks it (evaluated with its variable as the number 1) plus the type
     * errors every pod creation would hit ({@link ResourceExpression#problem}).
     */
    static void expression(String expr, String variable, String path, List<FieldError> errors) {
        if (expr == null || expr.isEmpty()) {
            return;
        }
        if (expr.length() > ResourceExpression.MAX_LENGTH) {
            errors.add(FieldError.tooLong(path, ResourceExpression.MAX_LENGTH, "a resources expression"));
            return;
        }
        String problem = ResourceExpression.problem(expr, variable);
        if (problem != null) {
            errors.add(FieldError.invalid(path, expr, "invalid expression: " + problem));
        }
    }

    private static void validatePatchPodMetadata(List<SidecarSetPatchPodMetadata> patches, List<FieldError> errors) {
        Set<String> keys = new HashSet<>();
        for (SidecarSetPatchPodMetadata patch : list(patches)) {
            if (patch == null) {
                continue;
            }
            if (patch.getAnnotations() == null || patch.getAnnotations().isEmpty()) {
                errors.add(FieldError.required("spec.patchPodMetadata", "no annotations defined for SidecarSet"));
            } else {
                for (String key : patch.getAnnotations().keySet()) {
                    String problem = LabelRules.keyProblem(key.toLowerCase());
                    if (problem != null) {
                        errors.add(FieldError.invalid("spec.patchPodMetadata.annotations", key, problem));
                    }
                }
            }
            if ("MergePatchJson".equals(patch.getPatchPolicy()) && patch.getAnnotations() != null) {
                // Stricter than OpenKruise, which accepts any string and then refuses every pod already carrying
                // the annotation (its merge patch fails at injection and at each in-place upgrade).
                patch.getAnnotations().forEach((key, value) -> {
                    String problem = PodMetadataPatch.mergePatchValueProblem(value);
                    if (problem != null) {
                        errors.add(FieldError.invalid("spec.patchPodMetadata.annotations[" + key + "]",
                                value == null || value.length() <= 64 ? value : value.substring(0, 64) + "...",
                                "patchPolicy MergePatchJson: the value " + problem));
                    }
                });
            }
            if (patch.getPatchPolicy() == null || patch.getPatchPolicy().isEmpty()) {
                errors.add(FieldError.required("spec.patchPodMetadata", "no patchPolicy defined for patchPodMetadata"));
            } else if (patch.patchPolicyValue().isEmpty()) {
                errors.add(FieldError.notSupported("spec.patchPodMetadata.patchPolicy", patch.getPatchPolicy(),
                        WireEnum.values(SidecarSetPatchPolicyType.class)));
            }
            if (patch.getAnnotations() != null) {
                for (String k : patch.getAnnotations().keySet()) {
                    if (!keys.add(k)) {
                        errors.add(FieldError.required("spec.patchPodMetadata", "patch annotation[" + k + "] already exist"));
                    }
                }
            }
        }
    }

    private static void validateUpgradeTypes(List<SidecarContainer> now, List<SidecarContainer> before,
                                             List<FieldError> errors) {
        Map<String, String> old = new HashMap<>();
        for (SidecarContainer c : list(before)) {
            if (c == null) {
                continue;
            }
            old.put(c.getName(), c.getUpgradeStrategy() == null ? "" : Objects.toString(c.getUpgradeStrategy().getUpgradeType(), ""));
        }
        for (SidecarContainer c : list(now)) {
            String type = c.getUpgradeStrategy() == null ? "" : Objects.toString(c.getUpgradeStrategy().getUpgradeType(), "");
            if (!old.containsKey(c.getName())) {
                // OpenKruise refuses any container the old object did not have (a sidecar cannot be added later).
                errors.add(FieldError.invalid("spec.containers.name", c.getName(), "container " + c.getName()
                        + " is not found"));
            } else if (!old.get(c.getName()).isEmpty() && !old.get(c.getName()).equals(type)) {
                errors.add(FieldError.invalid("spec.containers.upgradeStrategy.upgradeType", c.getName(),
                        "container " + c.getName() + " upgradeType is immutable"));
            }
        }
    }

    /** Names another SidecarSet that may meet this one on a pod already uses. */
    static void validateConflicts(SidecarSet set, List<SidecarSet> others, List<FieldError> errors) {
        Map<String, SidecarSet> initContainers = new HashMap<>();
        Map<String, SidecarSet> containers = new HashMap<>();
        Map<String, SidecarSet> volumes = new HashMap<>();
        Map<String, String[]> annotations = new HashMap<>();
        String name = set.getMetadata().getName();
        for (SidecarSet other : others) {
            if (other.getSpec() == null || other.getMetadata() == null || Objects.equals(other.getMetadata().getName(), name)
                    || !mayMeet(set, other)) {
                continue;
            }
            list(other.getSpec().getInitContainers()).stream().filter(Objects::nonNull)
                    .forEach(c -> initContainers.put(c.getName(), other));
            list(other.getSpec().getContainers()).stream().filter(Objects::nonNull)
                    .forEach(c -> containers.put(c.getName(), other));
            list(other.getSpec().getVolumes()).stream().filter(Objects::nonNull)
                    .forEach(v -> volumes.put(v.getName(), other));
            for (SidecarSetPatchPodMetadata patch : list(other.getSpec().getPatchPodMetadata())) {
                if (patch == null || SidecarSetPatchPolicyType.RETAIN.value().equals(patch.getPatchPolicy())
                        || patch.getAnnotations() == null) {
                    continue;
                }
                patch.getAnnotations().keySet().forEach(k -> annotations.put(k,
                        new String[] {other.getMetadata().getName(), patch.getPatchPolicy()}));
            }
        }
        for (SidecarContainer c : list(set.getSpec().getInitContainers())) {
            SidecarSet other = initContainers.get(c.getName());
            if (other != null) {
                errors.add(FieldError.invalid("spec.containers", c.getName(), "container " + c.getName()
                        + " already exist in " + other.getMetadata().getName()));
            }
        }
        for (SidecarContainer c : list(set.getSpec().getContainers())) {
            SidecarSet other = containers.get(c.getName());
            if (other != null) {
                errors.add(FieldError.invalid("spec.containers", c.getName(), "container " + c.getName()
                        + " already exist in " + other.getMetadata().getName()));
            }
        }
        for (Volume v : list(set.getSpec().getVolumes())) {
            SidecarSet other = volumes.get(v.getName());
            if (other != null && !v.equals(volumeNamed(other, v.getName()))) {
                errors.add(FieldError.invalid("spec.volumes", v.getName(), "volume " + v.getName()
                        + " is in conflict with sidecarset " + other.getMetadata().getName()));
            }
        }
        String overwrite = SidecarSetPatchPolicyType.OVERWRITE.value();
        for (SidecarSetPatchPodMetadata patch : list(set.getSpec().getPatchPodMetadata())) {
            if (patch == null || SidecarSetPatchPolicyType.RETAIN.value().equals(patch.getPatchPolicy())
                    || patch.getAnnotations() == null) {
                continue;
            }
            for (String key : patch.getAnnotations().keySet()) {
                String[] other = annotations.get(key);
                if (other != null && (overwrite.equals(patch.getPatchPolicy()) || overwrite.equals(other[1]))) {
                    errors.add(FieldError.invalid("spec.patchPodMetadata", key, "annotation " + key
                            + " is in conflict with sidecarset " + other[0]));
                }
            }
        }
    }

    /** OpenKruise's rule: namespaces may overlap unless both selectors say otherwise, and the pod selectors overlap. */
    private static boolean mayMeet(SidecarSet a, SidecarSet b) {
        LabelSelector na = a.getSpec().getNamespaceSelector();
        LabelSelector nb = b.getSpec().getNamespaceSelector();
        if (na != null && nb != null && !SelectorOverlap.overlapping(na, nb)) {
            return false;
        }
        LabelSelector sa = a.getSpec().getSelector();
        LabelSelector sb = b.getSpec().getSelector();
        return sa != null && sb != null && SelectorOverlap.overlapping(sa, sb);
    }

    private static Volume volumeNamed(SidecarSet set, String name) {
        for (Volume v : list(set.getSpec().getVolumes())) {
            if (Objects.equals(v.getName(), name)) {
                return v;
            }
        }
        return null;
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
