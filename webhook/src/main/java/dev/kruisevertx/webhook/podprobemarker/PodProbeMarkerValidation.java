package dev.kruisevertx.webhook.podprobemarker;

import dev.kruisevertx.api.apps.v1alpha1.PodContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarkerSpec;
import dev.kruisevertx.api.apps.v1alpha1.ProbeMarkerPolicy;
import dev.kruisevertx.api.apps.v1alpha1.ProbeState;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import io.fabric8.kubernetes.api.model.ExecAction;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HTTPHeader;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.TCPSocketAction;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * OpenKruise v1.9.0's PodProbeMarker validation, rule for rule and with its field paths: a non-empty valid selector
 * (immutable on update), at least one probe, probe names unique, without '#', not a native pod condition, a
 * container, exactly one of exec/httpGet/tcpSocket (grpc is not accepted, as in OpenKruise), no host, valid ports and
 * non-negative timing, a podConditionType or a markerPolicy, unique condition types, and marker policies of state
 * Succeeded or Failed with valid labels or annotations. Pure.
 */
public final class PodProbeMarkerValidation {
    /** Pod conditions Kubernetes and Kruise own, which a probe may not be named after. */
    static final Set<String> NATIVE_POD_CONDITIONS = Set.of("PodScheduled", "Initialized", "Ready", "ContainersReady",
            "KruisePodReady", "InPlaceUpdateReady");
    static final List<String> SCHEMES = List.of("HTTP", "HTTPS");
    private static final long TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

    private PodProbeMarkerValidation() {
    }

    /** @param old the stored object on UPDATE, null on CREATE */
    public static List<FieldError> validate(PodProbeMarker ppm, PodProbeMarker old) {
        List<FieldError> errors = new ArrayList<>();
        validateSpec(ppm.spec(), "spec", errors);
        if (old != null && !Objects.equals(old.spec().getSelector(), ppm.spec().getSelector())) {
            errors.add(FieldError.invalid("selector", String.valueOf(ppm.spec().getSelector()),
                    "selector must be immutable"));
        }
        return errors;
    }

    static void validateSpec(PodProbeMarkerSpec spec, String path, List<FieldError> errors) {
        LabelSelector selector = spec.getSelector();
        if (selector == null) {
            errors.add(FieldError.invalid(path + ".selector", "null", "empty Selector is not valid for PodProbeMarker."));
        } else {
            LabelRules.validateSelector(selector, path + ".selector", errors);
            if (LabelRules.isEmpty(selector)) {
                errors.add(FieldError.invalid(path + ".selector", "{}", "empty selector is not valid for podProbeMarker."));
            }
        }
        List<PodContainerProbe> probes = spec.getProbes();
        if (probes == null || probes.isEmpty()) {
            errors.add(FieldError.invalid(path + ".probes", "null", "empty probes is not valid for PodProbeMarker."));
            return;
        }
        Set<String> names = new HashSet<>();
        Set<String> conditionTypes = new HashSet<>();
        for (PodContainerProbe probe : probes) {
            if (probe == null) {
                errors.add(FieldError.invalid(path + ".probes", "null", "probe can't be empty in podProbeMarker."));
                return;
            }
            String name = probe.getName() == null ? "" : probe.getName();
            String container = probe.getContainerName() == null ? "" : probe.getContainerName();
            // As OpenKruise, the first of these problems ends the validation.
            if (name.contains("#")) {
                errors.add(FieldError.invalid(path + ".probes", name, "probe name can't contains '#'."));
                return;
            }
            if (name.isEmpty()) {
                errors.add(FieldError.invalid(path + ".probes", name, "probe name can't be empty in PodProbeMarker."));
                return;
            }
            if (container.isEmpty()) {
                errors.add(FieldError.invalid(path + ".probes", container,
                        "probe containerName can't be empty in PodProbeMarker."));
                return;
            }
            if (NATIVE_POD_CONDITIONS.contains(name)) {
                errors.add(FieldError.invalid(path + ".probes", name, "probe name can't be " + name));
                return;
            }
            if (!names.add(name)) {
                errors.add(FieldError.invalid(path + ".probes", name, "probe name must be unique in PodProbeMarker."));
                return;
            }
            validateProbe(probe.getProbe(), path + ".probe", errors);
            String conditionType = probe.getPodConditionType() == null ? "" : probe.getPodConditionType();
            List<ProbeMarkerPolicy> policies = probe.getMarkerPolicy() == null ? List.of() : probe.getMarkerPolicy();
            if (conditionType.isEmpty() && policies.isEmpty()) {
                errors.add(FieldError.invalid(path + ".probes", name,
                        "podConditionType and markerPolicy cannot be empty at the same time"));
                return;
            }
            if (!conditionType.isEmpty() && !conditionTypes.add(conditionType)) {
                errors.add(FieldError.invalid(path + ".probes", conditionType,
                        "podConditionType " + conditionType + " must be unique in podProbeMarker"));
                return;
            }
            if (!conditionType.isEmpty()) {
                for (String problem : KubeNames.qualifiedNameProblems(conditionType)) {
                    errors.add(FieldError.invalid(path, conditionType, problem));
                }
            }
            Set<String> states = new HashSet<>();
            for (ProbeMarkerPolicy policy : policies) {
                String state = policy == null || policy.getState() == null ? "" : policy.getState();
                if (!states.add(state)) {
                    errors.add(FieldError.invalid(path + ".markerPolicy", state, "marker policy state must be unique."));
                    return;
                }
                validatePolicy(policy, path + ".markerPolicy", errors);
            }
        }
    }

