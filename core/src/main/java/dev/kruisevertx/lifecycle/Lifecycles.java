package dev.kruisevertx.lifecycle;

import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.KruisePodReadiness;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Pod lifecycle states and hooks, as OpenKruise's lifecycle utilities: the {@value WellKnown#LIFECYCLE_STATE_LABEL}
 * label, its timestamp annotation, hook matching, and the KruisePodReady not-ready keys of {@code markPodNotReady}.
 * Pure: transitions return copies.
 */
public final class Lifecycles {
    /** User agent of the KruisePodReady entries lifecycle hooks add. */
    public static final String READINESS_USER_AGENT = "Lifecycle";
    /** Key held while a pod waits in PreparingDelete with a preDelete hook that marks it not ready. */
    public static final String PRE_DELETE_HOOK_KEY = "preDeleteHook";
    /** Key held from PreparingUpdate until the in-place update is done, with an inPlaceUpdate hook that marks it not ready. */
    public static final String PRE_UPDATE_HOOK_KEY = "preUpdateHook";

    private static final KruisePodReadiness.Message PRE_DELETE =
            new KruisePodReadiness.Message(READINESS_USER_AGENT, PRE_DELETE_HOOK_KEY);
    private static final KruisePodReadiness.Message PRE_UPDATE =
            new KruisePodReadiness.Message(READINESS_USER_AGENT, PRE_UPDATE_HOOK_KEY);

    private Lifecycles() {
    }

    /** The pod's lifecycle state; empty when the label is missing or holds an unknown value. */
    public static Optional<LifecycleState> stateOf(Pod pod) {
        return LifecycleState.fromValue(Pods.label(pod, WellKnown.LIFECYCLE_STATE_LABEL));
    }

    /** The raw label value, "" when missing (controllers treat "" like Normal). */
    public static String rawStateOf(Pod pod) {
        String v = Pods.label(pod, WellKnown.LIFECYCLE_STATE_LABEL);
        return v == null ? "" : v;
    }

    /** The pod is in {@code state}. */
    public static boolean isIn(Pod pod, LifecycleState state) {
        return state.value().equals(rawStateOf(pod));
    }

    /**
     * The hook holds the pod: it carries at least one of the hook's finalizers or labels (with the hook's value).
     * False for a null hook or pod.
     */
    public static boolean isHookedBy(LifecycleHook hook, Pod pod) {
        return hook != null && pod != null && hookHolds(hook, pod).anyMatch(Boolean::booleanValue);
    }

    /**
     * The pod carries every finalizer and label of the hook (an empty hook is always satisfied). False for a null
     * hook or pod.
     */
    public static boolean isAllHookedBy(LifecycleHook hook, Pod pod) {
        return hook != null && pod != null && hookHolds(hook, pod).allMatch(Boolean::booleanValue);
    }

    /** For each finalizer and each label of the hook, in that order: whether the pod carries it. */
    private static Stream<Boolean> hookHolds(LifecycleHook hook, Pod pod) {
        List<String> finalizers = finalizers(pod);
        Map<String, String> labels = Pods.labels(pod);
        Stream<Boolean> byFinalizer = hook.getFinalizersHandler() == null ? Stream.empty()
                : hook.getFinalizersHandler().stream().map(finalizers::contains);
        // A missing label reads as "" (as in Go), so a handler label with an empty value always matches.
        Stream<Boolean> byLabel = hook.getLabelsHandler() == null ? Stream.empty()
                : hook.getLabelsHandler().entrySet().stream()
                        .map(e -> labels.getOrDefault(e.getKey(), "").equals(nullToEmpty(e.getValue())));
        return Stream.concat(byFinalizer, byLabel);
    }

    public static boolean isHookMarkPodNotReady(LifecycleHook hook) {
        return hook != null && hook.isMarkPodNotReady();
    }

    /** Either the preDelete or the inPlaceUpdate hook marks pods not ready (the pods then need the KruisePodReady gate). */
    public static boolean isLifecycleMarkPodNotReady(Lifecycle lifecycle) {
        return lifecycle != null
                && (isHookMarkPodNotReady(lifecycle.getPreDelete()) || isHookMarkPodNotReady(lifecycle.getInPlaceUpdate()));
    }

    /** KruisePodReady is True, or the pod does not have that gate (nothing holds it). */
    public static boolean isKruisePodReady(Pod pod) {
        if (!KruisePodReadiness.hasGate(pod)) {
            return true;
        }
        return Pods.conditionTrue(pod, WellKnown.KRUISE_POD_READY_CONDITION);
    }

