package dev.kruisevertx.sim.controllers;

import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.api.model.batch.v1.JobConditionBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatus;
import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * kube's Job controller and its TTL-after-finished controller: runs up to {@code parallelism} pods until
 * {@code completions} succeed (NonIndexed, or Indexed with one pod per completion index), replaces failed pods after
 * an exponential back-off, fails the Job with reason BackoffLimitExceeded once more than {@code backoffLimit} pods
 * failed (or, for restartPolicy OnFailure, its pods restarted that often) and with DeadlineExceeded after
 * {@code activeDeadlineSeconds}, and deletes a finished Job {@code ttlSecondsAfterFinished} later (its pods go with
 * it through the garbage collector).
 *
 * <p>Counting follows kube's tracking without the {@code batch.kubernetes.io/job-tracking} finalizer: succeeded and
 * failed come from the pods that exist, never decreasing, plus the active pods a failing Job deletes.
 */
final class JobController extends WorkloadController<Job> {
    static final String COMPLETION_INDEX = "batch.kubernetes.io/job-completion-index";
    private static final Duration MAX_BACKOFF = Duration.ofMinutes(6);

    private final Duration backoff;
    /** When each Job (by uid) last saw its failed count grow: the back-off runs from there. */
    private final Map<String, Instant> lastFailure = new HashMap<>();

    JobController(KubernetesClient client, Caches caches, Expectations expectations, Duration backoff) {
        super(caches.jobs(), client, caches, expectations);
        this.backoff = backoff;
    }

    static boolean finished(Job job) {
        return condition(job, "Complete").isPresent() || condition(job, "Failed").isPresent();
    }

