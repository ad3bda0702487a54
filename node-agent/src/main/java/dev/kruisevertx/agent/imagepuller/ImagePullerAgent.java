package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.api.apps.v1beta1.ImagePullPhase;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.api.apps.v1beta1.NodeImageStatus;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.image.EventSpamFilter;
import dev.kruisevertx.image.PullEventRecorder;
import dev.kruisevertx.image.PullEvents;
import dev.kruisevertx.kube.ApiErrors;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The node agent's image puller (kruise-daemon's imagepuller controller): it watches only this node's NodeImage
 * (field selector on its name), runs one {@link TagPuller} per tag version the spec asks for, at most
 * {@code --max-workers-for-pull-image} at once ({@link WorkerSlots}), with the credentials of the image's
 * {@code pullSecrets} ({@link SecretSource}, {@link RegistryAuths}), and reports {@code status} (counts and each tag's
 * phase) through a {@link StatusWriter} at most 0.5 writes a second, burst 5. Decisions are {@link PullPlanner}'s.
 * All state lives on one Vert.x context; API calls run on worker threads.
 */
public final class ImagePullerAgent {
    private static final Logger LOG = LoggerFactory.getLogger(ImagePullerAgent.class);

    private final Vertx vertx;
    private final KubernetesClient kube;
    private final CriClient cri;
    private final String nodeName;
    private final Clock clock;
    private final int maxWorkers;
    private final WorkerSlots slots;
    private final SecretSource secrets;
    private final Map<PullPlanner.TagKey, PullPlanner.Known> known = new LinkedHashMap<>();
    private final Map<PullPlanner.TagKey, TagPuller> workers = new HashMap<>();
    private final StatusWriter<NodeImageStatus> writer;
    private final PullEventRecorder events;
    private NodeImageSpec spec = new NodeImageSpec();
    private Context context;
    private SharedIndexInformer<NodeImage> informer;
    private volatile boolean stopped;
    private boolean syncing;
    private boolean syncAgain;

    /**
     * @param maxWorkers at most this many pulls at once; 0 or less: no limit
     * @param writeQps   status writes per second (kruise-daemon: 0.5)
     * @param writeBurst status writes that may go at once before {@code writeQps} applies (kruise-daemon: 5)
     */
    public ImagePullerAgent(Vertx vertx, KubernetesClient kube, CriClient cri, String nodeName, int maxWorkers,
                            double writeQps, int writeBurst, Clock clock) {
        this.vertx = vertx;
        this.kube = kube;
        this.cri = cri;
        this.nodeName = nodeName;
        this.clock = clock;
        this.maxWorkers = maxWorkers;
        this.slots = new WorkerSlots(maxWorkers);
        this.secrets = new SecretSource(vertx, kube, clock);
        this.writer = new StatusWriter<>(vertx, writeQps, writeBurst, () -> PullPlanner.status(spec, known),
                this::writeStatus);
        this.events = new PullEventRecorder(kube, new EventSpamFilter(clock), clock);
    }

    public ImagePullerAgent(Vertx vertx, KubernetesClient kube, CriClient cri, String nodeName, int maxWorkers) {
        this(vertx, kube, cri, nodeName, maxWorkers, StatusWriter.QPS, StatusWriter.BURST, Clock.systemUTC());
    }

    /** Starts watching this node's NodeImage; completes once the first list is in. */
    public Future<Void> start() {
        context = vertx.getOrCreateContext();
        return vertx.<Void>executeBlocking(() -> {
            informer = kube.resources(NodeImage.class).withName(nodeName).runnableInformer(0);
            informer.addEventHandler(new ResourceEventHandler<>() {
                @Override
                public void onAdd(NodeImage ni) {
                    later();
                }

                @Override
                public void onUpdate(NodeImage old, NodeImage now) {
                    // Our own status writes come back here too: only a spec change needs a sync; a status someone
                    // else wrote over is written back (checked on the context, where the agent's state is).
                    if (!Objects.equals(ApiJson.toJson(old.getSpec()), ApiJson.toJson(now.getSpec()))) {
                        later();
                    } else if (!stopped && context != null) {
                        context.runOnContext(v -> restoreStatus());
                    }
                }

                @Override
                public void onDelete(NodeImage ni, boolean unknownFinalState) {
                    later();
                }
            });
            try {
                informer.run();
            } catch (RuntimeException e) {
                informer.close();
                throw e;
            }
            return null;
        }, false).onSuccess(v -> {
            LOG.info("watching the NodeImage of node {} (pull workers: {})", nodeName, slotsText());
            later();
        });
    }

