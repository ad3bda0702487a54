package dev.kruisevertx.broadcastjob;

import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobPhase;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobSpec;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobStatus;
import dev.kruisevertx.api.apps.v1beta1.CompletionPolicyType;
import dev.kruisevertx.api.apps.v1beta1.FailurePolicyType;
import dev.kruisevertx.api.apps.v1beta1.JobCondition;
import dev.kruisevertx.api.apps.v1beta1.JobConditionType;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.controller.reason.BlockReason;
import dev.kruisevertx.controller.reason.PodBlockers;
import dev.kruisevertx.controller.reason.Reasons;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.scheduling.DaemonPlacement;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The BroadcastJob decision, as OpenKruise's broadcastjob controller: one pod per node the template fits (nodes
 * added later included), at most {@code parallelism} active, failed pods judged by the failure policy (Continue,
 * FailFast, Pause; {@code restartLimit} counts container restarts of OnFailure pods), the active deadline, completion
 * (every desired node has a finished pod) and the TTL of a finished job. Pure: the clock is the {@code now} argument.
 */
public final class BroadcastJobDecision {
    public static final String JOB_NAME_LABEL = "broadcastjob-name";
    public static final String CONTROLLER_UID_LABEL = "broadcastjob-controller-uid";
    static final int MAX_PARALLELISM = Integer.MAX_VALUE;

    private BroadcastJobDecision() {
    }

