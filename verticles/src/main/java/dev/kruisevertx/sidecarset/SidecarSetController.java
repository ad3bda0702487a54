package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.cache.CacheEvent;
import dev.kruisevertx.cache.CachedResource;
import dev.kruisevertx.controller.Controller;
import dev.kruisevertx.controller.ControllerContext;
import dev.kruisevertx.controller.Enqueuer;
import dev.kruisevertx.controller.EventMapper;
import dev.kruisevertx.controller.NamedControllerDefinition;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.controller.Request;
import dev.kruisevertx.controller.Result;
import dev.kruisevertx.controller.WatchSpec;
import dev.kruisevertx.controller.reason.WriteRejections;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.webhook.sidecarset.CachedSidecarSetLookup;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.vertx.core.Future;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * OpenKruise's sidecarset controller: ControllerRevisions and status of each SidecarSet, and the in-place upgrade of
 * its sidecars in the pods it injected ({@link SidecarSetPlanner}, carried out by {@link SidecarSetActuator}). A pod
 * reaches its SidecarSets through its {@code kruise.io/sidecarset-injected-list} annotation (a map lookup per name,
 * never a scan), and a SidecarSet its pods through the same annotation ({@link InjectedPods}); a SidecarSet is reconciled on creation, deletion and spec changes (its generation), not on its own
 * status writes.
 */
public final class SidecarSetController extends NamedControllerDefinition {
    public static final String NAME = "sidecarset";
    /** Where SidecarSet revisions live: the manager's namespace, as OpenKruise's webhookutil.GetNamespace(). */
    static final String NAMESPACE_ENV = "POD_NAMESPACE";
    static final String DEFAULT_NAMESPACE = "kruise-system";

    private final Clock clock;
    private final String revisionNamespace;

    public SidecarSetController() {
        this(Clock.systemUTC(), revisionNamespaceFromEnv());
    }

    public SidecarSetController(Clock clock, String revisionNamespace) {
        super(NAME, SidecarSet.class);
        this.clock = clock;
        this.revisionNamespace = revisionNamespace;
    }

    static String revisionNamespaceFromEnv() {
        String ns = System.getenv(NAMESPACE_ENV);
        return ns == null || ns.isEmpty() ? DEFAULT_NAMESPACE : ns;
    }

    @Override
    public List<Class<? extends HasMetadata>> requiredTypes() {
        return List.of(SidecarSet.class, Pod.class, Namespace.class, ControllerRevision.class);
    }

    /**
     * The revisions of a SidecarSet by its name label: the webhook's index (the same function, so registering it twice
     * is one index), instead of walking every revision of the namespace per reconcile.
     */
    @Override
    public void registerIndexes(dev.kruisevertx.cache.WatchCache cache) {
        cache.addIndex(ControllerRevision.class, CachedSidecarSetLookup.REVISION_INDEX, CachedSidecarSetLookup.REVISION_OWNER);
    }

