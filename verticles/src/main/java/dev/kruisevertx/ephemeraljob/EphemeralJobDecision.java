package dev.kruisevertx.ephemeraljob;

import dev.kruisevertx.api.apps.v1alpha1.EphemeralJob;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJobConditionType;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJobPhase;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJobSpec;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJobStatus;
import dev.kruisevertx.api.apps.v1beta1.JobCondition;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * OpenKruise v1.9.0's ephemeraljob reconcile as a pure function: from the job, the pods of its namespace and now,
 * what to write. The order is OpenKruise's: deletion releases the finalizer; the finalizer is added; a finished job
 * waits for its TTL (default 1800 s) and is then deleted; otherwise the target pods (active, matching the selector,
 * oldest first, no foreign ephemeral container of the same name, at most {@code replicas}) give the counts and the
 * phase, and up to {@code parallelism} (default 1) minus the running ones get the containers.
 *
 * <p>Differences from OpenKruise, both to avoid writes that change nothing: a condition is rewritten (with new
 * times) only when its reason or message changes, and a job that finished in this reconcile (deadline) gets no
 * new containers.
 */
public final class EphemeralJobDecision {
    public static final String FINALIZER = EphemeralJob.CLEANUP_FINALIZER;
    static final int DEFAULT_PARALLELISM = 1;

    /** One ephemeral container's state, as OpenKruise's {@code parseEphemeralContainerStatus}. */
    enum ContainerRun { SUCCEEDED, FAILED, WAITING, RUNNING, UNKNOWN }

    /** One target pod's state for this job, as OpenKruise's {@code parseEphemeralPodStatus}. */
    enum PodRun { SUCCEEDED, FAILED, RUNNING, WAITING, UNKNOWN }

    private EphemeralJobDecision() {
    }

    public static EphemeralJobPlan decide(EphemeralJob job, List<Pod> namespacePods, Instant now) {
        List<String> finalizers = job.getMetadata().getFinalizers() == null ? List.of()
                : job.getMetadata().getFinalizers();
        if (job.getMetadata().getDeletionTimestamp() != null) {
            if (!finalizers.contains(FINALIZER)) {
                return new EphemeralJobPlan(false, false, false, null, List.of(), null, "being deleted");
            }
            return EphemeralJobPlan.release("being deleted: ephemeral containers cannot be removed from pods, "
                    + "release the finalizer");
        }
        boolean addFinalizer = !finalizers.contains(FINALIZER);
        EphemeralJobSpec spec = job.spec();
        EphemeralJobStatus old = job.status();

        Instant completed = Pods.parseTime(old.getCompletionTime());
        if (completed != null) {
            long ttl = spec.getTtlSecondsAfterFinished() == null ? EphemeralJob.DEFAULT_TTL_SECONDS
                    : spec.getTtlSecondsAfterFinished();
            Duration left = Duration.ofSeconds(ttl).minus(Duration.between(completed, now));
            if (left.isNegative() || left.isZero()) {
                return EphemeralJobPlan.expire();
            }
            return new EphemeralJobPlan(addFinalizer, false, false, null, List.of(), left,
                    "finished; deleted when ttlSecondsAfterFinished passes");
        }

        EphemeralJobStatus status = copy(old);
        if (status.getStartTime() == null || Pods.parseTime(status.getStartTime()) == null) {
            status.setStartTime(Pods.formatTime(now));
        }
        Instant start = Pods.parseTime(status.getStartTime());
        Duration requeue = null;
        if (spec.getActiveDeadlineSeconds() != null) {
            Duration left = Duration.ofSeconds(Math.max(0, spec.getActiveDeadlineSeconds()))
                    .minus(Duration.between(start, now));
            requeue = left.isNegative() ? Duration.ZERO : left;
        }

        List<EphemeralContainer> template = spec.template().containers();
        Set<String> names = new HashSet<>();
        template.forEach(c -> names.add(c.getName()));
        List<Pod> targets = targets(job, namespacePods, names);
        computeStatus(job, status, targets, names, start, now);

        EphemeralJobPhase phase = status.phaseValue().orElse(EphemeralJobPhase.UNKNOWN);
        List<String> inject = List.of();
        String reason;
        if (phase == EphemeralJobPhase.PAUSED) {
            reason = "paused";
        } else if (phase == EphemeralJobPhase.ERROR) {
            reason = "template has no ephemeral containers";
        } else if (status.getCompletionTime() != null) {
            reason = "finished: " + phase.value();
        } else {
            inject = toInject(job, targets, names, status.getRunning());
            reason = inject.isEmpty() ? "nothing to add: " + phase.value() : "adding ephemeral containers";
        }
        if (status.getCompletionTime() != null) {
            long ttl = spec.getTtlSecondsAfterFinished() == null ? EphemeralJob.DEFAULT_TTL_SECONDS
                    : spec.getTtlSecondsAfterFinished();
            requeue = Duration.ofSeconds(Math.max(0, ttl));
        }
        boolean changed = !Objects.equals(ApiJson.toJson(old), ApiJson.toJson(status));
        List<dev.kruisevertx.controller.reason.BlockReason> holds = targets.isEmpty()
                && status.getCompletionTime() == null && phase != EphemeralJobPhase.PAUSED
                ? List.of(dev.kruisevertx.controller.reason.Reasons.noMatchingPods("spec.selector", "active"))
                : List.of();
        return new EphemeralJobPlan(addFinalizer, false, false, changed ? status : null, inject, requeue, reason, holds);
    }