    /**
     * @param pods  the pods this job controls
     * @param nodes every node of the cluster
     */
    public static BroadcastJobPlan decide(BroadcastJob job, List<Pod> pods, List<Node> nodes, Instant now) {
        BroadcastJobSpec spec = job.spec();
        String jobName = job.getMetadata().getNamespace() + "/" + job.getMetadata().getName();
        boolean never = spec.completionPolicy().typeValue().orElse(CompletionPolicyType.ALWAYS) == CompletionPolicyType.NEVER;
        List<BroadcastJobPlan.Event> events = new ArrayList<>();
        if (!never && finished(job)) {
            Integer ttl = spec.completionPolicy().getTtlSecondsAfterFinished();
            Instant completed = Pods.parseTime(job.status().getCompletionTime());
            List<BlockReason> stopped = failedFast(job, pods);
            if (ttl == null || completed == null) {
                return new BroadcastJobPlan(false, null, List.of(), List.of(), false, events, null, "finished",
                        stopped);
            }
            Duration left = Duration.between(now, completed.plusSeconds(ttl));
            if (left.isNegative() || left.isZero()) {
                return new BroadcastJobPlan(true, null, List.of(), List.of(), false, events, null,
                        "finished " + ttl + "s ago or more: ttlSecondsAfterFinished passed");
            }
            return new BroadcastJobPlan(false, null, List.of(), List.of(), false, events, left,
                    "finished; deleted by ttlSecondsAfterFinished in " + left, stopped);
        }
        BroadcastJobStatus status = copy(job.status());
        Duration requeue = null;
        Long deadline = spec.completionPolicy().getActiveDeadlineSeconds();
        if (status.getStartTime() == null) {
            status.setStartTime(Pods.formatTime(now));
            if (!never && deadline != null) {
                requeue = Duration.ofSeconds(deadline);
            }
        }
        if (status.getPhase() == null || status.getPhase().isEmpty()) {
            status.setPhase(BroadcastJobPhase.RUNNING.value());
        }
        // Pods by the node they are for; a second pod on a node is reported (and the later one counts).
        Map<String, Pod> byNode = new HashMap<>();
        for (Pod p : pods) {
            String node = DaemonPlacement.targetNode(p.getSpec() == null ? new PodSpec() : p.getSpec()).orElse("");
            if (byNode.containsKey(node)) {
                events.add(new BroadcastJobPlan.Event("Warning", "DuplicatePodCreatedOnSameNode",
                        "Duplicated pod " + p.getMetadata().getName() + " found on same node " + node));
            }
            byNode.put(node, p);
        }
        int restartLimit = spec.failurePolicy().getRestartLimit() == null ? 0 : spec.failurePolicy().getRestartLimit();
        int active = 0;
        int failed = 0;
        int succeeded = 0;
        List<Pod> activePods = new ArrayList<>();
        List<String> failedNames = new ArrayList<>();
        for (Pod p : pods) {
            String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
            if ("Succeeded".equals(phase)) {
                succeeded++;
            } else if ("Failed".equals(phase)) {
                failed++;
                failedNames.add(p.getMetadata().getName());
            } else if (p.getMetadata().getDeletionTimestamp() == null) {
                if (restartsBeyond(restartLimit, p)) {
                    failed++;
                    failedNames.add(p.getMetadata().getName());
                } else {
                    active++;
                    activePods.add(p);
                }
            }
        }
        failedNames.sort(null);
        // Desired nodes: those with a pod that still fits, and those the template fits that have none yet.
        Map<String, Pod> desired = new LinkedHashMap<>();
        List<String> rest = new ArrayList<>();
        List<BroadcastJobPlan.Delete> misfits = new ArrayList<>();
        PodSpec template = spec.getTemplate() == null || spec.getTemplate().getSpec() == null ? new PodSpec()
                : spec.getTemplate().getSpec();
        Map<String, Long> misfitsByProblem = new java.util.TreeMap<>();
        List<Node> sorted = new ArrayList<>(nodes);
        sorted.sort(Comparator.comparing(n -> n.getMetadata().getName()));
        for (Node node : sorted) {
            String name = node.getMetadata().getName();
            Pod existing = byNode.get(name);
            if (existing != null) {
                Optional<String> problem = BroadcastJobNodeFit.problem(existing.getSpec(), node);
                if (problem.isPresent() && existing.getMetadata().getDeletionTimestamp() == null) {
                    misfitsByProblem.merge(problem.get(), 1L, Long::sum);
                    misfits.add(new BroadcastJobPlan.Delete(existing, "its node no longer fits: " + problem.get()));
                    continue;
                }
                desired.put(name, existing);
            } else {
                Optional<String> problem = BroadcastJobNodeFit.problemIgnoringNodeName(template, node);
                if (problem.isEmpty()) {
                    rest.add(name);
                    desired.put(name, null);
                } else {
                    misfitsByProblem.merge(problem.get(), 1L, Long::sum);
                }
            }
        }
        int desiredCount = desired.size();
        status.setDesired(desiredCount);
        status.setActive(active);
        status.setFailed(failed);
        status.setSucceeded(succeeded);
        String phase = status.getPhase();
        if (BroadcastJobPhase.FAILED.value().equals(phase)) {
            return new BroadcastJobPlan(false, status, List.of(), List.of(), false, events, requeue, "failed");
        }
        boolean paused = spec.pausedOrFalse();
        if (paused && (BroadcastJobPhase.RUNNING.value().equals(phase) || BroadcastJobPhase.PAUSED.value().equals(phase))) {
            status.setPhase(BroadcastJobPhase.PAUSED.value());
            List<BlockReason> held = new ArrayList<>(List.of(Reasons.jobPaused("spec.paused", rest.size())));
            if (failed > 0 && spec.failurePolicy().typeValue().orElse(FailurePolicyType.FAIL_FAST) == FailurePolicyType.PAUSE) {
                held.add(Reasons.failurePolicy("Pause", failedNames, failed, "the job was paused"));
            }
            return new BroadcastJobPlan(false, status, List.of(), List.of(), false, events, requeue, "paused", held);
        }
        if (!paused && BroadcastJobPhase.PAUSED.value().equals(phase)) {
            status.setPhase(BroadcastJobPhase.RUNNING.value());
            events.add(new BroadcastJobPlan.Event("Normal", "Continue", "continue to process job"));
        }
        boolean jobFailed = false;
        String failureReason = null;
        String failureMessage = null;
        if (failed > 0) {
            FailurePolicyType policy = spec.failurePolicy().typeValue().orElse(FailurePolicyType.FAIL_FAST);
            switch (policy) {
                case PAUSE -> {
                    events.add(new BroadcastJobPlan.Event("Warning", "Paused", "job is paused, due to failed pod"));
                    status.setPhase(BroadcastJobPhase.PAUSED.value());
                    return new BroadcastJobPlan(false, status, List.of(), List.of(), true, events, requeue,
                            "failurePolicy Pause: " + failed + " failed pod(s)", List.of(Reasons.failurePolicy("Pause",
                            failedNames, failed, "spec.paused is set: " + rest.size() + " node(s) wait for a pod")));
                }
                case FAIL_FAST -> {
                    jobFailed = true;
                    failureReason = "failed pod is found";
                    failureMessage = "failure policy is FailurePolicyTypeFailFast and failed pod is found";
                    events.add(new BroadcastJobPlan.Event("Warning", failureReason, failureMessage + ": " + succeeded
                            + " pods succeeded, " + failed + " pods failed"));
                }
                default -> {
                }
            }
        }
        if (!jobFailed && !never && deadline != null) {
            Instant start = Pods.parseTime(status.getStartTime());
            if (start != null && !now.isBefore(start.plusSeconds(deadline))) {
                jobFailed = true;
                failureReason = "DeadlineExceeded";
                failureMessage = "Job " + jobName + " was active longer than specified deadline";
            }
        }
        List<BroadcastJobPlan.Delete> deletes = new ArrayList<>();
        List<String> createOn = new ArrayList<>();
        String reason;
        List<BlockReason> held = new ArrayList<>();
        if (jobFailed) {
            if ("failed pod is found".equals(failureReason)) {
                held.add(Reasons.failurePolicy("FailFast", failedNames, failed,
                        "the job failed and creates no more pods"));
            }
            for (Pod p : activePods) {
                deletes.add(new BroadcastJobPlan.Delete(p, "the job failed: " + failureReason));
            }
            failed += deletes.size();
            active -= deletes.size();
            status.setPhase(BroadcastJobPhase.FAILED.value());
            requeue = finish(job, status, JobConditionType.FAILED, failureMessage, now, requeue);
            events.add(new BroadcastJobPlan.Event("Warning", failureReason, failureMessage + ": " + succeeded
                    + " pods succeeded, " + failed + " pods failed"));
            reason = "failed: " + failureReason;
        } else {
            deletes.addAll(misfits);
            failed += misfits.size();
            active -= misfits.size();
            if (job.getMetadata().getDeletionTimestamp() == null && !rest.isEmpty()) {
                int parallelism = parallelism(spec.getParallelism(), desiredCount);
                if (active > parallelism) {
                    events.add(new BroadcastJobPlan.Event("Warning", "TooManyActivePods",
                            "Number of active pods exceed parallelism limit"));
                } else if (active < parallelism) {
                    int n = Math.min(parallelism - active, rest.size());
                    createOn.addAll(rest.subList(0, n));
                    active += n;
                }
                if (createOn.size() < rest.size()) {
                    List<String> activeNames = new ArrayList<>();
                    activePods.forEach(p -> activeNames.add(p.getMetadata().getName()));
                    activeNames.sort(null);
                    List<String> waiting = rest.subList(createOn.size(), rest.size());
                    held.add(Reasons.parallelism("spec.parallelism", parallelism, activeNames, activeNames.size(),
                            waiting, waiting.size()));
                }
            }
            if (desiredCount == 0) {
                held.add(Reasons.noNodeFits(nodes.size(), misfitsByProblem));
            }
            held.addAll(PodBlockers.of(activePods, 0, now));
            if (complete(never, desired)) {
                status.setPhase(BroadcastJobPhase.COMPLETED.value());
                requeue = finish(job, status, JobConditionType.COMPLETE, "Job completed, " + succeeded
                        + " pods succeeded, " + failed + " pods failed", now, requeue);
                events.add(new BroadcastJobPlan.Event("Normal", "JobComplete", "Job " + jobName + " is completed, "
                        + succeeded + " pods succeeded, " + failed + " pods failed"));
                reason = "completed on " + desiredCount + " node(s)";
            } else {
                reason = "running: " + desiredCount + " desired, " + rest.size() + " node(s) without a pod, "
                        + createOn.size() + " to create";
            }
        }
        status.setFailed(failed);
        status.setActive(active);
        return new BroadcastJobPlan(false, status, deletes, createOn, false, events, requeue, reason, held);
    }

