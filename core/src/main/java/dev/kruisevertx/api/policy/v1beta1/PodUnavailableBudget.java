package dev.kruisevertx.api.policy.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * {@code policy.kruise.io/v1beta1} PodUnavailableBudget as OpenKruise's master serves it: served next to v1alpha1,
 * which stays the storage version (as in OpenKruise v1.9.0) and is what the controller and the pod webhook read;
 * converted by {@code /convert} ({@link PodUnavailableBudgetConversion}). The v1alpha1 annotations
 * protect-operations and protect-total-replicas are typed spec fields here, and {@code ignoredPodSelector} is new.
 * The status is v1alpha1's (the same fields).
 */
@Group(PodUnavailableBudget.GROUP)
@Version(value = PodUnavailableBudget.VERSION, storage = false, served = true)
@Kind(PodUnavailableBudget.KIND)
@Plural(PodUnavailableBudget.PLURAL)
@Singular("podunavailablebudget")
@ShortNames("pub")
@AdditionalPrinterColumn(name = "Allowed", jsonPath = ".status.unavailableAllowed",
        type = AdditionalPrinterColumn.Type.INTEGER,
        getDescription = "UnavailableAllowed number of pod unavailable that are currently allowed")
@AdditionalPrinterColumn(name = "Current", jsonPath = ".status.currentAvailable",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "CurrentAvailable current number of available pods")
@AdditionalPrinterColumn(name = "Desired", jsonPath = ".status.desiredAvailable",
        type = AdditionalPrinterColumn.Type.INTEGER,
        getDescription = "DesiredAvailable minimum desired number of available pods")
@AdditionalPrinterColumn(name = "Total", jsonPath = ".status.totalReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER,
        getDescription = "TotalReplicas total number of pods counted by this budget")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class PodUnavailableBudget extends CustomResource<PodUnavailableBudgetSpec, PodUnavailableBudgetStatus>
        implements Namespaced {
    public static final String GROUP = "policy.kruise.io";
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "PodUnavailableBudget";
    public static final String PLURAL = "podunavailablebudgets";
    public static final String CRD_NAME = PLURAL + "." + GROUP;
}
