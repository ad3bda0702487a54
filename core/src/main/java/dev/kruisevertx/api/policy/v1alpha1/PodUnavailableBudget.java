package dev.kruisevertx.api.policy.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code policy.kruise.io/v1alpha1} PodUnavailableBudget, the storage (and only served) version in OpenKruise v1.9.0.
 * The v1beta1 fields {@code protectOperations} and {@code protectTotalReplicas} are read from the v1alpha1 annotations,
 * as OpenKruise v1.9.0 reads them ({@link #protectOperations()}, {@link #protectTotalReplicas()}).
 */
@Group(PodUnavailableBudget.GROUP)
@Version(value = PodUnavailableBudget.VERSION, storage = true, served = true)
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
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "PodUnavailableBudget";
    public static final String PLURAL = "podunavailablebudgets";
    public static final String CRD_NAME = PLURAL + "." + GROUP;
    /** What is protected when the annotation is absent (OpenKruise: DELETE, UPDATE, EVICT; RESIZE only when asked). */
    public static final Set<PubOperation> DEFAULT_PROTECTED = EnumSet.of(PubOperation.DELETE, PubOperation.UPDATE,
            PubOperation.EVICT);

    /** The spec, never null (an empty one when the object has none). */
    public PodUnavailableBudgetSpec spec() {
        return getSpec() == null ? new PodUnavailableBudgetSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public PodUnavailableBudgetStatus status() {
        return getStatus() == null ? new PodUnavailableBudgetStatus() : getStatus();
    }

    private Map<String, String> annotations() {
        return getMetadata() == null || getMetadata().getAnnotations() == null ? Map.of()
                : getMetadata().getAnnotations();
    }

    /**
     * The β field {@code protectOperations} from the annotation {@code kruise.io/pub-protect-operations}: the listed
     * operations (unknown entries ignored; the webhook refuses them), or {@link #DEFAULT_PROTECTED} when the
     * annotation is absent or empty.
     */
    @JsonIgnore
    public Set<PubOperation> protectOperations() {
        String value = annotations().get(WellKnown.PUB_PROTECT_OPERATIONS_ANNOTATION);
        if (value == null || value.isEmpty()) {
            return EnumSet.copyOf(DEFAULT_PROTECTED);
        }
        Set<PubOperation> ops = EnumSet.noneOf(PubOperation.class);
        for (String part : value.split(",")) {
            PubOperation.fromValue(part).ifPresent(ops::add);
        }
        return ops;
    }

    /**
     * The β field {@code ignoredPodSelector}, which v1alpha1 has no place for, from the annotation the conversion
     * keeps it in ({@link dev.kruisevertx.api.policy.v1beta1.PodUnavailableBudgetConversion#BETA_FIELDS_ANNOTATION}).
     *
     * @throws IllegalArgumentException when the annotation holds something that is not a label selector
     */
    @JsonIgnore
    public Optional<io.fabric8.kubernetes.api.model.LabelSelector> ignoredPodSelector() {
        return dev.kruisevertx.api.policy.v1beta1.PodUnavailableBudgetConversion.ignoredPodSelector(
                annotations().get(dev.kruisevertx.api.policy.v1beta1.PodUnavailableBudgetConversion.BETA_FIELDS_ANNOTATION));
    }

    /**
     * The β field {@code protectTotalReplicas} from the annotation {@code pub.kruise.io/protect-total-replicas}: the
     * number of replicas the budget counts instead of the workload's; empty when absent or not a 32-bit integer.
     */
    @JsonIgnore
    public Optional<Integer> protectTotalReplicas() {
        String value = annotations().get(WellKnown.PUB_PROTECT_TOTAL_REPLICAS_ANNOTATION);
        if (value == null || value.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Integer.parseInt(value));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
