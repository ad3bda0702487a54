package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.Enqueuer;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.controller.WorkloadControllerDefinition;
import dev.kruisevertx.controller.WorkloadEvents;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.time.Clock;
import java.util.List;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import java.util.Objects;

/**
 * OpenKruise's Advanced DaemonSet controller ({@code apps.kruise.io/v1beta1}, the storage version; v1alpha1 objects
 * reach it converted by the API server). Watches the sets, their pods (through the controller ownerReference),
 * ControllerRevisions and nodes: a node added, removed, relabelled, re-tainted or cordoned enqueues every DaemonSet
 * of the cluster (upstream enqueues those whose decision for the node changes; the decision itself is the same).
 */
public final class DaemonSetController extends WorkloadControllerDefinition {
    public static final String NAME = "daemonset";
    /** The manager flag {@code --assign-pods-by-scheduler} (OpenKruise's, default true), in the settings' extras. */
    public static final String ASSIGN_PODS_BY_SCHEDULER_FLAG = "assign-pods-by-scheduler";

    public DaemonSetController() {
        this(Clock.systemUTC());
    }

    /** @param clock what decisions and expectation timeouts read as now */
    public DaemonSetController(Clock clock) {
        super(NAME, DaemonSet.class, clock);
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(DaemonSet.class, Node.class);
    }

    @Override
    public Controller create(ControllerContext ctx) {
        Expectations expectations = expectations(ctx);
        DaemonSetReconciler reconciler = new DaemonSetReconciler(ctx, expectations.scale(), expectations.versions(), clock());
        EventHandlers handlers = new EventHandlers(ctx.cache().resource(DaemonSet.class), expectations.scale(),
                expectations.versions());
        return new Controller(reconciler, List.of(
                WatchSpec.of(DaemonSet.class, handlers::onSet),
                WatchSpec.of(Pod.class, handlers::onPod),
                WatchSpec.of(Node.class, handlers::onNode),
                WatchSpec.of(ControllerRevision.class, handlers::onOwned)));
    }

    /** Maps pod, revision and node events to DaemonSet keys; never calls the API. */
    static final class EventHandlers {
        private final CachedResource<DaemonSet> sets;
        private final WorkloadEvents events;

        EventHandlers(CachedResource<DaemonSet> sets, ScaleExpectations scale, ResourceVersionExpectations versions) {
            this.sets = sets;
            this.events = new WorkloadEvents(DaemonSet.GROUP, DaemonSet.KIND, scale, versions,
                    WorkloadEvents::always, this::enqueueMatching);
        }

        /** An orphan may be adopted by any DaemonSet of its namespace whose selector it matches. */
        private void enqueueMatching(Pod pod, Enqueuer queue) {
            if (!Pods.isActive(pod) || Pods.controllerOf(pod).isPresent()) {
                return;
            }
            for (DaemonSet ds : sets.list(pod.getMetadata().getNamespace())) {
                if (ds.getSpec() == null || ds.getSpec().getSelector() == null) {
                    continue;
                }
                try {
                    if (LabelSelectors.matches(ds.getSpec().getSelector(), Pods.labels(pod))) {
                        queue.add(Request.of(ds));
                    }
                } catch (IllegalArgumentException e) {
                    // An invalid selector adopts nothing; the reconcile reports it.
                }
            }
        }

        void onSet(CacheEvent<DaemonSet> event, Enqueuer queue) {
            events.onOwner(event, queue);
        }

        void onPod(CacheEvent<Pod> event, Enqueuer queue) {
            events.onPod(event, queue);
        }

        <T extends HasMetadata> void onOwned(CacheEvent<T> event, Enqueuer queue) {
            events.onOwnedDeletedOnly(event, queue);
        }

        /** Node heartbeats (status only) change no decision; labels, taints, cordon and existence do. */
        void onNode(CacheEvent<Node> event, Enqueuer queue) {
            if (event.type() == CacheEvent.Type.UPDATED && !placementChanged(event.oldObject(), event.newObject())) {
                return;
            }
            for (DaemonSet ds : sets.list()) {
                queue.add(Request.of(ds));
            }
        }

        static boolean placementChanged(Node before, Node after) {
            if (before == null || after == null) {
                return true;
            }
            return !Objects.equals(before.getMetadata().getLabels(), after.getMetadata().getLabels())
                    || !Objects.equals(before.getSpec(), after.getSpec());
        }
    }
}
