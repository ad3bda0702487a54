package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.Enqueuer;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.ManagerSettings;
import dev.kruisevertx.controller.WorkloadEvents;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.controller.WorkloadControllerDefinition;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;

/**
 * OpenKruise's CloneSet controller ({@code apps.kruise.io/v1alpha1}): watches CloneSets, their pods and PVCs
 * (mapped to the owning CloneSet through the controller ownerReference) and their ControllerRevisions.
 *
 * <p>Events are mapped by the shared {@link WorkloadEvents} (owner keys, expectations, the start-up delay for pods
 * and PVCs of the initial list, CloneSetEventHandlerOptimization's filter); adoption matches the selector.
 */
public final class CloneSetController extends WorkloadControllerDefinition {
    public static final String NAME = "cloneset";
    /** Key of {@link ManagerSettings#extra()} the manager fills from the flag of the same name. */
    public static final String SCALING_EXCLUDE_PREPARING_DELETE_FLAG = "cloneset-scaling-exclude-preparing-delete";

    public CloneSetController() {
        this(Clock.systemUTC());
    }

    /** @param clock what decisions and expectation timeouts read as now */
    public CloneSetController(Clock clock) {
        super(NAME, CloneSet.class, clock);
    }

    /**
     * Nodes are read (never watched for keys): a scale-down of a template with topologySpreadConstraints ranks
     * pods by their nodes' topology labels, as OpenKruise reads them from its cache.
     */
    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(CloneSet.class, Node.class);
    }

    /**
     * The manager flag {@code --cloneset-scaling-exclude-preparing-delete} (OpenKruise v1.3): for every CloneSet,
     * pods in PreparingDelete do not count towards replicas, as the CloneSet label of the same name does for one.
     */
    static boolean scalingExcludePreparingDelete(ManagerSettings settings) {
        return Boolean.parseBoolean(settings.extra().getOrDefault(SCALING_EXCLUDE_PREPARING_DELETE_FLAG, "false"));
    }

    @Override
    public Controller create(ControllerContext ctx) {
        Expectations expectations = expectations(ctx);
        OrphanCandidates orphans = new OrphanCandidates();
        CloneSetReconciler reconciler = new CloneSetReconciler(ctx, expectations.scale(), expectations.versions(),
                orphans, clock(), new SecureRandom());
        EventHandlers handlers = new EventHandlers(ctx.cache().resource(CloneSet.class), expectations.scale(),
                expectations.versions(), orphans, ctx.gates().enabled(Feature.CloneSetEventHandlerOptimization));
        return new Controller(reconciler, List.of(
                WatchSpec.of(CloneSet.class, EventMapper.self()),
                WatchSpec.of(Pod.class, handlers::onPod),
                WatchSpec.of(PersistentVolumeClaim.class, handlers::onClaim),
                WatchSpec.of(ControllerRevision.class, handlers::onRevision)));
    }

    /** Maps pod, PVC and revision events to CloneSet keys with the shared workload handlers; adoption is its own. */
    static final class EventHandlers {
        private final CachedResource<CloneSet> clonesets;
        private final OrphanCandidates orphans;
        private final WorkloadEvents events;

        EventHandlers(CachedResource<CloneSet> clonesets, ScaleExpectations scale, ResourceVersionExpectations versions,
                      OrphanCandidates orphans, boolean ignoreIrrelevantUpdates) {
            this.clonesets = clonesets;
            this.orphans = orphans;
            this.events = new WorkloadEvents(CloneSet.GROUP, CloneSet.KIND, scale, versions,
                    ignoreIrrelevantUpdates ? WorkloadEvents::decisionRelevant : WorkloadEvents::always,
                    this::enqueueMatching);
        }

        void onPod(CacheEvent<Pod> event, Enqueuer queue) {
            events.onPod(event, queue);
        }

        void onClaim(CacheEvent<PersistentVolumeClaim> event, Enqueuer queue) {
            PersistentVolumeClaim pvc = event.object();
            Request owner = events.owner(pvc);
            if (owner == null) {
                return;
            }
            switch (event.type()) {
                case ADDED -> events.ownedCreated(owner, pvc.getMetadata().getName(), event.initialList(), queue);
                case UPDATED -> {
                    if (pvc.getMetadata().getDeletionTimestamp() != null) {
                        events.ownedDeleted(pvc, queue);
                    } else {
                        queue.add(owner);
                    }
                }
                case DELETED -> events.ownedDeleted(pvc, queue);
            }
        }

        void onRevision(CacheEvent<ControllerRevision> event, Enqueuer queue) {
            // Only a revision disappearing under a CloneSet changes its decision; creations are its own.
            events.onOwnedDeletedOnly(event, queue);
        }

        /** An orphan may be adopted by any CloneSet of its namespace whose selector it matches. */
        private void enqueueMatching(Pod pod, Enqueuer queue) {
            if (!Pods.isActive(pod) || Pods.controllerOf(pod).isPresent()) {
                return;
            }
            for (CloneSet cs : clonesets.list(pod.getMetadata().getNamespace())) {
                if (cs.getSpec() == null || cs.getSpec().getSelector() == null) {
                    continue;
                }
                try {
                    if (LabelSelectors.matches(cs.getSpec().getSelector(), Pods.labels(pod))) {
                        Request r = Request.of(cs);
                        if (orphans != null) {
                            orphans.matched(r.key(), pod.getMetadata().getName());
                        }
                        queue.add(r);
                    }
                } catch (IllegalArgumentException e) {
                    // An invalid selector adopts nothing; the reconcile reports it.
                }
            }
        }

        /** With CloneSetEventHandlerOptimization: only changes a CloneSet decision can depend on. */
        static boolean relevant(Pod oldPod, Pod newPod) {
            return WorkloadEvents.decisionRelevant(oldPod, newPod);
        }
    }
}
