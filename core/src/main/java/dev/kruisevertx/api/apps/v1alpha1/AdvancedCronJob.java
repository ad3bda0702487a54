package dev.kruisevertx.api.apps.v1alpha1;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobSpec;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobStatus;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** {@code apps.kruise.io/v1alpha1} AdvancedCronJob, served; field-identical to {@code v1beta1} (the storage version), so the API server converts by apiVersion alone, without a conversion webhook, as in OpenKruise. */
@Group(AdvancedCronJob.GROUP)
@Version(value = AdvancedCronJob.VERSION, storage = false, served = true)
@Kind(AdvancedCronJob.KIND)
@Plural(AdvancedCronJob.PLURAL)
@Singular("advancedcronjob")
@ShortNames("acj")
@AdditionalPrinterColumn(name = "Schedule", jsonPath = ".spec.schedule",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "The schedule of advanced cron job.")
@AdditionalPrinterColumn(name = "Type", jsonPath = ".status.type",
        type = AdditionalPrinterColumn.Type.STRING, getDescription = "Type of cron job.")
@AdditionalPrinterColumn(name = "LastScheduleTime", jsonPath = ".status.lastScheduleTime",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = "The last time at which job was scheduled.")
@AdditionalPrinterColumn(name = "AGE", jsonPath = ".metadata.creationTimestamp",
        type = AdditionalPrinterColumn.Type.DATE, getDescription = AdvancedCronJob.AGE_DESCRIPTION)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonIgnoreProperties(ignoreUnknown = true)
public class AdvancedCronJob extends CustomResource<AdvancedCronJobSpec, AdvancedCronJobStatus> implements Namespaced {
    public static final String GROUP = "apps.kruise.io";
    public static final String VERSION = "v1alpha1";
    public static final String API_VERSION = GROUP + "/" + VERSION;
    public static final String KIND = "AdvancedCronJob";
    public static final String PLURAL = "advancedcronjobs";
    public static final String CRD_NAME = PLURAL + "." + GROUP;

    static final String AGE_DESCRIPTION = "CreationTimestamp is a timestamp representing the server time when this "
            + "object was created. It is not guaranteed to be set in happens-before order across separate operations. "
            + "Clients may not set this value. It is represented in RFC3339 form and is in UTC.";

    /** The spec, never null (an empty one when the object has none). */
    public AdvancedCronJobSpec spec() {
        return getSpec() == null ? new AdvancedCronJobSpec() : getSpec();
    }

    /** The status, never null (an empty one when the object has none). */
    public AdvancedCronJobStatus status() {
        return getStatus() == null ? new AdvancedCronJobStatus() : getStatus();
    }
}
