package dev.kruisevertx.webhook.ephemeraljob;

import dev.kruisevertx.api.apps.v1alpha1.EphemeralJob;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import dev.kruisevertx.webhook.validation.WorkloadNames;
import io.fabric8.kubernetes.api.model.EnvFromSource;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarSource;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.VolumeMount;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * OpenKruise v1.9.0's EphemeralJob validation: the template's ephemeral containers are checked as kube-apiserver
 * checks ephemeral containers (paths under {@code ephemeralContainers[i]}), and nothing else of the job. There are
 * no defaults, so {@code imagePullPolicy} and {@code terminationMessagePolicy} must be given.
 *
 * <p>Per container, in OpenKruise's order: name (required, DNS-1123 label), image (required), terminationMessagePolicy,
 * env, envFrom, imagePullPolicy; image without surrounding whitespace; names unique; only the fields an ephemeral
 * container may set (ports, resources, resizePolicy, probes, lifecycle and restartPolicy are forbidden); no
 * volumeMount subPath or subPathExpr. The security context is not checked field by field (kube-apiserver still
 * checks it when the container is added to a pod).
 */
public final class EphemeralJobValidation {
    static final List<String> PULL_POLICIES = List.of("Always", "IfNotPresent", "Never");
    static final List<String> TERMINATION_MESSAGE_POLICIES = List.of("File", "FallbackToLogsOnError");
    static final String FORBIDDEN = "cannot be set for an Ephemeral Container";
    static final String ROOT = "ephemeralContainers";

    private EphemeralJobValidation() {
    }

    public static List<FieldError> validate(EphemeralJob job) {
        return validateContainers(job.spec().template().containers());
    }

    static List<FieldError> validateContainers(List<EphemeralContainer> containers) {
        List<FieldError> errors = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (int i = 0; i < containers.size(); i++) {
            EphemeralContainer c = containers.get(i) == null ? new EphemeralContainer() : containers.get(i);
            String p = ROOT + "[" + i + "]";
            common(c, p, errors);
            if (c.getImage() != null && !c.getImage().equals(c.getImage().strip())) {
                errors.add(FieldError.invalid(p + ".image", c.getImage(), "must not have leading or trailing whitespace"));
            }
            String name = c.getName() == null ? "" : c.getName();
            if (!names.add(name)) {
                errors.add(FieldError.duplicate(p + ".name", name));
            }
            allowList(c, p, errors);
            List<VolumeMount> mounts = c.getVolumeMounts() == null ? List.of() : c.getVolumeMounts();
            for (int j = 0; j < mounts.size(); j++) {
                VolumeMount m = mounts.get(j);
                if (m != null && m.getSubPath() != null && !m.getSubPath().isEmpty()) {
                    errors.add(FieldError.forbidden(p + ".volumeMounts[" + j + "].subPath", FORBIDDEN));
                }
                if (m != null && m.getSubPathExpr() != null && !m.getSubPathExpr().isEmpty()) {
                    errors.add(FieldError.forbidden(p + ".volumeMounts[" + j + "].subPathExpr", FORBIDDEN));
                }
            }
        }
        return errors;
    }

    private static void common(EphemeralContainer c, String p, List<FieldError> errors) {
        if (c.getName() == null || c.getName().isEmpty()) {
            errors.add(FieldError.required(p + ".name", ""));
        } else if (!LabelRules.isDnsLabel(c.getName())) {
            errors.add(FieldError.invalid(p + ".name", c.getName(), WorkloadNames.LABEL_SYNTAX));
        }
        if (c.getImage() == null || c.getImage().isEmpty()) {
            errors.add(FieldError.required(p + ".image", ""));
        }
        String tmp = c.getTerminationMessagePolicy();
        if (tmp == null || tmp.isEmpty()) {
            errors.add(FieldError.required(p + ".terminationMessagePolicy", ""));
        } else if (!TERMINATION_MESSAGE_POLICIES.contains(tmp)) {
            errors.add(FieldError.notSupported(p + ".terminationMessagePolicy", tmp, TERMINATION_MESSAGE_POLICIES));
        }
        // Port syntax is not checked: ports are forbidden for ephemeral containers (allow list below).
        env(c.getEnv(), p + ".env", errors);
        envFrom(c.getEnvFrom(), p + ".envFrom", errors);
        String pull = c.getImagePullPolicy();
        if (pull == null || pull.isEmpty()) {
            errors.add(FieldError.required(p + ".imagePullPolicy", ""));
        } else if (!PULL_POLICIES.contains(pull)) {
            errors.add(FieldError.notSupported(p + ".imagePullPolicy", pull, PULL_POLICIES));
        }
    }

