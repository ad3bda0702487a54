package dev.kruisevertx.webhook.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetConversion;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.DecodeProblems;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import dev.kruisevertx.webhook.conversion.ConversionException;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.conversion.Converter;
import io.vertx.core.Future;

import java.util.List;

/**
 * {@code /mutate-apps-kruise-io-sidecarset} (defaults and hash annotations) and
 * {@code /validate-apps-kruise-io-sidecarset} for v1alpha1 and v1beta1, with the legacy {@code -v1alpha1-}
 * spellings, and the v1alpha1 <-> v1beta1 converter for {@code /convert}. A v1alpha1 object is judged in its
 * v1beta1 form, so both versions follow the same rules; the defaults patch is computed between the v1alpha1 forms
 * before and after, so it never touches {@code spec.namespace} or the custom-version label.
 */
public final class SidecarSetWebhooks {
    public static final String MUTATE_PATH = "/mutate-apps-kruise-io-sidecarset";
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-sidecarset";
    static final String ALPHA = dev.kruisevertx.api.apps.v1alpha1.SidecarSet.API_VERSION;

    private SidecarSetWebhooks() {
    }

    /** @param patchMetadataDefaultsAllowed feature gate SidecarSetPatchPodMetadataDefaultsAllowed */
    public static void register(AdmissionRegistry registry, SidecarSetLookup lookup,
                                boolean patchMetadataDefaultsAllowed) {
        registry.register(MUTATE_PATH, mutating());
        registry.register(VALIDATE_PATH, validating(lookup, patchMetadataDefaultsAllowed));
    }

    /** Registers {@link #converter()} for SidecarSet.apps.kruise.io. */
    public static void registerConversion(ConversionRegistry conversions) {
        conversions.register(SidecarSet.GROUP, SidecarSet.KIND, converter());
    }

    public static Converter converter() {
        return (object, desired) -> {
            String from = object.path("apiVersion").asText("");
            try {
                if (SidecarSet.API_VERSION.equals(desired) && ALPHA.equals(from)) {
                    return SidecarSetConversion.toV1beta1(object);
                }
                if (ALPHA.equals(desired) && SidecarSet.API_VERSION.equals(from)) {
                    return SidecarSetConversion.toV1alpha1(object);
                }
            } catch (IllegalArgumentException e) {
                throw new ConversionException("cannot convert SidecarSet " + object.path("metadata").path("name").asText("")
                        + " to " + desired + ": " + e.getMessage());
            }
            throw new ConversionException("cannot convert SidecarSet from " + from + " to " + desired
                    + ": the served versions are " + ALPHA + " and " + SidecarSet.API_VERSION);
        };
    }

    public static AdmissionHandler mutating() {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            boolean alpha = ALPHA.equals(request.object().path("apiVersion").asText(""));
            SidecarSet changed;
            try {
                changed = decode(request.object(), true);
            } catch (Refused r) {
                return Future.succeededFuture(r.response);
            }
            JsonNode before = Json.toTree(changed);
            SidecarSetDefaults.apply(changed);
            JsonNode after = Json.toTree(changed);
            if (alpha) {
                before = SidecarSetConversion.toV1alpha1(before);
                after = SidecarSetConversion.toV1alpha1(after);
            }
            return Future.succeededFuture(AdmissionResponse.patched(ObjectMutation.patch(before, after)));
        };
    }

    /** @param patchMetadataDefaultsAllowed feature gate SidecarSetPatchPodMetadataDefaultsAllowed */
    public static AdmissionHandler validating(SidecarSetLookup lookup, boolean patchMetadataDefaultsAllowed) {
        return request -> {
            if (request.isDelete() || request.object() == null) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            SidecarSet set;
            SidecarSet old = null;
            try {
                set = decode(request.object(), true);
                if (request.isUpdate() && request.oldObject() != null) {
                    old = decode(request.oldObject(), false);
                }
            } catch (Refused r) {
                return Future.succeededFuture(r.response);
            }
            List<FieldError> errors = old == null ? SidecarSetValidation.validateCreate(set, lookup)
                    : SidecarSetValidation.validateUpdate(set, old, lookup);
            boolean patches = set.getSpec() != null && set.getSpec().getPatchPodMetadata() != null
                    && !set.getSpec().getPatchPodMetadata().isEmpty();
            // The whitelist is read (off the event loop) only for the SidecarSets that patch pod metadata.
            Future<java.util.Optional<String>> whitelist = patches ? lookup.patchPodMetadataWhitelist()
                    : Future.succeededFuture(java.util.Optional.empty());
            return whitelist.map(w -> PatchMetadataWhitelist.problem(set, w, patchMetadataDefaultsAllowed))
                    .recover(e -> Future.succeededFuture(java.util.Optional.of(
                            "cannot read the SidecarSet patch metadata whitelist: " + e.getMessage())))
                    .map(problem -> {
                        List<FieldError> all = new java.util.ArrayList<>(errors);
                        problem.ifPresent(p -> all.add(FieldError.required("spec.patchPodMetadata", p)));
                        return all.isEmpty() ? AdmissionResponse.allow()
                                : AdmissionResponse.denied(422, FieldError.aggregate(all));
                    });
        };
    }

    /**
     * The v1beta1 form of a SidecarSet of either served version.
     *
     * @param sent true for the object of the request (checked strictly), false for the stored old object
     */
    static SidecarSet decode(ObjectNode object, boolean sent) throws Refused {
        String apiVersion = object.path("apiVersion").asText("");
        JsonNode beta;
        if (ALPHA.equals(apiVersion)) {
            beta = SidecarSetConversion.toV1beta1(object);
        } else if (apiVersion.isEmpty() || SidecarSet.API_VERSION.equals(apiVersion)) {
            beta = object;
        } else {
            throw new Refused(AdmissionResponse.errored(400, "SidecarSet " + apiVersion + " is not served: the served "
                    + "versions are " + ALPHA + " and " + SidecarSet.API_VERSION));
        }
        try {
            return sent ? Json.decode(beta, SidecarSet.class) : Json.toModel(beta, SidecarSet.class);
        } catch (IllegalArgumentException e) {
            if (sent) {
                throw new Refused(DecodeProblems.denial(e, beta));
            }
            throw new Refused(AdmissionResponse.denied(422, AdmissionObjects.storedUnreadable(SidecarSet.KIND)
                    + DecodeProblems.fieldError(e, beta)));
        }
    }

    /** A request that cannot be judged, with its answer. */
    static final class Refused extends Exception {
        final transient AdmissionResponse response;

        Refused(AdmissionResponse response) {
            super(response.message(), null, false, false);
            this.response = response;
        }
    }
}