    static void validateProbe(Probe probe, String path, List<FieldError> errors) {
        if (probe == null) {
            errors.add(FieldError.invalid(path, "null", "probe can't be empty in podProbeMarker."));
            return;
        }
        validateHandler(probe, path, errors);
        nonNegative(probe.getInitialDelaySeconds(), path + ".initialDelaySeconds", errors);
        nonNegative(probe.getTimeoutSeconds(), path + ".timeoutSeconds", errors);
        nonNegative(probe.getPeriodSeconds(), path + ".periodSeconds", errors);
        nonNegative(probe.getSuccessThreshold(), path + ".successThreshold", errors);
        nonNegative(probe.getFailureThreshold(), path + ".failureThreshold", errors);
    }

    private static void nonNegative(Integer value, String path, List<FieldError> errors) {
        if (value != null && value < 0) {
            errors.add(FieldError.invalid(path, value, "must be greater than or equal to 0"));
        }
    }

    static void validateHandler(Probe handler, String path, List<FieldError> errors) {
        int handlers = 0;
        if (handler.getExec() != null) {
            handlers++;
            validateExec(handler.getExec(), path + ".exec", errors);
        }
        if (handler.getHttpGet() != null) {
            if (handlers > 0) {
                errors.add(FieldError.forbidden(path + ".httpGet", "may not specify more than 1 handler type"));
            } else {
                handlers++;
                validateHttpGet(handler.getHttpGet(), path + ".httpGet", errors);
            }
        }
        if (handler.getTcpSocket() != null) {
            if (handlers > 0) {
                errors.add(FieldError.forbidden(path + ".tcpSocket", "may not specify more than 1 handler type"));
            } else {
                handlers++;
                validateTcpSocket(handler.getTcpSocket(), path + ".tcpSocket", errors);
            }
        }
        if (handlers == 0) {
            errors.add(FieldError.required(path, "must specify a handler type"));
        }
    }

    static void validateExec(ExecAction exec, String path, List<FieldError> errors) {
        if (exec.getCommand() == null || exec.getCommand().isEmpty()) {
            errors.add(FieldError.required(path + ".command", ""));
        }
    }

    static void validateTcpSocket(TCPSocketAction tcp, String path, List<FieldError> errors) {
        if (tcp.getHost() != null && !tcp.getHost().isEmpty()) {
            errors.add(FieldError.invalid(path + ".host", tcp.getHost(), "host field in probes is not allowed"));
        }
        validatePort(tcp.getPort(), path + ".port", errors);
    }

