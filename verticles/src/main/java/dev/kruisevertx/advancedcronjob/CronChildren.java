package dev.kruisevertx.advancedcronjob;

import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Reads cached Jobs and BroadcastJobs into {@link CronChild}ren (a read, never a copy or a change). */
final class CronChildren {
    private CronChildren() {
    }

    static List<CronChild> ofJobs(List<Job> jobs) {
        List<CronChild> out = new ArrayList<>(jobs.size());
        for (Job j : jobs) {
            out.add(child(j, outcome(j.getStatus() == null ? null : j.getStatus().getConditions(),
                    JobCondition::getStatus, JobCondition::getType), j.getStatus() == null ? null
                    : j.getStatus().getStartTime()));
        }
        return out;
    }

    static List<CronChild> ofBroadcastJobs(List<BroadcastJob> jobs) {
        List<CronChild> out = new ArrayList<>(jobs.size());
        for (BroadcastJob j : jobs) {
            out.add(child(j, outcome(j.getStatus() == null ? null : j.getStatus().getConditions(),
                    dev.kruisevertx.api.apps.v1beta1.JobCondition::getStatus,
                    dev.kruisevertx.api.apps.v1beta1.JobCondition::getType), j.getStatus() == null ? null
                    : j.getStatus().getStartTime()));
        }
        return out;
    }

    /**
     * OpenKruise's isImageListPullJobFinished: finished with a completionTime, succeeded when every image's job
     * succeeded on every node, failed otherwise.
     */
    static List<CronChild> ofImageListPullJobs(List<dev.kruisevertx.api.apps.v1beta1.ImageListPullJob> jobs) {
        List<CronChild> out = new ArrayList<>(jobs.size());
        for (dev.kruisevertx.api.apps.v1beta1.ImageListPullJob j : jobs) {
            var s = j.getStatus();
            CronChild.Outcome outcome = s == null || s.getCompletionTime() == null ? CronChild.Outcome.ACTIVE
                    : s.getSucceeded() == s.getDesired() ? CronChild.Outcome.SUCCEEDED : CronChild.Outcome.FAILED;
            out.add(child(j, outcome, s == null ? null : s.getStartTime()));
        }
        return out;
    }

    /** A Job's or BroadcastJob's outcome from its conditions: the last true Complete or Failed one, else active. */
    private static <C> CronChild.Outcome outcome(List<C> conditions, Function<C, String> status,
                                                 Function<C, String> type) {
        CronChild.Outcome outcome = CronChild.Outcome.ACTIVE;
        for (C c : conditions == null ? List.<C>of() : conditions) {
            if ("True".equals(status.apply(c)) && "Complete".equals(type.apply(c))) {
                outcome = CronChild.Outcome.SUCCEEDED;
            } else if ("True".equals(status.apply(c)) && "Failed".equals(type.apply(c))) {
                outcome = CronChild.Outcome.FAILED;
            }
        }
        return outcome;
    }

    private static CronChild child(HasMetadata o, CronChild.Outcome outcome, String startTime) {
        return new CronChild(o.getMetadata().getName(), o.getMetadata().getUid(), o.getMetadata().getResourceVersion(),
                outcome, scheduledAt(o), parse(startTime));
    }

    private static Instant scheduledAt(HasMetadata o) {
        String raw = o.getMetadata().getAnnotations() == null ? null
                : o.getMetadata().getAnnotations().get(WellKnown.SCHEDULED_AT_ANNOTATION);
        return parse(raw);
    }

    private static Instant parse(String raw) {
        try {
            return raw == null || raw.isEmpty() ? null : Pods.parseTime(raw);
        } catch (RuntimeException e) {
            return null; // as OpenKruise: a child with an unreadable time does not count towards the last run
        }
    }
}
