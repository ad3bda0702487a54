package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobSpec;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobStatus;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** {@code apps.kruise.io/v1beta1} BroadcastJob, the storage version: one pod from a template on every node it fits, run to completion. Status subresource, short name {@code bcj} and printer columns as OpenKruise. */
@Group(BroadcastJob.GROUP)
@Version(value = BroadcastJob.VERSION, storage = true, served = true)
@Kind(BroadcastJob.KIND)
@Plural(BroadcastJob.PLURAL)
@Singular("broadcastjob")
@ShortNames("bcj")
@AdditionalPrinterColumn(name = "Desired", jsonPath = ".status.desired",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The desired number of pods. This is "
        + "typically equal to the number of nodes satisfied to run pods.")
@AdditionalPrinterColumn(name = "Active", jsonPath = ".status.active",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of actively running pods.")
@AdditionalPrinterColumn(name = "Succeeded", jsonPath = ".status.succeeded",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods which reached phase "
        + "Succeeded.")
@AdditionalPrinterColumn(name = "Failed", jsonPath = ".status.failed",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "The number of pods which reached phase "
        + "Failed.")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = BroadcastJob.AGE_DESCRIPTION)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class BroadcastJob extends CustomResource<BroadcastJobSpec, BroadcastJobStatus> implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1beta1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "BroadcastJob";
    public static final String PLURAL = "broadcastjobs";
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    static final String AGE_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time when this "
            + "object was created. It is not guaranteed to be set in happens-before order across separate operations. "
            + "Clients may not set this value. It is represented in RFC3339 form and is in UTC.";

    /** The spec, never null (an empty one when the object has none). */
    public BroadcastJobSpec spec() {
        return getSpec() == null ? new BroadcastJobSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public BroadcastJobStatus status() {
        return getStatus() == null ? new BroadcastJobStatus() : getStatus();
    }
}
