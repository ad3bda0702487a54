package dev.kruisevertx.webhook.advancedcronjob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ConcurrencyPolicy;
import dev.kruisevertx.api.apps.v1beta1.CronJobTemplate;
import dev.kruisevertx.api.common.WireEnum;
import dev.kruisevertx.cron.CronSchedule;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.validation.UpdatableSpec;
import dev.kruisevertx.webhook.cloneset.LabelRules;
import dev.kruisevertx.webhook.validation.ResourceQuantities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * OpenKruise's AdvancedCronJob validation: name, schedule (and its zone), exactly one template, the pod templates,
 * non-negative deadline and history limits, the ImageListPullJob template's rules; on update only the schedule,
 * zone, concurrency, history limits, deadline, paused and the ImageListPullJob template may change.
 */
public final class AdvancedCronJobValidation {
    static final String NAME_PATTERN = "^[a-zA-Z0-9\\-]+$";
    private static final Pattern NAME = Pattern.compile(NAME_PATTERN);
    /**
     * Stricter than OpenKruise (63): children are named {@code <name>-<unix seconds>} (11 more characters) and a Job
     * labels its pods with its name, at most 63 characters, so a longer name could never start a run.
     */
    public static final int NAME_MAX = 52;
    static final long MAX_ACTIVE_DEADLINE_SECONDS = 3600L * 24;
    static final List<String> UPDATABLE = List.of("schedule", "concurrencyPolicy", "successfulJobsHistoryLimit",
            "failedJobsHistoryLimit", "startingDeadlineSeconds", "paused", "timeZone");
    static final String UPDATE_MESSAGE = "updates to advancedcronjob spec for fields other than "
            + "'imageListPullJobTemplate', 'schedule', 'concurrencyPolicy', 'successfulJobsHistoryLimit', "
            + "'failedJobsHistoryLimit', 'startingDeadlineSeconds', 'timeZone' and 'paused' are forbidden";

    private AdvancedCronJobValidation() {
    }

    public static List<FieldError> validateCreate(AdvancedCronJob acj) {
        List<FieldError> errors = new ArrayList<>();
        String name = acj.getMetadata() == null ? null : acj.getMetadata().getName();
        if (name != null && !name.isEmpty()) {
            if (!NAME.matcher(name).matches()) {
                errors.add(FieldError.invalid("metadata.name", name, "AdvancedCronJob name must consist of "
                        + "alphanumeric characters or '-' (e.g. 'example-com', regex used for validation is '"
                        + NAME_PATTERN + "')"));
            }
            if (name.length() > NAME_MAX) {
                errors.add(FieldError.tooLong("metadata.name", NAME_MAX, "its Jobs are named <name>-<unix seconds> "
                        + "and label their pods with that name, at most 63 characters"));
            }
        }
        errors.addAll(validateSpec(acj.getSpec()));
        return errors;
    }

    public static List<FieldError> validateUpdate(AdvancedCronJob acj, AdvancedCronJob old) {
        List<FieldError> errors = new ArrayList<>();
        if (acj.getMetadata() == null || acj.getMetadata().getResourceVersion() == null
                || acj.getMetadata().getResourceVersion().isEmpty()) {
            errors.add(FieldError.invalid("metadata.resourceVersion", "0x0", "must be specified for an update"));
        }
        errors.addAll(validateSpec(acj.getSpec()));
        ObjectNode now = UpdatableSpec.withoutUpdatable(acj.getSpec(), UPDATABLE);
        ObjectNode before = UpdatableSpec.withoutUpdatable(old.getSpec(), UPDATABLE);
        if (before.path("template").has("imageListPullJobTemplate") && now.path("template").isObject()) {
            ((ObjectNode) now.get("template")).set("imageListPullJobTemplate",
                    before.path("template").get("imageListPullJobTemplate"));
        }
        if (!now.equals(before)) {
            errors.add(FieldError.forbidden("spec", UPDATE_MESSAGE));
        }
        return errors;
    }

    static List<FieldError> validateSpec(AdvancedCronJobSpec spec) {
        List<FieldError> errors = new ArrayList<>();
        if (spec == null) {
            errors.add(FieldError.required("spec", ""));
            return errors;
        }
        String schedule = spec.getSchedule() == null ? "" : spec.getSchedule();
        if (schedule.isEmpty()) {
            errors.add(FieldError.invalid("spec.schedule", schedule,
                    "schedule cannot be empty, please provide valid cron schedule."));
        }
        try {
            // The schedule alone, as OpenKruise: the timeZone field is judged on its own below.
            CronSchedule.parse(schedule, ZoneOffset.UTC);
        } catch (IllegalArgumentException e) {
            errors.add(FieldError.invalid("spec.schedule", schedule, e.getMessage()));
        }
        if (schedule.contains("TZ") && spec.getTimeZone() != null) {
            errors.add(FieldError.invalid("spec.schedule", schedule,
                    "cannot use both timeZone field and TZ or CRON_TZ in schedule"));
        }
        validateTemplates(spec, errors);
        nonNegative(spec.getStartingDeadlineSeconds(), "spec.startingDeadlineSeconds", errors);
        nonNegative(spec.getSuccessfulJobsHistoryLimit(), "spec.successfulJobsHistoryLimit", errors);
        nonNegative(spec.getFailedJobsHistoryLimit(), "spec.failedJobsHistoryLimit", errors);
        CronSchedule.zoneProblem(spec.getTimeZone()).ifPresent(p ->
                errors.add(FieldError.invalid("spec.timeZone", spec.getTimeZone(), p)));
        // OpenKruise's CRD lists these values (enum), so its API server refuses any other.
        String policy = spec.getConcurrencyPolicy();
        if (policy != null && !policy.isEmpty() && spec.concurrencyPolicyValue().isEmpty()) {
            errors.add(FieldError.notSupported("spec.concurrencyPolicy", policy, WireEnum.values(ConcurrencyPolicy.class)));
        }
        return errors;
    }

