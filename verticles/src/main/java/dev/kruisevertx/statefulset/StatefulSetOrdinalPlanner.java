package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.DesiredOrdinals;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.api.common.UpdatePriorityStrategy;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.updatesort.UpdateOrder;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.Reasons;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PrimitiveIterator;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Which ordinals move in one Advanced StatefulSet reconcile, as a pure function of the set's settings and its pods:
 * the pods to create, to delete and to update. {@link StatefulSetPlanner} then decides how each is carried out.
 *
 * <p>Order of work, as upstream: first make every desired ordinal exist and be healthy (replacing failed pods),
 * then delete condemned pods (highest ordinal first), then roll the update. With {@code OrderedReady} every step
 * waits for all earlier pods to be running and ready and does one thing at a time; with {@code Parallel} creations
 * and deletions happen together, creations limited by {@code scaleStrategy.maxUnavailable} and updates by
 * {@code rollingUpdate.maxUnavailable}.
 *
 * <p>The work grows with the pods that exist, never with {@code replicas}: the desired ordinals are a
 * {@link DesiredOrdinals} range that is asked about, not walked, beyond the few missing ordinals a plan creates.
 */
final class StatefulSetOrdinalPlanner {
    /** How often a set looks at PVCs expanding for OnPodRollingUpdate. */
    static final Duration CLAIM_RESIZE_RECHECK = Duration.ofSeconds(5);
    private static final int MAX_CREATES_PER_PLAN = StatefulSetPlanner.MAX_CREATES_PER_PLAN;

    private StatefulSetOrdinalPlanner() {
    }

    /**
     * Everything the decision reads.
     *
     * @param setName             name of the set (pods are {@code <setName>-<ordinal>})
     * @param desired             ordinals to run
     * @param parallel            podManagementPolicy Parallel
     * @param rollingUpdate       updateStrategy.type RollingUpdate (else OnDelete)
     * @param partition           ordinals below it keep the current revision
     * @param maxUnavailable      resolved rollingUpdate.maxUnavailable (at least 1)
     * @param paused              rollingUpdate.paused
     * @param scaleMaxUnavailable resolved scaleStrategy.maxUnavailable, or null for no limit (Parallel only)
     * @param minReadySeconds     rollingUpdate.minReadySeconds
     * @param currentRevision     revision of pods below the partition
     * @param updateRevision      revision of the current template
     * @param pods                the set's pods by ordinal (terminating ones included)
     * @param revisionOf          the revision a pod is at
     * @param inPlaceUpdatable    whether a pod can reach the update revision in place (podUpdatePolicy allows it and
     *                            only in-place fields changed)
     * @param inPlaceOnly         podUpdatePolicy InPlaceOnly: a pod that cannot be updated in place waits
     * @param priority            unorderedUpdate.priorityStrategy (Parallel only), or null for descending ordinals
     * @param now                 the time of the decision
     * @param claims              the pods' PVCs against grown templates (volumeClaimUpdateStrategy)
     * @param updateCompleted     whether the pod's in-place update (if any) has completed: its containers run the new
     *                            spec and no grace period or batch is pending (OpenKruise's CheckPodUpdateCompleted)
     */
    public record State(String setName, DesiredOrdinals desired, boolean parallel, boolean rollingUpdate, int partition,
                        int maxUnavailable, boolean paused, Integer scaleMaxUnavailable, int minReadySeconds,
                        String currentRevision, String updateRevision, Map<Integer, Pod> pods,
                        Function<Pod, String> revisionOf, Predicate<Pod> inPlaceUpdatable, boolean inPlaceOnly,
                        UpdatePriorityStrategy priority, Instant now, Claims claims,
                        Predicate<Pod> updateCompleted) {
    }

    /**
     * What the rolling update knows about each pod's PVCs when volumeClaimUpdateStrategy is OnPodRollingUpdate (gate
     * StatefulSetAutoResizePVCGate): a pod whose PVCs request less than the templates is due for an update even at
     * the update revision; its PVCs are expanded first (within maxUnavailable) and the pod waits until the expansion
     * completes; a pod whose PVCs are not ready counts as unavailable.
     *
     * @param onRollingUpdate whether the strategy applies at all
     * @param match           every existing PVC of the pod is compatible with its template and large enough
     * @param ready           every existing PVC of the pod reports the capacity it requests (a smaller, not yet
     *                        expanded PVC is ready)
     * @param resized         every existing PVC of the pod finished expanding (or only waits for the file system)
     */
    public record Claims(boolean onRollingUpdate, Predicate<Pod> match, Predicate<Pod> ready, Predicate<Pod> resized) {
        public static final Claims NONE = new Claims(false, p -> true, p -> true, p -> true);
    }

