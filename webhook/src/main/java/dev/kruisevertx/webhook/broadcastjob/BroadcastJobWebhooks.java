package dev.kruisevertx.webhook.broadcastjob;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobSpec;
import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.CompletionPolicyType;
import dev.kruisevertx.api.apps.v1beta1.FailurePolicy;
import dev.kruisevertx.api.apps.v1beta1.FailurePolicyType;
import dev.kruisevertx.api.common.IntOrPercent;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.FieldIdenticalVersions;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import dev.kruisevertx.webhook.advancedcronjob.AdvancedCronJobValidation;
import dev.kruisevertx.webhook.cloneset.PodTemplateDefaults;
import io.fabric8.kubernetes.api.model.IntOrString;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * {@code /mutate-apps-kruise-io-broadcastjob} and {@code /validate-apps-kruise-io-broadcastjob} for v1alpha1 and
 * v1beta1 (field-identical, both decoded into the v1beta1 model): OpenKruise's defaults (completion Always,
 * parallelism unlimited, failure FailFast, pod template defaults) and validation.
 */
public final class BroadcastJobWebhooks {
    public static final String MUTATE_PATH = "/mutate-apps-kruise-io-broadcastjob";
    public static final String VALIDATE_PATH = "/validate-apps-kruise-io-broadcastjob";
    static final FieldIdenticalVersions VERSIONS = new FieldIdenticalVersions(BroadcastJob.KIND,
            List.of("v1alpha1", "v1beta1"), false);
    static final String NAME_PATTERN = "^[a-zA-Z0-9\\-]+$";
    private static final Pattern NAME = Pattern.compile(NAME_PATTERN);
    static final int NAME_MAX = 63;
    static final String JOB_NAME_LABEL = "broadcastjob-name";
    static final String CONTROLLER_UID_LABEL = "broadcastjob-controller-uid";

    private BroadcastJobWebhooks() {
    }

    public static void register(AdmissionRegistry registry, boolean templateNoDefaults) {
        registry.register(MUTATE_PATH, mutating(templateNoDefaults));
        registry.register(VALIDATE_PATH, validating());
    }

    /** OpenKruise's SetDefaultsBroadcastJob. */
    public static void applyDefaults(BroadcastJobSpec spec, boolean templateDefaults) {
        if (templateDefaults && spec.getTemplate() != null && spec.getTemplate().getSpec() != null) {
            PodTemplateDefaults.apply(spec.getTemplate().getSpec());
        }
        CompletionPolicy completion = spec.getCompletionPolicy() == null ? new CompletionPolicy()
                : spec.getCompletionPolicy();
        if (completion.getType() == null || completion.getType().isEmpty()) {
            completion.setType(CompletionPolicyType.ALWAYS.value());
        }
        spec.setCompletionPolicy(completion);
        if (spec.getParallelism() == null) {
            spec.setParallelism(new IntOrString(Integer.MAX_VALUE));
        }
        FailurePolicy failure = spec.getFailurePolicy() == null ? new FailurePolicy() : spec.getFailurePolicy();
        if (failure.getType() == null || failure.getType().isEmpty()) {
            failure.setType(FailurePolicyType.FAIL_FAST.value());
        }
        spec.setFailurePolicy(failure);
    }

    public static AdmissionHandler mutating(boolean templateNoDefaults) {
        return VERSIONS.handler(BroadcastJob.class, (request, decoded) -> {
            BroadcastJob job = decoded.object();
            if (job.getSpec() == null) {
                job.setSpec(new BroadcastJobSpec());
            }
            boolean templateChanged = decoded.old() == null || !Objects.equals(
                    Json.toNode(decoded.old().spec().getTemplate()), Json.toNode(job.getSpec().getTemplate()));
            ObjectNode before = Json.toTree(job);
            applyDefaults(job.getSpec(), !templateNoDefaults && templateChanged);
            return AdmissionResponse.patched(ObjectMutation.patch(before, Json.toTree(job)));
        });
    }

