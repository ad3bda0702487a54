package dev.kruisevertx.webhook.validation;

import dev.kruisevertx.webhook.admission.FieldError;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.VolumeResourceRequirements;

import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The resource quantities of pod and claim templates, held to Kubernetes' quantity syntax and to non-negative
 * values. fabric8 takes any string as a quantity; the API server refuses a pod or PVC with {@code cpu: abc} or
 * {@code memory: -1Gi}, so a workload carrying one would fail every creation and retry forever.
 */
public final class ResourceQuantities {
    /** Kubernetes' quantity grammar: a signed decimal number, then a binary-SI, decimal-SI or exponent suffix. */
    private static final Pattern QUANTITY = Pattern.compile(
            "[+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[KMGTPE]i|[numkMGTPE]|[eE][+-]?[0-9]+)?");
    /** Long enough for any real quantity; past it a value is refused without being matched. */
    private static final int MAX_LENGTH = 64;

    private ResourceQuantities() {
    }

    /** Checks the requests and limits of every container and init container of {@code pod}. */
    public static void checkPod(PodSpec pod, String path, List<FieldError> errors) {
        if (pod == null) {
            return;
        }
        checkContainers(pod.getInitContainers(), path + ".initContainers", errors);
        checkContainers(pod.getContainers(), path + ".containers", errors);
    }

    /** Checks the storage requests and limits of claim templates. */
    public static void checkClaims(List<PersistentVolumeClaim> claims, String path, List<FieldError> errors) {
        if (claims == null) {
            return;
        }
        for (int i = 0; i < claims.size(); i++) {
            PersistentVolumeClaim c = claims.get(i);
            VolumeResourceRequirements r = c == null || c.getSpec() == null ? null : c.getSpec().getResources();
            if (r != null) {
                checkRequirements(r.getRequests(), r.getLimits(), path + "[" + i + "].spec.resources", errors);
            }
        }
    }

    private static void checkContainers(List<Container> containers, String path, List<FieldError> errors) {
        if (containers == null) {
            return;
        }
        for (int i = 0; i < containers.size(); i++) {
            ResourceRequirements r = containers.get(i).getResources();
            if (r != null) {
                checkRequirements(r.getRequests(), r.getLimits(), path + "[" + i + "].resources", errors);
            }
        }
    }

    /** The requests and limits of one container or claim ({@code path} ends in {@code .resources}). */
    private static void checkRequirements(Map<String, Quantity> requests, Map<String, Quantity> limits, String path,
                                          List<FieldError> errors) {
        checkMap(requests, path + ".requests", errors);
        checkMap(limits, path + ".limits", errors);
    }

    private static void checkMap(Map<String, Quantity> quantities, String path, List<FieldError> errors) {
        if (quantities == null) {
            return;
        }
        quantities.forEach((name, q) -> {
            String text = q == null ? "" : q.toString();
            if (text.length() > MAX_LENGTH || !QUANTITY.matcher(text).matches()) {
                errors.add(FieldError.invalid(path + "[" + name + "]", text, "quantities must match the regular "
                        + "expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"));
            } else if (text.startsWith("-")) {
                errors.add(FieldError.invalid(path + "[" + name + "]", text, "must be greater than or equal to 0"));
            }
        });
    }
}
