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
 * {@code apps.kruise.io/v1alpha1} EphemeralJob (the only, stored version, as in OpenKruise v1.9.0): adds the
 * template's ephemeral containers to the pods its selector matches, through {@code pods/ephemeralcontainers}.
 */
@Group(EphemeralJob.GROUP)
@Version(value = EphemeralJob.VERSION, storage = true, served = true)
@Kind(EphemeralJob.KIND)
@Plural(EphemeralJob.PLURAL)
@Singular("ephemeraljob")
@ShortNames("ejob")
@AdditionalPrinterColumn(name = "STATUS", jsonPath = ".status.phase",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "The status of ephemeral job")
@AdditionalPrinterColumn(name = "MATCH", jsonPath = ".status.match",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of ephemeral container matched by this job")
@AdditionalPrinterColumn(name = "SUCCEED", jsonPath = ".status.succeeded",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of succeed ephemeral containers")
@AdditionalPrinterColumn(name = "FAILED", jsonPath = ".status.failed",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of failed ephemeral containers")
@AdditionalPrinterColumn(name = "RUNNING", jsonPath = ".status.running",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of running ephemeral containers")
@AdditionalPrinterColumn(name = "WAITING", jsonPath = ".status.waiting",
        type = AdditionalPrinterColumn.Type.INTEGER, getDescription = "Number of waiting ephemeral containers")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = BroadcastJob.AGE_DESCRIPTION)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class EphemeralJob extends CustomResource<EphemeralJobSpec, EphemeralJobStatus> implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "EphemeralJob";
    public static final String PLURAL = "ephemeraljobs";
    public static final String CRD_NAME = PLURAL + "." + GROUP;
    /** Held until the job's deletion has been processed (OpenKruise's {@code EphemeralContainerFinalizer}). */
    public static final String CLEANUP_FINALIZER = "apps.kruise.io/ephemeralcontainers-cleanup";
    /** Env var set on every ephemeral container the job adds, valued with the job's uid. */
    public static final String JOB_ID_ENV = "KRUISE_EJOB_ID";
    /** {@code ttlSecondsAfterFinished} when unset, as OpenKruise's controller assumes. */
    public static final int DEFAULT_TTL_SECONDS = 1800;

    /** The spec, never null (an empty one when the object has none). */
    public EphemeralJobSpec spec() {
        return getSpec() == null ? new EphemeralJobSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public EphemeralJobStatus status() {
        return getStatus() == null ? new EphemeralJobStatus() : getStatus();
    }
}