    public static AdmissionHandler validating() {
        return VERSIONS.handler(BroadcastJob.class,
                (request, decoded) -> AdmissionResponse.validated(validate(decoded.object())));
    }

    static List<FieldError> validate(BroadcastJob job) {
        List<FieldError> errors = new ArrayList<>();
        String name = job.getMetadata() == null ? null : job.getMetadata().getName();
        if (name != null && !name.isEmpty()) {
            if (!NAME.matcher(name).matches()) {
                errors.add(FieldError.invalid("metadata.name", name, "BroadcastJob name must consist of alphanumeric "
                        + "characters or '-' (e.g. 'example-com', regex used for validation is '" + NAME_PATTERN + "')"));
            }
            if (name.length() > NAME_MAX) {
                errors.add(FieldError.tooLong("metadata.name", NAME_MAX, "its pods carry it as a label value"));
            }
        }
        BroadcastJobSpec spec = job.spec();
        CompletionPolicy completion = spec.completionPolicy();
        if (completion.typeValue().orElse(null) == CompletionPolicyType.NEVER) {
            if (completion.getTtlSecondsAfterFinished() != null) {
                errors.add(FieldError.invalid("spec.completionPolicy.ttlSecondsAfterFinished",
                        completion.getTtlSecondsAfterFinished(),
                        "ttlSecondsAfterFinished can just work with Always CompletionPolicyType"));
            }
            if (completion.getActiveDeadlineSeconds() != null) {
                errors.add(FieldError.invalid("spec.completionPolicy.activeDeadlineSeconds",
                        completion.getActiveDeadlineSeconds(),
                        "activeDeadlineSeconds can just work with Always CompletionPolicyType"));
            }
        }
        String restart = spec.getTemplate() == null || spec.getTemplate().getSpec() == null ? null
                : spec.getTemplate().getSpec().getRestartPolicy();
        if (!"OnFailure".equals(restart) && !"Never".equals(restart)) {
            errors.add(FieldError.invalid("spec.template.spec.restartPolicy", restart == null ? "" : restart,
                    "pod restartPolicy can only be Never or OnFailure"));
        }
        Map<String, String> labels = spec.getTemplate() == null || spec.getTemplate().getMetadata() == null ? null
                : spec.getTemplate().getMetadata().getLabels();
        if (labels != null && (!labels.getOrDefault(JOB_NAME_LABEL, "").isEmpty()
                || !labels.getOrDefault(CONTROLLER_UID_LABEL, "").isEmpty())) {
            errors.add(FieldError.invalid("spec.template.metadata.labels", labels.toString(), "\"" + JOB_NAME_LABEL
                    + "\" and \"" + CONTROLLER_UID_LABEL + "\" are not allowed to preset in pod labels"));
        }
        IntOrString parallelism = spec.getParallelism();
        if (parallelism != null && parallelism.getStrVal() != null && !parallelism.getStrVal().endsWith("%")) {
            errors.add(FieldError.invalid("spec.parallelism", parallelism.getStrVal(),
                    "must be an integer or a percentage (e.g. 50%)"));
        } else if (parallelism != null && parallelism.getIntVal() != null && parallelism.getIntVal() < 0) {
            errors.add(FieldError.invalid("spec.parallelism", parallelism.getIntVal(),
                    "must be greater than or equal to 0"));
        } else if (parallelism != null) {
            try {
                IntOrPercent.validate(spec.getParallelism(), "spec.parallelism");
            } catch (IllegalArgumentException e) {
                errors.add(FieldError.invalid("spec.parallelism", String.valueOf(spec.getParallelism().getValue()),
                        e.getMessage()));
            }
        }
        AdvancedCronJobValidation.validatePodTemplate(spec.getTemplate(), "spec", true, errors);
        return errors;
    }
}
