package dev.kruisevertx.kube;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.UUID;

/**
 * Writes Kubernetes Events about one kind of object for one controller ({@code source.component}), as client-go's
 * recorder names them ({@code <object>.<random>}). Best effort: a failed write is logged at debug level and never
 * fails the caller, and messages carry names and reasons only.
 */
public record EventRecorder(KubernetesClient client, KubeExecutor kube, Clock clock, String component,
                            String apiVersion, String kind) {
    public static final String NORMAL = "Normal";
    public static final String WARNING = "Warning";
    private static final Logger LOG = LoggerFactory.getLogger(EventRecorder.class);

    public void emit(HasMetadata object, String type, String reason, String message) {
        String now = clock.instant().toString();
        String ns = object.getMetadata().getNamespace();
        // A cluster-scoped object's Events live in "default", as Kubernetes' recorder puts them.
        String eventNs = ns == null || ns.isEmpty() ? "default" : ns;
        String name = object.getMetadata().getName();
        Event event = new EventBuilder().withNewMetadata()
                .withName(name + "." + UUID.randomUUID().toString().replace("-", "").substring(0, 16))
                .withNamespace(eventNs).endMetadata()
                .withNewInvolvedObject().withApiVersion(apiVersion).withKind(kind)
                .withName(name).withNamespace(ns).withUid(object.getMetadata().getUid())
                .withResourceVersion(object.getMetadata().getResourceVersion()).endInvolvedObject()
                .withType(type).withReason(reason).withMessage(message).withCount(1)
                .withFirstTimestamp(now).withLastTimestamp(now)
                .withNewSource().withComponent(component).endSource()
                .build();
        kube.write(() -> client.v1().events().inNamespace(eventNs).resource(event).create())
                .onFailure(e -> LOG.debug("event {} on {}/{} not recorded: {}", reason, ns, name, e.toString()));
    }
}
