package dev.kruisevertx.webhook.advancedcronjob;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ConcurrencyPolicy;
import dev.kruisevertx.api.apps.v1beta1.CronJobTemplate;
import dev.kruisevertx.webhook.cloneset.PodTemplateDefaults;

/** OpenKruise's AdvancedCronJob defaults (SetDefaultsAdvancedCronJob). */
public final class AdvancedCronJobDefaults {
    public static final int SUCCESSFUL_JOBS_HISTORY_LIMIT = 3;
    public static final int FAILED_JOBS_HISTORY_LIMIT = 1;

    private AdvancedCronJobDefaults() {
    }

    /** @param templateDefaults whether the pod templates get kube's pod defaults (a create or a template change) */
    public static void apply(AdvancedCronJob acj, boolean templateDefaults) {
        AdvancedCronJobSpec spec = acj.getSpec();
        if (spec == null) {
            spec = new AdvancedCronJobSpec();
            acj.setSpec(spec);
        }
        CronJobTemplate t = spec.getTemplate();
        if (t != null && templateDefaults) {
            if (t.getJobTemplate() != null && t.getJobTemplate().getSpec() != null
                    && t.getJobTemplate().getSpec().getTemplate() != null
                    && t.getJobTemplate().getSpec().getTemplate().getSpec() != null) {
                PodTemplateDefaults.apply(t.getJobTemplate().getSpec().getTemplate().getSpec());
            }
            if (t.getBroadcastJobTemplate() != null && t.getBroadcastJobTemplate().getSpec() != null
                    && t.getBroadcastJobTemplate().getSpec().getTemplate() != null
                    && t.getBroadcastJobTemplate().getSpec().getTemplate().getSpec() != null) {
                PodTemplateDefaults.apply(t.getBroadcastJobTemplate().getSpec().getTemplate().getSpec());
            }
        }
        boolean imageList = t != null && t.getImageListPullJobTemplate() != null
                && t.getImageListPullJobTemplate().isObject();
        if (imageList) {
            defaultImageListPullJob((ObjectNode) t.getImageListPullJobTemplate());
        }
        if (spec.getConcurrencyPolicy() == null || spec.getConcurrencyPolicy().isEmpty()) {
            // Concurrent image pulls of the same list are useless.
            spec.setConcurrencyPolicy((imageList ? ConcurrencyPolicy.REPLACE : ConcurrencyPolicy.ALLOW).value());
        }
        if (spec.getPaused() == null) {
            spec.setPaused(false);
        }
        if (spec.getSuccessfulJobsHistoryLimit() == null) {
            spec.setSuccessfulJobsHistoryLimit(SUCCESSFUL_JOBS_HISTORY_LIMIT);
        }
        if (spec.getFailedJobsHistoryLimit() == null) {
            spec.setFailedJobsHistoryLimit(FAILED_JOBS_HISTORY_LIMIT);
        }
    }

    /** The ImageListPullJob template's defaults, on its JSON (that kind's model arrives with the image-pull issue). */
    private static void defaultImageListPullJob(ObjectNode template) {
        ObjectNode spec = template.has("spec") && template.get("spec").isObject() ? (ObjectNode) template.get("spec")
                : template.putObject("spec");
        ObjectNode completion = spec.has("completionPolicy") && spec.get("completionPolicy").isObject()
                ? (ObjectNode) spec.get("completionPolicy") : null;
        if (completion != null && !completion.path("type").asText("").isEmpty()) {
            return;
        }
        if (completion == null) {
            completion = spec.putObject("completionPolicy");
        }
        completion.put("type", "Always");
        ObjectNode pull = spec.has("pullPolicy") && spec.get("pullPolicy").isObject() ? (ObjectNode) spec.get("pullPolicy")
                : spec.putObject("pullPolicy");
        if (!pull.has("timeoutSeconds")) {
            pull.put("timeoutSeconds", 600);
        }
        if (!pull.has("backoffLimit")) {
            pull.put("backoffLimit", 3);
        }
        if (spec.path("imagePullPolicy").asText("").isEmpty()) {
            spec.put("imagePullPolicy", "IfNotPresent");
        }
    }
}