    /** The SidecarSets a pod names in its injected-list annotation. */
    static List<String> sidecarSetsOf(Pod pod) {
        String list = Pods.annotations(pod).get(dev.kruisevertx.sidecarset.SidecarInjection.INJECTED_LIST_ANNOTATION);
        if (list == null || list.isEmpty()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        for (String n : list.split(",")) {
            if (!n.isEmpty()) {
                out.add(n);
            }
        }
        return out;
    }

    /**
     * Whether a pod update can change a SidecarSet's decision (OpenKruise's pod handler, plus our own writes):
     * deletion started, readiness, labels (the update selector), the sidecar hash annotation, container statuses
     * (an upgrade completing) or the spec's images.
     */
    static boolean relevant(Pod old, Pod now) {
        if (Objects.equals(old.getMetadata().getResourceVersion(), now.getMetadata().getResourceVersion())) {
            return false;
        }
        if (old.getMetadata().getDeletionTimestamp() == null && now.getMetadata().getDeletionTimestamp() != null) {
            return true;
        }
        if (old.getMetadata().getDeletionTimestamp() != null) {
            return false;
        }
        return Pods.isReady(old) != Pods.isReady(now)
                || !Objects.equals(old.getMetadata().getLabels(), now.getMetadata().getLabels())
                || !Objects.equals(Pods.annotations(old), Pods.annotations(now))
                || !Objects.equals(old.getStatus() == null ? null : old.getStatus().getContainerStatuses(),
                now.getStatus() == null ? null : now.getStatus().getContainerStatuses())
                || !Objects.equals(old.getSpec().getContainers(), now.getSpec().getContainers());
    }

    @Override
    public Controller create(ControllerContext ctx) {
        CachedResource<SidecarSet> sets = ctx.cache().resource(SidecarSet.class);
        CachedResource<Pod> pods = ctx.cache().resource(Pod.class);
        CachedResource<Namespace> namespaces = ctx.cache().resource(Namespace.class);
        CachedResource<ControllerRevision> revisions = ctx.cache().resource(ControllerRevision.class);
        ResourceVersionExpectations expectations = new ResourceVersionExpectations(
                ctx.settings().expectationTimeout(), clock);
        EventRecorder setEvents = new EventRecorder(ctx.client(), ctx.kube(), clock, "sidecarset-controller",
                SidecarSet.API_VERSION, SidecarSet.KIND);
        EventRecorder podEvents = new EventRecorder(ctx.client(), ctx.kube(), clock, "sidecarset-controller", "v1", "Pod");
        SidecarSetActuator actuator = new SidecarSetActuator(ctx, expectations, setEvents, podEvents, clock);
        WriteRejections rejections = new WriteRejections();
        InjectedPods injected = new InjectedPods();

        EventMapper<SidecarSet> setMapper = (event, queue) -> {
            if (event.type() == CacheEvent.Type.UPDATED && Objects.equals(event.oldObject().getMetadata().getGeneration(),
                    event.newObject().getMetadata().getGeneration())
                    && Objects.equals(event.oldObject().getMetadata().getDeletionTimestamp(),
                    event.newObject().getMetadata().getDeletionTimestamp())) {
                return; // our own status writes: nothing to decide
            }
            EventMapper.<SidecarSet>self().map(event, queue);
        };
        EventMapper<Pod> podMapper = (event, queue) -> {
            Pod pod = event.newObject() != null ? event.newObject() : event.oldObject();
            injected.onEvent(event);
            if (event.type() == CacheEvent.Type.DELETED) {
                expectations.delete(pod);
            } else {
                expectations.observe(pod);
            }
            if (event.type() == CacheEvent.Type.UPDATED && !relevant(event.oldObject(), event.newObject())) {
                return;
            }
            enqueueSets(pod, sets, queue);
        };
        EventMapper<ControllerRevision> revisionMapper = (event, queue) -> {
            ControllerRevision r = event.newObject() != null ? event.newObject() : event.oldObject();
            String owner = r.getMetadata().getLabels() == null ? null
                    : r.getMetadata().getLabels().get(SidecarSetRevisions.NAME_LABEL);
            // Only deletions matter (someone removed the latest revision); creations are ours.
            if (owner != null && event.type() == CacheEvent.Type.DELETED && sets.get(null, owner) != null) {
                queue.add(new Request("", owner));
            }
        };

        return new Controller(request -> {
            SidecarSet set = sets.get(null, request.name());
            if (set == null || set.getMetadata().getDeletionTimestamp() != null) {
                rejections.clear(request.key());
                ctx.plans().forget(NAME, request);
                return Future.succeededFuture(Result.done());
            }
            // Walks the pods of the selected namespaces: on a worker, off the event loop.
            return ctx.vertx().executeBlocking(() -> {
                List<Pod> matched;
                try {
                    matched = SidecarSetPods.matched(set, injected.of(set.getMetadata().getName(), pods), namespaces);
                } catch (IllegalArgumentException e) {
                    return null;
                }
                List<String> pending = new ArrayList<>();
                for (Pod pod : matched) {
                    if (!expectations.status(pod).satisfied()) {
                        pending.add(pod.getMetadata().getName());
                    }
                }
                List<ControllerRevision> history = new ArrayList<>();
                for (ControllerRevision r : revisions.byIndex(CachedSidecarSetLookup.REVISION_INDEX,
                        set.getMetadata().getName())) {
                    if (revisionNamespace.equals(r.getMetadata().getNamespace())) {
                        history.add(r);
                    }
                }
                return SidecarSetPlanner.decide(set, matched, history, revisionNamespace, pending);
            }, false).compose(plan -> {
                if (plan == null) {
                    ctx.plans().record(NAME, request, PlanSummary.of("selector or namespaceSelector cannot be read: "
                            + "nothing is matched"));
                    return Future.succeededFuture(Result.done());
                }
                ctx.plans().record(NAME, request, plan.withReasons(
                        rejections.last(request.key()).map(List::of).orElse(List.of())).debugSummary());
                return actuator.apply(set, plan).transform(ar -> {
                    if (ar.failed() && rejections.record(request.key(), ar.cause())) {
                        ctx.plans().record(NAME, request, plan.withReasons(
                                List.of(rejections.last(request.key()).orElseThrow())).debugSummary());
                    } else if (ar.succeeded() && !plan.upgrades().isEmpty()) {
                        rejections.clear(request.key());
                    }
                    if (ar.failed()) {
                        return Future.<Result>failedFuture(ar.cause());
                    }
                    if (!ar.result()) {
                        return Future.succeededFuture(Result.requeueAfter(java.time.Duration.ofMillis(100)));
                    }
                    return Future.succeededFuture(plan.requeueAfter() == null ? Result.done()
                            : Result.requeueAfter(plan.requeueAfter()));
                });
            });
        }, List.of(WatchSpec.of(SidecarSet.class, setMapper),
                WatchSpec.of(Pod.class, podMapper),
                WatchSpec.of(ControllerRevision.class, revisionMapper)));
    }

    private static void enqueueSets(Pod pod, CachedResource<SidecarSet> sets, Enqueuer queue) {
        for (String name : sidecarSetsOf(pod)) {
            SidecarSet set = sets.get(null, name);
            if (set != null) {
                queue.add(new Request("", name));
            }
        }
    }
}
