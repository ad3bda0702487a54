package dev.kruisevertx.statefulset;

import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.kube.KubeExecutor;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.UUID;

/**
 * Kubernetes Events on an Advanced StatefulSet with the upstream reasons and wording (SuccessfulCreate,
 * FailedCreate, SuccessfulDelete, FailedDelete, SuccessfulUpdatePodInPlace, SuccessfulResize...), source
 * {@code statefulset-controller}.
 * Best effort: a failed event write is logged and never fails a reconcile.
 */
final class StatefulSetEvents {
    static final String COMPONENT = "statefulset-controller";
    private static final Logger LOG = LoggerFactory.getLogger(StatefulSetEvents.class);

    private final KubernetesClient client;
    private final KubeExecutor kube;
    private final Clock clock;

    StatefulSetEvents(KubernetesClient client, KubeExecutor kube, Clock clock) {
        this.client = client;
        this.kube = kube;
        this.clock = clock;
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
        String now = clock.instant().toString();
        String ns = set.getMetadata().getNamespace();
        Event event = new EventBuilder().withNewMetadata()
                .withName(set.getMetadata().getName() + "." + UUID.randomUUID().toString().replace("-", "").substring(0, 16))
                .withNamespace(ns).endMetadata()
                .withNewInvolvedObject().withApiVersion(StatefulSet.API_VERSION).withKind(StatefulSet.KIND)
                .withName(set.getMetadata().getName()).withNamespace(ns).withUid(set.getMetadata().getUid())
                .withResourceVersion(set.getMetadata().getResourceVersion()).endInvolvedObject()
                .withType(type).withReason(reason).withMessage(message).withCount(1)
                .withFirstTimestamp(now).withLastTimestamp(now)
                .withNewSource().withComponent(COMPONENT).endSource()
                .build();
        kube.write(() -> client.v1().events().inNamespace(ns).resource(event).create())
                .onFailure(e -> LOG.debug("event {} on {}/{} not recorded: {}", reason, ns, set.getMetadata().getName(),
                        e.toString()));
    }
}
