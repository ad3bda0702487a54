package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.apps.v1beta1.PodOrdinals;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.Enqueuer;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.WorkloadEvents;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.controller.WorkloadControllerDefinition;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * OpenKruise's Advanced StatefulSet controller ({@code apps.kruise.io/v1beta1}, the storage version; v1alpha1
 * objects reach it converted by the API server). Watches the sets, their pods (mapped to the owning set through the
 * controller ownerReference), PVCs and ControllerRevisions.
 *
 * <p>Events are mapped by the shared {@link WorkloadEvents}. Start-up in a large cluster: a pod already present when the cache first lists (or when the controller starts
 * again after regaining leadership) whose set has no pending expectations enqueues the set after a per-set delay
 * growing from 3 s to 30 s, the rule and numbers of OpenKruise's CloneSet handler (v1.3). The set's own event still
 * enqueues it at once, so every set is reconciled promptly; its pods only stop adding a second round of keys for
 * sets already reconciled (the runtime's replay queues sets before pods, so at start-up those keys mostly fold into
 * the queued set keys anyway). A real creation enqueues at once and resets the delay. OpenKruise v1.9's StatefulSet
 * handler enqueues the owner of every pod event at once; this only changes when, never whether, a set is reconciled.
 */
public final class StatefulSetController extends WorkloadControllerDefinition {
    public static final String NAME = "statefulset";

    public StatefulSetController() {
        this(Clock.systemUTC());
    }

    /** @param clock what decisions and expectation timeouts read as now */
    public StatefulSetController(Clock clock) {
        super(NAME, StatefulSet.class, clock);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        Expectations expectations = expectations(ctx);
        StatefulSetReconciler reconciler = new StatefulSetReconciler(ctx, expectations.scale(),
                expectations.versions(), clock());
        EventHandlers handlers = new EventHandlers(ctx.cache().resource(StatefulSet.class), expectations.scale(),
                expectations.versions());
        return new Controller(reconciler, List.of(
                WatchSpec.of(StatefulSet.class, handlers::onSet),
                WatchSpec.of(Pod.class, handlers::onPod),
                WatchSpec.of(PersistentVolumeClaim.class, handlers::onClaim),
                WatchSpec.of(ControllerRevision.class, handlers::onOwned)));
    }

    /** Maps pod, PVC and revision events to the owning set with the shared workload handlers. */
    static final class EventHandlers {
        private final CachedResource<StatefulSet> sets;
        private final WorkloadEvents events;

        EventHandlers(CachedResource<StatefulSet> sets, ScaleExpectations scale, ResourceVersionExpectations versions) {
            this.sets = sets;
            this.events = new WorkloadEvents(StatefulSet.GROUP, StatefulSet.KIND, scale, versions,
                    WorkloadEvents::always, this::enqueueAdopters);
        }

        void onSet(CacheEvent<StatefulSet> event, Enqueuer queue) {
            events.onOwner(event, queue);
        }

        void onPod(CacheEvent<Pod> event, Enqueuer queue) {
            events.onPod(event, queue);
        }

        /**
         * A PVC disappearing matters to its owning set; an update matters only for a PVC this controller is
         * expanding (annotated {@code apps.kruise.io/owned-by-asts} with the set's name, as OpenKruise's PVC
         * handler reads it): its capacity or resize conditions decide when the pod may be updated.
         */
        void onClaim(CacheEvent<PersistentVolumeClaim> event, Enqueuer queue) {
            if (event.type() == CacheEvent.Type.UPDATED) {
                PersistentVolumeClaim claim = event.newObject();
                String setName = Pods.annotations(claim).get(StatefulSetClaims.OWNED_BY_ASTS_ANNOTATION);
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
            events.onOwnedDeletedOnly(event, queue);
        }

        /**
         * An orphan named {@code <set>-<ordinal>} may be adopted by the set of that name in its namespace. A pod with
         * any other controller is never adopted, so it costs no lookup (most pods of a cluster are such pods).
         */
        private void enqueueAdopters(Pod pod, Enqueuer queue) {
            if (Pods.controllerOf(pod).isPresent()) {
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
    }
}