    public static StatefulSetPlan plan(State s) {
        List<StatefulSetPlan.Create> creates = new ArrayList<>();
        List<StatefulSetPlan.Delete> deletes = new ArrayList<>();
        List<String> inPlace = new ArrayList<>();
        List<String> resize = new ArrayList<>();
        List<BlockReason> reasons = new ArrayList<>();
        DesiredOrdinals desired = s.desired();
        TreeMap<Integer, Pod> pods = new TreeMap<>(s.pods());
        boolean monotonic = !s.parallel();
        // A ready pod turning available after minReadySeconds changes what every step below (and the status) sees,
        // and no event announces it: whatever is decided, look again then. Early returns keep this too.
        Duration requeue = Duration.ZERO;
        for (Pod pod : pods.values()) {
            requeue = earliest(requeue, availableIn(s, pod));
        }

        // Unavailable desired pods limit Parallel scale-up; a missing pod counts as unavailable once created.
        int unavailable = 0;
        for (Map.Entry<Integer, Pod> e : pods.entrySet()) {
            if (desired.contains(e.getKey()) && !available(s, e.getValue())) {
                unavailable++;
            }
        }

        // 1. Every desired ordinal exists and is healthy.
        String blockedBy = monotonic ? orderedStep(s, pods, creates, deletes) : parallelStep(s, pods, unavailable,
                creates, deletes, reasons);
        if (monotonic && blockedBy != null) {
            return new StatefulSetPlan(creates, deletes, inPlace, resize,
                    StatefulSetPlan.summary(s.desired(), creates, deletes, inPlace, resize, blockedBy), requeue, reasons);
        }

        // 2. Condemned pods go, highest ordinal first.
        for (Map.Entry<Integer, Pod> e : pods.descendingMap().entrySet()) {
            if (desired.contains(e.getKey())) {
                continue;
            }
            Pod pod = e.getValue();
            String name = pod.getMetadata().getName();
            if (Pods.isTerminating(pod)) {
                if (monotonic) {
                    blockedBy = "waiting for condemned " + name + " to terminate";
                    break;
                }
                continue;
            }
            if (monotonic && !allHealthyExcept(s, pod)) {
                blockedBy = "waiting for all pods to be ready before deleting " + name;
                break;
            }
            deletes.add(new StatefulSetPlan.Delete(name, StatefulSetPlan.Reason.CONDEMNED));
            if (monotonic) {
                blockedBy = "deleting " + name;
                break;
            }
        }
        if (monotonic && blockedBy != null) {
            return new StatefulSetPlan(creates, deletes, inPlace, resize,
                    StatefulSetPlan.summary(s.desired(), creates, deletes, inPlace, resize, blockedBy), requeue, reasons);
        }

        // 3. Rolling update of ordinals from the partition on.
        String updateNote = null;
        if (s.rollingUpdate()) {
            addPartitionAndPause(s, pods, reasons);
        }
        if (!s.rollingUpdate()) {
            updateNote = "OnDelete: pods are updated when deleted";
        } else if (s.paused()) {
            updateNote = "update paused";
        } else {
            int budget = monotonic ? 1 : Math.max(1, s.maxUnavailable());
            // A pod still to be created counts against the budget (it is created at the right revision): every
            // desired ordinal from the partition on, less those that have a pod, counted without walking them.
            long updateUnavailable = desired.countFrom(s.partition());
            List<Pod> all = new ArrayList<>();
            List<Integer> waiting = new ArrayList<>();
            for (Map.Entry<Integer, Pod> e : pods.descendingMap().entrySet()) {
                int ordinal = e.getKey();
                if (!desired.contains(ordinal)) {
                    continue;
                }
                Pod pod = e.getValue();
                if (ordinal >= s.partition()) {
                    updateUnavailable--;
                }
                boolean current = s.updateRevision().equals(s.revisionOf().apply(pod))
                        && (!s.claims().onRollingUpdate() || s.claims().match().test(pod));
                boolean healthy = !Pods.isTerminating(pod) && updateAvailable(s, pod);
                if (!healthy) {
                    updateUnavailable++;
                }
                if (!current && ordinal >= s.partition() && !Pods.isTerminating(pod)) {
                    waiting.add(all.size());
                }
                all.add(pod);
            }
            List<Integer> order = waiting;
            if (s.parallel() && s.priority() != null) {
                order = UpdateOrder.sort(all, waiting, s.priority(), null);
            }
            int heldByBudget = 0;
            for (int i = 0; i < order.size(); i++) {
                Pod pod = all.get(order.get(i));
                boolean healthy = updateAvailable(s, pod);
                if (healthy && updateUnavailable >= budget) {
                    // Unavailable pods later in the order may still be updated: that costs no availability.
                    updateNote = "maxUnavailable " + budget + " reached";
                    heldByBudget++;
                    continue;
                }
                if (monotonic && updateUnavailable > 0 && healthy) {
                    updateNote = "waiting for updated pods to be ready";
                    heldByBudget += order.size() - i;
                    break;
                }
                String name = pod.getMetadata().getName();
                if (s.claims().onRollingUpdate()) {
                    if (!s.claims().match().test(pod)) {
                        // PVCs grow first; the pod follows once the expansion is done.
                        resize.add(name);
                        if (healthy) {
                            updateUnavailable++;
                        }
                        continue;
                    }
                    if (!s.claims().resized().test(pod)) {
                        updateNote = "waiting for the PVCs of " + name + " to finish resizing";
                        if (healthy) {
                            updateUnavailable++;
                        }
                        continue;
                    }
                    if (s.updateRevision().equals(s.revisionOf().apply(pod))) {
                        continue;
                    }
                }
                if (s.inPlaceUpdatable().test(pod)) {
                    inPlace.add(name);
                } else if (s.inPlaceOnly()) {
                    updateNote = name + " cannot be updated in place (InPlaceOnly)";
                    continue;
                } else {
                    deletes.add(new StatefulSetPlan.Delete(name, StatefulSetPlan.Reason.UPDATE));
                }
                if (healthy) {
                    updateUnavailable++;
                }
            }
            if (heldByBudget > 0) {
                List<String> down = new ArrayList<>();
                for (Map.Entry<Integer, Pod> e : pods.entrySet()) {
                    if (desired.contains(e.getKey()) && (Pods.isTerminating(e.getValue())
                            || !updateAvailable(s, e.getValue()))) {
                        down.add(e.getValue().getMetadata().getName());
                    }
                }
                reasons.add(Reasons.maxUnavailable("updateStrategy.rollingUpdate.maxUnavailable", budget, down,
                        down.size(), heldByBudget, "updated"));
            }
        }
        // Status changes of PVCs being expanded enqueue the set; a claim not yet annotated (not bound, or
        // expanded by someone else) produces no such event, so look again while any is not ready.
        if (s.claims().onRollingUpdate() && (!resize.isEmpty() || s.pods().values().stream()
                .anyMatch(p -> !Pods.isTerminating(p) && !s.claims().ready().test(p)))) {
            requeue = earliest(requeue, CLAIM_RESIZE_RECHECK);
        }
        String note = blockedBy != null ? blockedBy : updateNote;
        return new StatefulSetPlan(creates, deletes, inPlace, resize,
                StatefulSetPlan.summary(s.desired(), creates, deletes, inPlace, resize, note),
                requeue, reasons);
    }

