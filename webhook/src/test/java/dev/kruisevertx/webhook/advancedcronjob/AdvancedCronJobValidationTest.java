package dev.kruisevertx.webhook.advancedcronjob;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.AdmissionReviews;
import dev.kruisevertx.webhook.admission.BadReview;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise v1.9.0's AdvancedCronJob validation cases (TestValidateCronJobSpec, the admission handler's table and
 * the decode table), ported case by case, plus this project's additions.
 */
class AdvancedCronJobValidationTest {
    static final String POD_ALWAYS = """
            {"spec": {"containers": [{"name": "foo", "image": "foo:latest", "terminationMessagePolicy": "File",
              "imagePullPolicy": "IfNotPresent"}], "restartPolicy": "Always", "dnsPolicy": "Default",
              "terminationGracePeriodSeconds": 30}}""";
    static final String POD_ON_FAILURE = """
            {"spec": {"containers": [{"name": "test", "image": "nginx:latest"}], "restartPolicy": "OnFailure"}}""";
    static final String JOB = "{\"jobTemplate\": {\"spec\": {\"template\": " + POD_ON_FAILURE + "}}}";
    static final String ILPJ_OK = """
            {"imageListPullJobTemplate": {"spec": {"images": ["busybox:latest", "alpine:latest"],
              "selector": {"names": ["node1"]}, "completionPolicy": {"type": "Always", "activeDeadlineSeconds": 100}}}}""";

    static ObjectNode acj(String version, String name, String resourceVersion, String spec) {
        String rv = resourceVersion == null ? "" : ", \"resourceVersion\": \"" + resourceVersion + "\"";
        return (ObjectNode) parse("{\"apiVersion\": \"apps.kruise.io/" + version + "\", \"kind\": \"AdvancedCronJob\","
                + " \"metadata\": {\"name\": \"" + name + "\", \"namespace\": \"default\"" + rv + "}, \"spec\": " + spec + "}");
    }

    static com.fasterxml.jackson.databind.JsonNode parse(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static AdmissionRequest request(String op, String version, ObjectNode object, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "uid-1", "apps.kruise.io", version, "AdvancedCronJob",
                "advancedcronjobs", "", object.path("metadata").path("name").asText(), "default", op, object, old,
                false, null);
    }

    static AdmissionResponse validate(AdmissionRequest r) {
        return AdvancedCronJobWebhooks.validating().handle(r).result();
    }

    static AdmissionResponse create(String spec) {
        return validate(request("CREATE", "v1beta1", acj("v1beta1", "test-acj", null, spec), null));
    }

    // --- TestValidateCronJobSpec (3) ---

    static List<FieldError> spec(String timeZone) {
        String tz = timeZone == null ? "" : ", \"timeZone\": \"" + timeZone + "\"";
        ObjectNode o = acj("v1beta1", "x", null, "{\"schedule\": \"0 * * * *\", \"concurrencyPolicy\": \"Allow\"" + tz
                + ", \"template\": {\"jobTemplate\": {\"spec\": {\"template\": " + POD_ALWAYS + "}}}}");
        return AdvancedCronJobValidation.validateSpec(Json.decode(o, AdvancedCronJob.class).getSpec());
    }

    @Test
    void noValidationBecauseTimeZoneIsNil() {
        assertEquals(List.of(), spec(null));
    }

    @Test
    void checkTimeZoneIsValid() {
        assertEquals(List.of(), spec("America/New_York"));
    }

    @Test
    void checkTimeZoneIsInvalid() {
        List<FieldError> errors = spec("broken");
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("spec.timeZone", errors.get(0).field());
    }

    // --- TestAdvancedCronJobCreateUpdateHandler_Handle (18) ---

    @Test
    void createValidV1beta1() {
        assertTrue(create("{\"schedule\": \"0 0 * * *\", \"template\": {\"jobTemplate\": {\"spec\": {\"template\": "
                + POD_ALWAYS.replace("Always", "OnFailure") + "}}}}").allowed());
    }

    @Test
    void createWithEmptySchedule() {
        AdmissionResponse r = create("{\"schedule\": \"\", \"template\": " + JOB + "}");
        assertFalse(r.allowed());
        assertEquals(422, r.code());
        assertTrue(r.message().contains("schedule cannot be empty"), r.message());
    }

    @Test
    void createWithInvalidSchedule() {
        AdmissionResponse r = create("{\"schedule\": \"invalid-cron\", \"template\": " + JOB + "}");
        assertFalse(r.allowed());
        assertTrue(r.message().contains("spec.schedule: Invalid value: \"invalid-cron\": expected exactly 5 fields"),
                r.message());
    }

