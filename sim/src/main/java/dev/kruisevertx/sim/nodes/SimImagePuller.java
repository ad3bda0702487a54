package dev.kruisevertx.sim.nodes;

import dev.kruisevertx.api.apps.v1beta1.ImagePullPhase;
import dev.kruisevertx.api.apps.v1beta1.ImageSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.NodeImageStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * The simulated nodes' image puller, in place of kruise-daemon's: it watches the NodeImages of the simulated nodes
 * and, for each tag version not yet handled, reports it Pulling, then after the image rule's start delay Succeeded
 * (the image lands in the node's image list, as a real pull would) or Failed with a CRI-style message for an image
 * rule of {@link ContainerFailure#IMAGE_PULL_ERROR}. Statuses of tags no longer asked for are dropped.
 */
final class SimImagePuller implements AutoCloseable {
    static final String CRD = "nodeimages.apps.kruise.io";

    private final KubernetesClient client;
    private final ScheduledExecutorService worker;
    private final Function<String, ImageRule> rules;
    private final BiFunction<String, String, Optional<String>> pull;
    private final UnaryOperator<Runnable> guard;
    private final Set<String> scheduled = ConcurrentHashMap.newKeySet();
    // As kruise-daemon's recorder: Events per object limited to 25, then one per 5 minutes.
    private final dev.kruisevertx.image.PullEventRecorder events;
    private volatile SharedIndexInformer<NodeImage> informer;

    SimImagePuller(KubernetesClient client, ScheduledExecutorService worker, Function<String, ImageRule> rules,
                   BiFunction<String, String, Optional<String>> pull, UnaryOperator<Runnable> guard) {
        this.client = client;
        this.worker = worker;
        this.rules = rules;
        this.pull = pull;
        this.guard = guard;
        this.events = new dev.kruisevertx.image.PullEventRecorder(client,
                new dev.kruisevertx.image.EventSpamFilter(java.time.Clock.systemUTC()), java.time.Clock.systemUTC());
    }

    /** Starts watching once the cluster serves NodeImages; later calls do nothing. */
    void startOnce() {
        if (informer == null) {
            start();
        }
    }

    /** Starts watching when the cluster serves NodeImages; returns whether it does. */
    boolean start() {
        if (client.apiextensions().v1().customResourceDefinitions().withName(CRD).get() == null) {
            return false;
        }
        informer = client.resources(NodeImage.class).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(NodeImage obj) {
                enqueue(obj);
            }

            @Override
            public void onUpdate(NodeImage oldObj, NodeImage newObj) {
                enqueue(newObj);
            }

            @Override
            public void onDelete(NodeImage obj, boolean deletedFinalStateUnknown) {
            }
        }, 0);
        return true;
    }

    private void enqueue(NodeImage ni) {
        String name = ni.getMetadata().getName();
        worker.execute(guard.apply(() -> sync(name)));
    }

    static String ref(String image, String tag) {
        return tag.contains(":") ? image + "@" + tag : image + ":" + tag;
    }

    private void sync(String name) {
        NodeImage cached = informer.getStore().getByKey(name);
        if (cached == null) {
            return;
        }
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        NodeImageStatus next = nextStatus(cached, now);
        if (Objects.equals(json(next), json(cached.getStatus()))) {
            return;
        }
        client.resources(NodeImage.class).withName(name).editStatus(live -> {
            live.setStatus(nextStatus(live, now));
            return live;
        });
    }

    /** Starts every tag version not handled yet (Pulling, finish scheduled); drops statuses of removed tags. */
    private NodeImageStatus nextStatus(NodeImage ni, String now) {
        Map<String, ImageStatus> statuses = new LinkedHashMap<>();
        Map<String, ImageSpec> images = ni.getSpec() == null ? Map.of() : ni.getSpec().images();
        for (Map.Entry<String, ImageSpec> e : images.entrySet()) {
            if (e.getValue() == null) {
                continue;
            }
            ImageStatus old = ni.getStatus() == null ? null : ni.getStatus().imageStatuses().get(e.getKey());
            List<ImageTagStatus> tags = new ArrayList<>();
            for (ImageTagSpec tag : e.getValue().tags()) {
                ImageTagStatus current = old == null ? null : old.tags().stream()
                        .filter(t -> Objects.equals(t.getTag(), tag.getTag())).findFirst().orElse(null);
                if (current != null && current.versionOrZero() == tag.versionOrZero()) {
                    tags.add(current);
                    if (current.phaseValue().orElse(ImagePullPhase.PULLING) == ImagePullPhase.PULLING) {
                        scheduleFinish(ni.getMetadata().getName(), e.getKey(), tag);
                    }
                    continue;
                }
                ImageTagStatus pulling = new ImageTagStatus();
                pulling.setTag(tag.getTag());
                pulling.setVersion(tag.versionOrZero());
                pulling.setPhase(ImagePullPhase.PULLING.value());
                pulling.setProgress(0);
                pulling.setStartTime(now);
                tags.add(pulling);
                scheduleFinish(ni.getMetadata().getName(), e.getKey(), tag);
            }
            if (!tags.isEmpty()) {
                tags.sort(Comparator.comparing(ImageTagStatus::getTag));
                ImageStatus s = new ImageStatus();
                s.setTags(tags);
                statuses.put(e.getKey(), s);
            }
        }
        NodeImageStatus status = new NodeImageStatus();
        status.setImageStatuses(statuses.isEmpty() ? null : statuses);
        int desired = 0;
        int pulling = 0;
        int succeeded = 0;
        int failed = 0;
        for (ImageStatus s : statuses.values()) {
            for (ImageTagStatus t : s.tags()) {
                desired++;
                switch (t.phaseValue().orElse(ImagePullPhase.PULLING)) {
                    case SUCCEEDED -> succeeded++;
                    case FAILED -> failed++;
                    default -> pulling++;
                }
            }
        }
        status.setDesired(desired);
        status.setPulling(pulling);
        status.setSucceeded(succeeded);
        status.setFailed(failed);
        status.setFirstSyncStatus(ni.getStatus() == null ? null : ni.getStatus().getFirstSyncStatus());
        return status;
    }

    private void scheduleFinish(String node, String image, ImageTagSpec tag) {
        long version = tag.versionOrZero();
        String key = node + "|" + image + "|" + tag.getTag() + "|" + version;
        if (!scheduled.add(key)) {
            return;
        }
        String ref = ref(image, tag.getTag());
        Duration delay = rules.apply(ref).startDelay();
        Instant started = Instant.now();
        worker.schedule(guard.apply(() -> {
            scheduled.remove(key);
            finish(node, image, tag, version, ref, started);
        }), Math.max(1, delay.toMillis()), TimeUnit.MILLISECONDS);
    }

    private void finish(String node, String image, ImageTagSpec tagSpec, long version, String ref, Instant started) {
        String tag = tagSpec.getTag();
        Optional<String> imageId = pull.apply(node, ref);
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        String failure = "rpc error: code = NotFound desc = failed to pull and unpack image \"" + ref + "\": not found";
        boolean[] finished = new boolean[1];
        NodeImage written = client.resources(NodeImage.class).withName(node).editStatus(live -> {
            if (live.getStatus() == null) {
                return live;
            }
            ImageStatus s = live.getStatus().imageStatuses().get(image);
            ImageTagStatus t = s == null ? null : s.tags().stream()
                    .filter(x -> tag.equals(x.getTag()) && x.versionOrZero() == version).findFirst().orElse(null);
            if (t == null || t.phaseValue().orElse(ImagePullPhase.PULLING) != ImagePullPhase.PULLING) {
                return live;
            }
            if (imageId.isPresent()) {
                t.setPhase(ImagePullPhase.SUCCEEDED.value());
                t.setImageID(imageId.get());
                t.setProgress(100);
                live.getStatus().setSucceeded(live.getStatus().getSucceeded() + 1);
            } else {
                t.setPhase(ImagePullPhase.FAILED.value());
                t.setMessage(failure);
                live.getStatus().setFailed(live.getStatus().getFailed() + 1);
            }
            t.setCompletionTime(now);
            live.getStatus().setPulling(Math.max(0, live.getStatus().getPulling() - 1));
            finished[0] = true;
            return live;
        });
        if (finished[0] && written != null) {
            // kruise-daemon's Events for the finished pull (this runs on the simulation's worker, not an event loop).
            io.fabric8.kubernetes.api.model.ObjectReference on = dev.kruisevertx.image.PullEvents.nodeImage(node,
                    written.getMetadata().getUid(), written.getMetadata().getResourceVersion());
            events.record(node, imageId.isPresent()
                    ? dev.kruisevertx.image.PullEvents.succeeded(on, image, tag, Duration.between(started, Instant.now()))
                    : dev.kruisevertx.image.PullEvents.failed(on, tagSpec.ownerReferences(), image, tag, failure));
        }
    }

    private static String json(Object o) {
        return o == null ? "null" : dev.kruisevertx.api.common.ApiJson.toJson(o);
    }

    @Override
    public void close() {
        if (informer != null) {
            informer.stop();
        }
    }
}
