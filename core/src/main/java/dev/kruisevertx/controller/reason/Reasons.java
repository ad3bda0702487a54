package dev.kruisevertx.controller.reason;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one way to build a {@link BlockReason}, so every controller words the same rule the same way and carries
 * the same numbers. Messages are made from numbers, field names and object names only.
 */
public final class Reasons {
    /** A message quoted from the API server (an admission refusal) is cut here: it is a reason, not a document. */
    static final int MAX_QUOTED = 300;

    private Reasons() {
    }

    /** {@code field} (e.g. {@code updateStrategy.partition}) keeps {@code kept} pods at the current revision. */
    public static BlockReason partition(String field, long partition, long kept) {
        return new BlockReason(ReasonCode.PARTITION, field + " " + partition + " keeps " + pods(kept)
                + " at the current revision", numbers("partition", partition, "kept", kept), List.of());
    }

    /** The update strategy is paused while {@code waiting} pods are not at the update revision. */
    public static BlockReason paused(String field, long waiting) {
        return new BlockReason(ReasonCode.PAUSED, field + " is true: " + pods(waiting) + " " + verb(waiting, "waits", "wait")
                + " for the update", numbers("waiting", waiting), List.of());
    }

    /**
     * {@code field} ({@code max}) is used up by the pods unavailable now; {@code waiting} pods wait to be
     * {@code action} ("updated", "deleted", "created").
     */
    public static BlockReason maxUnavailable(String field, long max, List<String> unavailable, long unavailableCount,
                                             long waiting, String action) {
        return new BlockReason(ReasonCode.MAX_UNAVAILABLE, field + " " + max + " reached: " + unavailableCount
                + " unavailable now" + names(unavailable, unavailableCount) + "; " + pods(waiting) + " "
                + verb(waiting, "waits", "wait") + " to be " + action,
                numbers("maxUnavailable", max, "unavailable", unavailableCount, "waiting", waiting), unavailable);
    }

    /** {@code field} ({@code max}) extra pods exist and are not available yet; {@code waiting} pods wait. */
    public static BlockReason maxSurge(String field, long max, List<String> surge, long surgeCount, long waiting,
                                       String action) {
        return new BlockReason(ReasonCode.MAX_SURGE, field + " " + max + " used: " + surgeCount + " extra "
                + noun(surgeCount, "pod") + " not available yet" + names(surge, surgeCount) + "; " + pods(waiting) + " "
                + verb(waiting, "waits", "wait") + " to be " + action,
                numbers("maxSurge", max, "surge", surgeCount, "waiting", waiting), surge);
    }

    /**
     * Pod {@code pod} waits in lifecycle state {@code state} for the {@code hook} hook: it still carries
     * {@code holds} (labels as {@code key=value}, finalizers by name), which something else must remove.
     */
    public static BlockReason lifecycleHook(String pod, String state, String hook, List<String> holds) {
        return new BlockReason(ReasonCode.LIFECYCLE_HOOK, "pod " + pod + " waits in " + state + " for the " + hook
                + " hook to let go of " + String.join(", ", holds), Map.of(), List.of(pod));
    }

    /** A PodUnavailableBudget refused {@code verb} (delete, evict) of pod {@code pod}. */
    public static BlockReason podUnavailableBudget(String verb, String pod, String message) {
        return new BlockReason(ReasonCode.POD_UNAVAILABLE_BUDGET, verb + " pod " + pod + " refused: "
                + quoted(message), Map.of(), List.of(pod));
    }

    /** The cache has not yet shown {@code what} (e.g. "2 pod creations"), written by this controller. */
    public static BlockReason expectations(String what, List<String> objects) {
        return new BlockReason(ReasonCode.EXPECTATIONS, "waiting for the cache to show " + what, Map.of(), objects);
    }