    @Test
    void createWithNoTemplate() {
        AdmissionResponse r = create("{\"schedule\": \"0 0 * * *\", \"template\": {}}");
        assertFalse(r.allowed());
        assertTrue(r.message().contains("spec must have one template"), r.message());
    }

    @Test
    void createWithBothTemplates() {
        AdmissionResponse r = create("{\"schedule\": \"0 0 * * *\", \"template\": {\"jobTemplate\": {\"spec\": "
                + "{\"template\": " + POD_ON_FAILURE + "}}, \"broadcastJobTemplate\": {\"spec\": {\"template\": "
                + POD_ON_FAILURE + "}}}}");
        assertFalse(r.allowed());
        assertTrue(r.message().contains("spec can have only one template"), r.message());
    }

    @Test
    void createV1alpha1() {
        ObjectNode o = acj("v1alpha1", "test-acj-v1alpha1", null, "{\"schedule\": \"0 0 * * *\", \"template\": "
                + "{\"broadcastJobTemplate\": {\"spec\": {\"template\": " + POD_ON_FAILURE + "}}}}");
        assertTrue(validate(request("CREATE", "v1alpha1", o, null)).allowed());
    }

    @Test
    void updateWithoutResourceVersionIsRefused() {
        String spec = "{\"schedule\": \"0 0 * * *\", \"template\": " + JOB + "}";
        AdmissionResponse r = validate(request("UPDATE", "v1beta1", acj("v1beta1", "test-acj-update", null, spec),
                acj("v1beta1", "test-acj-update", null, spec)));
        assertFalse(r.allowed());
        assertTrue(r.message().contains("metadata.resourceVersion"), r.message());
    }

    @Test
    void createImageListPullJobTemplate() {
        assertTrue(create("{\"schedule\": \"0 0 * * *\", \"concurrencyPolicy\": \"Replace\", \"template\": " + ILPJ_OK
                + "}").allowed());
    }

    @Test
    void createImageListPullJobTemplateForbiddenField() {
        AdmissionResponse r = create("{\"schedule\": \"0 0 * * *\", \"concurrencyPolicy\": \"Allow\", \"template\": "
                + ILPJ_OK.replace("\"activeDeadlineSeconds\": 100", "\"ttlSecondsAfterFinished\": 100") + "}");
        assertFalse(r.allowed());
        assertTrue(r.message().contains("concurrencyPolicy should be Replace or Forbid"), r.message());
        assertTrue(r.message().contains("ttlSecondsAfterFinished is not supported"), r.message());
    }

    @Test
    void updateImageListPullJobTemplateAndTheUpdatableFields() {
        ObjectNode old = acj("v1beta1", "test-acj-update", "1", "{\"schedule\": \"0 0 * * *\", \"concurrencyPolicy\": "
                + "\"Replace\", \"template\": " + ILPJ_OK + "}");
        ObjectNode now = acj("v1beta1", "test-acj-update", "1", """
                {"schedule": "1 0 * * *", "timeZone": "Asia/Shanghai", "startingDeadlineSeconds": 100,
                 "concurrencyPolicy": "Forbid", "paused": true, "successfulJobsHistoryLimit": 5,
                 "failedJobsHistoryLimit": 4, "template": {"imageListPullJobTemplate": {"spec": {
                   "images": ["busybox:latest", "alpine:latest", "nginx:latest"], "pullSecrets": ["secret1"],
                   "selector": {"names": ["node1", "node2"]}, "parallelism": 2,
                   "pullPolicy": {"timeoutSeconds": 30, "backoffLimit": 1},
                   "completionPolicy": {"type": "Always", "activeDeadlineSeconds": 200}, "imagePullPolicy": "Always"}}}}""");
        AdmissionResponse r = validate(request("UPDATE", "v1beta1", now, old));
        assertTrue(r.allowed(), r.message());
    }

    @Test
    void updateImageListPullJobTemplateWithForbiddenField() {
        ObjectNode old = acj("v1beta1", "test-acj-update", "1", "{\"schedule\": \"0 0 * * *\", \"concurrencyPolicy\": "
                + "\"Replace\", \"template\": " + ILPJ_OK + "}");
        ObjectNode now = acj("v1beta1", "test-acj-update", "1", "{\"schedule\": \"0 0 * * *\", \"concurrencyPolicy\": "
                + "\"Allow\", \"template\": " + ILPJ_OK.replace("\"type\": \"Always\", \"activeDeadlineSeconds\": 100",
                "\"type\": \"Never\"") + "}");
        AdmissionResponse r = validate(request("UPDATE", "v1beta1", now, old));
        assertFalse(r.allowed());
        assertTrue(r.message().contains("completionPolicy should be Always, but current value is: Never"), r.message());
    }

