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
 * {@code apps.kruise.io/v1beta1} UnitedDeployment as OpenKruise's master serves it: served next to v1alpha1, which
 * stays the storage version (as in OpenKruise v1.9.0), converted by {@code /convert}
 * ({@link UnitedDeploymentConversion}). The spec is v1alpha1's except that a cloneSetTemplate holds a v1beta1
 * CloneSet spec; the status has {@code updatedRevision} at the top and each subset's target replicas and partition in
 * {@code subsetStatuses} instead of v1alpha1's {@code subsetReplicas} and {@code updateStatus}.
 */
@Group(UnitedDeployment.GROUP)
@Version(value = UnitedDeployment.VERSION, storage = false, served = true)
@Kind(UnitedDeployment.KIND)
@Plural(UnitedDeployment.PLURAL)
@Singular("uniteddeployment")
@ShortNames("ud")
@AdditionalPrinterColumn(name = "DESIRED", jsonPath = ".spec.replicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The desired number of pods.")
@AdditionalPrinterColumn(name = "CURRENT", jsonPath = ".status.replicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of currently all pods.")
@AdditionalPrinterColumn(name = "UPDATED", jsonPath = ".status.updatedReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods updated.")
@AdditionalPrinterColumn(name = "READY", jsonPath = ".status.readyReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods ready.")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = CloneSet.AGE_DESCRIPTION)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class UnitedDeployment extends CustomResource<UnitedDeploymentSpec, UnitedDeploymentStatus>
        implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "UnitedDeployment";
    public static final String PLURAL = "uniteddeployments";
    public static final String CRD_NAME = PLURAL + "." + GROUP;
}
