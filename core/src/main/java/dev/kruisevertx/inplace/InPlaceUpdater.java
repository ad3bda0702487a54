package dev.kruisevertx.inplace;

import dev.kruisevertx.api.common.InPlaceUpdateContainerBatch;
import dev.kruisevertx.api.common.InPlaceUpdateContainerStatus;
import dev.kruisevertx.api.common.InPlaceUpdatePreCheckBeforeNext;
import dev.kruisevertx.api.common.InPlaceUpdateState;
import dev.kruisevertx.api.common.RuntimeContainerMeta;
import dev.kruisevertx.api.common.RuntimeContainerMetaSet;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.PodConditions;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodReadinessGate;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodStatus;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * Applies an {@link InPlaceUpdateSpec} to pods and follows it to completion, with OpenKruise's in-place update
 * protocol (annotations, readiness gate, container batches by launch priority, grace period). Pure: every method
 * returns a changed copy (or the input itself when nothing changes) and never touches its arguments, so it can run on
 * cached pods; the caller writes the copies.
 *
 * <p>A workload drives it like this:
 * <ol>
 *   <li>new pods get the gate: {@link #injectReadinessGate(PodSpec)};</li>
 *   <li>to update a pod: write {@link #markUpdateStarting} with a status update (InPlaceUpdateReady=False, which also
 *       takes the pod out of endpoints), then {@link #prepare} on the returned pod with a pod update;</li>
 *   <li>on every later sync: {@link #refresh} tells whether to apply a delayed (grace) update, patch the next
 *       container batch, or set InPlaceUpdateReady=True; {@link #checkCompleted} tells when the lifecycle may leave
 *       Updating.</li>
 * </ol>
 */
public final class InPlaceUpdater {
    /** Reason of the InPlaceUpdateReady=False condition, as OpenKruise writes it. */
    public static final String START_REASON = "StartInPlaceUpdate";

    private final RevisionLabels revisionLabels;

    public InPlaceUpdater(RevisionLabels revisionLabels) {
        this.revisionLabels = revisionLabels;
    }

    public RevisionLabels revisionLabels() {
        return revisionLabels;
    }

    // ---- Readiness gate -----------------------------------------------------------------------------------------

    /** Adds the InPlaceUpdateReady readiness gate to a spec being built for a new pod (readiness gates are immutable). */
    public static void injectReadinessGate(PodSpec spec) {
        if (spec.getReadinessGates() == null) {
            spec.setReadinessGates(new ArrayList<>());
        }
        for (PodReadinessGate g : spec.getReadinessGates()) {
            if (WellKnown.INPLACE_UPDATE_READY_CONDITION.equals(g.getConditionType())) {
                return;
            }
        }
        spec.getReadinessGates().add(new PodReadinessGate(WellKnown.INPLACE_UPDATE_READY_CONDITION));
    }

    /**
     * The status change that starts an in-place update: InPlaceUpdateReady=False (reason {@value #START_REASON}) and
     * Ready recomputed from the readiness gates. Returns {@code pod} itself when the pod has no InPlaceUpdateReady
     * gate or already carries that condition; write the copy with a status update.
     */
    public Pod markUpdateStarting(Pod pod, Instant now) {
        if (!Pods.hasReadinessGate(pod, WellKnown.INPLACE_UPDATE_READY_CONDITION)) {
            return pod;
        }
        PodCondition wanted = PodConditions.of(WellKnown.INPLACE_UPDATE_READY_CONDITION, "False", START_REASON, null,
                now);
        if (hasEqualCondition(pod, wanted)) {
            return pod;
        }
        Pod copy = copy(pod);
        PodStatus status = statusOf(copy);
        PodConditions.set(status, wanted);
        PodConditions.recomputeReady(copy.getSpec(), status, now);
        return copy;
    }

    /**
     * The pod with InPlaceUpdateReady=True, what {@link #refresh} writes once the update took effect. Returns
     * {@code pod} itself when there is no gate or the condition is already True.
     */
    public Pod finish(Pod pod, Instant now) {
        if (!Pods.hasReadinessGate(pod, WellKnown.INPLACE_UPDATE_READY_CONDITION)) {
            return pod;
        }
        PodCondition wanted = PodConditions.of(WellKnown.INPLACE_UPDATE_READY_CONDITION, "True", null, null, now);
        if (hasEqualCondition(pod, wanted)) {
            return pod;
        }
        Pod copy = copy(pod);
        if (!PodConditions.set(statusOf(copy), wanted)) {
            return pod;
        }
        return copy;
    }

    // ---- Starting an update -------------------------------------------------------------------------------------

    /**
     * The pod as the in-place update wants it: the revision labels, a fresh {@code apps.kruise.io/inplace-update-state}
     * (the old key removed), the InPlaceUpdateReady=False condition (for callers that write status too) and then
     * either, with no grace period, the metadata patch and the first batch of containers, or, with a grace period,
     * the spec kept in {@code apps.kruise.io/inplace-update-grace} to be applied by {@link #refresh} later.
     * Write the result with a pod update.
     *
     * @throws IllegalArgumentException when the spec is null
     */
    public Pod prepare(Pod pod, InPlaceUpdateSpec spec, Instant now) {
        if (spec == null) {
            throw new IllegalArgumentException("no in-place update spec: the revisions cannot be updated in place");
        }
        Pod copy = copy(markUpdateStarting(pod, now));
        ObjectMeta meta = copy.getMetadata();
        revisionLabels.write(meta.getLabels(), spec.revision());

        InPlaceUpdateState state = new InPlaceUpdateState();
        state.setRevision(spec.revision());
        state.setUpdateTimestamp(Pods.formatTime(now));
        state.setUpdateEnvFromMetadata(spec.updateEnvFromMetadata());
        state.setUpdateImages(!spec.containerImages().isEmpty());
        meta.getAnnotations().put(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION, state.toJson());
        meta.getAnnotations().remove(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION_OLD);

        if (spec.graceSeconds() <= 0) {
            applyBatch(copy, spec, state, now, true);
            removeGrace(meta);
        } else {
            meta.getAnnotations().put(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION, spec.toGraceJson());
        }
        return copy;
    }

    /**
     * Patches the next batch of containers recorded in the state ({@code nextContainerImages} /
     * {@code nextContainerRefMetadata}). Returns {@code pod} itself when there is no state or no pending batch. The
     * caller should first make sure {@link #preCheckBeforeNext} passes (as {@link #refresh} does).
     *
     * @throws IllegalArgumentException when the state annotation is not valid JSON
     */
    public Pod nextBatch(Pod pod, Instant now) {
        InPlaceUpdateState state = InPlaceUpdateState.readFrom(pod).orElse(null);
        if (state == null || (isEmpty(state.getNextContainerImages()) && isEmpty(state.getNextContainerRefMetadata()))) {
            return pod;
        }
        InPlaceUpdateSpec spec = new InPlaceUpdateSpec(state.getRevision(), state.getNextContainerImages(),
                state.getNextContainerRefMetadata(), null, null, state.isUpdateEnvFromMetadata(), 0, null, null);
        Pod copy = copy(pod);
        applyBatch(copy, spec, state, now, false);
        return copy;
    }

    /**
     * Patches the highest-priority containers of {@code spec} into {@code pod} (a copy we own) and records the rest
     * for later batches in the state annotation.
     */
    private void applyBatch(Pod pod, InPlaceUpdateSpec spec, InPlaceUpdateState state, Instant now,
                            boolean applyMetadataPatch) {
        ObjectMeta meta = pod.getMetadata();
        if (applyMetadataPatch) {
            applyPatch(meta.getLabels(), spec.labelsPatch());
            applyPatch(meta.getAnnotations(), spec.annotationsPatch());
        }
        List<Container> containers = pod.getSpec() == null || pod.getSpec().getContainers() == null
                ? List.of() : pod.getSpec().getContainers();
        boolean ordered = WellKnown.CONTAINER_LAUNCH_ORDERED.equals(
                meta.getAnnotations().get(WellKnown.CONTAINER_LAUNCH_PRIORITY_ANNOTATION));

        // Containers without priority always go in this batch, along with those of the highest priority.
        Set<String> toUpdate = new TreeSet<>();
        Integer highest = null;
        List<String> highestNames = new ArrayList<>();
        for (int i = 0; i < containers.size(); i++) {
            Container c = containers.get(i);
            if (!spec.containerImages().containsKey(c.getName()) && !spec.containerRefMetadata().containsKey(c.getName())) {
                continue;
            }
            Integer p = ContainerLaunchPriority.of(c, i, ordered);
            if (p == null) {
                toUpdate.add(c.getName());
            } else if (highest == null || highest < p) {
                highest = p;
                highestNames.clear();
                highestNames.add(c.getName());
            } else if (highest.equals(p)) {
                highestNames.add(c.getName());
            }
        }
        toUpdate.addAll(highestNames);
        addContainersSharingMetadata(toUpdate, spec.containerRefMetadata());

        Map<String, String> nextImages = new LinkedHashMap<>();
        Set<String> imageChanged = new TreeSet<>();
        for (Container c : containers) {
            String image = spec.containerImages().get(c.getName());
            if (image == null) {
                continue;
            }
            if (toUpdate.contains(c.getName())) {
                c.setImage(image);
                imageChanged.add(c.getName());
            } else {
                nextImages.put(c.getName(), image);
            }
        }
        if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
            for (ContainerStatus cs : pod.getStatus().getContainerStatuses()) {
                if (imageChanged.contains(cs.getName())) {
                    Map<String, InPlaceUpdateContainerStatus> last = state.getLastContainerStatuses() == null
                            ? new LinkedHashMap<>() : new LinkedHashMap<>(state.getLastContainerStatuses());
                    last.put(cs.getName(), new InPlaceUpdateContainerStatus(cs.getImageID()));
                    state.setLastContainerStatuses(last);
                }
            }
        }

        Map<String, ObjectMeta> nextRefMetadata = new LinkedHashMap<>();
        for (Map.Entry<String, ObjectMeta> e : spec.containerRefMetadata().entrySet()) {
            if (toUpdate.contains(e.getKey())) {
                if (e.getValue().getLabels() != null) {
                    meta.getLabels().putAll(e.getValue().getLabels());
                }
                if (e.getValue().getAnnotations() != null) {
                    meta.getAnnotations().putAll(e.getValue().getAnnotations());
                }
            } else {
                nextRefMetadata.put(e.getKey(), e.getValue());
            }
        }

        state.setNextContainerImages(nextImages.isEmpty() ? null : nextImages);
        state.setNextContainerRefMetadata(nextRefMetadata.isEmpty() ? null : nextRefMetadata);
        state.setPreCheckBeforeNext(nextImages.isEmpty() && nextRefMetadata.isEmpty()
                ? null : new InPlaceUpdatePreCheckBeforeNext(new ArrayList<>(toUpdate)));
        List<InPlaceUpdateContainerBatch> batches = state.getContainerBatchesRecord() == null
                ? new ArrayList<>() : new ArrayList<>(state.getContainerBatchesRecord());
        batches.add(new InPlaceUpdateContainerBatch(Pods.formatTime(now), new ArrayList<>(toUpdate)));
        state.setContainerBatchesRecord(batches);
        meta.getAnnotations().put(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION, state.toJson());
        meta.getAnnotations().remove(WellKnown.INPLACE_UPDATE_STATE_ANNOTATION_OLD);
    }

    /**
     * A lower-priority container whose env reads a label/annotation that a container of this batch changes must be
     * restarted now too, since the pod's metadata changes for both at once.
     */
    private static void addContainersSharingMetadata(Set<String> toUpdate, Map<String, ObjectMeta> refMetadata) {
        Set<String> labelKeys = new TreeSet<>();
        Set<String> annotationKeys = new TreeSet<>();
        Set<String> added = new TreeSet<>(toUpdate);
        while (!added.isEmpty()) {
            for (String name : added) {
                ObjectMeta m = refMetadata.get(name);
                if (m != null) {
                    if (m.getLabels() != null) {
                        labelKeys.addAll(m.getLabels().keySet());
                    }
                    if (m.getAnnotations() != null) {
                        annotationKeys.addAll(m.getAnnotations().keySet());
                    }
                }
            }
            added = new TreeSet<>();
            for (Map.Entry<String, ObjectMeta> e : refMetadata.entrySet()) {
                if (toUpdate.contains(e.getKey())) {
                    continue;
                }
                ObjectMeta m = e.getValue();
                boolean shares = (m.getLabels() != null && m.getLabels().keySet().stream().anyMatch(labelKeys::contains))
                        || (m.getAnnotations() != null
                        && m.getAnnotations().keySet().stream().anyMatch(annotationKeys::contains));
                if (shares) {
                    toUpdate.add(e.getKey());
                    added.add(e.getKey());
                }
            }
        }
    }

    // ---- Following an update ------------------------------------------------------------------------------------

    /**
     * Whether the pod's in-place update has completed, as OpenKruise's default check: not during a grace period,
     * not while batches are pending, and every container updated in place reports a new imageID (or already ran the
     * new image). A pod without in-place state is complete.
     */
    public CompletionCheck checkCompleted(Pod pod) {
        if (graceAnnotation(pod) != null) {
            return CompletionCheck.notDone("still in grace period of in-place update");
        }
        InPlaceUpdateState state;
        try {
            state = InPlaceUpdateState.readFrom(pod).orElse(null);
        } catch (IllegalArgumentException e) {
            return CompletionCheck.notDone(e.getMessage());
        }
        if (state == null) {
            return CompletionCheck.DONE;
        }
        if (!isEmpty(state.getNextContainerImages()) || !isEmpty(state.getNextContainerRefMetadata())) {
            return new CompletionCheck(false, true, "existing containers to in-place update in next batches");
        }
        return checkContainersCompleted(pod, state);
    }

    /**
     * The container part of {@link #checkCompleted}: the containers patched so far run their new spec.
     * When env from metadata changed, kruise-daemon's {@code apps.kruise.io/runtime-containers-meta} must report
     * every container with the containerID the pod status shows (the restarted container) and with the
     * env-from-metadata hash the pod's current labels/annotations give.
     */
    public CompletionCheck checkContainersCompleted(Pod pod, InPlaceUpdateState state) {
        if (state.isUpdateEnvFromMetadata()) {
            RuntimeContainerMetaSet metaSet;
            try {
                metaSet = RuntimeContainerMetaSet.readFrom(pod).orElse(null);
            } catch (IllegalArgumentException e) {
                return CompletionCheck.notDone(e.getMessage());
            }
            if (metaSet == null) {
                return CompletionCheck.notDone(
                        "waiting for all containers hash consistent, but runtime-container-meta not found");
            }
            if (!containerIdsConsistent(pod, metaSet)) {
                return CompletionCheck.notDone("waiting for all containers hash consistent");
            }
        }

        Map<String, String> specImages = new HashMap<>();
        if (pod.getSpec() != null && pod.getSpec().getContainers() != null) {
            for (Container c : pod.getSpec().getContainers()) {
                String image = c.getImage() == null ? "" : c.getImage();
                specImages.put(c.getName(), image.contains(":") ? image : image + ":latest");
            }
        }
        Map<String, InPlaceUpdateContainerStatus> pending = state.getLastContainerStatuses() == null
                ? new LinkedHashMap<>() : new LinkedHashMap<>(state.getLastContainerStatuses());
        if (pod.getStatus() != null && pod.getStatus().getContainerStatuses() != null) {
            for (ContainerStatus cs : pod.getStatus().getContainerStatuses()) {
                InPlaceUpdateContainerStatus old = pending.get(cs.getName());
                if (old == null) {
                    continue;
                }
                // Same imageID and a status image that differs from the spec: the kubelet has not restarted it yet.
                if (Objects.equals(old.getImageID(), cs.getImageID())
                        && !Objects.equals(specImages.get(cs.getName()), cs.getImage())) {
                    return CompletionCheck.notDone("container " + cs.getName() + " imageID not changed");
                }
                pending.remove(cs.getName());
            }
        }
        if (!pending.isEmpty()) {
            return CompletionCheck.notDone("not found statuses of containers " + pending.keySet());
        }
        return CompletionCheck.DONE;
    }

    private static boolean containerIdsConsistent(Pod pod, RuntimeContainerMetaSet metaSet) {
        if (pod.getSpec() == null || pod.getSpec().getContainers() == null) {
            return true;
        }
        for (Container c : pod.getSpec().getContainers()) {
            ContainerStatus status = Pods.containerStatus(pod, c.getName()).orElse(null);
            if (status == null) {
                return false;
            }
            RuntimeContainerMeta meta = null;
            if (metaSet.getContainers() != null) {
                for (RuntimeContainerMeta m : metaSet.getContainers()) {
                    if (c.getName().equals(m.getName())) {
                        meta = m;
                    }
                }
            }
            if (meta == null || !Objects.equals(meta.getContainerID(), status.getContainerID())) {
                return false;
            }
            // The restarted container must also run with the values the pod's labels/annotations now hold.
            long reported = meta.getHashes() == null ? 0 : meta.getHashes().getExtractedEnvFromMetadataHash();
            if (reported != EnvFromMetadataHash.expected(c, pod.getMetadata().getLabels(),
                    pod.getMetadata().getAnnotations())) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the containers of the previous batch are ready, so the next batch may be patched; null when it may,
     * else the reason to wait.
     */
    public static String preCheckBeforeNext(Pod pod, InPlaceUpdatePreCheckBeforeNext preCheck) {
        if (preCheck == null || preCheck.getContainersRequiredReady() == null) {
            return null;
        }
        for (String name : preCheck.getContainersRequiredReady()) {
            ContainerStatus s = Pods.containerStatus(pod, name).orElse(null);
            if (s == null) {
                return "not found container " + name + " in pod status";
            }
            if (!Boolean.TRUE.equals(s.getReady())) {
                return "waiting container " + name + " to be ready";
            }
        }
        return null;
    }

    /**
     * The grace period of a delayed in-place update: still running, over (apply the spec), or obsolete (the pod's
     * revision label no longer names the spec's revision: drop the annotation and let the workload start over).
     */
    public GraceCheck graceDue(Pod pod, Instant now) {
        String[] annotation = graceAnnotation(pod);
        if (annotation == null) {
            return new GraceCheck(GraceCheck.Action.NONE, Duration.ZERO, null, null);
        }
        InPlaceUpdateSpec spec;
        InPlaceUpdateState state;
        try {
            spec = InPlaceUpdateSpec.fromGraceJson(annotation[0], annotation[1]);
            state = InPlaceUpdateState.readFrom(pod).orElse(null);
        } catch (IllegalArgumentException e) {
            return new GraceCheck(GraceCheck.Action.INVALID, Duration.ZERO, null, e.getMessage());
        }
        if (state == null) {
            return new GraceCheck(GraceCheck.Action.INVALID, Duration.ZERO, null, "pod has "
                    + WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION + " but " + WellKnown.INPLACE_UPDATE_STATE_ANNOTATION
                    + " not found");
        }
        if (!revisionLabels.matches(pod, spec.revision())) {
            Pod copy = copy(pod);
            removeGrace(copy.getMetadata());
            return new GraceCheck(GraceCheck.Action.DROP, Duration.ZERO, copy, null);
        }
        Instant started = Pods.parseTime(state.getUpdateTimestamp());
        Duration grace = Duration.ofSeconds(spec.graceSeconds());
        if (started != null) {
            Duration span = Duration.between(started, now);
            if (span.compareTo(grace) < 0) {
                return new GraceCheck(GraceCheck.Action.WAIT, roundUpSeconds(grace.minus(span)), null, null);
            }
        }
        Pod copy = copy(pod);
        applyBatch(copy, spec, state, now, true);
        removeGrace(copy.getMetadata());
        return new GraceCheck(GraceCheck.Action.APPLY, Duration.ZERO, copy, null);
    }

    /**
     * How long until the first grace period among these pods runs out; zero when none is running. Nothing announces
     * that moment, so a workload with pods waiting out a grace period looks again after this delay.
     */
    public Duration nextGraceDue(Iterable<Pod> pods, Instant now) {
        Duration next = Duration.ZERO;
        for (Pod p : pods) {
            if (graceAnnotation(p) == null || Pods.isTerminating(p)) {
                continue;
            }
            GraceCheck grace = graceDue(p, now);
            if (grace.action() == GraceCheck.Action.WAIT && !grace.remaining().isZero()
                    && (next.isZero() || grace.remaining().compareTo(next) < 0)) {
                next = grace.remaining();
            }
        }
        return next;
    }

    /**
     * The next step for a pod, in OpenKruise's order: a grace period first; then, when the containers patched so
     * far run and the pre-check passes, the next batch; finally InPlaceUpdateReady=True for pods with the gate.
     * Call it for every pod of the workload on each sync; it only reads the pod.
     */
    public RefreshOutcome refresh(Pod pod, Instant now) {
        GraceCheck grace = graceDue(pod, now);
        switch (grace.action()) {
            case WAIT:
                return RefreshOutcome.none(grace.remaining(), "in-place update grace period");
            case APPLY:
            case DROP:
                return new RefreshOutcome(RefreshOutcome.Action.UPDATE_POD, grace.pod(), Duration.ZERO, null);
            case INVALID:
                return new RefreshOutcome(RefreshOutcome.Action.ERROR, null, Duration.ZERO, grace.error());
            default:
                break;
        }
        InPlaceUpdateState state;
        try {
            state = InPlaceUpdateState.readFrom(pod).orElse(null);
        } catch (IllegalArgumentException e) {
            return new RefreshOutcome(RefreshOutcome.Action.ERROR, null, Duration.ZERO, e.getMessage());
        }
        if (state != null) {
            CompletionCheck containers = checkContainersCompleted(pod, state);
            if (!containers.done()) {
                return RefreshOutcome.none(Duration.ZERO, containers.message());
            }
            if (!isEmpty(state.getNextContainerImages()) || !isEmpty(state.getNextContainerRefMetadata())) {
                String wait = preCheckBeforeNext(pod, state.getPreCheckBeforeNext());
                if (wait != null) {
                    return RefreshOutcome.none(Duration.ZERO, wait);
                }
                return new RefreshOutcome(RefreshOutcome.Action.UPDATE_POD, nextBatch(pod, now), Duration.ZERO, null);
            }
        }
        Pod ready = finish(pod, now);
        if (ready != pod) {
            return new RefreshOutcome(RefreshOutcome.Action.UPDATE_STATUS, ready, Duration.ZERO, null);
        }
        return RefreshOutcome.none(Duration.ZERO, null);
    }

    // ---- Helpers ------------------------------------------------------------------------------------------------

    /** {key, json} of the grace annotation (current key first, then the pre-v1.0 one), or null. */
    private static String[] graceAnnotation(Pod pod) {
        Map<String, String> a = Pods.annotations(pod);
        String v = a.get(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION);
        if (v != null && !v.isEmpty()) {
            return new String[]{WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION, v};
        }
        v = a.get(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION_OLD);
        if (v != null && !v.isEmpty()) {
            return new String[]{WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION_OLD, v};
        }
        return null;
    }

    private static void removeGrace(ObjectMeta meta) {
        meta.getAnnotations().remove(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION);
        meta.getAnnotations().remove(WellKnown.INPLACE_UPDATE_GRACE_ANNOTATION_OLD);
    }

    private static void applyPatch(Map<String, String> target, Map<String, String> patch) {
        for (Map.Entry<String, String> e : patch.entrySet()) {
            if (e.getValue() == null) {
                target.remove(e.getKey());
            } else {
                target.put(e.getKey(), e.getValue());
            }
        }
    }

    private static boolean hasEqualCondition(Pod pod, PodCondition wanted) {
        PodCondition c = Pods.condition(pod, wanted.getType()).orElse(null);
        return c != null && Objects.equals(c.getStatus(), wanted.getStatus())
                && Objects.equals(emptyToNull(c.getReason()), emptyToNull(wanted.getReason()))
                && Objects.equals(emptyToNull(c.getMessage()), emptyToNull(wanted.getMessage()));
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static boolean isEmpty(Map<?, ?> m) {
        return m == null || m.isEmpty();
    }

    private static Duration roundUpSeconds(Duration d) {
        long seconds = d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
        return Duration.ofSeconds(seconds);
    }

    private static PodStatus statusOf(Pod copy) {
        if (copy.getStatus() == null) {
            copy.setStatus(new PodStatus());
        }
        return copy.getStatus();
    }

    /** A copy we may change: fabric8 builders copy every nested object and collection. */
    static Pod copy(Pod pod) {
        Pod copy = new PodBuilder(pod).build();
        if (copy.getMetadata() == null) {
            copy.setMetadata(new ObjectMeta());
        }
        if (copy.getMetadata().getLabels() == null) {
            copy.getMetadata().setLabels(new LinkedHashMap<>());
        }
        if (copy.getMetadata().getAnnotations() == null) {
            copy.getMetadata().setAnnotations(new LinkedHashMap<>());
        }
        return copy;
    }
}