    private static void nonNegative(Number value, String field, List<FieldError> errors) {
        if (value != null && value.longValue() < 0) {
            errors.add(FieldError.invalid(field, value, "must be greater than or equal to 0"));
        }
    }

    private static void validateTemplates(AdvancedCronJobSpec spec, List<FieldError> errors) {
        CronJobTemplate t = spec.template();
        int count = 0;
        if (t.getJobTemplate() != null) {
            count++;
            PodTemplateSpec pod = t.getJobTemplate().getSpec() == null ? null : t.getJobTemplate().getSpec().getTemplate();
            validatePodTemplate(pod, "spec.template", false, errors);
        }
        if (t.getBroadcastJobTemplate() != null) {
            count++;
            PodTemplateSpec pod = t.getBroadcastJobTemplate().getSpec() == null ? null
                    : t.getBroadcastJobTemplate().getSpec().getTemplate();
            validatePodTemplate(pod, "spec.template", false, errors);
        }
        JsonNode ilpj = t.getImageListPullJobTemplate();
        if (ilpj != null && !ilpj.isNull()) {
            count++;
            ConcurrencyPolicy p = spec.concurrencyPolicyValue().orElse(null);
            if (p != ConcurrencyPolicy.REPLACE && p != ConcurrencyPolicy.FORBID) {
                String v = spec.getConcurrencyPolicy() == null ? "" : spec.getConcurrencyPolicy();
                errors.add(FieldError.invalid("spec.spec.concurrencyPolicy", v,
                        "concurrencyPolicy should be Replace or Forbid, but current value is: " + v));
            }
            ImageListPullJobTemplateRules.validate(ilpj, "spec.template.imageListPullJobTemplate", errors);
        }
        if (count == 0) {
            errors.add(FieldError.forbidden("spec.template", "spec must have one template, either JobTemplate or "
                    + "BroadcastJobTemplate or ImageListPullJobTemplate should be provided"));
        } else if (count > 1) {
            errors.add(FieldError.forbidden("spec.template", "spec can have only one template, either JobTemplate or "
                    + "BroadcastJobTemplate or ImageListPullJobTemplate should be provided"));
        }
    }

    /**
     * The parts of kube's pod template validation a run depends on: containers with names and images, a valid
     * restart policy (for a run-to-completion pod not {@code Always}, which kube's Job validation refuses at every
     * run), labels the API server accepts, and resource quantities.
     */
    public static void validatePodTemplate(PodTemplateSpec template, String path, boolean runToCompletion,
                                           List<FieldError> errors) {
        String p = path + ".template";
        if (template == null || template.getSpec() == null) {
            errors.add(FieldError.required(p + ".spec.containers", ""));
            return;
        }
        LabelRules.validateLabels(template.getMetadata() == null ? null : template.getMetadata().getLabels(),
                p + ".metadata.labels", errors);
        List<Container> containers = template.getSpec().getContainers();
        if (containers == null || containers.isEmpty()) {
            errors.add(FieldError.required(p + ".spec.containers", ""));
        } else {
            Set<String> names = new HashSet<>();
            for (int i = 0; i < containers.size(); i++) {
                Container c = containers.get(i);
                String cp = p + ".spec.containers[" + i + "]";
                if (c.getName() == null || c.getName().isEmpty()) {
                    errors.add(FieldError.required(cp + ".name", ""));
                } else if (!names.add(c.getName())) {
                    errors.add(FieldError.duplicate(cp + ".name", c.getName()));
                } else if (!LabelRules.isDnsLabel(c.getName())) {
                    errors.add(FieldError.invalid(cp + ".name", c.getName(), "a lowercase RFC 1123 label must "
                            + "consist of lower case alphanumeric characters or '-', and must start and end with an "
                            + "alphanumeric character"));
                }
                if (c.getImage() == null || c.getImage().isBlank()) {
                    errors.add(FieldError.required(cp + ".image", ""));
                }
            }
        }
        String restart = template.getSpec().getRestartPolicy();
        List<String> allowed = runToCompletion ? List.of("OnFailure", "Never") : List.of("Always", "OnFailure", "Never");
        if (restart != null && !restart.isEmpty() && !allowed.contains(restart)) {
            errors.add(FieldError.notSupported(p + ".spec.restartPolicy", restart, allowed));
        }
        ResourceQuantities.checkPod(template.getSpec(), p + ".spec", errors);
    }
}
