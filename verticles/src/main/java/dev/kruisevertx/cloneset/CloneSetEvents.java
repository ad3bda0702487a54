package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.kube.KubeExecutor;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.UUID;

/**
 * Kubernetes Events on a CloneSet, with OpenKruise's reasons (SuccessfulCreate, FailedCreate, SuccessfulDelete,
 * FailedDelete, ...) and source component {@code cloneset-controller}. Best effort: a failed event write is
 * logged and never fails a reconcile.
 */
public final class CloneSetEvents {
    public static final String COMPONENT = "cloneset-controller";
    private static final Logger LOG = LoggerFactory.getLogger(CloneSetEvents.class);

    private final KubernetesClient client;
    private final KubeExecutor kube;
    private final Clock clock;

    public CloneSetEvents(KubernetesClient client, KubeExecutor kube, Clock clock) {
        this.client = client;
        this.kube = kube;
        this.clock = clock;
    }

    public void normal(CloneSet cs, String reason, String message) {
        emit(cs, "Normal", reason, message);
    }

    public void warning(CloneSet cs, String reason, String message) {
        emit(cs, "Warning", reason, message);
    }

    private void emit(CloneSet cs, String type, String reason, String message) {
        String now = clock.instant().toString();
        Event event = new EventBuilder().withNewMetadata()
                .withName(cs.getMetadata().getName() + "." + UUID.randomUUID().toString().replace("-", "").substring(0, 16))
                .withNamespace(cs.getMetadata().getNamespace()).endMetadata()
                .withNewInvolvedObject().withApiVersion(CloneSet.API_VERSION).withKind(CloneSet.KIND)
                .withName(cs.getMetadata().getName()).withNamespace(cs.getMetadata().getNamespace())
                .withUid(cs.getMetadata().getUid()).withResourceVersion(cs.getMetadata().getResourceVersion())
                .endInvolvedObject()
                .withType(type).withReason(reason).withMessage(message).withCount(1)
                .withFirstTimestamp(now).withLastTimestamp(now)
                .withNewSource().withComponent(COMPONENT).endSource()
                .build();
        kube.write(() -> client.v1().events().inNamespace(cs.getMetadata().getNamespace()).resource(event).create())
                .onFailure(e -> LOG.debug("event {} on {}/{} not recorded: {}", reason, cs.getMetadata().getNamespace(),
                        cs.getMetadata().getName(), e.toString()));
    }
}
