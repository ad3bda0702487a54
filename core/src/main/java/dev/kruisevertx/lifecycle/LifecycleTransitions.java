package dev.kruisevertx.lifecycle;

import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.api.common.LifecycleState;
import io.fabric8.kubernetes.api.model.Pod;

import java.util.Optional;

/**
 * Where a workload moves a pod's lifecycle state, as OpenKruise's CloneSet decides it (Advanced StatefulSet uses the
 * same rules for preDelete and inPlaceUpdate). Pure decisions; {@link Lifecycles} performs the transitions.
 *
 * <pre>
 *   (create) -> PreparingNormal -> Normal                      preNormal hook: all its labels/finalizers present
 *   Normal -> PreparingUpdate -> Updating -> Updated -> Normal inPlaceUpdate hook: removed to start, re-added to end
 *   any -> PreparingDelete -> (deleted)                        preDelete hook: removed to allow the deletion
 * </pre>
 */
public final class LifecycleTransitions {
    private LifecycleTransitions() {
    }

    /** The state new pods are created in; the next sync moves them on to Normal when allowed. */
    public static LifecycleState initialState() {
        return LifecycleState.PREPARING_NORMAL;
    }

    /** The markPodNotReady flag used for refresh transitions: the inPlaceUpdate hook's. */
    public static boolean refreshMarkPodNotReady(Lifecycle lifecycle) {
        return lifecycle != null && Lifecycles.isHookMarkPodNotReady(lifecycle.getInPlaceUpdate());
    }

    /**
     * The state a pod moves to on a sync, if any (OpenKruise's {@code refreshPodState}):
     * <ul>
     *   <li>PreparingNormal: Normal when there is no preNormal hook or the pod carries all of it;</li>
     *   <li>PreparingUpdate: when the pod is already at the update revision (rolled back while waiting), Updated if
     *       the inPlaceUpdate hook is not all present again, else Normal;</li>
     *   <li>Updating: once the in-place update completed, the same choice between Updated and Normal;</li>
     *   <li>Updated: Normal when there is no inPlaceUpdate hook or the pod carries all of it again.</li>
     * </ul>
     *
     * @param atUpdateRevision        the pod's revision label names the workload's update revision
     * @param inPlaceUpdateCompleted  {@code InPlaceUpdater.checkCompleted(pod).done()}
     */
    public static Optional<LifecycleState> onRefresh(Pod pod, Lifecycle lifecycle, boolean atUpdateRevision,
                                                     boolean inPlaceUpdateCompleted) {
        Optional<LifecycleState> state = Lifecycles.stateOf(pod);
        if (state.isEmpty()) {
            return Optional.empty();
        }
        LifecycleHook inPlace = lifecycle == null ? null : lifecycle.getInPlaceUpdate();
        switch (state.get()) {
            case PREPARING_NORMAL:
                if (lifecycle == null || lifecycle.getPreNormal() == null
                        || Lifecycles.isAllHookedBy(lifecycle.getPreNormal(), pod)) {
                    return Optional.of(LifecycleState.NORMAL);
                }
                return Optional.empty();
            case PREPARING_UPDATE:
                if (atUpdateRevision) {
                    return Optional.of(afterUpdate(pod, lifecycle, inPlace));
                }
                return Optional.empty();
            case UPDATING:
                if (inPlaceUpdateCompleted) {
                    return Optional.of(afterUpdate(pod, lifecycle, inPlace));
                }
                return Optional.empty();
            case UPDATED:
                if (lifecycle == null || inPlace == null || Lifecycles.isAllHookedBy(inPlace, pod)) {
                    return Optional.of(LifecycleState.NORMAL);
                }
                return Optional.empty();
            default:
                return Optional.empty();
        }
    }

    private static LifecycleState afterUpdate(Pod pod, Lifecycle lifecycle, LifecycleHook inPlace) {
        // Updated waits for the user's controller to put the hook back (IsPodAllHooked is false for a null hook).
        if (lifecycle != null && !Lifecycles.isAllHookedBy(inPlace, pod)) {
            return LifecycleState.UPDATED;
        }
        return LifecycleState.NORMAL;
    }

    /** What to do before updating a pod in place. */
    public enum InPlaceStep {
        /** Update now; the pod moves to Updating with the update. */
        UPDATE,
        /** Move to PreparingUpdate first ({@link Lifecycles#withState}, the hook's markPodNotReady) and wait. */
        TO_PREPARING_UPDATE,
        /** An Updated pod picked again: move to PreparingUpdate putting the hook back ({@link Lifecycles#withStateAndHandler}). */
        TO_PREPARING_UPDATE_WITH_HANDLER,
        /** PreparingUpdate and still hooked: wait for the user's controller to release it. */
        WAIT,
        /** The pod's state does not allow an in-place update (PreparingDelete or an unknown value). */
        NOT_ALLOWED
    }

    /** OpenKruise's in-place branch of {@code updatePod}: the lifecycle step before an in-place update. */
    public static InPlaceStep beforeInPlaceUpdate(Pod pod, Lifecycle lifecycle) {
        LifecycleHook inPlace = lifecycle == null ? null : lifecycle.getInPlaceUpdate();
        String raw = Lifecycles.rawStateOf(pod);
        if (raw.isEmpty() || raw.equals(LifecycleState.PREPARING_NORMAL.value()) || raw.equals(LifecycleState.NORMAL.value())) {
            return lifecycle != null && Lifecycles.isHookedBy(inPlace, pod) ? InPlaceStep.TO_PREPARING_UPDATE
                    : InPlaceStep.UPDATE;
        }
        if (raw.equals(LifecycleState.UPDATED.value())) {
            return InPlaceStep.TO_PREPARING_UPDATE_WITH_HANDLER;
        }
        if (raw.equals(LifecycleState.PREPARING_UPDATE.value())) {
            return lifecycle != null && Lifecycles.isHookedBy(inPlace, pod) ? InPlaceStep.WAIT : InPlaceStep.UPDATE;
        }
        if (raw.equals(LifecycleState.UPDATING.value())) {
            return InPlaceStep.UPDATE;
        }
        return InPlaceStep.NOT_ALLOWED;
    }

    /** What to do with a pod chosen for deletion. */
    public enum DeleteStep {
        /** Delete it. */
        DELETE,
        /** Held by the preDelete hook: make sure it is PreparingDelete (the hook's markPodNotReady) and keep it. */
        PREPARE_DELETE
    }

    /** OpenKruise's scale-down rule: a pod hooked by preDelete goes (or stays) PreparingDelete instead of being deleted. */
    public static DeleteStep beforeDelete(Pod pod, Lifecycle lifecycle) {
        if (lifecycle != null && Lifecycles.isHookedBy(lifecycle.getPreDelete(), pod)) {
            return DeleteStep.PREPARE_DELETE;
        }
        return DeleteStep.DELETE;
    }

    /** The markPodNotReady flag for PreparingDelete: the preDelete hook's. */
    public static boolean preDeleteMarkPodNotReady(Lifecycle lifecycle) {
        return lifecycle != null && Lifecycles.isHookMarkPodNotReady(lifecycle.getPreDelete());
    }

    /** The markPodNotReady flag for PreparingUpdate: the inPlaceUpdate hook's. */
    public static boolean inPlaceUpdateMarkPodNotReady(Lifecycle lifecycle) {
        return refreshMarkPodNotReady(lifecycle);
    }
}
