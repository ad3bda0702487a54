package dev.kruisevertx.controller;

import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.queue.ItemExponentialFailureRateLimiter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;

import java.time.Duration;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.BiPredicate;

/**
 * The event handling every workload that owns pods shares (CloneSet, Advanced StatefulSet and the workloads still to
 * come): an owned object maps to its owner's key through the controller ownerReference, creations and deletions feed
 * the {@link ScaleExpectations}, pod updates feed the {@link ResourceVersionExpectations}, orphans go to the
 * workload's own adoption rule, updates that cannot change a decision may be ignored, and the start-up delay rule.
 *
 * <p>Start-up delay (OpenKruise v1.3's CloneSet handler): an object already present when the cache first lists (or
 * when the controller starts again after regaining leadership) whose owner has no pending expectations enqueues the
 * owner after a per-owner delay growing from 3 s to 30 s, so a large cluster does not flood the queue with one entry
 * per pod; the owner's own event still enqueues it at once. A real creation enqueues at once and resets the delay.
 */
public final class WorkloadEvents {
    public static final Duration INITIAL_DELAY_BASE = Duration.ofSeconds(3);
    public static final Duration INITIAL_DELAY_MAX = Duration.ofSeconds(30);

    /** The owner kind, its expectations and the workload's own rules. */
    private record Rules(String ownerGroup, String ownerKind, ScaleExpectations scale,
                         ResourceVersionExpectations versions, BiPredicate<Pod, Pod> relevantUpdate,
                         BiConsumer<Pod, Enqueuer> adopters) {
    }

    private final Rules rules;
    private final ItemExponentialFailureRateLimiter<String> initialDelays =
            new ItemExponentialFailureRateLimiter<>(INITIAL_DELAY_BASE, INITIAL_DELAY_MAX);

    /**
     * @param relevantUpdate whether an update of an owned pod can change the owner's decision (e.g.
     *                       {@link #decisionRelevant}); updates it rejects enqueue nothing
     * @param adopters       enqueues the workloads that may adopt an orphan pod (added, or updated in a way that may
     *                       make it adoptable)
     */
    public WorkloadEvents(String ownerGroup, String ownerKind, ScaleExpectations scale,
                          ResourceVersionExpectations versions, BiPredicate<Pod, Pod> relevantUpdate,
                          BiConsumer<Pod, Enqueuer> adopters) {
        this.rules = new Rules(ownerGroup, ownerKind, scale, versions, relevantUpdate, adopters);
    }

    /** Every update may change a decision. */
    public static boolean always(Pod oldPod, Pod newPod) {
        return true;
    }

    /** The owner's key when the object's controller is a workload of this kind, else null. */
    public Request owner(HasMetadata obj) {
        OwnerReference r = Pods.controllerOf(obj).orElse(null);
        if (r != null && rules.ownerKind().equals(r.getKind()) && r.getApiVersion() != null
                && r.getApiVersion().startsWith(rules.ownerGroup() + "/")) {
            return new Request(obj.getMetadata().getNamespace(), r.getName());
        }
        return null;
    }

    public void onPod(CacheEvent<Pod> event, Enqueuer queue) {
        switch (event.type()) {
            case ADDED -> podAdded(event.newObject(), event.initialList(), queue);
            case UPDATED -> podUpdated(event.oldObject(), event.newObject(), queue);
            case DELETED -> {
                Pod pod = event.oldObject();
                if (pod.getMetadata().getUid() != null) {
                    rules.versions().delete(pod);
                }
                ownedDeleted(pod, queue);
            }
        }
    }

    private void podAdded(Pod pod, boolean initialList, Enqueuer queue) {
        Request owner = owner(pod);
        if (owner == null) {
            rules.adopters().accept(pod, queue);
            return;
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            rules.scale().observeDelete(owner.key(), pod.getMetadata().getName());
            queue.add(owner);
            return;
        }
        ownedCreated(owner, pod.getMetadata().getName(), initialList, queue);
    }