    @Test
    void imageListPullJobTemplateConflictSelector() {
        assertIlpjRefused("\"selector\": {\"names\": [\"node1\"], \"matchLabels\": {\"key\": \"value\"}}",
                "can not set both names and labelSelector");
    }

    @Test
    void imageListPullJobTemplateConflictSelector2() {
        assertIlpjRefused("\"selector\": {\"matchLabels\": {\"key\": \"value\"}, \"matchExpressions\": "
                + "[{\"key\": \"xxx\"}]}", "spec.selector.labelSelector");
    }

    @Test
    void imageListPullJobTemplateConflictPodSelector() {
        assertIlpjRefused("\"selector\": {\"names\": [\"node1\"]}, \"podSelector\": {\"matchLabels\": {\"key\": "
                + "\"value\"}}", "can not set both selector and podSelector");
    }

    @Test
    void imageListPullJobTemplateConflictPodSelector2() {
        assertIlpjRefused("\"podSelector\": {\"matchLabels\": {\"key\": \"value\"}, \"matchExpressions\": "
                + "[{\"key\": \"xxx\"}]}", "spec.podSelector.labelSelector");
    }

    @Test
    void imageListPullJobTemplateBadCompletionPolicy() {
        AdmissionResponse r = create("{\"schedule\": \"0 0 * * *\", \"concurrencyPolicy\": \"Replace\", \"template\": "
                + ILPJ_OK.replace("\"activeDeadlineSeconds\": 100", "\"activeDeadlineSeconds\": 86401, "
                + "\"ttlSecondsAfterFinished\": 100") + "}");
        assertFalse(r.allowed());
        assertTrue(r.message().contains("activeDeadlineSeconds must be less than 86400"), r.message());
    }

    static void assertIlpjRefused(String selectors, String message) {
        AdmissionResponse r = create("{\"schedule\": \"0 0 * * *\", \"concurrencyPolicy\": \"Replace\", \"template\": "
                + ILPJ_OK.replace("\"selector\": {\"names\": [\"node1\"]}", selectors) + "}");
        assertFalse(r.allowed());
        assertTrue(r.message().contains(message), r.message());
    }