    /**
     * Writes the state label and timestamp annotation into metadata the caller owns (a pod being created).
     */
    public static void setState(ObjectMeta meta, LifecycleState state, Instant now) {
        if (meta.getLabels() == null) {
            meta.setLabels(new LinkedHashMap<>());
        }
        if (meta.getAnnotations() == null) {
            meta.setAnnotations(new LinkedHashMap<>());
        }
        meta.getLabels().put(WellKnown.LIFECYCLE_STATE_LABEL, state.value());
        // OpenKruise keeps the timestamp as an annotation (its value has ':' which a label cannot hold).
        meta.getAnnotations().put(WellKnown.LIFECYCLE_TIMESTAMP_LABEL, Pods.formatTime(now));
    }

    /**
     * Moves the pod to {@code state}, as OpenKruise's {@code UpdatePodLifecycle}. With {@code markPodNotReady},
     * KruisePodReady follows the state: PreparingDelete adds the preDelete key, PreparingUpdate the preUpdate key,
     * Updated removes the preUpdate key, and Normal removes both (so a pod that skipped Updated or whose deletion
     * was cancelled does not stay out of service). The label and timestamp are left alone when the pod is already
     * in {@code state}.
     */
    public static LifecycleChange withState(Pod pod, LifecycleState state, Instant now, boolean markPodNotReady) {
        return moveTo(pod, state, now, markPodNotReady, meta -> {
        });
    }

    /**
     * Moves the pod to {@code state} and puts the hook's labels and finalizers back on it, as OpenKruise's
     * {@code UpdatePodLifecycleWithHandler} does when an Updated pod is chosen for another in-place update. A null
     * handler changes nothing.
     */
    public static LifecycleChange withStateAndHandler(Pod pod, LifecycleState state, LifecycleHook handler,
                                                      Instant now) {
        if (handler == null || pod == null) {
            return new LifecycleChange(pod, false, false);
        }
        return moveTo(pod, state, now, handler.isMarkPodNotReady(), meta -> {
            if (meta.getLabels() == null) {
                meta.setLabels(new LinkedHashMap<>());
            }
            if (handler.getLabelsHandler() != null) {
                meta.getLabels().putAll(handler.getLabelsHandler());
            }
            if (handler.getFinalizersHandler() != null) {
                List<String> finalizers = meta.getFinalizers() == null ? new ArrayList<>() : new ArrayList<>(meta.getFinalizers());
                for (String f : handler.getFinalizersHandler()) {
                    if (!finalizers.contains(f)) {
                        finalizers.add(f);
                    }
                }
                meta.setFinalizers(finalizers);
            }
        });
    }

    /**
     * The readiness policy first (when asked), then, unless the pod is in {@code state} already, a copy in
     * {@code state} with {@code alsoOnMove} applied to its metadata.
     */
    private static LifecycleChange moveTo(Pod pod, LifecycleState state, Instant now, boolean markPodNotReady,
                                          java.util.function.Consumer<ObjectMeta> alsoOnMove) {
        Pod current = pod;
        boolean statusChanged = false;
        if (markPodNotReady) {
            Pod afterReadiness = applyNotReadyPolicy(current, state, now);
            statusChanged = afterReadiness != current;
            current = afterReadiness;
        }
        if (isIn(current, state)) {
            return new LifecycleChange(current, false, statusChanged);
        }
        Pod copy = current == pod ? new PodBuilder(pod).build() : current;
        if (copy.getMetadata() == null) {
            copy.setMetadata(new ObjectMeta());
        }
        alsoOnMove.accept(copy.getMetadata());
        setState(copy.getMetadata(), state, now);
        return new LifecycleChange(copy, true, statusChanged);
    }

    private static Pod applyNotReadyPolicy(Pod pod, LifecycleState state, Instant now) {
        switch (state) {
            case PREPARING_DELETE:
                return KruisePodReadiness.addNotReadyKey(pod, PRE_DELETE, now);
            case PREPARING_UPDATE:
                return KruisePodReadiness.addNotReadyKey(pod, PRE_UPDATE, now);
            case UPDATED:
                return KruisePodReadiness.removeNotReadyKey(pod, PRE_UPDATE, now);
            case NORMAL:
                return KruisePodReadiness.removeNotReadyKey(KruisePodReadiness.removeNotReadyKey(pod, PRE_UPDATE, now),
                        PRE_DELETE, now);
            default:
                return pod;
        }
    }

    private static List<String> finalizers(Pod pod) {
        if (pod.getMetadata() == null || pod.getMetadata().getFinalizers() == null) {
            return List.of();
        }
        return pod.getMetadata().getFinalizers();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
