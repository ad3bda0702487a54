package dev.kruisevertx.pub;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import dev.kruisevertx.api.policy.v1alpha1.PubOperation;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * OpenKruise's PodUnavailableBudget admission decision for one pod operation, pure: whether a DELETE, an eviction or
 * an unavailable-making UPDATE of a pod may go ahead under its budget, and if so the budget status to write
 * (unavailableAllowed decremented, the pod recorded). The caller writes that status over the resourceVersion it
 * decided from and decides again on a conflict.
 */
public final class PubAdmission {
    /** Records a budget may hold before every further disruption is refused (the controller has fallen behind). */
    public static final int MAX_RECORDS = 2000;
    static final String NONE_ALLOWED = "pub unavailable allowed is negative";
    static final String TOO_MANY_RECORDS = "DisruptedPods and UnavailablePods map too big - too many unavailable not "
            + "confirmed by PUB controller";

    /** What the decision is; only {@link #ADMIT} asks for a status write. */
    public enum Verdict {
        /** The operation is not the budget's business (the reason says why). */
        EXEMPT,
        /** Allowed without a write: a dry run that the budget would admit. */
        ADMIT_DRY_RUN,
        /** Allowed once {@link Decision#status()} is written. */
        ADMIT,
        /** Refused with {@link Decision#reason()}, OpenKruise's message. */
        DENY
    }

    /**
     * @param verdict what to do
     * @param reason  why (an exemption's rule, or the denial message); null on ADMIT
     * @param status  the status to write on ADMIT, else null
     */
    public record Decision(Verdict verdict, String reason, PodUnavailableBudgetStatus status) {
        public boolean allowed() {
            return verdict != Verdict.DENY;
        }
    }

    /**
     * @param pod          the pod as stored (before the operation)
     * @param consistent   whether its containers run its spec (no in-place update in flight)
     * @param pub          its budget, or null when none protects it
     * @param operation    the operation asked for
     * @param resizeIsOwnOperation gate InPlacePodVerticalScaling: without it a RESIZE is protected like an UPDATE
     * @param dryRun       the request persists nothing
     */
    public static Decision decide(Pod pod, boolean consistent, PodUnavailableBudget pub, PubOperation operation,
                                  boolean resizeIsOwnOperation, boolean dryRun, Instant now) {
        if ("true".equals(Pods.annotations(pod).get(WellKnown.PUB_NO_PROTECT_ANNOTATION))) {
            return exempt("pod is annotated " + WellKnown.PUB_NO_PROTECT_ANNOTATION + "=true");
        }
        if (!PubStatusCalculator.isReady(pod) || !consistent) {
            return exempt("pod is not available already");
        }
        if (pub == null) {
            return exempt("no PodUnavailableBudget protects the pod");
        }
        Decision bySelector = byIgnoredPodSelector(pub, pod);
        if (bySelector != null) {
            return bySelector;
        }
        PodUnavailableBudgetStatus status = pub.status();
        if (status.getDesiredAvailable() == 0) {
            return exempt("budget desires no available pods");
        }
        if (!protects(pub, operation, resizeIsOwnOperation)) {
            return exempt("budget does not protect " + operation);
        }
        String name = pod.getMetadata().getName();
        if (recorded(status.getDisruptedPods(), name) || recorded(status.getUnavailablePods(), name)) {
            return exempt("pod is already recorded by the budget");
        }
        if (status.getUnavailableAllowed() <= 0) {
            return deny(pub, NONE_ALLOWED);
        }
        int records = size(status.getDisruptedPods()) + size(status.getUnavailablePods());
        if (records > MAX_RECORDS) {
            return deny(pub, TOO_MANY_RECORDS);
        }
        if (dryRun) {
            return new Decision(Verdict.ADMIT_DRY_RUN, "dry run: nothing recorded", null);
        }
        PodUnavailableBudgetStatus next = copy(status);
        next.setUnavailableAllowed(status.getUnavailableAllowed() - 1);
        Map<String, String> disrupted = status.getDisruptedPods() == null ? new TreeMap<>()
                : new TreeMap<>(status.getDisruptedPods());
        Map<String, String> unavailable = status.getUnavailablePods() == null ? new TreeMap<>()
                : new TreeMap<>(status.getUnavailablePods());
        // Only UPDATE is an unavailable-making update; DELETE, EVICT and RESIZE count as disruptions, as OpenKruise.
        (operation == PubOperation.UPDATE ? unavailable : disrupted).put(name, Pods.formatTime(now));
        next.setDisruptedPods(disrupted);
        next.setUnavailablePods(unavailable);
        return new Decision(Verdict.ADMIT, null, next);
    }

