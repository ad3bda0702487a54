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

import java.util.List;
import java.util.Objects;

/**
 * {@code /mutate-apps-kruise-io-uniteddeployment} (defaults) and {@code /validate-apps-kruise-io-uniteddeployment}
 * (validation) for v1alpha1, the only served version.
 */
public final class UnitedDeploymentWebhooks {
    public static final String MUTATE_PATH = "/mutate-apps-kruise-io-uniteddeployment";
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-uniteddeployment";
    static final FieldIdenticalVersions VERSIONS = new FieldIdenticalVersions(UnitedDeployment.KIND,
            List.of(UnitedDeployment.VERSION), false);

    private UnitedDeploymentWebhooks() {
    }

    public static void register(AdmissionRegistry registry, boolean templateNoDefaults) {
        registry.register(MUTATE_PATH, mutating(templateNoDefaults));
        registry.register(VALIDATE_PATH, validating());
    }

    public static AdmissionHandler mutating(boolean templateNoDefaults) {
        return VERSIONS.handler(UnitedDeployment.class, (request, decoded) -> {
            UnitedDeployment ud = decoded.object();
            if (ud.getSpec() == null) {
                ud.setSpec(new UnitedDeploymentSpec());
            }
            // As OpenKruise: template defaults on a create, and on an update only when the template changes.
            boolean templateChanged = decoded.old() == null || !Objects.equals(
                    Json.toNode(decoded.old().spec().getTemplate()), Json.toNode(ud.getSpec().getTemplate()));
            ObjectNode before = Json.toTree(ud);
            UnitedDeploymentDefaults.apply(ud.getSpec(), !templateNoDefaults && templateChanged);
            return AdmissionResponse.patched(ObjectMutation.patch(before, Json.toTree(ud)));
        });
    }

    public static AdmissionHandler validating() {
        return VERSIONS.handler(UnitedDeployment.class, (request, decoded) -> AdmissionResponse.validated(
                decoded.old() == null ? UnitedDeploymentValidation.validateCreate(decoded.object())
                        : UnitedDeploymentValidation.validateUpdate(decoded.object(), decoded.old())));
    }
}