    private static Optional<JobCondition> condition(Job job, String type) {
        if (job.getStatus() == null || job.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return job.getStatus().getConditions().stream().filter(c -> type.equals(c.getType()) && "True".equals(c.getStatus())).findFirst();
    }

    private static boolean indexed(Job job) {
        return "Indexed".equals(job.getSpec().getCompletionMode());
    }

    @Override
    Optional<Duration> sync(Job job, String owner) {
        Instant now = Instant.now();
        if (finished(job)) {
            lastFailure.remove(job.getMetadata().getUid());
            return expireAfterFinished(job, now);
        }
        if (job.getMetadata().getDeletionTimestamp() != null) {
            return Optional.empty();
        }
        List<Pod> pods = Children.claim(client, caches.pods(), job, job.getSpec().getSelector(), Pod.class);
        List<Pod> active = pods.stream().filter(Pods::isActive).toList();
        JobStatus old = job.getStatus() == null ? new JobStatus() : job.getStatus();
        JobStatusBuilder status = new JobStatusBuilder(old);
        String startTime = old.getStartTime() != null ? old.getStartTime() : ts(now);
        status.withStartTime(startTime);
        long failedPods = pods.stream().filter(p -> Pods.PHASE_FAILED.equals(Pods.phase(p))).count();
        int failed = (int) Math.max(nz(old.getFailed()), failedPods);
        if (failed > nz(old.getFailed())) {
            lastFailure.put(job.getMetadata().getUid(), now);
        }
        TreeSet<Integer> succeededIndexes = new TreeSet<>();
        long succeededPods = 0;
        for (Pod p : pods) {
            if (Pods.PHASE_SUCCEEDED.equals(Pods.phase(p))) {
                succeededPods++;
                index(p).ifPresent(succeededIndexes::add);
            }
        }
        Integer completions = job.getSpec().getCompletions();
        if (indexed(job) && completions != null) {
            succeededIndexes.removeIf(i -> i >= completions);
        }
        int succeeded = indexed(job) ? succeededIndexes.size() : (int) Math.max(nz(old.getSucceeded()), succeededPods);
        int parallelism = job.getSpec().getParallelism() == null ? 1 : job.getSpec().getParallelism();
        int backoffLimit = job.getSpec().getBackoffLimit() == null ? 6 : job.getSpec().getBackoffLimit();
        List<JobCondition> conditions = new ArrayList<>(old.getConditions() == null ? List.of() : old.getConditions());

        String failure = null;
        String message = null;
        Optional<Duration> recheck = Optional.empty();
        if (failed > backoffLimit || pastBackoffLimitOnFailure(job, active, backoffLimit)) {
            failure = "BackoffLimitExceeded";
            message = "Job has reached the specified backoff limit";
        } else if (job.getSpec().getActiveDeadlineSeconds() != null) {
            Instant deadline = Instant.parse(startTime).plusSeconds(job.getSpec().getActiveDeadlineSeconds());
            if (!now.isBefore(deadline)) {
                failure = "DeadlineExceeded";
                message = "Job was active longer than specified deadline";
            } else {
                recheck = Optional.of(Duration.between(now, deadline).plusMillis(100));
            }
        }
        if (failure != null) {
            deleteAll(active, owner);
            conditions.add(condition("FailureTarget", failure, message, now));
            conditions.add(condition("Failed", failure, message, now));
            status.withActive(0).withReady(0).withFailed(failed + active.size()).withSucceeded(succeeded).withConditions(conditions);
            write(job, status.build());
            return expireAfterFinished(job, now);
        }
        boolean complete = completions != null ? succeeded >= completions : succeeded > 0 && active.isEmpty();
        if (complete) {
            deleteAll(active, owner);
            conditions.add(condition("SuccessCriteriaMet", "CompletionsReached", "Reached expected number of succeeded pods", now));
            conditions.add(condition("Complete", "CompletionsReached", "Reached expected number of succeeded pods", now));
            status.withActive(0).withReady(0).withFailed(failed).withSucceeded(succeeded).withCompletionTime(ts(now))
                    .withConditions(conditions);
            if (indexed(job)) {
                status.withCompletedIndexes(ranges(succeededIndexes));
            }
            write(job, status.build());
            return Optional.of(Duration.ofMillis(100));
        }
        int wantActive;
        if (completions == null) {
            wantActive = succeeded > 0 ? active.size() : parallelism;
        } else {
            wantActive = Math.max(0, Math.min(completions - succeeded, parallelism));
        }
        if (active.size() > wantActive) {
            List<Pod> sorted = new ArrayList<>(active);
            sorted.sort(ActivePodOrder.DELETE_FIRST);
            deleteAll(sorted.subList(0, active.size() - wantActive), owner);
        } else if (active.size() < wantActive && expectations.satisfied(owner, (ns, n) -> Caches.get(caches.pods(), ns, n))) {
            Duration wait = backoffLeft(job, failed, now);
            if (wait.isZero()) {
                create(job, wantActive - active.size(), active, succeededIndexes, owner);
            } else {
                recheck = Optional.of(recheck.map(r -> r.compareTo(wait) < 0 ? r : wait).orElse(wait));
            }
        }
        int ready = (int) active.stream().filter(Pods::isReady).count();
        int terminating = (int) pods.stream().filter(p -> Pods.isTerminating(p) && !Pods.PHASE_SUCCEEDED.equals(Pods.phase(p))
                && !Pods.PHASE_FAILED.equals(Pods.phase(p))).count();
        status.withActive(active.size()).withReady(ready).withTerminating(terminating).withSucceeded(succeeded).withFailed(failed)
                .withConditions(conditions);
        if (indexed(job)) {
            status.withCompletedIndexes(ranges(succeededIndexes));
        }
        write(job, status.build());
        return recheck;
    }

    /** kube's {@code pastBackoffLimitOnFailure}: container restarts of active pods count as failures. */
    private static boolean pastBackoffLimitOnFailure(Job job, List<Pod> active, int backoffLimit) {
        if (!"OnFailure".equals(job.getSpec().getTemplate().getSpec().getRestartPolicy())) {
            return false;
        }
        int restarts = 0;
        for (Pod p : active) {
            if (p.getStatus() == null) {
                continue;
            }
            for (List<ContainerStatus> list : java.util.Arrays.asList(p.getStatus().getInitContainerStatuses(), p.getStatus().getContainerStatuses())) {
                if (list != null) {
                    restarts += list.stream().mapToInt(s -> s.getRestartCount() == null ? 0 : s.getRestartCount()).sum();
                }
            }
        }
        return backoffLimit == 0 ? restarts > 0 : restarts >= backoffLimit;
    }

    private Duration backoffLeft(Job job, int failed, Instant now) {
        Instant last = lastFailure.get(job.getMetadata().getUid());
        if (failed == 0 || last == null) {
            return Duration.ZERO;
        }
        Duration delay = backoff;
        for (int i = 1; i < failed && delay.compareTo(MAX_BACKOFF) < 0; i++) {
            delay = delay.multipliedBy(2);
        }
        delay = delay.compareTo(MAX_BACKOFF) > 0 ? MAX_BACKOFF : delay;
        Instant due = last.plus(delay);
        return now.isBefore(due) ? Duration.between(now, due) : Duration.ZERO;
    }

    private void create(Job job, int count, List<Pod> active, TreeSet<Integer> succeededIndexes, String owner) {
        String ns = job.getMetadata().getNamespace();
        List<Integer> indexes = new ArrayList<>();
        if (indexed(job)) {
            TreeSet<Integer> taken = new TreeSet<>(succeededIndexes);
            active.forEach(p -> index(p).ifPresent(taken::add));
            for (int i = 0; i < job.getSpec().getCompletions() && indexes.size() < count; i++) {
                if (!taken.contains(i)) {
                    indexes.add(i);
                }
            }
        } else {
            for (int i = 0; i < count; i++) {
                indexes.add(null);
            }
        }
        for (Integer index : indexes) {
            String prefix = job.getMetadata().getName() + "-" + (index == null ? "" : index + "-");
            Pod pod = Children.podFromTemplate(job.getSpec().getTemplate(), job, prefix);
            if (index != null) {
                // As kube: the index as annotation and label, the hostname, and JOB_COMPLETION_INDEX in every container.
                pod.getMetadata().getLabels().put(COMPLETION_INDEX, String.valueOf(index));
                Map<String, String> ann = pod.getMetadata().getAnnotations() == null ? new HashMap<>() : pod.getMetadata().getAnnotations();
                ann.put(COMPLETION_INDEX, String.valueOf(index));
                pod.getMetadata().setAnnotations(ann);
                pod.getSpec().setHostname(job.getMetadata().getName() + "-" + index);
                Stream.concat(pod.getSpec().getContainers().stream(),
                        pod.getSpec().getInitContainers() == null ? Stream.<Container>empty() : pod.getSpec().getInitContainers().stream())
                        .forEach(c -> {
                            List<EnvVar> env = c.getEnv() == null ? new ArrayList<>() : new ArrayList<>(c.getEnv());
                            env.add(new io.fabric8.kubernetes.api.model.EnvVarBuilder().withName("JOB_COMPLETION_INDEX")
                                    .withNewValueFrom().withNewFieldRef().withFieldPath("metadata.annotations['" + COMPLETION_INDEX + "']")
                                    .endFieldRef().endValueFrom().build());
                            c.setEnv(env);
                        });
            }
            createPod(pod, owner);
        }
    }

    private void deleteAll(List<Pod> pods, String owner) {
        for (Pod p : pods) {
            deletePod(p, owner);
        }
    }

    /** The TTL-after-finished controller: deletes the Job (foreground, as kube) once its time is up. */
    private Optional<Duration> expireAfterFinished(Job job, Instant now) {
        Integer ttl = job.getSpec().getTtlSecondsAfterFinished();
        if (ttl == null || job.getMetadata().getDeletionTimestamp() != null || !finished(job)) {
            return Optional.empty();
        }
        String finishedAt = job.getStatus().getCompletionTime() != null ? job.getStatus().getCompletionTime()
                : condition(job, "Failed").or(() -> condition(job, "Complete")).map(JobCondition::getLastTransitionTime).orElse(null);
        Instant expires = (finishedAt == null ? now : Instant.parse(finishedAt)).plusSeconds(ttl);
        if (now.isBefore(expires)) {
            return Optional.of(Duration.between(now, expires).plusMillis(100));
        }
        client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace()).withName(job.getMetadata().getName())
                .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.FOREGROUND).delete();
        return Optional.empty();
    }

    private void write(Job job, JobStatus status) {
        if (status.equals(job.getStatus())) {
            return;
        }
        client.batch().v1().jobs().inNamespace(job.getMetadata().getNamespace())
                .resource(new JobBuilder(job).withStatus(status).build()).updateStatus();
    }

    private static Optional<Integer> index(Pod p) {
        String v = Pods.annotations(p).getOrDefault(COMPLETION_INDEX, Pods.labels(p).get(COMPLETION_INDEX));
        try {
            return v == null ? Optional.empty() : Optional.of(Integer.parseInt(v));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** kube's completedIndexes text: "1,3-5,7". */
    static String ranges(TreeSet<Integer> indexes) {
        StringBuilder out = new StringBuilder();
        Integer start = null;
        Integer prev = null;
        for (int i : indexes) {
            if (prev != null && i == prev + 1) {
                prev = i;
                continue;
            }
            append(out, start, prev);
            start = i;
            prev = i;
        }
        append(out, start, prev);
        return out.toString();
    }

    private static void append(StringBuilder out, Integer start, Integer end) {
        if (start == null) {
            return;
        }
        if (out.length() > 0) {
            out.append(',');
        }
        out.append(start);
        if (!start.equals(end)) {
            out.append('-').append(end);
        }
    }

    private static JobCondition condition(String type, String reason, String message, Instant now) {
        String t = ts(now);
        return new JobConditionBuilder().withType(type).withStatus("True").withReason(reason).withMessage(message)
                .withLastProbeTime(t).withLastTransitionTime(t).build();
    }

    private static String ts(Instant t) {
        return t.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    private static int nz(Integer i) {
        return i == null ? 0 : i;
    }
}
