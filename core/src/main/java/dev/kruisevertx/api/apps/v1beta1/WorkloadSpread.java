package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
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
 * {@code apps.kruise.io/v1beta1} WorkloadSpread as OpenKruise's master serves it: served next to v1alpha1, which stays
 * the storage version (as in OpenKruise v1.9.0) and is what the controller and the pod webhook read; converted by
 * {@code /convert} ({@link WorkloadSpreadConversion}). A subset's node terms are {@code requiredNodeSelector} and
 * {@code preferredNodeSelector}, and subset conditions are standard {@code metav1.Condition}s.
 */
@Group(WorkloadSpread.GROUP)
@Version(value = WorkloadSpread.VERSION, storage = false, served = true)
@Kind(WorkloadSpread.KIND)
@Plural(WorkloadSpread.PLURAL)
@Singular("workloadspread")
@ShortNames("ws")
@AdditionalPrinterColumn(name = "WorkloadName", jsonPath = ".spec.targetRef.name",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "WorkloadKind", jsonPath = ".spec.targetRef.kind",
        type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Adaptive", jsonPath = ".spec.scheduleStrategy.type[?(@ == \"Adaptive\")]",
        type = AdditionalPrinterColumn.Type.BOOLEAN, getDescription = "Whether use the adaptive reschedule strategy")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class WorkloadSpread extends CustomResource<WorkloadSpreadSpec, WorkloadSpreadStatus> implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "WorkloadSpread";
    public static final String PLURAL = "workloadspreads";
    public static final String CRD_NAME = PLURAL + "." + GROUP;
}
