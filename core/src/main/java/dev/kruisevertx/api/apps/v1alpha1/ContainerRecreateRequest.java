package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnore;
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
 * {@code apps.kruise.io/v1alpha1} ContainerRecreateRequest (CRR), the storage version in OpenKruise v1.9.0: a request
 * to recreate some containers of one pod in place. The manager defaults and watches it; the node agent of the pod's
 * node carries it out through the container runtime. Status subresource, short name {@code crr} and printer columns
 * as OpenKruise.
 */
@Group(CloneSet.GROUP)
@Version(value = ContainerRecreateRequest.VERSION, storage = true, served = true)
@Kind(ContainerRecreateRequest.KIND)
@Plural(ContainerRecreateRequest.PLURAL)
@Singular("containerrecreaterequest")
@ShortNames("crr")
@AdditionalPrinterColumn(name = "PHASE", jsonPath = ".status.phase",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Phase of this ContainerRecreateRequest.")
@AdditionalPrinterColumn(name = "POD", jsonPath = ".spec.podName",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Pod name of this ContainerRecreateRequest.")
@AdditionalPrinterColumn(name = "NODE", jsonPath = ".metadata.labels.crr\\.apps\\.kruise\\.io/node-name",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Pod name of this ContainerRecreateRequest.")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = CloneSet.AGE_DESCRIPTION)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class ContainerRecreateRequest extends CustomResource<ContainerRecreateRequestSpec, ContainerRecreateRequestStatus>
        implements Namespaced {
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = CloneSet.GROUP + "/" + VERSION;
    public static final String KIND = "ContainerRecreateRequest";
    public static final String PLURAL = "containerrecreaterequests";
    public static final String CRD_NAME = PLURAL + "." + CloneSet.GROUP;

    /** The spec, never null (an empty one when the object has none). */
    public ContainerRecreateRequestSpec spec() {
        return getSpec() == null ? new ContainerRecreateRequestSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public ContainerRecreateRequestStatus status() {
        return getStatus() == null ? new ContainerRecreateRequestStatus() : getStatus();
    }

    /** Strategy of the spec, never null. */
    public ContainerRecreateRequestStrategy strategy() {
        ContainerRecreateRequestStrategy s = spec().getStrategy();
        return s == null ? new ContainerRecreateRequestStrategy() : s;
    }

    /** The request has ended: it has a completion time (OpenKruise's test for "finished"). */
    @JsonIgnore
    public boolean isCompleted() {
        return getStatus() != null && getStatus().getCompletionTime() != null;
    }
}