    /** Scale expectations not yet met: the pods this controller created or deleted that the cache does not show. */
    public static BlockReason expectations(dev.kruisevertx.expectations.ScaleExpectations.Satisfied pending) {
        List<String> parts = new java.util.ArrayList<>();
        List<String> objects = new java.util.ArrayList<>();
        pending.details().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            List<String> names = new java.util.ArrayList<>(e.getValue());
            names.sort(null);
            parts.add(e.getKey().name().toLowerCase(java.util.Locale.ROOT) + " of " + pods(names.size())
                    + names(names, names.size()));
            objects.addAll(names);
        });
        return expectations("this controller's " + String.join("; ", parts), objects);
    }

    /** Ready pods not yet available; the first turns available in {@code next}. */
    public static BlockReason minReadySeconds(long minReadySeconds, List<String> pods, long count, Duration next) {
        return new BlockReason(ReasonCode.MIN_READY_SECONDS, count + " ready " + noun(count, "pod") + " not yet available"
                + names(pods, count) + ": minReadySeconds " + minReadySeconds + ", the next in " + approx(next),
                numbers("minReadySeconds", minReadySeconds, "pods", count, "secondsLeft", next.toSeconds()), pods);
    }

    /** Pods the scheduler cannot place; {@code message} is the scheduler's, from the first pod's PodScheduled. */
    public static BlockReason unschedulable(List<String> pods, long count, String message) {
        return new BlockReason(ReasonCode.UNSCHEDULABLE, count + " " + noun(count, "pod") + " cannot be scheduled"
                + names(pods, count) + ": " + quoted(message), numbers("pods", count), pods);
    }

    /** Images are being pre-downloaded on {@code done} of {@code total} nodes before the update goes on. */
    public static BlockReason imagePreDownload(long done, long total) {
        return new BlockReason(ReasonCode.IMAGE_PRE_DOWNLOAD, "image pre-download done on " + done + " of " + total
                + " nodes", numbers("done", done, "total", total), List.of());
    }

    /**
     * Image pre-download for the update revision waits until {@code min} pods of it are updated and ready
     * ({@code apps.kruise.io/image-predownload-min-updated-ready-pods}); {@code ready} are so far.
     */
    public static BlockReason imagePreDownloadWaiting(long min, long ready) {
        return new BlockReason(ReasonCode.IMAGE_PRE_DOWNLOAD, "image pre-download waits for " + min
                + " updated ready " + noun(min, "pod") + " (apps.kruise.io/image-predownload-min-updated-ready-pods), "
                + ready + " so far", numbers("minUpdatedReady", min, "updatedReady", ready), List.of());
    }

    /** An admission webhook refused {@code write} (e.g. "create pod web-x"); the API server's message. */
    public static BlockReason webhookRejection(String write, String object, String message) {
        return new BlockReason(ReasonCode.WEBHOOK_REJECTION, write + " refused: " + quoted(message), Map.of(),
                object == null ? List.of() : List.of(object));
    }

    /** An update strategy of type NotUpdate ({@code field}): {@code waiting} pods keep what they run (SidecarSet). */
    public static BlockReason notUpdate(String field, long waiting) {
        return new BlockReason(ReasonCode.PAUSED, field + " is NotUpdate: " + pods(waiting) + " "
                + verb(waiting, "keeps", "keep") + " the old sidecars", numbers("waiting", waiting), List.of());
    }

    /** A job is paused ({@code field} true): {@code waiting} nodes wait for their pod. */
    public static BlockReason jobPaused(String field, long waiting) {
        return new BlockReason(ReasonCode.PAUSED, field + " is true: " + waiting + " " + noun(waiting, "node") + " "
                + verb(waiting, "waits", "wait") + " for a pod", numbers("waiting", waiting), List.of());
    }

    /** {@code selectorField} matches no pod that qualifies ({@code qualifies}: e.g. "running and initialized"). */
    public static BlockReason noMatchingPods(String selectorField, String qualifies) {
        return new BlockReason(ReasonCode.NO_MATCHING_PODS, selectorField + " matches no " + qualifies + " pod",
                numbers("matched", 0), List.of());
    }

    /** {@code field} ({@code max}) is used up by {@code active} pods; {@code waiting} nodes wait for a pod. */
    public static BlockReason parallelism(String field, long max, List<String> active, long activeCount,
                                          List<String> waiting, long waitingCount) {
        return new BlockReason(ReasonCode.PARALLELISM, field + " " + max + " reached: " + activeCount + " active"
                + names(active, activeCount) + "; " + waitingCount + " " + noun(waitingCount, "node") + " "
                + verb(waitingCount, "waits", "wait") + " for a pod" + names(waiting, waitingCount),
                numbers("parallelism", max, "active", activeCount, "waiting", waitingCount), active);
    }

    /** failurePolicy {@code policy} stopped the job at {@code failedCount} failed pods: {@code outcome}. */
    public static BlockReason failurePolicy(String policy, List<String> failed, long failedCount, String outcome) {
        return new BlockReason(ReasonCode.FAILURE_POLICY, "failurePolicy " + policy + ": " + failedCount + " failed "
                + noun(failedCount, "pod") + names(failed, failedCount) + "; " + outcome,
                numbers("failed", failedCount), failed);
    }

    /** None of {@code total} nodes fits the template; {@code byProblem} counts the nodes per reason. */
    public static BlockReason noNodeFits(long total, Map<String, Long> byProblem) {
        StringBuilder b = new StringBuilder("0/" + total + " nodes fit the pod template");
        String sep = ": ";
        for (Map.Entry<String, Long> e : byProblem.entrySet()) {
            b.append(sep).append(e.getValue()).append(' ').append(e.getKey());
            sep = ", ";
        }
        return new BlockReason(ReasonCode.NO_NODE_FITS, b.toString(), numbers("nodes", total), List.of());
    }

    /** A schedule is paused ({@code field} true): no scheduled run starts. */
    public static BlockReason schedulePaused(String field) {
        return new BlockReason(ReasonCode.PAUSED, field + " is true: no scheduled run starts", Map.of(), List.of());
    }

    /** concurrencyPolicy Forbid: the run scheduled at {@code run} waits while {@code active} runs. */
    public static BlockReason concurrencyForbid(String run, List<String> active) {
        return new BlockReason(ReasonCode.CONCURRENCY_POLICY, "concurrencyPolicy Forbid: the run scheduled at " + run
                + " waits while " + active.size() + " " + noun(active.size(), "run") + " " + verb(active.size(), "is", "are")
                + " active" + names(active, active.size()), numbers("active", active.size()), active);
    }

    /** The run scheduled at {@code run} was not started within startingDeadlineSeconds {@code deadline}. */
    public static BlockReason startingDeadline(String run, long deadline) {
        return new BlockReason(ReasonCode.MISSED_START, "the run scheduled at " + run
                + " missed startingDeadlineSeconds " + deadline, numbers("startingDeadlineSeconds", deadline), List.of());
    }

    /** More than {@code max} starts were missed: none is started. */
    public static BlockReason tooManyMissedStarts(long max) {
        return new BlockReason(ReasonCode.MISSED_START, "more than " + max + " missed start times: no run starts; "
                + "set or decrease spec.startingDeadlineSeconds or check clock skew", numbers("max", max), List.of());
    }

    /**
     * A WorkloadSpread subset the Adaptive strategy marked Schedulable=False: its pods stayed unschedulable past
     * {@code rescheduleCriticalSeconds}, so new pods go to the next subsets until it recovers in {@code recoversIn}.
     */
    public static BlockReason subsetUnschedulable(String subset, long rescheduleCriticalSeconds, List<String> deleted,
                                                  Duration recoversIn) {
        return new BlockReason(ReasonCode.UNSCHEDULABLE, "subset " + subset + " is marked Schedulable=False: its pods"
                + " stayed unschedulable past rescheduleCriticalSeconds " + rescheduleCriticalSeconds
                + (deleted.isEmpty() ? "" : "; deleting " + pods(deleted.size()) + names(deleted, deleted.size()))
                + "; new pods go to the next subsets until it recovers in " + approx(recoversIn),
                numbers("rescheduleCriticalSeconds", rescheduleCriticalSeconds, "deleting", deleted.size(),
                        "secondsLeft", recoversIn.toSeconds()), deleted);
    }

    /** "1 pod", "3 pods". */
    public static String pods(long n) {
        return n + " " + noun(n, "pod");
    }

    static String noun(long n, String singular) {
        return n == 1 ? singular : singular + "s";
    }

    private static String verb(long n, String singular, String plural) {
        return n == 1 ? singular : plural;
    }

    /** " (a, b, c)", the first {@link BlockReason#MAX_OBJECTS} names then how many in all; "" for none. */
    static String names(List<String> names, long count) {
        if (names.isEmpty()) {
            return "";
        }
        List<String> shown = names.size() > BlockReason.MAX_OBJECTS ? names.subList(0, BlockReason.MAX_OBJECTS) : names;
        return " (" + String.join(", ", shown) + (count > shown.size() ? ", ... " + count + " in all" : "") + ")";
    }

    /**
     * Seconds up to two minutes, then whole minutes up to two hours, then whole hours, each rounded up: stable
     * while a user (or a test) reads it.
     */
    static String approx(Duration d) {
        long s = Math.max(0, d.toSeconds() + (d.toNanosPart() > 0 ? 1 : 0));
        if (s < 120) {
            return s + "s";
        }
        return s < 7200 ? ((s + 59) / 60) + "m" : ((s + 3599) / 3600) + "h";
    }

    static String quoted(String message) {
        String m = message == null || message.isBlank() ? "(no message)" : message.strip().replaceAll("\\s+", " ");
        return m.length() > MAX_QUOTED ? m.substring(0, MAX_QUOTED) + "..." : m;
    }

    private static Map<String, Long> numbers(Object... kv) {
        Map<String, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], ((Number) kv[i + 1]).longValue());
        }
        return m;
    }
}
