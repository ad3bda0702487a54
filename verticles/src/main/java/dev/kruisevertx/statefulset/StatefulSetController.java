package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.controller.Enqueuer;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.queue.ItemExponentialFailureRateLimiter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * OpenKruise's Advanced StatefulSet controller ({@code apps.kruise.io/v1beta1}, the storage version; v1alpha1
 * objects reach it converted by the API server). Watches the sets, their pods (mapped to the owning set through the
 * controller ownerReference), PVCs and ControllerRevisions.
 *
 * <p>Start-up in a large cluster: a pod already present when the cache first lists (or when the controller starts
 * again after regaining leadership) whose set has no pending expectations enqueues the set after a per-set delay
 * growing from 3 s to 30 s, the rule and numbers of OpenKruise's CloneSet handler (v1.3). The set's own event still
 * enqueues it at once, so every set is reconciled promptly; its pods only stop adding a second round of keys for
 * sets already reconciled (the runtime's replay queues sets before pods, so at start-up those keys mostly fold into
 * the queued set keys anyway). A real creation enqueues at once and resets the delay. OpenKruise v1.9's StatefulSet
 * handler enqueues the owner of every pod event at once; this only changes when, never whether, a set is reconciled.
 */
public final class StatefulSetController implements ControllerDefinition {
    public static final String NAME = "statefulset";
    static final String LEAKAGE_METRIC = "statefulset_scale_expectation_leakage";
    static final Duration INITIAL_DELAY_BASE = Duration.ofSeconds(3);
    static final Duration INITIAL_DELAY_MAX = Duration.ofSeconds(30);

    private final Clock clock;

    public StatefulSetController() {
        this(Clock.systemUTC());
    }

