package dev.kruisevertx.crr;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestContainer;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestPhase;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestSyncContainerStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The manager's decision for one ContainerRecreateRequest, a pure function of the request, its pod and the time.
 * As OpenKruise's containerrecreaterequest controller:
 * <ul>
 *   <li>a finished (or deleted) request gives the pod its readiness back, loses its active label, and is deleted
 *       {@code ttlSecondsAfterFinished} after its completion;</li>
 *   <li>a request whose pod is gone (deleted, terminating, or replaced by a pod with another uid) is completed;</li>
 *   <li>one the node agent has not answered within a minute, or older than {@code activeDeadlineSeconds}, is
 *       completed with a message saying so;</li>
 *   <li>while Recreating, the statuses of the pod's recreated containers are copied into the request's
 *       {@code sync-container-statuses} annotation, and with {@code unreadyGracePeriodSeconds} the pod is made
 *       unready first.</li>
 * </ul>
 */
public final class CrrDecision {
    /** How long the node agent may leave a new request unanswered. */
    static final Duration RESPONSE_TIMEOUT = Duration.ofMinutes(1);
    static final String POD_GONE = "pod has gone";
    static final String NO_RESPONSE = "daemon has not responded for a long time";
    static final String DEADLINE_EXCEEDED = "recreating has exceeded the activeDeadlineSeconds";

    private CrrDecision() {
    }

    public static CrrPlan decide(ContainerRecreateRequest crr, Pod pod, Instant now) {
        List<CrrPlan.Step> steps = new ArrayList<>();
        boolean deleting = crr.getMetadata().getDeletionTimestamp() != null;
        if (deleting || crr.isCompleted()) {
            if (hasFinalizer(crr)) {
                steps.add(CrrPlan.Step.of(CrrPlan.Kind.RELEASE_UNREADY));
            }
            if (deleting) {
                return new CrrPlan(steps, null, "deleting");
            }
            if (Pods.labels(crr).containsKey(WellKnown.CRR_ACTIVE_LABEL)) {
                steps.add(CrrPlan.Step.of(CrrPlan.Kind.DROP_ACTIVE_LABEL));
                return new CrrPlan(steps, null, "finished, no longer active");
            }
            Integer ttl = crr.spec().getTtlSecondsAfterFinished();
            if (ttl == null) {
                return new CrrPlan(steps, null, "finished");
            }
            Instant completed = orNow(Pods.parseTime(crr.status().getCompletionTime()), now);
            Duration left = Duration.ofSeconds(ttl).minus(Duration.between(completed, now));
            if (!left.isNegative() && !left.isZero()) {
                return new CrrPlan(steps, left, "finished, deleted in " + left.toSeconds() + "s");
            }
            steps.add(CrrPlan.Step.of(CrrPlan.Kind.DELETE));
            return new CrrPlan(steps, null, "ttlSecondsAfterFinished passed");
        }

        if (pod == null || pod.getMetadata().getDeletionTimestamp() != null
                || !pod.getMetadata().getUid().equals(Pods.labels(crr).get(WellKnown.CRR_POD_UID_LABEL))) {
            return complete(POD_GONE);
        }

        Instant created = orNow(Pods.parseTime(crr.getMetadata().getCreationTimestamp()), now);
        Duration requeue = null;
        String phase = crr.status().getPhase();
        if (phase == null || phase.isEmpty()) {
            Duration left = RESPONSE_TIMEOUT.minus(Duration.between(created, now));
            if (left.isNegative() || left.isZero()) {
                return complete(NO_RESPONSE);
            }
            requeue = left;
        }
        Long deadline = crr.spec().getActiveDeadlineSeconds();
        if (deadline != null) {
            Duration left = Duration.ofSeconds(deadline).minus(Duration.between(created, now));
            if (left.isNegative() || left.isZero()) {
                return complete(DEADLINE_EXCEEDED);
            }
            requeue = requeue == null || left.compareTo(requeue) < 0 ? left : requeue;
        }
        if (crr.status().phaseValue().orElse(null) != ContainerRecreateRequestPhase.RECREATING) {
            return new CrrPlan(steps, requeue, "waiting for the node agent");
        }

        String sync = syncStatuses(crr, pod, created);
        if (!sync.equals(Pods.annotations(crr).get(WellKnown.CRR_SYNC_CONTAINER_STATUSES_ANNOTATION))) {
            steps.add(new CrrPlan.Step(CrrPlan.Kind.SYNC_STATUSES, null, sync));
        }
        String acquired = Pods.annotations(crr).get(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER);
        if (crr.strategy().getUnreadyGracePeriodSeconds() != null && (acquired == null || acquired.isEmpty())) {
            steps.add(CrrPlan.Step.of(CrrPlan.Kind.ACQUIRE_UNREADY));
        }
        return new CrrPlan(steps, requeue, "recreating");
    }

    private static Instant orNow(Instant t, Instant now) {
        return t == null ? now : t;
    }

    private static CrrPlan complete(String message) {
        return new CrrPlan(List.of(new CrrPlan.Step(CrrPlan.Kind.COMPLETE, message, null)), null, message);
    }

    static boolean hasFinalizer(ContainerRecreateRequest crr) {
        List<String> finalizers = crr.getMetadata().getFinalizers();
        return finalizers != null && finalizers.contains(WellKnown.CRR_UNREADY_ACQUIRED_FINALIZER);
    }

    /** The JSON the agent reads: running containers of the request started after it was made (a new container). */
    static String syncStatuses(ContainerRecreateRequest crr, Pod pod, Instant created) {
        List<ContainerRecreateRequestSyncContainerStatus> out = new ArrayList<>();
        for (ContainerRecreateRequestContainer c : crr.spec().getContainers()) {
            Optional<ContainerStatus> status = Pods.containerStatus(pod, c.getName());
            if (status.isEmpty() || status.get().getState() == null || status.get().getState().getRunning() == null) {
                continue;
            }
            String startedAt = status.get().getState().getRunning().getStartedAt();
            if (startedAt == null || Pods.parseTime(startedAt).isBefore(created)) {
                continue;
            }
            ContainerStatus s = status.get();
            out.add(new ContainerRecreateRequestSyncContainerStatus(s.getName(), Boolean.TRUE.equals(s.getReady()),
                    s.getRestartCount() == null ? 0 : s.getRestartCount(), s.getContainerID()));
        }
        return ApiJson.toJson(out);
    }
}