    /** Pods kept at the current revision by the partition, or waiting for the update while paused. */
    private static void addPartitionAndPause(State s, Map<Integer, Pod> pods, List<BlockReason> reasons) {
        long kept = 0;
        long waiting = 0;
        for (Map.Entry<Integer, Pod> e : pods.entrySet()) {
            if (!s.desired().contains(e.getKey()) || Pods.isTerminating(e.getValue())
                    || s.updateRevision().equals(s.revisionOf().apply(e.getValue()))) {
                continue;
            }
            if (e.getKey() < s.partition()) {
                kept++;
            } else {
                waiting++;
            }
        }
        if (kept > 0) {
            reasons.add(Reasons.partition("updateStrategy.rollingUpdate.partition", s.partition(), kept));
        }
        if (s.paused() && waiting > 0) {
            reasons.add(Reasons.paused("updateStrategy.rollingUpdate.paused", waiting));
        }
    }

    /**
     * OrderedReady: the desired ordinals in order, up to the first one that is missing (created) or not yet
     * available (waited for). Walks at most the pods that exist, plus one.
     *
     * @return what the set waits for, or null when every desired pod is there and available
     */
    private static String orderedStep(State s, Map<Integer, Pod> pods, List<StatefulSetPlan.Create> creates,
                                      List<StatefulSetPlan.Delete> deletes) {
        for (PrimitiveIterator.OfInt it = s.desired().iterator(); it.hasNext(); ) {
            int ordinal = it.nextInt();
            Pod pod = pods.get(ordinal);
            if (pod == null) {
                creates.add(create(s, ordinal));
                return "waiting for " + PodOrdinals.podName(s.setName(), ordinal) + " to be created and ready";
            }
            String name = pod.getMetadata().getName();
            if (Pods.isTerminating(pod)) {
                return "waiting for " + name + " to terminate";
            }
            String phase = Pods.phase(pod);
            if (Pods.PHASE_FAILED.equals(phase) || Pods.PHASE_SUCCEEDED.equals(phase)) {
                deletes.add(new StatefulSetPlan.Delete(name, StatefulSetPlan.Reason.FAILED));
                return "replacing " + phase + " pod " + name;
            }
            if (!Pods.isRunningAndReady(pod)) {
                return "waiting for " + name + " to be running and ready";
            }
            if (!available(s, pod)) {
                // As Kubernetes and OpenKruise: OrderedReady moves on once a pod is available, not merely ready.
                return "waiting for " + name + " to be available (minReadySeconds " + s.minReadySeconds() + ")";
            }
        }
        return null;
    }