    private void podUpdated(Pod oldPod, Pod newPod, Enqueuer queue) {
        if (newPod.getMetadata().getUid() != null) {
            rules.versions().observe(newPod);
        }
        Request oldOwner = owner(oldPod);
        Request newOwner = owner(newPod);
        if (newOwner != null && newPod.getMetadata().getDeletionTimestamp() != null) {
            rules.scale().observeDelete(newOwner.key(), newPod.getMetadata().getName());
        }
        if (oldOwner != null && !Objects.equals(oldOwner, newOwner)) {
            queue.add(oldOwner);
        }
        if (newOwner == null) {
            // An orphan (or a pod of another controller): it may have just become adoptable.
            if (!Objects.equals(oldPod.getMetadata().getLabels(), newPod.getMetadata().getLabels())
                    || !Objects.equals(Pods.controllerOf(oldPod), Pods.controllerOf(newPod))) {
                rules.adopters().accept(newPod, queue);
            }
            return;
        }
        if (Objects.equals(oldOwner, newOwner) && !rules.relevantUpdate().test(oldPod, newPod)) {
            return;
        }
        queue.add(newOwner);
    }

    /**
     * An owned object appeared: a creation the owner expected, or (from the initial list, owner satisfied) one it
     * already knows, which waits out the start-up delay.
     */
    public void ownedCreated(Request owner, String name, boolean initialList, Enqueuer queue) {
        if (initialList && rules.scale().satisfied(owner.key()).satisfied()) {
            queue.addAfter(owner, initialDelays.when(owner.key()));
            return;
        }
        rules.scale().observeCreate(owner.key(), name);
        initialDelays.forget(owner.key());
        queue.add(owner);
    }

    /** An owned object is gone (or going): the owner's delete expectation is met and it decides again. */
    public void ownedDeleted(HasMetadata obj, Enqueuer queue) {
        Request owner = owner(obj);
        if (owner != null) {
            rules.scale().observeDelete(owner.key(), obj.getMetadata().getName());
            queue.add(owner);
        }
    }

    /** For kinds whose creations are the controller's own (revisions): only a deletion enqueues the owner. */
    public <T extends HasMetadata> void onOwnedDeletedOnly(CacheEvent<T> event, Enqueuer queue) {
        if (event.type() == CacheEvent.Type.DELETED) {
            Request owner = owner(event.oldObject());
            if (owner != null) {
                queue.add(owner);
            }
        }
    }

    /**
     * An event of the workload itself enqueues it; a deletion also forgets its start-up delay, so one created
     * again under the same name starts with the base delay.
     */
    public <T extends HasMetadata> void onOwner(CacheEvent<T> event, Enqueuer queue) {
        Request request = Request.of(event.object());
        if (event.type() == CacheEvent.Type.DELETED) {
            forgetDelay(request);
        }
        queue.add(request);
    }

    /** An owner deleted: one created again under the same name starts with the base delay. */
    public void forgetDelay(Request owner) {
        initialDelays.forget(owner.key());
    }

    /**
     * Only pod changes a workload decision can depend on: labels, annotations, finalizers, deletion, phase,
     * activity, node, conditions and containers (OpenKruise's CloneSetEventHandlerOptimization); kubelet heartbeats
     * and other status noise are left out.
     */
    public static boolean decisionRelevant(Pod oldPod, Pod newPod) {
        return !Objects.equals(oldPod.getMetadata().getLabels(), newPod.getMetadata().getLabels())
                || !Objects.equals(oldPod.getMetadata().getAnnotations(), newPod.getMetadata().getAnnotations())
                || !Objects.equals(oldPod.getMetadata().getFinalizers(), newPod.getMetadata().getFinalizers())
                || !Objects.equals(oldPod.getMetadata().getDeletionTimestamp(), newPod.getMetadata().getDeletionTimestamp())
                || !Objects.equals(Pods.phase(oldPod), Pods.phase(newPod))
                || Pods.isActive(oldPod) != Pods.isActive(newPod)
                || !Objects.equals(oldPod.getSpec() == null ? null : oldPod.getSpec().getNodeName(),
                newPod.getSpec() == null ? null : newPod.getSpec().getNodeName())
                || !Objects.equals(oldPod.getStatus() == null ? null : oldPod.getStatus().getConditions(),
                newPod.getStatus() == null ? null : newPod.getStatus().getConditions())
                || !Objects.equals(oldPod.getSpec() == null ? null : oldPod.getSpec().getContainers(),
                newPod.getSpec() == null ? null : newPod.getSpec().getContainers());
    }
}