    /** A job FailFast failed: what stopped it, for {@code kubectl kruise why}. */
    private static List<BlockReason> failedFast(BroadcastJob job, List<Pod> pods) {
        List<JobCondition> conditions = job.status().getConditions();
        boolean failFast = conditions != null && conditions.stream().anyMatch(c -> "True".equals(c.getStatus())
                && "Failed".equals(c.getType()) && c.getMessage() != null && c.getMessage().contains("FailFast"));
        if (!failFast) {
            return List.of();
        }
        List<String> failedNames = new ArrayList<>();
        for (Pod p : pods) {
            if (p.getStatus() != null && "Failed".equals(p.getStatus().getPhase())) {
                failedNames.add(p.getMetadata().getName());
            }
        }
        failedNames.sort(null);
        long failed = Math.max(failedNames.size(), job.status().getFailed());
        return List.of(Reasons.failurePolicy("FailFast", failedNames, failed, "the job failed and creates no more pods"));
    }

    /** Complete or Failed with status True; a Never job never finishes. */
    public static boolean finished(BroadcastJob job) {
        if (job.spec().completionPolicy().typeValue().orElse(CompletionPolicyType.ALWAYS) == CompletionPolicyType.NEVER) {
            return false;
        }
        List<JobCondition> conditions = job.status().getConditions();
        return conditions != null && conditions.stream().anyMatch(c -> "True".equals(c.getStatus())
                && ("Complete".equals(c.getType()) || "Failed".equals(c.getType())));
    }

