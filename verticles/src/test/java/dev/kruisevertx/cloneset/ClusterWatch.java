package dev.kruisevertx.cloneset;

import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Watches a CloneSet's pods and checks the safety rules on every single event, not at sampling points: while armed,
 * the number of ready, non-terminating pods never drops below {@code replicas - maxUnavailable} and the number of
 * non-terminating pods never exceeds {@code replicas + maxSurge}.
 */
final class ClusterWatch implements AutoCloseable {
    private final Map<String, Pod> pods = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final Set<String> revisionsSeen = new HashSet<>();
    private final Watch watch;
    private int minReady;
    private int maxTotal;
    private boolean armed;
    private int events;

    ClusterWatch(KubernetesClient client, String namespace, String app) {
        this.watch = client.pods().inNamespace(namespace).withLabel("app", app).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                onEvent(action, pod);
            }

            @Override
            public void onClose(WatcherException cause) {
                synchronized (ClusterWatch.this) {
                    violations.add("pod watch closed: " + cause);
                }
            }
        });
    }

    private synchronized void onEvent(Watcher.Action action, Pod pod) {
        events++;
        if (action == Watcher.Action.DELETED) {
            pods.remove(pod.getMetadata().getName());
        } else {
            pods.put(pod.getMetadata().getName(), pod);
            String rev = Pods.revisionLabel(pod);
            if (rev != null) {
                revisionsSeen.add(rev);
            }
        }
        if (!armed) {
            return;
        }
        int total = total();
        int ready = ready();
        minReady = Math.min(minReady, ready);
        maxTotal = Math.max(maxTotal, total);
        if (ready < floor || total > ceiling) {
            violations.add("after " + action + " " + pod.getMetadata().getName() + ": ready=" + ready + " total=" + total
                    + " (floor " + floor + ", ceiling " + ceiling + ")");
        }
    }

    private int floor;
    private int ceiling;

    /** Starts checking: at least {@code floor} ready pods and at most {@code ceiling} pods from now on. */
    synchronized void arm(int floor, int ceiling) {
        this.floor = floor;
        this.ceiling = ceiling;
        this.minReady = ready();
        this.maxTotal = total();
        this.armed = true;
    }

    synchronized void disarm() {
        armed = false;
    }

    synchronized int total() {
        return (int) pods.values().stream().filter(p -> !Pods.isTerminating(p)).count();
    }

    synchronized int ready() {
        return (int) pods.values().stream().filter(p -> !Pods.isTerminating(p) && Pods.isReady(p)).count();
    }

    synchronized int minReady() {
        return minReady;
    }

    synchronized int maxTotal() {
        return maxTotal;
    }

    synchronized int events() {
        return events;
    }

    synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    synchronized Set<String> revisionsSeen() {
        return Set.copyOf(revisionsSeen);
    }

    synchronized List<Pod> pods() {
        return List.copyOf(pods.values());
    }

    synchronized String describe() {
        StringBuilder sb = new StringBuilder();
        for (Pod p : pods.values()) {
            sb.append(p.getMetadata().getName()).append('[')
                    .append(Pods.revisionLabel(p)).append(',')
                    .append(Pods.labels(p).get(WellKnown.LIFECYCLE_STATE_LABEL)).append(',')
                    .append(Pods.isReady(p) ? "ready" : "notready").append(',')
                    .append(Pods.isTerminating(p) ? "terminating" : "live").append("] ");
        }
        return sb.toString();
    }

    @Override
    public void close() {
        watch.close();
    }
}
