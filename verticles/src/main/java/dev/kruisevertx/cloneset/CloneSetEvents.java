package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.KubeExecutor;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Clock;

/**
 * Kubernetes Events on a CloneSet, with OpenKruise's reasons (SuccessfulCreate, FailedCreate, SuccessfulDelete,
 * FailedDelete, ...) and source component {@code cloneset-controller}. Best effort: a failed event write is
 * logged and never fails a reconcile.
 */
public final class CloneSetEvents {
    public static final String COMPONENT = "cloneset-controller";
    private final EventRecorder recorder;

    public CloneSetEvents(KubernetesClient client, KubeExecutor kube, Clock clock) {
        this.recorder = new EventRecorder(client, kube, clock, COMPONENT, CloneSet.API_VERSION, CloneSet.KIND);
    }

    public void normal(CloneSet cs, String reason, String message) {
        recorder.emit(cs, EventRecorder.NORMAL, reason, message);
    }

    public void warning(CloneSet cs, String reason, String message) {
        recorder.emit(cs, EventRecorder.WARNING, reason, message);
    }
}