    private String slotsText() {
        return maxWorkers > 0 ? "at most " + maxWorkers : "no limit";
    }

    public Future<Void> stop() {
        stopped = true;
        Future<Void> workersStopped = context == null ? Future.succeededFuture() : Future.future(p ->
                context.runOnContext(v -> {
                    writer.stop();
                    workers.values().forEach(TagPuller::stop);
                    workers.clear();
                    p.complete();
                }));
        return workersStopped.compose(v -> vertx.executeBlocking(() -> {
            if (informer != null) {
                informer.close();
            }
            return null;
        }, false));
    }

    /** Running and waiting pull workers, for tests and metrics. */
    public Future<int[]> workerCounts() {
        return Future.future(p -> context.runOnContext(v -> p.complete(new int[]{slots.running(), slots.waiting()})));
    }

    private void later() {
        if (!stopped && context != null) {
            context.runOnContext(v -> sync());
        }
    }

    private NodeImage current() {
        return informer == null ? null : informer.getStore().getByKey(nodeName);
    }

    /** One look at the NodeImage: stop, adopt and start per the plan; one sync at a time. */
    private void sync() {
        if (stopped) {
            return;
        }
        if (syncing) {
            syncAgain = true;
            return;
        }
        NodeImage ni = current();
        if (ni == null || ni.getMetadata().getDeletionTimestamp() != null) {
            if (!workers.isEmpty() || !known.isEmpty()) {
                LOG.info("the NodeImage of node {} is gone: stopping {} pull workers", nodeName, workers.size());
            }
            workers.values().forEach(TagPuller::stop);
            workers.clear();
            known.clear();
            spec = new NodeImageSpec();
            return;
        }
        spec = ni.spec();
        PullPlanner.Plan plan = PullPlanner.plan(spec, ni.getStatus(), known);
        for (String why : plan.skipped()) {
            LOG.warn("NodeImage {}: {}", nodeName, why);
        }
        for (PullPlanner.TagKey key : plan.stop()) {
            TagPuller w = workers.remove(key);
            if (w != null) {
                LOG.info("stopping the pull of {} (version {}): no longer asked for", key, w.version());
                w.stop();
            }
            known.remove(key);
        }
        for (PullPlanner.TagKey key : plan.drop()) {
            known.remove(key);
        }
        plan.adopt().forEach((key, status) -> known.put(key, new PullPlanner.Known(status.versionOrZero(), status)));
        if (plan.start().isEmpty()) {
            writer.request();
            return;
        }
        syncing = true;
        Map<String, List<PullPlanner.Start>> byImage = new LinkedHashMap<>();
        for (PullPlanner.Start s : plan.start()) {
            byImage.computeIfAbsent(s.key().image(), k -> new ArrayList<>()).add(s);
        }
        List<Future<Void>> loads = new ArrayList<>();
        for (List<PullPlanner.Start> starts : byImage.values()) {
            ImageSpec image = starts.get(0).image();
            loads.add(secrets.load(image.pullSecrets()).map(loaded -> {
                RegistryAuths.Result auths = RegistryAuths.forImage(loaded.secrets(), starts.get(0).key().image());
                List<String> problems = new ArrayList<>(loaded.problems());
                problems.addAll(auths.problems());
                for (String p : problems) {
                    LOG.warn("image {}: {}", starts.get(0).key().image(), p);
                }
                RegistryAuths.Result all = new RegistryAuths.Result(auths.auths(), problems);
                for (PullPlanner.Start s : starts) {
                    begin(s, image, all);
                }
                return (Void) null;
            }));
        }
        Future.join(loads).onComplete(ar -> {
            syncing = false;
            writer.request();
            if (syncAgain) {
                syncAgain = false;
                sync();
            }
        });
    }

    private void begin(PullPlanner.Start s, ImageSpec image, RegistryAuths.Result auths) {
        if (stopped) {
            return;
        }
        TagPuller[] self = new TagPuller[1];
        TagPuller w = new TagPuller(vertx, cri, s.key(), s.tag(), image.getSandboxConfig(), auths, clock,
                status -> context.runOnContext(v -> report(s.key(), self[0], status, s.tag())));
        self[0] = w;
        TagPuller old = workers.put(s.key(), w);
        if (old != null) {
            old.stop();
        }
        known.put(s.key(), new PullPlanner.Known(w.version(), w.waiting()));
        slots.submit(w::run);
    }

