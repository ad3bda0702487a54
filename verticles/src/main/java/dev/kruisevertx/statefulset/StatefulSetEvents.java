package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.kube.EventRecorder;
import dev.kruisevertx.kube.KubeExecutor;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.time.Clock;

/**
 * Kubernetes Events on an Advanced StatefulSet with the upstream reasons and wording (SuccessfulCreate,
 * FailedCreate, SuccessfulDelete, FailedDelete, SuccessfulUpdatePodInPlace, SuccessfulResize...), source
 * {@code statefulset-controller}.
 * Best effort: a failed event write is logged and never fails a reconcile.
 */
final class StatefulSetEvents {
    static final String COMPONENT = "statefulset-controller";
    private final EventRecorder recorder;

    StatefulSetEvents(KubernetesClient client, KubeExecutor kube, Clock clock) {
        this.recorder = new EventRecorder(client, kube, clock, COMPONENT, StatefulSet.API_VERSION, StatefulSet.KIND);
    }

    /** A rollout that stopped moving: {@link dev.kruisevertx.controller.reason.RolloutWatch}. */
    void stuck(StatefulSet set, String reason, String message) {
        emit(set, EventRecorder.WARNING, reason, message);
    }

    void podAction(StatefulSet set, String verb, String pod, Throwable failure) {
        String setName = set.getMetadata().getName();
        if (failure == null) {
            emit(set, "Normal", "Successful" + capitalized(verb),
                    verb + " Pod " + pod + " in StatefulSet " + setName + " successful");
        } else {
            emit(set, "Warning", "Failed" + capitalized(verb),
                    verb + " Pod " + pod + " in StatefulSet " + setName + " failed error: " + failure.getMessage());
        }
    }

    /** Upstream's claim events: SuccessfulCreate/FailedCreate, and SuccessfulResize/FailedResize for expansions. */
    void claimAction(StatefulSet set, String verb, String claim, String pod, Throwable failure) {
        String setName = set.getMetadata().getName();
        if (failure == null) {
            emit(set, "Normal", "Successful" + capitalized(verb), verb + " Claim " + claim + " Pod " + pod
                    + " in StatefulSet " + setName + " success");
        } else {
            emit(set, "Warning", "Failed" + capitalized(verb), verb + " Claim " + claim + " for Pod " + pod
                    + " in StatefulSet " + setName + " failed error: " + failure.getMessage());
        }
    }

    void claimNotUpdatable(StatefulSet set, String claim) {
        emit(set, "Warning", "FailedUpdatePVC", "failed to update pvc " + claim
                + ": contains diff other than spec resource, wait pvc to be deleted");
    }

    void inPlace(StatefulSet set, String pod, String revision, Throwable failure) {
        if (failure == null) {
            emit(set, "Normal", "SuccessfulUpdatePodInPlace", "successfully update pod " + pod
                    + " in-place(revision " + revision + ")");
        } else {
            emit(set, "Warning", "FailedUpdatePodInPlace", "failed to update pod " + pod + " in-place(revision "
                    + revision + "): " + failure.getMessage());
        }
    }

    private static String capitalized(String verb) {
        return Character.toUpperCase(verb.charAt(0)) + verb.substring(1);
    }

    private void emit(StatefulSet set, String type, String reason, String message) {
        recorder.emit(set, type, reason, message);
    }
}
