package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequestSpec;
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
 * {@code apps.kruise.io/v1beta1} ContainerRecreateRequest as OpenKruise's master serves it: served next to v1alpha1,
 * which stays the storage version (as in OpenKruise v1.9.0) and is what the controller and the node agent read;
 * converted by {@code /convert} ({@link ContainerRecreateRequestConversion}). The spec is v1alpha1's; the status adds
 * {@code containerStatusSnapshot} and {@code conditions}, which v1alpha1 keeps in annotations.
 */
@Group(CloneSet.GROUP)
@Version(value = ContainerRecreateRequest.VERSION, storage = false, served = true)
@Kind(ContainerRecreateRequest.KIND)
@Plural(ContainerRecreateRequest.PLURAL)
@Singular("containerrecreaterequest")
@ShortNames("crr")
@AdditionalPrinterColumn(name = "PHASE", jsonPath = ".status.phase",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Phase of this ContainerRecreateRequest.")
@AdditionalPrinterColumn(name = "POD", jsonPath = ".spec.podName",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Pod name of this ContainerRecreateRequest.")
@AdditionalPrinterColumn(name = "NODE", jsonPath = ".metadata.labels.crr\\.apps\\.kruise\\.io/node-name",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Node name of this ContainerRecreateRequest.")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = CloneSet.AGE_DESCRIPTION)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContainerRecreateRequest extends CustomResource<ContainerRecreateRequestSpec, ContainerRecreateRequestStatus>
        implements Namespaced {
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = CloneSet.GROUP + "/" + VERSION;
    public static final String KIND = "ContainerRecreateRequest";
    public static final String PLURAL = "containerrecreaterequests";
    public static final String CRD_NAME = PLURAL + "." + CloneSet.GROUP;
    /** The condition type master writes while the pod is held not-ready for unreadyGracePeriodSeconds. */
    public static final String PRE_RECREATE_GRACE = "PreRecreateGrace";
}
