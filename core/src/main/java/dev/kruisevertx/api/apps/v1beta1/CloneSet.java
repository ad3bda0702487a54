package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus;
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
 * {@code apps.kruise.io/v1beta1} CloneSet as OpenKruise's master serves it: served next to v1alpha1, which stays the
 * storage version (as in OpenKruise v1.9.0), converted by {@code /convert} ({@link CloneSetConversion}). The update
 * knobs live under {@code updateStrategy.rollingUpdate}, PVC reuse is {@code scaleStrategy.enablePVCReuse}, and what
 * v1alpha1 keeps in a label and annotations are fields. The status is v1alpha1's (the same fields).
 */
@Group(CloneSet.GROUP)
@Version(value = CloneSet.VERSION, storage = false, served = true)
@Kind(CloneSet.KIND)
@Plural(CloneSet.PLURAL)
@Singular("cloneset")
@ShortNames("clone")
@AdditionalPrinterColumn(name = "DESIRED", jsonPath = ".spec.replicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The desired number of pods.")
@AdditionalPrinterColumn(name = "UPDATED", jsonPath = ".status.updatedReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods updated.")
@AdditionalPrinterColumn(name = "UPDATED_READY", jsonPath = ".status.updatedReadyReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods updated and ready.")
@AdditionalPrinterColumn(name = "UPDATED_AVAILABLE", jsonPath = ".status.updatedAvailableReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods updated and available.")
@AdditionalPrinterColumn(name = "READY", jsonPath = ".status.readyReplicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods ready.")
@AdditionalPrinterColumn(name = "TOTAL", jsonPath = ".status.replicas",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of currently all pods.")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = CloneSet.AGE_DESCRIPTION)
@AdditionalPrinterColumn(name = "CONTAINERS", jsonPath = ".spec.template.spec.containers[*].name",
        type = AdditionalPrinterColumn.Type.STRING, priority = 1,
        getDescription = "The containers of currently cloneset.")
@AdditionalPrinterColumn(name = "IMAGES", jsonPath = ".spec.template.spec.containers[*].image",
        type = AdditionalPrinterColumn.Type.STRING, priority = 1, getDescription = "The images of currently cloneset.")
@AdditionalPrinterColumn(name = "SELECTOR", jsonPath = ".status.labelSelector",
        type = AdditionalPrinterColumn.Type.STRING, priority = 1,
        getDescription = "The selector of currently cloneset.")
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class CloneSet extends CustomResource<CloneSetSpec, CloneSetStatus> implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "CloneSet";
    public static final String PLURAL = "clonesets";
    /** Name of the CRD object. */
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    // kubectl shows this text for the AGE column; it is the standard wording of metadata.creationTimestamp.
    static final String AGE_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time when this "
            + "object was created. It is not guaranteed to be set in happens-before order across separate operations. "
            + "Clients may not set this value. It is represented in RFC3339 form and is in UTC.";
}