    static byte[] review(String operation, String object, String oldObject) {
        return ("{\"apiVersion\": \"admission.k8s.io/v1\", \"kind\": \"AdmissionReview\", \"request\": {\"uid\": \"u\", "
                + "\"kind\": {\"group\": \"apps.kruise.io\", \"version\": \"v1beta1\", \"kind\": \"AdvancedCronJob\"}, "
                + "\"resource\": {\"group\": \"apps.kruise.io\", \"version\": \"v1beta1\", \"resource\": "
                + "\"advancedcronjobs\"}, \"operation\": \"" + operation + "\", \"object\": " + object
                + (oldObject == null ? "" : ", \"oldObject\": " + oldObject) + "}}").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void invalidJsonIsAnError() {
        assertThrows(BadReview.class, () -> AdmissionReviews.parse(review("CREATE", "\"invalid json\"", null)));
    }

    @Test
    void updateWithInvalidOldObjectJsonIsAnError() {
        String object = acj("v1beta1", "x", "1", "{\"schedule\": \"0 0 * * *\", \"template\": " + JOB + "}").toString();
        assertThrows(BadReview.class, () -> AdmissionReviews.parse(review("UPDATE", object,
                "\"invalid old object json\"")));
    }

    // --- TestDecodeAdvancedCronJobFromRaw (5) ---

    @Test
    void decodeValidV1beta1() {
        AdmissionRequest r = request("UPDATE", "v1beta1", acj("v1beta1", "a", "1", "{\"schedule\": \"0 0 * * *\", "
                + "\"template\": " + JOB + "}"), acj("v1beta1", "a", "1", "{\"schedule\": \"0 0 * * *\", \"template\": "
                + JOB + "}"));
        assertTrue(validate(r).allowed(), validate(r).message());
    }

    @Test
    void decodeValidV1alpha1WithConversion() {
        String spec = "{\"schedule\": \"0 0 * * *\", \"template\": " + JOB + "}";
        AdmissionRequest r = request("UPDATE", "v1alpha1", acj("v1alpha1", "a", "1", spec), acj("v1alpha1", "a", "1",
                spec));
        assertTrue(validate(r).allowed(), validate(r).message());
    }

    @Test
    void decodeInvalidJson() {
        assertThrows(BadReview.class, () -> AdmissionReviews.parse(review("CREATE", "{\"metadata\": ", null)));
    }

    @Test
    void decodeUnsupportedVersion() {
        String spec = "{\"schedule\": \"0 0 * * *\", \"template\": " + JOB + "}";
        AdmissionResponse r = validate(request("CREATE", "v2", acj("v2", "a", null, spec), null));
        assertFalse(r.allowed());
        assertEquals(400, r.code());
        assertTrue(r.message().contains("not served"), r.message());
    }

    @Test
    void decodeV1alpha1WithInvalidContent() {
        AdmissionResponse r = validate(request("CREATE", "v1alpha1", acj("v1alpha1", "a", null,
                "{\"schedule\": 5, \"template\": []}"), null));
        assertFalse(r.allowed());
    }

    // --- this project's additions ---

    @Test
    void anUnknownConcurrencyPolicyIsRefusedAsTheCrdEnumWould() {
        AdmissionResponse r = create("{\"schedule\": \"0 0 * * *\", \"concurrencyPolicy\": \"forbid\", \"template\": "
                + JOB + "}");
        assertFalse(r.allowed());
        assertTrue(r.message().contains("Unsupported value: \"forbid\": supported values: \"Allow\", \"Forbid\", "
                + "\"Replace\""), r.message());
    }

    @Test
    void aNameTooLongForItsJobsIsRefused() {
        ObjectNode o = acj("v1beta1", "a".repeat(53), null, "{\"schedule\": \"0 0 * * *\", \"template\": " + JOB + "}");
        AdmissionResponse r = validate(request("CREATE", "v1beta1", o, null));
        assertFalse(r.allowed());
        assertTrue(r.message().contains("metadata.name"), r.message());
    }

    @Test
    void tzInTheScheduleAndTheTimeZoneFieldTogetherAreRefused() {
        AdmissionResponse r = create("{\"schedule\": \"TZ=UTC 0 0 * * *\", \"timeZone\": \"UTC\", \"template\": "
                + JOB + "}");
        assertFalse(r.allowed());
        assertTrue(r.message().contains("cannot use both timeZone field and TZ"), r.message());
    }

    @Test
    void negativeLimitsAndDeadlineAreRefused() {
        AdmissionResponse r = create("{\"schedule\": \"0 0 * * *\", \"startingDeadlineSeconds\": -1, "
                + "\"successfulJobsHistoryLimit\": -1, \"failedJobsHistoryLimit\": -2, \"template\": " + JOB + "}");
        assertFalse(r.allowed());
        for (String f : List.of("startingDeadlineSeconds", "successfulJobsHistoryLimit", "failedJobsHistoryLimit")) {
            assertTrue(r.message().contains("spec." + f + ": Invalid value"), r.message());
        }
    }

    @Test
    void changingTheTemplateIsForbiddenOnUpdate() {
        ObjectNode old = acj("v1beta1", "a", "1", "{\"schedule\": \"0 0 * * *\", \"template\": " + JOB + "}");
        ObjectNode now = acj("v1beta1", "a", "1", "{\"schedule\": \"0 0 * * *\", \"template\": "
                + JOB.replace("nginx:latest", "nginx:2") + "}");
        AdmissionResponse r = validate(request("UPDATE", "v1beta1", now, old));
        assertFalse(r.allowed());
        assertTrue(r.message().contains(AdvancedCronJobValidation.UPDATE_MESSAGE), r.message());
    }

    @Test
    void defaultsAsOpenKruise() {
        ObjectNode o = acj("v1beta1", "a", null, "{\"schedule\": \"0 0 * * *\", \"template\": " + JOB + "}");
        AdmissionResponse r = AdvancedCronJobWebhooks.mutating(false).handle(request("CREATE", "v1beta1", o, null))
                .result();
        List<String> paths = new ArrayList<>();
        r.patch().forEach(op -> paths.add(op.path("path").asText() + "=" + op.path("value")));
        assertTrue(paths.contains("/spec/concurrencyPolicy=\"Allow\""), paths.toString());
        assertTrue(paths.contains("/spec/paused=false"), paths.toString());
        assertTrue(paths.contains("/spec/successfulJobsHistoryLimit=3"), paths.toString());
        assertTrue(paths.contains("/spec/failedJobsHistoryLimit=1"), paths.toString());
        ObjectNode ilpj = acj("v1beta1", "a", null, "{\"schedule\": \"0 0 * * *\", \"template\": "
                + ILPJ_OK.replace("\"type\": \"Always\", ", "") + "}");
        List<String> ilpjPaths = new ArrayList<>();
        AdvancedCronJobWebhooks.mutating(false).handle(request("CREATE", "v1beta1", ilpj, null)).result().patch()
                .forEach(op -> ilpjPaths.add(op.path("path").asText() + "=" + op.path("value")));
        assertTrue(ilpjPaths.contains("/spec/concurrencyPolicy=\"Replace\""), ilpjPaths.toString());
    }
}
