package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;

import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * {@code apps.kruise.io/v1beta1} SidecarSet, the storage version: injects sidecar containers into the pods it
 * selects when they are created and upgrades their images in place. Cluster-scoped; status subresource and printer
 * columns as OpenKruise.
 */
@Group(SidecarSet.GROUP)
@Version(value = SidecarSet.VERSION, storage = true, served = true)
@Kind(SidecarSet.KIND)
@Plural(SidecarSet.PLURAL)
@Singular("sidecarset")
@AdditionalPrinterColumn(name = "MATCHED", jsonPath = ".status.matchedPods",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods matched.")
@AdditionalPrinterColumn(name = "UPDATED", jsonPath = ".status.updatedPods",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods matched and updated.")
@AdditionalPrinterColumn(name = "READY", jsonPath = ".status.readyPods",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods matched and ready.")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = SidecarSet.AGE_DESCRIPTION)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class SidecarSet extends CustomResource<SidecarSetSpec, SidecarSetStatus> {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "SidecarSet";
    public static final String PLURAL = "sidecarsets";
    /** Name of the CRD object. */
    public static final String CRD_NAME = PLURAL + "." + GROUP;
    /** Label of a v1alpha1 SidecarSet and of every SidecarSet ControllerRevision carrying the custom version. */
    public static final String CUSTOM_VERSION_LABEL = "apps.kruise.io/sidecarset-custom-version";

    // kubectl shows this text for the AGE column; it is the standard wording of metadata.creationTimestamp.
    static final String AGE_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time when this "
            + "object was created. It is not guaranteed to be set in happens-before order across separate operations. "
            + "Clients may not set this value. It is represented in RFC3339 form and is in UTC.";
}