    /**
     * The budget's v1beta1 {@code spec.ignoredPodSelector}: a pod it selects bypasses the budget for every operation
     * (the budget's status still counts it, as OpenKruise's controller does). A selector without requirements selects
     * nothing. One that cannot be evaluated refuses the operation, as OpenKruise answers with the selector's error
     * rather than guess; the budget's own webhook refuses such selectors, so only a bypassed webhook gets here.
     *
     * @return the decision the selector makes, or null when it makes none
     */
    private static Decision byIgnoredPodSelector(PodUnavailableBudget pub, Pod pod) {
        try {
            LabelSelector selector = pub.ignoredPodSelector().orElse(null);
            if (selector == null || (isEmpty(selector.getMatchLabels()) && isEmpty(selector.getMatchExpressions()))) {
                return null;
            }
            return LabelSelectors.matches(selector, Pods.labels(pod))
                    ? exempt("pod matches the budget's ignoredPodSelector") : null;
        } catch (IllegalArgumentException e) {
            return deny(pub, "spec.ignoredPodSelector cannot be evaluated: " + e.getMessage());
        }
    }

    private static boolean isEmpty(Map<?, ?> m) {
        return m == null || m.isEmpty();
    }

    private static boolean isEmpty(java.util.Collection<?> c) {
        return c == null || c.isEmpty();
    }

    /** Whether the budget protects {@code operation}; without the resize gate, protecting UPDATE protects RESIZE. */
    public static boolean protects(PodUnavailableBudget pub, PubOperation operation, boolean resizeIsOwnOperation) {
        Set<PubOperation> ops = pub.protectOperations();
        if (!resizeIsOwnOperation && ops.contains(PubOperation.UPDATE)) {
            ops.add(PubOperation.RESIZE);
        }
        return ops.contains(operation);
    }

    /** OpenKruise's Forbidden message naming the budget. */
    public static String denial(String pubName, String why) {
        return "podunavailablebudget.policy.kruise.io \"" + pubName + "\" is forbidden: " + why;
    }

    private static Decision deny(PodUnavailableBudget pub, String why) {
        return new Decision(Verdict.DENY, denial(pub.getMetadata().getName(), why), null);
    }

    private static Decision exempt(String why) {
        return new Decision(Verdict.EXEMPT, why, null);
    }

    private static boolean recorded(Map<String, String> records, String name) {
        return records != null && records.containsKey(name);
    }

    private static int size(Map<String, String> m) {
        return m == null ? 0 : m.size();
    }

    private static PodUnavailableBudgetStatus copy(PodUnavailableBudgetStatus s) {
        PodUnavailableBudgetStatus c = new PodUnavailableBudgetStatus();
        c.setObservedGeneration(s.getObservedGeneration());
        c.setCurrentAvailable(s.getCurrentAvailable());
        c.setDesiredAvailable(s.getDesiredAvailable());
        c.setTotalReplicas(s.getTotalReplicas());
        c.setUnavailableAllowed(s.getUnavailableAllowed());
        // Fields a newer OpenKruise writes survive the write.
        s.getAdditionalProperties().forEach(c::setAdditionalProperty);
        return c;
    }

    private PubAdmission() {
    }
}
