package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.controller.Enqueuer;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.ManagerSettings;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.expectations.ScaleExpectations;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.podutil.LabelSelectors;
import dev.kruisevertx.queue.ItemExponentialFailureRateLimiter;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * OpenKruise's CloneSet controller ({@code apps.kruise.io/v1alpha1}): watches CloneSets, their pods and PVCs
 * (mapped to the owning CloneSet through the controller ownerReference) and their ControllerRevisions.
 *
 * <p>Start-up in a large cluster: pods and PVCs already present when the cache first lists, whose CloneSet has
 * no pending expectations, enqueue it after a per-CloneSet delay growing from 3 s to 30 s (OpenKruise v1.3), so
 * the queue is not flooded with one entry per pod; a real creation enqueues at once and resets the delay.
 */
public final class CloneSetController implements ControllerDefinition {
    public static final String NAME = "cloneset";
    /** Key of {@link ManagerSettings#extra()} the manager fills from the flag of the same name. */
    public static final String SCALING_EXCLUDE_PREPARING_DELETE_FLAG = "cloneset-scaling-exclude-preparing-delete";
    static final String LEAKAGE_METRIC = "cloneset_scale_expectation_leakage";
    static final Duration INITIAL_DELAY_BASE = Duration.ofSeconds(3);
    static final Duration INITIAL_DELAY_MAX = Duration.ofSeconds(30);

    private final Clock clock;

    public CloneSetController() {
        this(Clock.systemUTC());
    }