    public StatefulSetController(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Class<StatefulSet> primaryType() {
        return StatefulSet.class;
    }

    @Override
    public Controller create(ControllerContext ctx) {
        ScaleExpectations scale = new ScaleExpectations(ctx.settings().expectationTimeout(), clock, ctx.registry(),
                LEAKAGE_METRIC);
        ResourceVersionExpectations versions = new ResourceVersionExpectations(ctx.settings().expectationTimeout(),
                clock);
        StatefulSetReconciler reconciler = new StatefulSetReconciler(ctx, scale, versions, clock);
        EventHandlers handlers = new EventHandlers(ctx.cache().resource(StatefulSet.class), scale, versions);
        return new Controller(reconciler, List.of(
                WatchSpec.of(StatefulSet.class, handlers::onSet),
                WatchSpec.of(Pod.class, handlers::onPod),
                WatchSpec.of(PersistentVolumeClaim.class, handlers::onClaim),
                WatchSpec.of(ControllerRevision.class, handlers::onOwned)));
    }

    /** Maps pod, PVC and revision events to the owning set and feeds the expectations. */
    static final class EventHandlers {
        private final CachedResource<StatefulSet> sets;
        private final ScaleExpectations scale;
        private final ResourceVersionExpectations versions;
        private final ItemExponentialFailureRateLimiter<String> initialDelays =
                new ItemExponentialFailureRateLimiter<>(INITIAL_DELAY_BASE, INITIAL_DELAY_MAX);

        EventHandlers(CachedResource<StatefulSet> sets, ScaleExpectations scale, ResourceVersionExpectations versions) {
            this.sets = sets;
            this.scale = scale;
            this.versions = versions;
        }

        void onSet(CacheEvent<StatefulSet> event, Enqueuer queue) {
            Request request = Request.of(event.object());
            if (event.type() == CacheEvent.Type.DELETED) {
                // A set created again under the same name starts with the base delay.
                initialDelays.forget(request.key());
            }
            queue.add(request);
        }

        void onPod(CacheEvent<Pod> event, Enqueuer queue) {
            switch (event.type()) {
                case ADDED -> {
                    Pod pod = event.newObject();
                    Request owner = owner(pod);
                    if (owner == null) {
                        enqueueAdopters(pod, queue);
                        return;
                    }
                    if (pod.getMetadata().getDeletionTimestamp() != null) {
                        scale.observeDelete(owner.key(), pod.getMetadata().getName());
                        queue.add(owner);
                        return;
                    }
                    if (event.initialList() && scale.satisfied(owner.key()).satisfied()) {
                        queue.addAfter(owner, initialDelays.when(owner.key()));
                        return;
                    }
                    scale.observeCreate(owner.key(), pod.getMetadata().getName());
                    initialDelays.forget(owner.key());
                    queue.add(owner);
                }
                case UPDATED -> {
                    Pod pod = event.newObject();
                    versions.observe(pod);
                    Request oldOwner = owner(event.oldObject());
                    Request owner = owner(pod);
                    if (oldOwner != null && !Objects.equals(oldOwner, owner)) {
                        queue.add(oldOwner);
                    }
                    if (owner == null) {
                        if (!Objects.equals(event.oldObject().getMetadata().getLabels(), pod.getMetadata().getLabels())
                                || oldOwner != null) {
                            enqueueAdopters(pod, queue);
                        }
                        return;
                    }
                    if (pod.getMetadata().getDeletionTimestamp() != null) {
                        scale.observeDelete(owner.key(), pod.getMetadata().getName());
                    }
                    queue.add(owner);
                }
                case DELETED -> {
                    Pod pod = event.oldObject();
                    versions.delete(pod);
                    Request owner = owner(pod);
                    if (owner != null) {
                        scale.observeDelete(owner.key(), pod.getMetadata().getName());
                        queue.add(owner);
                    }
                }
            }
        }

        /**
         * A PVC disappearing matters to its owning set; an update matters only for a PVC this controller is
         * expanding (annotated {@code apps.kruise.io/owned-by-asts} with the set's name, as OpenKruise's PVC
         * handler reads it): its capacity or resize conditions decide when the pod may be updated.
         */
        void onClaim(CacheEvent<PersistentVolumeClaim> event, Enqueuer queue) {
            if (event.type() == CacheEvent.Type.UPDATED) {
                PersistentVolumeClaim claim = event.newObject();
                var annotations = claim.getMetadata().getAnnotations();
                String setName = annotations == null ? null : annotations.get(StatefulSetClaims.OWNED_BY_ASTS_ANNOTATION);
                if (setName != null && !setName.isEmpty()
                        && !Objects.equals(event.oldObject().getStatus(), claim.getStatus())) {
                    queue.add(new Request(claim.getMetadata().getNamespace(), setName));
                }
                return;
            }
            onOwned(event, queue);
        }

        <T extends HasMetadata> void onOwned(CacheEvent<T> event, Enqueuer queue) {
            // Only a PVC or revision disappearing can change a decision; creations are the controller's own.
            if (event.type() == CacheEvent.Type.DELETED) {
                Request owner = owner(event.oldObject());
                if (owner != null) {
                    queue.add(owner);
                }
            }
        }

        /**
         * An orphan named {@code <set>-<ordinal>} may be adopted by the set of that name in its namespace. A pod with
         * any other controller is never adopted, so it costs no lookup (most pods of a cluster are such pods).
         */
        private void enqueueAdopters(Pod pod, Enqueuer queue) {
            if (hasController(pod)) {
                return;
            }
            String name = pod.getMetadata().getName();
            for (int dash = name.lastIndexOf('-'); dash > 0; dash = name.lastIndexOf('-', dash - 1)) {
                String setName = name.substring(0, dash);
                if (PodOrdinals.ordinalOf(setName, name) >= 0 && sets.get(pod.getMetadata().getNamespace(), setName) != null) {
                    queue.add(new Request(pod.getMetadata().getNamespace(), setName));
                }
            }
        }

        private static boolean hasController(HasMetadata obj) {
            List<OwnerReference> refs = obj.getMetadata().getOwnerReferences();
            return refs != null && refs.stream().anyMatch(r -> Boolean.TRUE.equals(r.getController()));
        }

        static Request owner(HasMetadata obj) {
            if (obj == null || obj.getMetadata().getOwnerReferences() == null) {
                return null;
            }
            for (OwnerReference r : obj.getMetadata().getOwnerReferences()) {
                if (Boolean.TRUE.equals(r.getController())) {
                    if (StatefulSet.KIND.equals(r.getKind()) && r.getApiVersion() != null
                            && r.getApiVersion().startsWith(StatefulSet.GROUP + "/")) {
                        return new Request(obj.getMetadata().getNamespace(), r.getName());
                    }
                    return null;
                }
            }
            return null;
        }
    }
}
