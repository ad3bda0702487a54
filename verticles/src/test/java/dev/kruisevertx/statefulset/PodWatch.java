package dev.kruisevertx.statefulset;

import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Watches one app's pods and checks, on every event, that at least {@code floor} non-terminating pods are ready
 * (once armed); also records the order in which pods first appeared and first became ready.
 */
final class PodWatch implements AutoCloseable {
    private final Map<String, Pod> pods = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final Set<String> addedOrder = new LinkedHashSet<>();
    private final Set<String> readyOrder = new LinkedHashSet<>();
    /** For each pod, the pods already ready when it first appeared. */
    private final Map<String, Set<String>> readyWhenAdded = new HashMap<>();
    private final Watch watch;
    private boolean armed;
    private int floor;
    private int minReady = Integer.MAX_VALUE;
    private int maxNotReady;

    PodWatch(KubernetesClient client, String namespace, String app) {
        this.watch = client.pods().inNamespace(namespace).withLabel("app", app).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                onEvent(action, pod);
            }

            @Override
            public void onClose(WatcherException cause) {
                synchronized (PodWatch.this) {
                    violations.add("pod watch closed: " + cause);
                }
            }
        });
    }

    private synchronized void onEvent(Watcher.Action action, Pod pod) {
        String name = pod.getMetadata().getName();
        if (action == Watcher.Action.DELETED) {
            pods.remove(name);
        } else {
            pods.put(name, pod);
            if (addedOrder.add(name)) {
                readyWhenAdded.put(name, Set.copyOf(readyNames()));
            }
            if (!Pods.isTerminating(pod) && Pods.isReady(pod)) {
                readyOrder.add(name);
            }
        }
        maxNotReady = Math.max(maxNotReady, notReadyNow());
        if (armed) {
            int ready = readyNames().size();
            minReady = Math.min(minReady, ready);
            if (ready < floor) {
                violations.add("after " + action + " " + name + ": " + ready + " ready (floor " + floor + ")");
            }
        }
    }

    private List<String> readyNames() {
        return pods.values().stream().filter(p -> !Pods.isTerminating(p) && Pods.isReady(p))
                .map(p -> p.getMetadata().getName()).toList();
    }

    synchronized void arm(int floor) {
        this.floor = floor;
        this.minReady = readyNames().size();
        this.armed = true;
    }

    synchronized void disarm() {
        armed = false;
    }

    synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    /** Non-terminating pods seen ready now. */
    synchronized int ready() {
        return readyNames().size();
    }

    synchronized int minReady() {
        return minReady;
    }

    synchronized List<String> addedOrder() {
        return List.copyOf(addedOrder);
    }

    synchronized Set<String> readyWhenAdded(String pod) {
        return readyWhenAdded.getOrDefault(pod, Set.of());
    }

    /** Most non-terminating pods seen not ready at once. */
    synchronized int maxNotReady() {
        return maxNotReady;
    }

    private int notReadyNow() {
        return (int) pods.values().stream().filter(p -> !Pods.isTerminating(p) && !Pods.isReady(p)).count();
    }

    @Override
    public void close() {
        watch.close();
    }
}