    /** Whether the job has finished (it then only waits for its TTL). */
    public static boolean finished(EphemeralJob job) {
        return job.getStatus() != null && job.getStatus().getCompletionTime() != null;
    }

    /** Whether {@code pod} is one this job looks at (namespace and a non-empty selector), for the event mapper. */
    static boolean selects(EphemeralJob job, Pod pod) {
        return Objects.equals(job.getMetadata().getNamespace(), pod.getMetadata().getNamespace())
                && selector(job).test(pod.getMetadata().getLabels());
    }

    private static Predicate<Map<String, String>> selector(EphemeralJob job) {
        var s = job.spec().getSelector();
        if (s == null) {
            return l -> false;
        }
        try {
            return LabelSelectors.compile(s);
        } catch (IllegalArgumentException e) {
            return l -> false; // a selector the API server should not have accepted selects nothing
        }
    }

    static List<Pod> targets(EphemeralJob job, List<Pod> namespacePods, Set<String> names) {
        Predicate<Map<String, String>> selects = selector(job);
        List<Pod> matching = new ArrayList<>();
        for (Pod p : namespacePods) {
            if (selects.test(p.getMetadata().getLabels()) && Pods.isActive(p) && !foreignDuplicate(job, p, names)) {
                matching.add(p);
            }
        }
        matching.sort(Comparator.comparing((Pod p) -> Objects.requireNonNullElse(Pods.creationTime(p), Instant.EPOCH))
                .thenComparing(p -> p.getMetadata().getName()));
        Integer replicas = job.spec().getReplicas();
        if (replicas != null && matching.size() > Math.max(0, replicas)) {
            return List.copyOf(matching.subList(0, Math.max(0, replicas)));
        }
        return matching;
    }

    /** The pod already has an ephemeral container of one of the template's names that this job did not add. */
    static boolean foreignDuplicate(EphemeralJob job, Pod pod, Set<String> names) {
        for (EphemeralContainer c : ephemeralContainers(pod)) {
            if (names.contains(c.getName()) && !ownedBy(job, c)) {
                return true;
            }
        }
        return false;
    }

    static boolean ownedBy(EphemeralJob job, EphemeralContainer c) {
        if (c.getEnv() == null) {
            return false;
        }
        for (EnvVar e : c.getEnv()) {
            if (EphemeralJob.JOB_ID_ENV.equals(e.getName()) && Objects.equals(e.getValue(), job.getMetadata().getUid())) {
                return true;
            }
        }
        return false;
    }

    private static List<EphemeralContainer> ephemeralContainers(Pod pod) {
        return pod.getSpec() == null || pod.getSpec().getEphemeralContainers() == null ? List.of()
                : pod.getSpec().getEphemeralContainers();
    }

    private static List<String> toInject(EphemeralJob job, List<Pod> targets, Set<String> names, int running) {
        List<String> candidates = new ArrayList<>();
        for (Pod p : targets) {
            boolean has = false;
            for (EphemeralContainer c : ephemeralContainers(p)) {
                if (names.contains(c.getName()) && ownedBy(job, c)) {
                    has = true;
                    break;
                }
            }
            if (!has) {
                candidates.add(p.getMetadata().getName());
            }
        }
        int parallelism = job.spec().getParallelism() == null ? DEFAULT_PARALLELISM
                : Math.max(0, job.spec().getParallelism());
        parallelism = Math.min(parallelism, candidates.size());
        int room = parallelism - running;
        return room <= 0 ? List.of() : List.copyOf(candidates.subList(0, room));
    }

