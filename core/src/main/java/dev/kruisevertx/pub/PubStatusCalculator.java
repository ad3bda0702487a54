package dev.kruisevertx.pub;

import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetSpec;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * OpenKruise's PodUnavailableBudget status calculation, pure: from the budget, its pods, the number of replicas it
 * protects and {@code now}, the new counts and the records still pending.
 *
 * <ul>
 *   <li>desiredAvailable: {@code total - maxUnavailable} (percent rounded up, floor 0), or minAvailable (an integer
 *   as is, a percent of total rounded up);</li>
 *   <li>currentAvailable: active pods that are not recorded, whose state is consistent (in-place update done) and
 *   that are running, ready and carry no {@code unavailable-pod.kruise.io/} label;</li>
 *   <li>unavailableAllowed: {@code max(0, current - desired)};</li>
 *   <li>a disruptedPods record is dropped {@value #DELETION_TIMEOUT_SECONDS}s after the admission (the pod should
 *   be gone by then), an unavailablePods record {@value #UPDATE_DELAY_SECONDS}s after it (the update should have been
 *   seen); records of pods that are gone or inactive are dropped at once.</li>
 * </ul>
 */
public final class PubStatusCalculator {
    public static final long DELETION_TIMEOUT_SECONDS = 20;
    public static final long UPDATE_DELAY_SECONDS = 10;

    /**
     * @param desiredAvailable   minimum pods that must stay available
     * @param currentAvailable   pods available now
     * @param unavailableAllowed disruptions still allowed
     * @param totalReplicas      replicas the budget counts
     * @param disruptedPods      pending DELETE/EVICT records (pod name to RFC 3339 time)
     * @param unavailablePods    pending unavailable-update records
     * @param recheckIn          when the earliest record expires (null when there is none)
     * @param expiredDisruptions pods recorded as disrupted that were not deleted in time (OpenKruise warns on them)
     */
    public record Result(int desiredAvailable, int currentAvailable, int unavailableAllowed, int totalReplicas,
                         Map<String, String> disruptedPods, Map<String, String> unavailablePods, Duration recheckIn,
                         List<String> expiredDisruptions) {
    }

    private PubStatusCalculator() {
    }

    /** desiredAvailable for {@code expected} replicas. */
    public static int desiredAvailable(PodUnavailableBudgetSpec spec, int expected) {
        if (spec.getMaxUnavailable() != null) {
            int max = IntOrPercent.scaledValue(spec.getMaxUnavailable(), expected, true);
            return Math.max(0, expected - max);
        }
        if (spec.getMinAvailable() != null) {
            if (spec.getMinAvailable().getIntVal() != null) {
                return spec.getMinAvailable().getIntVal();
            }
            return IntOrPercent.scaledValue(spec.getMinAvailable(), expected, true);
        }
        return 0;
    }

    /** Running, Ready and not marked unavailable by a {@code unavailable-pod.kruise.io/} label. */
    public static boolean isReady(Pod pod) {
        if (!Pods.isRunningAndReady(pod)) {
            return false;
        }
        return Pods.labels(pod).keySet().stream().noneMatch(k -> k.startsWith(WellKnown.UNAVAILABLE_POD_LABEL_PREFIX));
    }

    /**
     * @param pods       the budget's pods (inactive ones are ignored)
     * @param expected   replicas the budget protects (protectTotalReplicas or the workload's)
     * @param consistent whether a pod's containers run its spec (no in-place update in flight)
     */
    public static Result calculate(PodUnavailableBudget pub, List<Pod> pods, int expected,
                                   Predicate<Pod> consistent, Instant now) {
        Map<String, String> oldDisrupted = pub.status().getDisruptedPods();
        Map<String, String> oldUnavailable = pub.status().getUnavailablePods();
        Map<String, String> disrupted = new TreeMap<>();
        Map<String, String> unavailable = new TreeMap<>();
        List<String> expired = new java.util.ArrayList<>();
        Instant recheck = null;
        for (Pod pod : pods) {
            if (!Pods.isActive(pod)) {
                continue;
            }
            String name = pod.getMetadata().getName();
            String at = oldDisrupted == null ? null : oldDisrupted.get(name);
            Instant since = Pods.parseTime(at);
            if (since != null) {
                Instant deadline = since.plusSeconds(DELETION_TIMEOUT_SECONDS);
                if (deadline.isBefore(now)) {
                    expired.add(name);
                } else {
                    disrupted.put(name, at);
                    recheck = earliest(recheck, deadline);
                }
            }
            at = oldUnavailable == null ? null : oldUnavailable.get(name);
            since = Pods.parseTime(at);
            if (since != null) {
                Instant deadline = since.plusSeconds(UPDATE_DELAY_SECONDS);
                if (!deadline.isBefore(now)) {
                    unavailable.put(name, at);
                    recheck = earliest(recheck, deadline);
                }
            }
        }
        int current = 0;
        for (Pod pod : pods) {
            String name = pod.getMetadata().getName();
            if (Pods.isActive(pod) && !disrupted.containsKey(name) && !unavailable.containsKey(name)
                    && consistent.test(pod) && isReady(pod)) {
                current++;
            }
        }
        int desired = desiredAvailable(pub.spec(), expected);
        return new Result(desired, current, Math.max(0, current - desired), expected, disrupted, unavailable,
                recheck == null ? null : Duration.between(now, recheck), expired);
    }

    private static Instant earliest(Instant a, Instant b) {
        return a == null || b.isBefore(a) ? b : a;
    }
}