    public CloneSetController(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Class<CloneSet> primaryType() {
        return CloneSet.class;
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
        ScaleExpectations scale = new ScaleExpectations(ctx.settings().expectationTimeout(), clock, ctx.registry(),
                LEAKAGE_METRIC);
        ResourceVersionExpectations versions = new ResourceVersionExpectations(ctx.settings().expectationTimeout(), clock);
        OrphanCandidates orphans = new OrphanCandidates();
        CloneSetReconciler reconciler = new CloneSetReconciler(ctx, scale, versions, orphans, clock, new SecureRandom());
        EventHandlers handlers = new EventHandlers(ctx.cache().resource(CloneSet.class), scale, versions, orphans,
                ctx.gates().enabled(Feature.CloneSetEventHandlerOptimization));
        return new Controller(reconciler, List.of(
                WatchSpec.of(CloneSet.class, EventMapper.self()),
                WatchSpec.of(Pod.class, handlers::onPod),
                WatchSpec.of(PersistentVolumeClaim.class, handlers::onClaim),
                WatchSpec.of(ControllerRevision.class, handlers::onRevision)));
    }

    /** Maps pod, PVC and revision events to CloneSet keys, and feeds the expectations. */
    static final class EventHandlers {
        private final CachedResource<CloneSet> clonesets;
        private final ScaleExpectations scale;
        private final ResourceVersionExpectations versions;
        private final OrphanCandidates orphans;
        private final boolean ignoreIrrelevantUpdates;
        private final ItemExponentialFailureRateLimiter<String> initialDelays =
                new ItemExponentialFailureRateLimiter<>(INITIAL_DELAY_BASE, INITIAL_DELAY_MAX);

        EventHandlers(CachedResource<CloneSet> clonesets, ScaleExpectations scale, ResourceVersionExpectations versions,
                      OrphanCandidates orphans, boolean ignoreIrrelevantUpdates) {
            this.clonesets = clonesets;
            this.scale = scale;
            this.versions = versions;
            this.orphans = orphans;
            this.ignoreIrrelevantUpdates = ignoreIrrelevantUpdates;
        }

        void onPod(CacheEvent<Pod> event, Enqueuer queue) {
            switch (event.type()) {
                case ADDED -> {
                    Pod pod = event.newObject();
                    Request owner = owner(pod);
                    if (owner == null) {
                        enqueueMatching(pod, queue);
                        return;
                    }
                    if (pod.getMetadata().getDeletionTimestamp() != null) {
                        scale.observeDelete(owner.key(), pod.getMetadata().getName());
                        queue.add(owner);
                        return;
                    }
                    added(owner, pod.getMetadata().getName(), event.initialList(), queue);
                }
                case UPDATED -> {
                    Pod oldPod = event.oldObject();
                    Pod newPod = event.newObject();
                    if (newPod.getMetadata().getUid() != null) {
                        versions.observe(newPod);
                    }
                    Request oldOwner = owner(oldPod);
                    Request newOwner = owner(newPod);
                    if (newOwner != null && newPod.getMetadata().getDeletionTimestamp() != null
                            && oldPod.getMetadata().getDeletionTimestamp() == null) {
                        scale.observeDelete(newOwner.key(), newPod.getMetadata().getName());
                    }
                    if (!Objects.equals(oldOwner, newOwner) && oldOwner != null) {
                        queue.add(oldOwner);
                    }
                    if (newOwner == null) {
                        // An orphan (or a pod of another controller): it may have just become adoptable.
                        if (!Objects.equals(oldPod.getMetadata().getLabels(), newPod.getMetadata().getLabels())
                                || !Objects.equals(CloneSetReconciler.controllerOf(oldPod),
                                CloneSetReconciler.controllerOf(newPod))) {
                            enqueueMatching(newPod, queue);
                        }
                        return;
                    }
                    if (ignoreIrrelevantUpdates && Objects.equals(oldOwner, newOwner) && !relevant(oldPod, newPod)) {
                        return;
                    }
                    queue.add(newOwner);
                }
                case DELETED -> {
                    Pod pod = event.oldObject();
                    if (pod.getMetadata().getUid() != null) {
                        versions.delete(pod);
                    }
                    Request owner = owner(pod);
                    if (owner != null) {
                        scale.observeDelete(owner.key(), pod.getMetadata().getName());
                        queue.add(owner);
                    }
                }
            }
        }

        void onClaim(CacheEvent<PersistentVolumeClaim> event, Enqueuer queue) {
            PersistentVolumeClaim pvc = event.object();
            Request owner = owner(pvc);
            if (owner == null) {
                return;
            }
            switch (event.type()) {
                case ADDED -> added(owner, pvc.getMetadata().getName(), event.initialList(), queue);
                case UPDATED -> {
                    if (pvc.getMetadata().getDeletionTimestamp() != null) {
                        scale.observeDelete(owner.key(), pvc.getMetadata().getName());
                    }
                    queue.add(owner);
                }
                case DELETED -> {
                    scale.observeDelete(owner.key(), pvc.getMetadata().getName());
                    queue.add(owner);
                }
            }
        }

        void onRevision(CacheEvent<ControllerRevision> event, Enqueuer queue) {
            // Only a revision disappearing under a CloneSet changes its decision; creations are its own.
            if (event.type() == CacheEvent.Type.DELETED) {
                Request owner = owner(event.oldObject());
                if (owner != null) {
                    queue.add(owner);
                }
            }
        }

        private void added(Request owner, String name, boolean initialList, Enqueuer queue) {
            if (initialList && scale.satisfied(owner.key()).satisfied()) {
                queue.addAfter(owner, initialDelays.when(owner.key()));
                return;
            }
            scale.observeCreate(owner.key(), name);
            initialDelays.forget(owner.key());
            queue.add(owner);
        }

        /** An orphan may be adopted by any CloneSet of its namespace whose selector it matches. */
        private void enqueueMatching(Pod pod, Enqueuer queue) {
            if (!PodView.isActive(pod) || CloneSetReconciler.controllerOf(pod) != null) {
                return;
            }
            for (CloneSet cs : clonesets.list(pod.getMetadata().getNamespace())) {
                if (cs.getSpec() == null || cs.getSpec().getSelector() == null) {
                    continue;
                }
                try {
                    if (LabelSelectors.matches(cs.getSpec().getSelector(), PodView.labels(pod))) {
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
            return !Objects.equals(oldPod.getMetadata().getLabels(), newPod.getMetadata().getLabels())
                    || !Objects.equals(oldPod.getMetadata().getAnnotations(), newPod.getMetadata().getAnnotations())
                    || !Objects.equals(oldPod.getMetadata().getFinalizers(), newPod.getMetadata().getFinalizers())
                    || !Objects.equals(oldPod.getMetadata().getDeletionTimestamp(), newPod.getMetadata().getDeletionTimestamp())
                    || !Objects.equals(PodView.phase(oldPod), PodView.phase(newPod))
                    || PodView.isActive(oldPod) != PodView.isActive(newPod)
                    || !Objects.equals(oldPod.getSpec() == null ? null : oldPod.getSpec().getNodeName(),
                    newPod.getSpec() == null ? null : newPod.getSpec().getNodeName())
                    || !Objects.equals(oldPod.getStatus() == null ? null : oldPod.getStatus().getConditions(),
                    newPod.getStatus() == null ? null : newPod.getStatus().getConditions())
                    || !Objects.equals(oldPod.getSpec() == null ? null : oldPod.getSpec().getContainers(),
                    newPod.getSpec() == null ? null : newPod.getSpec().getContainers());
        }

        static Request owner(HasMetadata obj) {
            List<OwnerReference> refs = obj.getMetadata().getOwnerReferences();
            if (refs == null) {
                return null;
            }
            for (OwnerReference r : refs) {
                if (Boolean.TRUE.equals(r.getController())) {
                    if (CloneSet.KIND.equals(r.getKind()) && r.getApiVersion() != null
                            && r.getApiVersion().startsWith(CloneSet.GROUP + "/")) {
                        return new Request(obj.getMetadata().getNamespace(), r.getName());
                    }
                    return null;
                }
            }
            return null;
        }
    }
}