    private void report(PullPlanner.TagKey key, TagPuller from, ImageTagStatus status,
                        ImageTagSpec tag) {
        if (stopped || workers.get(key) != from) {
            return;
        }
        known.put(key, new PullPlanner.Known(from.version(), status));
        writer.request();
        recordEvents(key, from, status, tag);
    }

    /**
     * kruise-daemon's Events for a finished pull: PullImageSucceed on the NodeImage, or PullImageFailed on each
     * ImagePullJob owning the tag and on the NodeImage; written off the event loop, through the spam filter.
     */
    private void recordEvents(PullPlanner.TagKey key, TagPuller from, ImageTagStatus status,
                              ImageTagSpec tag) {
        boolean succeeded = ImagePullPhase.SUCCEEDED.value().equals(status.getPhase());
        boolean failed = ImagePullPhase.FAILED.value().equals(status.getPhase());
        if (!succeeded && !failed) {
            return;
        }
        NodeImage ni = current();
        ObjectReference ref = PullEvents.nodeImage(nodeName,
                ni == null ? null : ni.getMetadata().getUid(), ni == null ? null : ni.getMetadata().getResourceVersion());
        List<PullEvents.PullEvent> list = succeeded
                ? PullEvents.succeeded(ref, key.image(), key.tag(), from.elapsed())
                : PullEvents.failed(ref, tag.ownerReferences(), key.image(), key.tag(),
                status.getMessage() == null ? "" : status.getMessage());
        vertx.executeBlocking(() -> events.record(nodeName, list), false);
    }

    /** Another writer changed the status to something the agent does not report: write the agent's view again. */
    private void restoreStatus() {
        NodeImage ni = current();
        if (stopped || syncing || ni == null) {
            return;
        }
        if (!ApiJson.toJson(PullPlanner.status(spec, known)).equals(ApiJson.toJson(withoutFirstSync(ni.status())))) {
            writer.request();
        }
    }

    /** Merge patch of the status subresource; images no longer reported are removed with a null. */
    private Future<Void> writeStatus(NodeImageStatus next) {
        NodeImage ni = current();
        if (ni == null) {
            return Future.succeededFuture();
        }
        NodeImageStatus now = ni.status();
        if (ApiJson.toJson(next).equals(ApiJson.toJson(withoutFirstSync(now)))) {
            return Future.succeededFuture();
        }
        Map<String, Object> status = new LinkedHashMap<>();
        status.put("desired", next.getDesired());
        status.put("succeeded", next.getSucceeded());
        status.put("failed", next.getFailed());
        status.put("pulling", next.getPulling());
        status.put("waiting", next.getWaiting());
        if (next.getImageStatuses() == null) {
            status.put("imageStatuses", null);
        } else {
            Map<String, Object> images = new LinkedHashMap<>();
            for (String gone : now.imageStatuses().keySet()) {
                if (!next.getImageStatuses().containsKey(gone)) {
                    images.put(gone, null);
                }
            }
            for (Map.Entry<String, ImageStatus> e : next.getImageStatuses().entrySet()) {
                images.put(e.getKey(), e.getValue());
            }
            status.put("imageStatuses", images);
        }
        Map<String, Object> root = new HashMap<>();
        root.put("status", status);
        String body = ApiJson.toJson(root);
        return vertx.<Void>executeBlocking(() -> {
            ApiErrors.ignoreNotFound(() -> kube.resources(NodeImage.class).withName(nodeName)
                    .subresource("status").patch(PatchContext.of(PatchType.JSON_MERGE), body));
            return null;
        }, false).onFailure(err -> LOG.warn("writing the NodeImage status of node {} failed: {}", nodeName,
                err.getMessage()));
    }

    private static NodeImageStatus withoutFirstSync(NodeImageStatus s) {
        NodeImageStatus copy = new NodeImageStatus();
        copy.setDesired(s.getDesired());
        copy.setSucceeded(s.getSucceeded());
        copy.setFailed(s.getFailed());
        copy.setPulling(s.getPulling());
        copy.setWaiting(s.getWaiting());
        copy.setImageStatuses(s.getImageStatuses() == null || s.getImageStatuses().isEmpty() ? null
                : s.getImageStatuses());
        return copy;
    }
}
