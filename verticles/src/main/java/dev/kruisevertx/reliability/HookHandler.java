package dev.kruisevertx.reliability;

import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The user's controller of a hooked workload's lifecycle hook, as the reliability suite plays it: it releases each
 * held pod after a seeded random delay (the label of an {@code inPlaceUpdate} hook removed from a PreparingUpdate pod
 * and put back once it is Updated; the finalizer of a {@code preDelete} hook removed from a PreparingDelete pod), and
 * records a violation when the manager acts on a pod the hook still holds: a pod updated in place (its image changed)
 * while the handler never released it, or a pod deleted while it still carried the preDelete finalizer unreleased.
 *
 * <p>It polls with its own client, which bypasses the fault proxy: the user's controller is not what is under test.
 */
final class HookHandler implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(HookHandler.class);
    private static final long POLL_MILLIS = 150;

    private final KubernetesClient client;
    private final String namespace;
    private final String workload;
    private final Workloads.Hook hook;
    private final Random random;
    private final Thread thread;
    private final List<String> violations = new CopyOnWriteArrayList<>();
    /** When each held pod (uid) is to be released: seen held, plus a random delay. */
    private final Map<String, Long> releaseAt = new HashMap<>();
    /** The image of each pod (uid) the last time it was seen held and not yet released by this handler. */
    private final Map<String, String> heldImage = new HashMap<>();
    private final Set<String> releasedForDeletion = new HashSet<>();
    private final Set<String> reported = new HashSet<>();
    private volatile boolean workloadDeleting;
    private volatile boolean stopped;
    private volatile long releases;

    HookHandler(KubernetesClient client, String namespace, String workload, Workloads.Hook hook, long seed) {
        this.client = client;
        this.namespace = namespace;
        this.workload = workload;
        this.hook = hook;
        this.random = new Random(seed);
        this.thread = new Thread(this::run, "hook-handler-" + workload);
        this.thread.setDaemon(true);
    }

    HookHandler start() {
        thread.start();
        return this;
    }

    /** The workload is being deleted: its pods go with it, hooked or not, and their finalizers are removed at once. */
    void workloadDeleting() {
        workloadDeleting = true;
    }

    List<String> violations() {
        return List.copyOf(violations);
    }

    long releases() {
        return releases;
    }

    private void run() {
        while (!stopped) {
            try {
                List<Pod> pods = client.pods().inNamespace(namespace).withLabel("app", workload).list().getItems();
                long now = System.currentTimeMillis();
                for (Pod pod : pods) {
                    if (hook == Workloads.Hook.IN_PLACE_UPDATE_LABEL) {
                        inPlaceUpdate(pod, now);
                    } else if (hook == Workloads.Hook.PRE_DELETE_FINALIZER) {
                        preDelete(pod, now);
                    }
                }
            } catch (RuntimeException e) {
                // A conflict or a read that failed: the next round looks again.
                LOG.debug("hook handler of {}: {}", workload, e.toString());
            }
            try {
                Thread.sleep(POLL_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private void inPlaceUpdate(Pod pod, long now) {
        String uid = pod.getMetadata().getUid();
        String state = state(pod);
        boolean held = "true".equals(label(pod, Workloads.HOLD_UPDATE_LABEL));
        String image = pod.getSpec().getContainers().get(0).getImage();
        if (held) {
            String before = heldImage.put(uid, image);
            if (before != null && !before.equals(image) && reported.add(uid)) {
                violations.add("pod " + pod.getMetadata().getName() + " updated in place from " + before + " to "
                        + image + " while its inPlaceUpdate hook held it");
            }
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            return;
        }
        if (held && LifecycleState.PREPARING_UPDATE.value().equals(state)) {
            if (due(uid, now)) {
                heldImage.remove(uid);
                edit(pod, p -> p.getMetadata().getLabels().remove(Workloads.HOLD_UPDATE_LABEL));
            }
        } else if (!held && LifecycleState.UPDATED.value().equals(state)) {
            if (due(uid, now)) {
                // Put back: the pod leaves Updated for Normal, and is held again for the next update.
                edit(pod, p -> p.getMetadata().getLabels().put(Workloads.HOLD_UPDATE_LABEL, "true"));
            }
        }
    }

    private void preDelete(Pod pod, long now) {
        String uid = pod.getMetadata().getUid();
        List<String> finalizers = pod.getMetadata().getFinalizers();
        if (finalizers == null || !finalizers.contains(Workloads.PROTECT_FINALIZER)) {
            return;
        }
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            if (!workloadDeleting && !releasedForDeletion.contains(uid) && reported.add(uid)) {
                violations.add("pod " + pod.getMetadata().getName() + " (" + state(pod)
                        + ") deleted while its preDelete hook held it");
            }
            // Whoever deleted it, let it go: a finalizer left behind would keep it for ever.
            edit(pod, p -> p.getMetadata().getFinalizers().remove(Workloads.PROTECT_FINALIZER));
            return;
        }
        if (LifecycleState.PREPARING_DELETE.value().equals(state(pod)) && due(uid, now)) {
            releasedForDeletion.add(uid);
            edit(pod, p -> p.getMetadata().getFinalizers().remove(Workloads.PROTECT_FINALIZER));
        }
    }

    /** True once the pod has been seen waiting for its random delay; counts the release. */
    private boolean due(String uid, long now) {
        Long at = releaseAt.get(uid);
        if (at == null) {
            releaseAt.put(uid, now + 200 + random.nextInt(1300));
            return false;
        }
        if (now < at) {
            return false;
        }
        releaseAt.remove(uid);
        releases++;
        return true;
    }

    private void edit(Pod pod, java.util.function.Consumer<Pod> change) {
        client.pods().inNamespace(namespace).withName(pod.getMetadata().getName()).edit(p -> {
            if (p.getMetadata().getLabels() == null) {
                p.getMetadata().setLabels(new HashMap<>());
            }
            if (p.getMetadata().getFinalizers() == null) {
                p.getMetadata().setFinalizers(new ArrayList<>());
            }
            change.accept(p);
            return p;
        });
    }

    private static String state(Pod pod) {
        return label(pod, WellKnown.LIFECYCLE_STATE_LABEL);
    }

    private static String label(Pod pod, String key) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels == null ? null : labels.get(key);
    }

    @Override
    public void close() {
        stopped = true;
        thread.interrupt();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