    /** {@code parallelism} as a number or a percentage of the desired nodes (rounded up); unset is unlimited. */
    static int parallelism(IntOrString value, int desired) {
        if (value == null) {
            return MAX_PARALLELISM;
        }
        try {
            return Math.max(0, IntOrPercent.scaledValue(value, desired, true));
        } catch (IllegalArgumentException e) {
            return MAX_PARALLELISM; // the webhook refuses a malformed value; an old object's is read as unlimited
        }
    }

    /** As OpenKruise: an OnFailure pod whose containers restarted more than {@code restartLimit} times has failed. */
    static boolean restartsBeyond(int restartLimit, Pod pod) {
        if (pod.getSpec() == null || !"OnFailure".equals(pod.getSpec().getRestartPolicy()) || pod.getStatus() == null) {
            return false;
        }
        int restarts = 0;
        for (List<ContainerStatus> list : java.util.Arrays.asList(pod.getStatus().getInitContainerStatuses(),
                pod.getStatus().getContainerStatuses())) {
            if (list != null) {
                for (ContainerStatus cs : list) {
                    restarts += cs.getRestartCount() == null ? 0 : cs.getRestartCount();
                }
            }
        }
        return restarts > restartLimit;
    }

    private static boolean complete(boolean never, Map<String, Pod> desired) {
        if (never || desired.isEmpty()) {
            return false;
        }
        for (Pod p : desired.values()) {
            if (p == null || active(p)) {
                return false;
            }
        }
        return true;
    }

    private static boolean active(Pod p) {
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        return !"Succeeded".equals(phase) && !"Failed".equals(phase) && p.getMetadata().getDeletionTimestamp() == null;
    }

    /** Adds the final condition and completion time; the TTL (plus a second, as OpenKruise) is the next look. */
    private static Duration finish(BroadcastJob job, BroadcastJobStatus status, JobConditionType type, String message,
                                   Instant now, Duration requeue) {
        List<JobCondition> conditions = status.getConditions() == null ? new ArrayList<>()
                : new ArrayList<>(status.getConditions());
        String t = Pods.formatTime(now);
        conditions.add(new JobCondition(type.value(), "True", t, type.value(), message));
        status.setConditions(conditions);
        status.setCompletionTime(t);
        Integer ttl = job.spec().completionPolicy().getTtlSecondsAfterFinished();
        return ttl == null ? requeue : Duration.ofSeconds(ttl + 1L);
    }

    private static BroadcastJobStatus copy(BroadcastJobStatus s) {
        BroadcastJobStatus c = new BroadcastJobStatus();
        s.getAdditionalProperties().forEach(c::setAdditionalProperty);
        c.setConditions(s.getConditions() == null ? null : new ArrayList<>(s.getConditions()));
        c.setStartTime(s.getStartTime());
        c.setCompletionTime(s.getCompletionTime());
        c.setActive(s.getActive());
        c.setSucceeded(s.getSucceeded());
        c.setFailed(s.getFailed());
        c.setDesired(s.getDesired());
        c.setPhase(s.getPhase());
        return c;
    }
}
