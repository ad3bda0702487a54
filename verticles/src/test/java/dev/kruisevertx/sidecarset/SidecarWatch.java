package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Watches the pods of one app and checks the SidecarSet's safety rule on every event, not at sampling points: the
 * pods that already record the SidecarSet's current hash but are unavailable (not running and ready, or a sidecar
 * still running another image than its spec) never exceed {@code maxUnavailable}; pods are never replaced (a pod
 * name always keeps its uid) and their app container never restarts.
 */
final class SidecarWatch implements AutoCloseable {
    private final Map<String, Pod> pods = new HashMap<>();
    private final Map<String, String> uids = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final Watch watch;
    private final Supplier<SidecarSet> set;
    private final int maxUnavailable;
    private final String appContainer;
    private int maxSeen;

    SidecarWatch(KubernetesClient client, String namespace, String app, Supplier<SidecarSet> set, int maxUnavailable,
                 String appContainer) {
        this.set = set;
        this.maxUnavailable = maxUnavailable;
        this.appContainer = appContainer;
        this.watch = client.pods().inNamespace(namespace).withLabel("app", app).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                onEvent(action, pod);
            }

            @Override
            public void onClose(WatcherException cause) {
                synchronized (SidecarWatch.this) {
                    violations.add("pod watch closed: " + cause);
                }
            }
        });
    }

    private synchronized void onEvent(Watcher.Action action, Pod pod) {
        String name = pod.getMetadata().getName();
        if (action == Watcher.Action.DELETED) {
            pods.remove(name);
            violations.add("pod " + name + " was deleted");
            return;
        }
        String uid = uids.putIfAbsent(name, pod.getMetadata().getUid());
        if (uid != null && !uid.equals(pod.getMetadata().getUid())) {
            violations.add("pod " + name + " was recreated");
        }
        if (Pods.containerStatus(pod, appContainer).map(s -> s.getRestartCount() != null && s.getRestartCount() > 0)
                .orElse(false)) {
            violations.add("the app container of pod " + name + " restarted");
        }
        pods.put(name, pod);
        SidecarSet current = set.get();
        if (current == null) {
            return;
        }
        int unavailable = 0;
        for (Pod p : pods.values()) {
            if (SidecarPodState.updated(p, current)
                    && (!SidecarPodState.consistent(p, current, null) || !SidecarPodState.ready(p, current))) {
                unavailable++;
            }
        }
        maxSeen = Math.max(maxSeen, unavailable);
        if (unavailable > maxUnavailable) {
            violations.add(unavailable + " updated pods unavailable at once (maxUnavailable " + maxUnavailable + ")");
        }
    }

    synchronized List<String> violations() {
        return List.copyOf(violations);
    }

    synchronized int maxUnavailableSeen() {
        return maxSeen;
    }

    @Override
    public void close() {
        watch.close();
    }
}