    /**
     * Parallel: failed desired pods are replaced, and the lowest missing ordinals created, within
     * scaleStrategy.maxUnavailable and {@link #MAX_CREATES_PER_PLAN}. Walks the pods that exist and the ordinals
     * created, plus one: never the rest of a huge {@code replicas}.
     *
     * @return the limit that held creation back, or null
     */
    private static String parallelStep(State s, TreeMap<Integer, Pod> pods, int unavailable,
                                       List<StatefulSetPlan.Create> creates, List<StatefulSetPlan.Delete> deletes,
                                       List<BlockReason> reasons) {
        for (Map.Entry<Integer, Pod> e : pods.entrySet()) {
            Pod pod = e.getValue();
            if (!s.desired().contains(e.getKey()) || Pods.isTerminating(pod)) {
                continue;
            }
            String phase = Pods.phase(pod);
            if (Pods.PHASE_FAILED.equals(phase) || Pods.PHASE_SUCCEEDED.equals(phase)) {
                deletes.add(new StatefulSetPlan.Delete(pod.getMetadata().getName(), StatefulSetPlan.Reason.FAILED));
            }
        }
        for (PrimitiveIterator.OfInt it = s.desired().iterator(); it.hasNext(); ) {
            int ordinal = it.nextInt();
            if (pods.containsKey(ordinal)) {
                continue;
            }
            // Neither limit loosens further on: the first missing ordinal held back holds back every later one.
            if (s.scaleMaxUnavailable() != null && unavailable >= s.scaleMaxUnavailable()) {
                List<String> down = new ArrayList<>();
                for (Map.Entry<Integer, Pod> e : pods.entrySet()) {
                    if (s.desired().contains(e.getKey()) && !available(s, e.getValue())) {
                        down.add(e.getValue().getMetadata().getName());
                    }
                }
                long missing = s.desired().size() - creates.size() - pods.keySet().stream()
                        .filter(o -> s.desired().contains(o)).count();
                reasons.add(Reasons.maxUnavailable("scaleStrategy.maxUnavailable", s.scaleMaxUnavailable(), down,
                        down.size(), missing, "created"));
                return "scaleStrategy.maxUnavailable " + s.scaleMaxUnavailable() + " reached";
            }
            if (creates.size() >= MAX_CREATES_PER_PLAN) {
                return "at most " + MAX_CREATES_PER_PLAN + " pods are created per reconcile";
            }
            creates.add(create(s, ordinal));
            unavailable++;
        }
        return null;
    }

    private static StatefulSetPlan.Create create(State s, int ordinal) {
        // Upstream: a pod recreated below the partition keeps the current revision.
        String revision = s.rollingUpdate() && ordinal < s.partition() && s.currentRevision() != null
                ? s.currentRevision() : s.updateRevision();
        return new StatefulSetPlan.Create(ordinal, PodOrdinals.podName(s.setName(), ordinal), revision);
    }

    private static boolean available(State s, Pod pod) {
        return Pods.isRunningAndReady(pod) && Pods.isAvailable(pod, s.minReadySeconds(), s.now());
    }

    /**
     * Available for the rolling update, as upstream counts it: also no in-place update in progress (a pod just updated
     * in place can still show Ready=True until the kubelet has seen InPlaceUpdateReady=False; counted available, it
     * would let the next pod go down with it) and, with OnPodRollingUpdate, its PVCs have the capacity they request.
     */
    private static boolean updateAvailable(State s, Pod pod) {
        return available(s, pod) && s.updateCompleted().test(pod)
                && (!s.claims().onRollingUpdate() || s.claims().ready().test(pod));
    }

    /** Until the pod turns available by time passing; zero when it is or when only an event can change it. */
    private static Duration availableIn(State s, Pod pod) {
        // Terminating pods too: the status counts them while they are still running and ready.
        if (!Pods.isRunningAndReady(pod)) {
            return Duration.ZERO;
        }
        Optional<Duration> in = Pods.availableIn(pod, s.minReadySeconds(), s.now());
        return in.orElse(Duration.ZERO);
    }

    private static Duration earliest(Duration a, Duration b) {
        if (a.isZero()) {
            return b;
        }
        if (b.isZero()) {
            return a;
        }
        return a.compareTo(b) <= 0 ? a : b;
    }

    private static boolean allHealthyExcept(State s, Pod except) {
        for (Pod p : s.pods().values()) {
            if (p != except && (Pods.isTerminating(p) || !Pods.isRunningAndReady(p))) {
                return false;
            }
        }
        return true;
    }
}
