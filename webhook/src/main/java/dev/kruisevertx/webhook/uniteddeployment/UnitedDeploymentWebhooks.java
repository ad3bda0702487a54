package dev.kruisevertx.webhook.uniteddeployment;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment;
import dev.kruisevertx.api.apps.v1alpha1.UnitedDeploymentSpec;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldIdenticalVersions;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import dev.kruisevertx.api.apps.v1beta1.UnitedDeploymentConversion;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.conversion.Converter;
import io.vertx.core.Future;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code /mutate-apps-kruise-io-uniteddeployment} (defaults) and {@code /validate-apps-kruise-io-uniteddeployment}
 * (validation) for both served versions: a v1beta1 object is converted to v1alpha1 (the stored version), defaulted or
 * validated there and, for defaults, converted back, so both versions follow the same rules.
 * {@link #registerConversion} adds the v1alpha1 <-> v1beta1 converter to {@code /convert}.
 */
public final class UnitedDeploymentWebhooks {
    public static final String MUTATE_PATH = "/mutate-apps-kruise-io-uniteddeployment";
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-uniteddeployment";
    static final FieldIdenticalVersions VERSIONS = new FieldIdenticalVersions(UnitedDeployment.KIND,
            List.of(UnitedDeployment.VERSION, "v1beta1"), false);

    private UnitedDeploymentWebhooks() {
    }

    public static void register(AdmissionRegistry registry, boolean templateNoDefaults) {
        registry.register(MUTATE_PATH, mutating(templateNoDefaults));
        registry.register(VALIDATE_PATH, validating());
    }

    /** Registers the UnitedDeployment converter for {@code /convert}. */
    public static void registerConversion(ConversionRegistry conversions) {
        conversions.register(UnitedDeployment.GROUP, UnitedDeployment.KIND, converter());
    }

    public static Converter converter() {
        return BetaUnitedDeployments.converter();
    }

    public static AdmissionHandler mutating(boolean templateNoDefaults) {
        return inAlpha(beta -> VERSIONS.handler(UnitedDeployment.class, (request, decoded) -> {
            UnitedDeployment ud = decoded.object();
            if (ud.getSpec() == null) {
                ud.setSpec(new UnitedDeploymentSpec());
            }
            // As OpenKruise: template defaults on a create, and on an update only when the template changes.
            boolean templateChanged = decoded.old() == null || !Objects.equals(
                    Json.toNode(decoded.old().spec().getTemplate()), Json.toNode(ud.getSpec().getTemplate()));
            ObjectNode before = Json.toTree(ud);
            UnitedDeploymentDefaults.apply(ud.getSpec(), !templateNoDefaults && templateChanged);
            ObjectNode after = Json.toTree(ud);
            if (beta != null) {
                // The patch applies to the v1beta1 object as sent.
                before = beta;
                after = UnitedDeploymentConversion.toV1beta1(after);
            }
            return AdmissionResponse.patched(ObjectMutation.patch(before, after));
        }));
    }

    public static AdmissionHandler validating() {
        return inAlpha(beta -> VERSIONS.handler(UnitedDeployment.class, (request, decoded) -> AdmissionResponse.validated(
                decoded.old() == null ? UnitedDeploymentValidation.validateCreate(decoded.object())
                        : UnitedDeploymentValidation.validateUpdate(decoded.object(), decoded.old()))));
    }

    /**
     * The handler {@code alpha} makes, judging a v1beta1 request in its v1alpha1 form; {@code alpha} is given the
     * v1beta1 object as sent, or null for a v1alpha1 request.
     */
    private static AdmissionHandler inAlpha(Function<ObjectNode, AdmissionHandler> alpha) {
        AdmissionHandler plain = alpha.apply(null);
        return request -> {
            if (request.object() == null || request.isDelete() || VERSIONS.unserved(request) != null
                    || !BetaUnitedDeployments.isBeta(request)) {
                return plain.handle(request);
            }
            AdmissionRequest judged;
            try {
                judged = BetaUnitedDeployments.asAlpha(request);
            } catch (IllegalArgumentException e) {
                return Future.succeededFuture(AdmissionResponse.denied(422, e.getMessage()));
            }
            return alpha.apply(request.object()).handle(judged);
        };
    }
}