    static void validateHttpGet(HTTPGetAction http, String path, List<FieldError> errors) {
        String urlPath = http.getPath() == null ? "" : http.getPath();
        if (urlPath.isEmpty()) {
            errors.add(FieldError.required(path + ".path", ""));
        }
        if (http.getHost() != null && !http.getHost().isEmpty()) {
            errors.add(FieldError.invalid(path + ".host", http.getHost(), "host field in probes is not allowed"));
        }
        if (!KubeNames.isParsableUrlPath(urlPath)) {
            errors.add(FieldError.invalid(path + ".path", urlPath, "must be a valid URL path"));
        }
        validatePort(http.getPort(), path + ".port", errors);
        String scheme = http.getScheme() == null ? "" : http.getScheme();
        if (!SCHEMES.contains(scheme)) {
            errors.add(FieldError.notSupported(path + ".scheme", scheme, SCHEMES));
        }
        if (http.getHttpHeaders() != null) {
            for (HTTPHeader header : http.getHttpHeaders()) {
                String headerName = header == null ? null : header.getName();
                for (String problem : KubeNames.httpHeaderNameProblems(headerName)) {
                    errors.add(FieldError.invalid(path + ".httpHeaders", String.valueOf(headerName), problem));
                }
            }
        }
    }

    /** OpenKruise's ValidatePortNumOrName; a missing port is its "unknown type" internal error. */
    static void validatePort(IntOrString port, String path, List<FieldError> errors) {
        if (port != null && port.getIntVal() != null) {
            for (String problem : KubeNames.portNumberProblems(port.getIntVal())) {
                errors.add(FieldError.invalid(path, port.getIntVal(), problem));
            }
        } else if (port != null && port.getStrVal() != null) {
            for (String problem : KubeNames.portNameProblems(port.getStrVal())) {
                errors.add(FieldError.invalid(path, port.getStrVal(), problem));
            }
        } else {
            errors.add(FieldError.internal(path, "unknown type: port is missing"));
        }
    }

    static void validatePolicy(ProbeMarkerPolicy policy, String path, List<FieldError> errors) {
        String state = policy == null ? null : policy.getState();
        if (!ProbeState.SUCCEEDED.value().equals(state) && !ProbeState.FAILED.value().equals(state)) {
            errors.add(FieldError.required(path + ".state", "marker policy state must be 'True' or 'False'"));
            return;
        }
        Map<String, String> labels = policy.getLabels() == null ? Map.of() : policy.getLabels();
        Map<String, String> annotations = policy.getAnnotations() == null ? Map.of() : policy.getAnnotations();
        if (labels.isEmpty() && annotations.isEmpty()) {
            errors.add(FieldError.required(path, "marker policy annotations or labels can't be both empty"));
            return;
        }
        // ObjectMeta validation of {labels, annotations} as OpenKruise runs it (its fake name always passes).
        labels.forEach((k, v) -> {
            for (String problem : KubeNames.qualifiedNameProblems(k)) {
                errors.add(FieldError.invalid(path + ".labels", k, problem));
            }
            for (String problem : KubeNames.labelValueProblems(v)) {
                errors.add(FieldError.invalid(path + ".labels", v, problem));
            }
        });
        long size = 0;
        for (Map.Entry<String, String> e : annotations.entrySet()) {
            for (String problem : KubeNames.qualifiedNameProblems(e.getKey().toLowerCase(java.util.Locale.ROOT))) {
                errors.add(FieldError.invalid(path + ".annotations", e.getKey(), problem));
            }
            size += e.getKey().getBytes(StandardCharsets.UTF_8).length
                    + (e.getValue() == null ? 0 : e.getValue().getBytes(StandardCharsets.UTF_8).length);
        }
        if (size > TOTAL_ANNOTATION_SIZE_LIMIT) {
            errors.add(FieldError.tooLong(path + ".annotations", (int) TOTAL_ANNOTATION_SIZE_LIMIT, null));
        }
    }
}
