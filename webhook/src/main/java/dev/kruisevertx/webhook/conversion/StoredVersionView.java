package dev.kruisevertx.webhook.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;

import java.util.List;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One kind served in a second version next to its stored one, for webhooks that judge every object in the stored
 * version (the one the controllers read): the request with its objects converted to the stored version, field errors
 * spelled back in the served version, and the {@code /convert} converter between the two.
 *
 * @param kind       e.g. {@code WorkloadSpread}
 * @param stored     the stored apiVersion, e.g. {@code apps.kruise.io/v1alpha1}
 * @param served     the other served apiVersion, e.g. {@code apps.kruise.io/v1beta1}
 * @param toStored   served -> stored; throws IllegalArgumentException naming the field it cannot convert
 * @param toServed   stored -> served; likewise
 * @param servedPath a stored-version field path in the served version's spelling
 */
public record StoredVersionView(String kind, String stored, String served, Function<JsonNode, ObjectNode> toStored,
                                Function<JsonNode, ObjectNode> toServed, UnaryOperator<String> servedPath) {
    /** A field path as messages spell it, e.g. {@code spec.subsets[0].requiredNodeSelectorTerm.matchExpressions}. */
    private static final Pattern PATH = Pattern.compile("\\bspec(?:\\.[A-Za-z0-9_-]+|\\[\\d+\\])+");

    public boolean isServed(JsonNode object) {
        return object != null && served.equals(object.path("apiVersion").asText(""));
    }

    /**
     * The request with its objects in the stored version (unchanged when the object is not of the served version).
     *
     * @throws IllegalArgumentException when the object sent cannot be converted (the message says why)
     */
    public AdmissionRequest asStored(AdmissionRequest request) {
        if (!isServed(request.object())) {
            return request;
        }
        ObjectNode object = toStored.apply(request.object());
        ObjectNode old = request.oldObject();
        if (isServed(old)) {
            try {
                old = toStored.apply(old);
            } catch (IllegalArgumentException e) {
                // read leniently later, which names what is wrong with it
            }
        }
        String version = stored.substring(stored.indexOf('/') + 1);
        return new AdmissionRequest(request.reviewApiVersion(), request.uid(), request.group(), version,
                request.kind(), request.resource(), request.subResource(), request.name(), request.namespace(),
                request.operation(), object, old, request.dryRun(), request.userInfo());
    }

    /** The errors about the stored form of an object sent in {@code sent}'s version, with paths spelled for it. */
    public List<FieldError> spelledFor(JsonNode sent, List<FieldError> errors) {
        if (!isServed(sent)) {
            return errors;
        }
        return errors.stream().map(e -> {
            String field = servedPath.apply(e.field());
            return field == null || field.equals(e.field()) ? e
                    : new FieldError(e.type(), field, e.value(), e.detail());
        }).toList();
    }

    /**
     * A refusal about the stored form of an object sent in {@code sent}'s version (say a field of the wrong type met
     * while decoding it), with every field path in its message spelled for that version.
     */
    public AdmissionResponse spelledFor(JsonNode sent, AdmissionResponse refusal) {
        if (!isServed(sent) || refusal == null || refusal.message() == null) {
            return refusal;
        }
        Matcher m = PATH.matcher(refusal.message());
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String mapped = servedPath.apply(m.group());
            m.appendReplacement(out, Matcher.quoteReplacement(mapped == null ? m.group() : mapped));
        }
        m.appendTail(out);
        return new AdmissionResponse(refusal.allowed(), refusal.code(), refusal.reason(), out.toString(),
                refusal.patchOps(), refusal.warnings());
    }

    /** The {@code /convert} step between the two versions. */
    public Converter converter() {
        return (object, desired) -> {
            String from = object.path("apiVersion").asText("");
            try {
                if (stored.equals(desired) && served.equals(from)) {
                    return toStored.apply(object);
                }
                if (served.equals(desired) && stored.equals(from)) {
                    return toServed.apply(object);
                }
                if (desired.equals(from) && (stored.equals(from) || served.equals(from))) {
                    return object.deepCopy();
                }
            } catch (IllegalArgumentException e) {
                throw new ConversionException("cannot convert " + kind + " "
                        + object.path("metadata").path("namespace").asText("") + "/"
                        + object.path("metadata").path("name").asText("") + " to " + desired + ": " + e.getMessage());
            }
            throw new ConversionException("cannot convert " + kind + " from " + from + " to " + desired
                    + ": the served versions are " + stored + " and " + served);
        };
    }
}
