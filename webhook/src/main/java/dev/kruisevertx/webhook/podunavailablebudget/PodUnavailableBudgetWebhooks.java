package dev.kruisevertx.webhook.podunavailablebudget;

import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.WebhookDependencies;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.pod.PodMutatingPipeline;
import dev.kruisevertx.webhook.pod.PodMutationStage;
import dev.kruisevertx.webhook.pod.PodValidatingHandler;
import dev.kruisevertx.webhook.pod.PodValidatingPipeline;
import dev.kruisevertx.webhook.pod.RelatedPubStep;
import dev.kruisevertx.webhook.admission.AdmissionObjects;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import dev.kruisevertx.webhook.conversion.Converter;
import io.vertx.core.Future;

import java.util.List;

/**
 * {@code /validate-policy-kruise-io-podunavailablebudget}: OpenKruise's checks of a budget on CREATE and UPDATE
 * ({@link PodUnavailableBudgetValidation}); refused outright while both PUB feature gates are off. A v1beta1 budget
 * gets master's v1beta1-only checks and is then judged in its stored v1alpha1 form ({@link BetaPodUnavailableBudgets});
 * {@link #registerConversion} adds the v1alpha1 <-> v1beta1 converter to {@code /convert}.
 */
public final class PodUnavailableBudgetWebhooks {
    public static final String VALIDATE_PATH = "/validate-policy-kruise-io-podunavailablebudget";
    static final String GATES_OFF = "feature PodUnavailableBudget is invalid, please open via "
            + "feature-gate(PodUnavailableBudgetDeleteGate, PodUnavailableBudgetUpdateGate)";

    /** The budgets of a namespace, from an in-memory cache (lookups run on the event loop). */
    @FunctionalInterface
    public interface BudgetLookup {
        List<PodUnavailableBudget> inNamespace(String namespace);
    }

    private PodUnavailableBudgetWebhooks() {
    }

    /**
     * Registers the budget validation, and with either PUB gate on the related-pub step of {@code /mutate-pod} and,
     * when the process has a {@link dev.kruisevertx.pub.PubGuard}, the budget check on {@code /validate-pod}.
     */
    public static void register(AdmissionRegistry registry, PodMutatingPipeline pipeline,
                                PodValidatingPipeline podValidation, WebhookDependencies deps) {
        FeatureGates gates = deps.gates();
        boolean deleteGate = gates.enabled(Feature.PodUnavailableBudgetDeleteGate);
        boolean updateGate = gates.enabled(Feature.PodUnavailableBudgetUpdateGate);
        registry.register(VALIDATE_PATH, validating(deleteGate || updateGate, deps.budgets()));
        if (!deleteGate && !updateGate) {
            return;
        }
        pipeline.register(PodMutationStage.POD_UNAVAILABLE_BUDGET, new RelatedPubStep(deps.budgets()));
        deps.pubGuard().ifPresent(guard -> {
            PodValidatingHandler budgets = new PodValidatingHandler(deleteGate, updateGate,
                    gates.enabled(Feature.InPlacePodVerticalScaling), deps.pods(), guard);
            // An allowed answer lets the next /validate-pod check run; a denial ends the request.
            podValidation.register(request -> budgets.handle(request).map(r -> r.allowed() ? null : r));
        });
    }

    /** Registers the PodUnavailableBudget converter for {@code /convert}. */
    public static void registerConversion(ConversionRegistry conversions) {
        conversions.register(PodUnavailableBudget.GROUP, PodUnavailableBudget.KIND, converter());
    }

    public static Converter converter() {
        return BetaPodUnavailableBudgets.converter();
    }

    /**
     * @param gatesOn whether PodUnavailableBudgetDeleteGate or PodUnavailableBudgetUpdateGate is on
     */
    public static AdmissionHandler validating(boolean gatesOn, BudgetLookup budgets) {
        return request -> {
            if (request.object() == null || request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            if (!gatesOn) {
                return Future.succeededFuture(AdmissionResponse.errored(400, GATES_OFF));
            }
            AdmissionRequest judged = request;
            if (BetaPodUnavailableBudgets.isBeta(request.object())) {
                AdmissionObjects.Decoded<dev.kruisevertx.api.policy.v1beta1.PodUnavailableBudget> beta =
                        AdmissionObjects.decode(request, dev.kruisevertx.api.policy.v1beta1.PodUnavailableBudget.class,
                                PodUnavailableBudget.KIND);
                if (beta.refusal() != null) {
                    return Future.succeededFuture(beta.refusal());
                }
                List<FieldError> betaErrors = BetaPodUnavailableBudgets.validateBetaFields(beta.object().getSpec());
                if (!betaErrors.isEmpty()) {
                    return Future.succeededFuture(AdmissionResponse.denied(422, FieldError.aggregate(betaErrors)));
                }
                try {
                    judged = BetaPodUnavailableBudgets.asAlpha(request);
                } catch (IllegalArgumentException e) {
                    return Future.succeededFuture(AdmissionResponse.denied(422, e.getMessage()));
                }
            }
            AdmissionObjects.Decoded<PodUnavailableBudget> decoded = AdmissionObjects.decode(judged,
                    PodUnavailableBudget.class, PodUnavailableBudget.KIND);
            if (decoded.refusal() != null) {
                return Future.succeededFuture(decoded.refusal());
            }
            PodUnavailableBudget pub = decoded.object();
            String namespace = pub.getMetadata() != null && pub.getMetadata().getNamespace() != null
                    ? pub.getMetadata().getNamespace() : judged.namespace();
            List<FieldError> errors = PodUnavailableBudgetValidation.validate(pub, decoded.old(),
                    budgets.inNamespace(namespace));
            return Future.succeededFuture(errors.isEmpty() ? AdmissionResponse.allow()
                    : AdmissionResponse.denied(422, FieldError.aggregate(errors)));
        };
    }
}
