package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.ResourceExprValues;
import dev.kruisevertx.api.apps.v1beta1.ResourcesPolicy;
import dev.kruisevertx.api.apps.v1beta1.TargetContainersModeType;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A sidecar's {@code resourcesPolicy} turned into its resources when a pod is created (OpenKruise v1.9's
 * {@code applyResourcesPolicy}):
 * <ul>
 *   <li>target containers: the pod's containers and native-sidecar init containers ({@code restartPolicy: Always};
 *       plain init containers never count) whose name {@code targetContainersNameRegex} finds (unanchored), minus
 *       every container name of the SidecarSets injected into the pod; none is an error;</li>
 *   <li>{@code sum} or {@code max} of their limits and requests per resource: a limit only when every target has
 *       one (otherwise unlimited: the sidecar gets no limit for it), a missing request counts as 0;</li>
 *   <li>each expression of {@code resourcesExpr} evaluated over that value ({@link ResourceExpression#resource});
 *       a limit expression over an unlimited value sets nothing; a request expression always applies.</li>
 * </ul>
 * The result replaces the sidecar's resources (validation refuses {@code resources} next to a policy).
 */
public final class SidecarResourcesPolicy {
    private static final String CPU = "cpu";
    private static final String MEMORY = "memory";

    private SidecarResourcesPolicy() {
    }

    /**
     * @param pod              the pod as created, before injection
     * @param sidecarName      the sidecar's name (for messages)
     * @param policy           its resourcesPolicy
     * @param kruiseSidecars   names of every container and init container of the SidecarSets injected into the pod
     * @return the sidecar's resources
     * @throws IllegalArgumentException the policy cannot be applied to this pod (no target container, a bad
     *                                  expression or quantity): OpenKruise refuses such a pod
     */
    public static ResourceRequirements resources(Pod pod, String sidecarName, ResourcesPolicy policy,
                                                 Set<String> kruiseSidecars) {
        String regex = policy.getTargetContainersNameRegex() == null ? "" : policy.getTargetContainersNameRegex();
        List<Container> targets = targets(pod, regex, kruiseSidecars);
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("resourcesPolicy of sidecar " + sidecarName
                    + ": no containers match the regex pattern \"" + regex + "\"");
        }
        Map<String, ResourceExpression.Quantity> limits = new LinkedHashMap<>();
        Map<String, ResourceExpression.Quantity> requests = new LinkedHashMap<>();
        TargetContainersModeType mode = policy.targetContainersModeValue().orElse(null);
        if (mode != null) {
            for (String r : List.of(CPU, MEMORY)) {
                aggregate(targets, r, mode == TargetContainersModeType.SUM, limits, requests);
            }
        }
        ResourceRequirements out = new ResourceRequirements();
        try {
            ResourceExprValues limitExpr = policy.getResourcesExpr() == null ? null : policy.getResourcesExpr().getLimits();
            if (limitExpr != null) {
                Map<String, Quantity> l = new LinkedHashMap<>();
                put(l, CPU, limitExpr.getCpu(), limits.get(CPU), true);
                put(l, MEMORY, limitExpr.getMemory(), limits.get(MEMORY), true);
                out.setLimits(l.isEmpty() ? null : l);
            }
            ResourceExprValues requestExpr = policy.getResourcesExpr() == null ? null
                    : policy.getResourcesExpr().getRequests();
            if (requestExpr != null) {
                Map<String, Quantity> q = new LinkedHashMap<>();
                put(q, CPU, requestExpr.getCpu(), requests.getOrDefault(CPU, ResourceExpression.Quantity.zero()), false);
                put(q, MEMORY, requestExpr.getMemory(), requests.getOrDefault(MEMORY,
                        ResourceExpression.Quantity.zero()), false);
                out.setRequests(q.isEmpty() ? null : q);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("resourcesPolicy of sidecar " + sidecarName + ": " + e.getMessage());
        }
        return out;
    }

    /** The target containers, init containers first, in the pod's order. */
    static List<Container> targets(Pod pod, String regex, Set<String> kruiseSidecars) {
        Pattern pattern;
        try {
            pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("invalid regex pattern \"" + regex + "\": " + e.getDescription());
        }
        List<Container> out = new ArrayList<>();
        for (Container c : list(pod.getSpec().getInitContainers())) {
            if (!kruiseSidecars.contains(c.getName()) && SidecarSetHash.isNativeSidecar(c)
                    && pattern.matcher(c.getName()).find()) {
                out.add(c);
            }
        }
        for (Container c : list(pod.getSpec().getContainers())) {
            if (!kruiseSidecars.contains(c.getName()) && pattern.matcher(c.getName()).find()) {
                out.add(c);
            }
        }
        return out;
    }

    private static void aggregate(List<Container> targets, String resource, boolean sum,
                                  Map<String, ResourceExpression.Quantity> limits,
                                  Map<String, ResourceExpression.Quantity> requests) {
        ResourceExpression.Quantity limit = sum ? new ResourceExpression.Quantity(java.math.BigDecimal.ZERO,
                GoQuantity.Format.DECIMAL_SI) : null;
        ResourceExpression.Quantity request = limit;
        boolean allLimited = true;
        for (Container c : targets) {
            ResourceExpression.Quantity l = quantity(c, c.getResources() == null ? null : c.getResources().getLimits(),
                    resource);
            if (l == null) {
                allLimited = false;
            } else {
                limit = combine(limit, l, sum);
            }
            ResourceExpression.Quantity r = quantity(c, c.getResources() == null ? null
                    : c.getResources().getRequests(), resource);
            if (r != null) {
                request = combine(request, r, sum);
            }
        }
        if (allLimited && limit != null) {
            limits.put(resource, limit);
        }
        // OpenKruise keeps a zero sum out (it reads as 0 anyway) but a zero max of requests that were set.
        if (request != null && (!sum || !request.isZero())) {
            requests.put(resource, request);
        }
    }

    private static ResourceExpression.Quantity combine(ResourceExpression.Quantity acc, ResourceExpression.Quantity q,
                                                       boolean sum) {
        if (sum) {
            return acc.add(q);
        }
        return acc == null || q.value().compareTo(acc.value()) > 0 ? q : acc;
    }

    private static ResourceExpression.Quantity quantity(Container c, Map<String, Quantity> list, String resource) {
        Quantity q = list == null ? null : list.get(resource);
        if (q == null) {
            return null;
        }
        String text = (q.getAmount() == null ? "" : q.getAmount()) + (q.getFormat() == null ? "" : q.getFormat());
        try {
            return ResourceExpression.Quantity.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("container " + c.getName() + " has an invalid " + resource
                    + " quantity");
        }
    }

    private static void put(Map<String, Quantity> out, String resource, String expr,
                            ResourceExpression.Quantity aggregated, boolean limit) {
        if (expr == null || expr.isEmpty() || aggregated == null) {
            return;
        }
        ResourceExpression.Quantity q;
        try {
            q = ResourceExpression.resource(expr, aggregated, limit);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("failed to evaluate " + resource + (limit ? " limits" : " requests")
                    + " expression \"" + expr + "\": " + e.getMessage());
        }
        if (q != null) {
            out.put(resource, new Quantity(q.toString()));
        }
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
