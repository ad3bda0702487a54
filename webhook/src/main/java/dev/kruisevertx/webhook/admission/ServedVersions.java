package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.conversion.ConversionException;
import dev.kruisevertx.webhook.conversion.Converter;

import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * The two served versions of a kind whose v1alpha1 and v1beta1 forms differ (StatefulSet, DaemonSet, SidecarSet):
 * admission judges every object in the stored v1beta1 form, and {@code /convert} moves objects between the two.
 * Reading an object the same way for every such kind keeps their answers alike: an unserved version is a 400, an
 * object sent that does not fit the model names the field, a stored old object that does not fit says the stored
 * object is at fault.
 *
 * @param <T> the v1beta1 model class
 */
public final class ServedVersions<T> {
    private final String kind;
    private final String alpha;
    private final String stored;
    private final Class<T> type;
    private final Function<JsonNode, ObjectNode> toStored;
    private final Function<JsonNode, ObjectNode> toAlpha;
    private final boolean namespaced;
    private final BiFunction<ObjectNode, IllegalArgumentException, FieldError> unconvertible;

    private ServedVersions(String kind, String alpha, String stored, Class<T> type,
                           Function<JsonNode, ObjectNode> toStored, Function<JsonNode, ObjectNode> toAlpha,
                           boolean namespaced, BiFunction<ObjectNode, IllegalArgumentException, FieldError> unconvertible) {
        this.kind = Objects.requireNonNull(kind);
        this.alpha = Objects.requireNonNull(alpha);
        this.stored = Objects.requireNonNull(stored);
        this.type = Objects.requireNonNull(type);
        this.toStored = Objects.requireNonNull(toStored);
        this.toAlpha = Objects.requireNonNull(toAlpha);
        this.namespaced = namespaced;
        this.unconvertible = unconvertible;
    }

    /**
     * @param alpha    the v1alpha1 apiVersion, e.g. {@code apps.kruise.io/v1alpha1}
     * @param stored   the v1beta1 apiVersion
     * @param toStored a v1alpha1 object as v1beta1 (input unmodified)
     * @param toAlpha  a v1beta1 object as v1alpha1 (input unmodified)
     */
    public static <T> ServedVersions<T> of(String kind, String alpha, String stored, Class<T> type,
                                           Function<JsonNode, ObjectNode> toStored,
                                           Function<JsonNode, ObjectNode> toAlpha, boolean namespaced) {
        return new ServedVersions<>(kind, alpha, stored, type, toStored, toAlpha, namespaced, null);
    }

    /**
     * The same versions for a kind whose v1alpha1 form can hold something the conversion cannot read (a v1alpha1
     * StatefulSet stashes v1beta1 fields in an annotation): such an object is refused with the field error given.
     */
    public ServedVersions<T> refusingUnconvertible(
            BiFunction<ObjectNode, IllegalArgumentException, FieldError> unconvertible) {
        return new ServedVersions<>(kind, alpha, stored, type, toStored, toAlpha, namespaced,
                Objects.requireNonNull(unconvertible));
    }

    /** Whether the object is written in v1alpha1. */
    public boolean isAlpha(JsonNode object) {
        return alpha.equals(object.path("apiVersion").asText(""));
    }

    /**
     * The v1beta1 model of an object of either served version.
     *
     * @param sent true for the object of the request (checked strictly), false for the stored old object (read as
     *             the API server kept it)
     * @throws Refused with the answer when it cannot be read
     */
    public T decode(ObjectNode object, boolean sent) throws Refused {
        String apiVersion = object.path("apiVersion").asText("");
        JsonNode beta;
        if (alpha.equals(apiVersion)) {
            beta = convert(object, sent);
        } else if (apiVersion.isEmpty() || stored.equals(apiVersion)) {
            beta = object;
        } else {
            throw new Refused(AdmissionResponse.errored(400, kind + " " + apiVersion + " is not served: the served "
                    + "versions are " + alpha + " and " + stored));
        }
        try {
            return sent ? Json.decode(beta, type) : Json.toModel(beta, type);
        } catch (IllegalArgumentException e) {
            if (sent) {
                throw new Refused(DecodeProblems.denial(e, beta));
            }
            throw new Refused(AdmissionResponse.denied(422, AdmissionObjects.storedUnreadable(kind)
                    + DecodeProblems.fieldError(e, beta)));
        }
    }

    /**
     * The objects a validation judges: the object sent and, on an UPDATE carrying it, the stored old object; or the
     * answer when one cannot be read.
     */
    public AdmissionObjects.Decoded<T> decode(AdmissionRequest request) {
        try {
            T object = decode(request.object(), true);
            T old = request.isUpdate() && request.oldObject() != null ? decode(request.oldObject(), false) : null;
            return new AdmissionObjects.Decoded<>(object, old, null);
        } catch (Refused r) {
            return new AdmissionObjects.Decoded<>(null, null, r.response());
        }
    }

    private JsonNode convert(ObjectNode object, boolean sent) throws Refused {
        if (unconvertible == null) {
            return toStored.apply(object);
        }
        try {
            return toStored.apply(object);
        } catch (IllegalArgumentException e) {
            FieldError error = unconvertible.apply(object, e);
            throw new Refused(AdmissionResponse.denied(422, sent ? error.toString()
                    : AdmissionObjects.storedUnreadable(kind) + error));
        }
    }

    /** The {@code /convert} step between the two versions. */
    public Converter converter() {
        return (object, desired) -> {
            String from = object.path("apiVersion").asText("");
            try {
                if (stored.equals(desired) && alpha.equals(from)) {
                    return toStored.apply(object);
                }
                if (alpha.equals(desired) && stored.equals(from)) {
                    return toAlpha.apply(object);
                }
            } catch (IllegalArgumentException e) {
                throw new ConversionException("cannot convert " + kind + " " + name(object) + " to " + desired + ": "
                        + e.getMessage());
            }
            throw new ConversionException("cannot convert " + kind + " from " + from + " to " + desired
                    + ": the served versions are " + alpha + " and " + stored);
        };
    }

    private String name(JsonNode object) {
        String name = object.path("metadata").path("name").asText("");
        return namespaced ? object.path("metadata").path("namespace").asText("") + "/" + name : name;
    }

    /** A request that cannot be judged, with its answer. */
    public static final class Refused extends Exception {
        private final transient AdmissionResponse response;

        public Refused(AdmissionResponse response) {
            super(response.message(), null, false, false);
            this.response = response;
        }

        public AdmissionResponse response() {
            return response;
        }
    }
}
