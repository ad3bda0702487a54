package dev.kruisevertx.webhook.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetConversion;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import dev.kruisevertx.webhook.admission.ServedVersions;
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
    private static final ServedVersions<SidecarSet> VERSIONS = ServedVersions.of(SidecarSet.KIND, ALPHA,
            SidecarSet.API_VERSION, SidecarSet.class, SidecarSetConversion::toV1beta1, SidecarSetConversion::toV1alpha1,
            false);

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
        return VERSIONS.converter();
    }

    public static AdmissionHandler mutating() {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            boolean alpha = VERSIONS.isAlpha(request.object());
            SidecarSet changed;
            try {
                changed = VERSIONS.decode(request.object(), true);
            } catch (ServedVersions.Refused r) {
                return Future.succeededFuture(r.response());
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
            AdmissionObjects.Decoded<SidecarSet> decoded = VERSIONS.decode(request);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
            }
            SidecarSet set = decoded.object();
            SidecarSet old = decoded.old();
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
                        return AdmissionResponse.validated(all);
                    });
        };
    }
}