    private static void computeStatus(EphemeralJob job, EphemeralJobStatus status, List<Pod> targets,
                                       Set<String> names, Instant start, Instant now) {
        String at = Pods.formatTime(now);
        List<JobCondition> conditions = status.getConditions() == null ? new ArrayList<>()
                : new ArrayList<>(status.getConditions());
        if (status.getConditions() == null) {
            conditions.add(new JobCondition(EphemeralJobConditionType.INITIALIZED.value(), "True", at,
                    EphemeralJobConditionType.INITIALIZED.value(), ""));
        }
        status.setMatch(targets.size());
        int succeeded = 0;
        int failed = 0;
        int running = 0;
        int waiting = 0;
        if (!names.isEmpty()) {
            for (Pod p : targets) {
                switch (podRun(p, names)) {
                    case SUCCEEDED -> succeeded++;
                    case FAILED -> failed++;
                    case RUNNING -> running++;
                    case WAITING -> waiting++;
                    default -> { }
                }
            }
        }
        status.setSucceeded(succeeded);
        status.setFailed(failed);
        status.setRunning(running);
        status.setWaiting(waiting);
        int replicas = job.spec().getReplicas() == null ? targets.size() : job.spec().getReplicas();

        EphemeralJobPhase phase;
        if (targets.isEmpty()) {
            phase = EphemeralJobPhase.WAITING;
            put(conditions, EphemeralJobConditionType.MATCHED_EMPTY, "MatchEmpty", "job match no pods", at);
        } else if (succeeded == replicas && succeeded > 0) {
            phase = EphemeralJobPhase.SUCCEEDED;
            status.setCompletionTime(at);
            put(conditions, EphemeralJobConditionType.JOB_SUCCEEDED, "JobSucceeded", "job success to run all tasks", at);
        } else if (running > 0) {
            phase = EphemeralJobPhase.RUNNING;
        } else if (failed == replicas) {
            phase = EphemeralJobPhase.FAILED;
            status.setCompletionTime(at);
            put(conditions, EphemeralJobConditionType.JOB_FAILED, "JobFailed", "job failed to run all tasks", at);
        } else if (waiting == replicas) {
            phase = EphemeralJobPhase.WAITING;
        } else {
            phase = EphemeralJobPhase.UNKNOWN;
        }
        if (job.spec().pausedOrFalse()) {
            phase = EphemeralJobPhase.PAUSED;
        }
        String ref = job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
        if (failed > 0) {
            put(conditions, EphemeralJobConditionType.JOB_FAILED, "CreateFailed",
                    "EphemeralJob " + ref + " failed to create ephemeral container", at);
        }
        if ((phase == EphemeralJobPhase.WAITING || phase == EphemeralJobPhase.UNKNOWN
                || phase == EphemeralJobPhase.RUNNING) && pastDeadline(job, start, now)) {
            phase = EphemeralJobPhase.FAILED;
            status.setCompletionTime(at);
            put(conditions, EphemeralJobConditionType.JOB_FAILED, "DeadlineExceeded",
                    "EphemeralJob " + ref + " was active longer than specified deadline", at);
        }
        if (names.isEmpty()) {
            phase = EphemeralJobPhase.ERROR;
            put(conditions, EphemeralJobConditionType.JOB_ERROR, "Error", "job spec invalid fields.", at);
        }
        status.setPhase(phase.value());
        status.setConditions(conditions);
    }

    static boolean pastDeadline(EphemeralJob job, Instant start, Instant now) {
        Long deadline = job.spec().getActiveDeadlineSeconds();
        return deadline != null && start != null && !Duration.between(start, now).minusSeconds(deadline).isNegative();
    }

    /** Sets a condition of {@code type} (True); one with the same reason and message is left as it is. */
    private static void put(List<JobCondition> conditions, EphemeralJobConditionType type, String reason,
                            String message, String at) {
        JobCondition next = new JobCondition(type.value(), "True", at, reason, message);
        for (int i = 0; i < conditions.size(); i++) {
            JobCondition c = conditions.get(i);
            if (type.value().equals(c.getType())) {
                if (!Objects.equals(c.getReason(), reason) || !Objects.equals(c.getMessage(), message)
                        || !"True".equals(c.getStatus())) {
                    conditions.set(i, next);
                }
                return;
            }
        }
        conditions.add(next);
    }

    static PodRun podRun(Pod pod, Set<String> names) {
        List<ContainerStatus> statuses = pod.getStatus() == null
                || pod.getStatus().getEphemeralContainerStatuses() == null ? List.of()
                : pod.getStatus().getEphemeralContainerStatuses();
        int waiting = 0;
        int running = 0;
        int succeeded = 0;
        for (ContainerStatus s : statuses) {
            if (!names.contains(s.getName())) {
                continue;
            }
            switch (containerRun(s)) {
                case FAILED -> {
                    return PodRun.FAILED;
                }
                case WAITING -> waiting++;
                case RUNNING -> running++;
                case SUCCEEDED -> succeeded++;
                default -> { }
            }
        }
        if (succeeded > 0 && succeeded == names.size()) {
            return PodRun.SUCCEEDED;
        }
        if (running > 0) {
            return PodRun.RUNNING;
        }
        if (waiting > 0) {
            return PodRun.WAITING;
        }
        return PodRun.UNKNOWN;
    }

    static ContainerRun containerRun(ContainerStatus s) {
        ContainerState state = s.getState();
        if (state == null) {
            return ContainerRun.UNKNOWN;
        }
        if (state.getTerminated() != null) {
            Integer code = state.getTerminated().getExitCode();
            String finishedAt = state.getTerminated().getFinishedAt();
            if (finishedAt != null && !finishedAt.isEmpty() && (code == null || code == 0)) {
                return ContainerRun.SUCCEEDED;
            }
            if (code != null && code != 0) {
                return ContainerRun.FAILED;
            }
        }
        if (state.getRunning() != null) {
            return ContainerRun.RUNNING;
        }
        if (state.getWaiting() != null) {
            return "RunContainerError".equals(state.getWaiting().getReason()) ? ContainerRun.FAILED
                    : ContainerRun.WAITING;
        }
        return ContainerRun.UNKNOWN;
    }

    private static EphemeralJobStatus copy(EphemeralJobStatus s) {
        return ApiJson.serialization().clone(s);
    }
}
