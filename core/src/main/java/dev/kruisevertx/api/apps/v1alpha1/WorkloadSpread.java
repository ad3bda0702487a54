package dev.kruisevertx.api.apps.v1alpha1;

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
 * {@code apps.kruise.io/v1alpha1} WorkloadSpread, the only (served and stored) version in OpenKruise v1.9.0: spreads
 * the pods of one workload over ordered subsets of nodes without changing the workload itself. The pod webhook
 * picks a subset for each new pod; the controller keeps the per-subset counts in the status.
 */
@Group(WorkloadSpread.GROUP)
@Version(value = WorkloadSpread.VERSION, storage = true, served = true)
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
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "WorkloadSpread";
    public static final String PLURAL = "workloadspreads";
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    /** The spec, never null (an empty one when the object has none). */
    public WorkloadSpreadSpec spec() {
        return getSpec() == null ? new WorkloadSpreadSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public WorkloadSpreadStatus status() {
        return getStatus() == null ? new WorkloadSpreadStatus() : getStatus();
    }
}