    /** The fields an ephemeral container may not set, each reported once, as kube's allow list. */
    private static void allowList(EphemeralContainer c, String p, List<FieldError> errors) {
        if (c.getPorts() != null && !c.getPorts().isEmpty()) {
            errors.add(FieldError.forbidden(p + ".ports", FORBIDDEN));
        }
        if (hasResources(c.getResources())) {
            errors.add(FieldError.forbidden(p + ".resources", FORBIDDEN));
        }
        if (c.getResizePolicy() != null && !c.getResizePolicy().isEmpty()) {
            errors.add(FieldError.forbidden(p + ".resizePolicy", FORBIDDEN));
        }
        if (c.getRestartPolicy() != null) {
            errors.add(FieldError.forbidden(p + ".restartPolicy", FORBIDDEN));
        }
        if (c.getLivenessProbe() != null) {
            errors.add(FieldError.forbidden(p + ".livenessProbe", FORBIDDEN));
        }
        if (c.getReadinessProbe() != null) {
            errors.add(FieldError.forbidden(p + ".readinessProbe", FORBIDDEN));
        }
        if (c.getStartupProbe() != null) {
            errors.add(FieldError.forbidden(p + ".startupProbe", FORBIDDEN));
        }
        if (c.getLifecycle() != null) {
            errors.add(FieldError.forbidden(p + ".lifecycle", FORBIDDEN));
        }
    }

    private static boolean hasResources(ResourceRequirements r) {
        return r != null && ((r.getLimits() != null && !r.getLimits().isEmpty())
                || (r.getRequests() != null && !r.getRequests().isEmpty())
                || (r.getClaims() != null && !r.getClaims().isEmpty()));
    }

    private static void env(List<EnvVar> env, String path, List<FieldError> errors) {
        if (env == null) {
            return;
        }
        for (int i = 0; i < env.size(); i++) {
            EnvVar e = env.get(i) == null ? new EnvVar() : env.get(i);
            String p = path + "[" + i + "]";
            if (e.getName() == null || e.getName().isEmpty()) {
                errors.add(FieldError.required(p + ".name", ""));
            } else if (!isEnvVarName(e.getName())) {
                errors.add(FieldError.invalid(p + ".name", e.getName(), ENV_NAME_SYNTAX));
            }
            EnvVarSource from = e.getValueFrom();
            if (from != null) {
                int sources = (from.getFieldRef() != null ? 1 : 0) + (from.getResourceFieldRef() != null ? 1 : 0)
                        + (from.getConfigMapKeyRef() != null ? 1 : 0) + (from.getSecretKeyRef() != null ? 1 : 0);
                if (e.getValue() != null && !e.getValue().isEmpty()) {
                    errors.add(FieldError.invalid(p + ".valueFrom", "", "may not be specified when `value` is not empty"));
                } else if (sources == 0) {
                    errors.add(FieldError.invalid(p + ".valueFrom", "", "must specify one of: `fieldRef`, "
                            + "`resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
                } else if (sources > 1) {
                    errors.add(FieldError.invalid(p + ".valueFrom", "", "may not have more than one field specified at a time"));
                }
            }
        }
    }

    private static void envFrom(List<EnvFromSource> envFrom, String path, List<FieldError> errors) {
        if (envFrom == null) {
            return;
        }
        for (int i = 0; i < envFrom.size(); i++) {
            EnvFromSource e = envFrom.get(i) == null ? new EnvFromSource() : envFrom.get(i);
            String p = path + "[" + i + "]";
            if (e.getPrefix() != null && !e.getPrefix().isEmpty() && !isEnvVarName(e.getPrefix())) {
                errors.add(FieldError.invalid(p + ".prefix", e.getPrefix(), ENV_NAME_SYNTAX));
            }
            int sources = (e.getConfigMapRef() != null ? 1 : 0) + (e.getSecretRef() != null ? 1 : 0);
            if (sources == 0) {
                errors.add(FieldError.invalid(p, "", "must specify one of: `configMapRef` or `secretRef`"));
            } else if (sources > 1) {
                errors.add(FieldError.invalid(p, "", "may not have more than one field specified at a time"));
            }
        }
    }

    static final String ENV_NAME_SYNTAX = "a valid environment variable name must consist only of printable ASCII "
            + "characters other than '='";

    /** Kubernetes' relaxed environment variable names (v1.32): printable ASCII except '='. */
    static boolean isEnvVarName(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < 32 || ch > 126 || ch == '=') {
                return false;
            }
        }
        return true;
    }
}
