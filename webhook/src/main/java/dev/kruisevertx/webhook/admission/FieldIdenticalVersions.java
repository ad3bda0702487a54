package dev.kruisevertx.webhook.admission;

import io.vertx.core.Future;

import java.util.List;
import java.util.function.BiFunction;

/**
 * The served versions of a kind whose versions are field-identical (AdvancedCronJob, BroadcastJob): every served
 * version decodes straight into the one model, so the only version check is whether the request's version is
 * served. OpenKruise decodes by the request's resource version and answers 400 for any other.
 *
 * @param versions           the served versions, e.g. {@code v1alpha1}, {@code v1beta1}
 * @param versionFromObject  whether a request naming no version is judged by the object's apiVersion instead
 *                           (else it is taken as served)
 */
public record FieldIdenticalVersions(String kind, List<String> versions, boolean versionFromObject) {
    public FieldIdenticalVersions {
        versions = List.copyOf(versions);
    }

    /** The 400 for a request of a version that is not served, else null. */
    public AdmissionResponse unserved(AdmissionRequest request) {
        String version = request.version();
        if ((version == null || version.isEmpty()) && versionFromObject) {
            String apiVersion = request.object().path("apiVersion").asText("");
            version = apiVersion.contains("/") ? apiVersion.substring(apiVersion.indexOf('/') + 1) : "";
        }
        if (version == null || version.isEmpty() || versions.contains(version)) {
            return null;
        }
        return AdmissionResponse.errored(400, kind + " " + version + " is not served: the served versions are "
                + String.join(" and ", versions));
    }

    /** The request's objects as {@link AdmissionObjects#decode} reads them, after the served-version check. */
    public <T> AdmissionObjects.Decoded<T> decode(AdmissionRequest request, Class<T> type) {
        AdmissionResponse unserved = unserved(request);
        if (unserved != null) {
            return new AdmissionObjects.Decoded<>(null, null, unserved);
        }
        return AdmissionObjects.decode(request, type, kind);
    }

    /**
     * A handler that allows a DELETE or a request without object, answers a request it cannot read, and otherwise
     * answers what {@code judge} decides for the decoded objects.
     */
    public <T> AdmissionHandler handler(Class<T> type,
                                        BiFunction<AdmissionRequest, AdmissionObjects.Decoded<T>, AdmissionResponse> judge) {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            AdmissionObjects.Decoded<T> decoded = decode(request, type);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
            }
            return Future.succeededFuture(judge.apply(request, decoded));
        };
    }
}
