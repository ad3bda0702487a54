package dev.kruisevertx.webhook.broadcastjob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
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

/** OpenKruise v1.9.0's BroadcastJob webhook cases, ported, plus the defaults and this project's additions. */
class BroadcastJobWebhooksTest {
    static final String POD = "{\"spec\": {\"containers\": [{\"name\": \"test\", \"image\": \"nginx:latest\"}], "
            + "\"restartPolicy\": \"OnFailure\"}}";

    static ObjectNode bcj(String version, String name, String spec) {
        try {
            return (ObjectNode) Json.MAPPER.readTree("{\"apiVersion\": \"apps.kruise.io/" + version + "\", \"kind\": "
                    + "\"BroadcastJob\", \"metadata\": {\"name\": \"" + name + "\", \"namespace\": \"default\"}, "
                    + "\"spec\": " + spec + "}");
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static AdmissionRequest request(String version, ObjectNode object) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", version, "BroadcastJob",
                "broadcastjobs", "", object.path("metadata").path("name").asText(), "default", "CREATE", object, null,
                false, null);
    }

    static AdmissionResponse validate(String version, ObjectNode o) {
        return BroadcastJobWebhooks.validating().handle(request(version, o)).result();
    }

    @Test
    void validateBroadcastJobSpecReportsEachProblemInOpenKruisesOrder() {
        ObjectNode o = bcj("v1beta1", "bjtest", "{\"template\": {\"metadata\": {\"labels\": {\"broadcastjob-name\": "
                + "\"bjtest\", \"broadcastjob-controller-uid\": \"1234\"}}, \"spec\": {\"restartPolicy\": \"Always\"}}, "
                + "\"completionPolicy\": {\"type\": \"Never\", \"ttlSecondsAfterFinished\": 10, "
                + "\"activeDeadlineSeconds\": 20}}");
        List<FieldError> errors = BroadcastJobWebhooks.validate(Json.decode(o, BroadcastJob.class));
        assertEquals(List.of("spec.completionPolicy.ttlSecondsAfterFinished", "spec.completionPolicy.activeDeadlineSeconds",
                "spec.template.spec.restartPolicy", "spec.template.metadata.labels"),
                errors.subList(0, 4).stream().map(FieldError::field).toList());
    }

    @Test
    void createValidV1beta1() {
        assertTrue(validate("v1beta1", bcj("v1beta1", "test-bj", "{\"template\": " + POD + "}")).allowed());
    }

    @Test
    void alwaysRestartPolicyIsRefused() {
        AdmissionResponse r = validate("v1beta1", bcj("v1beta1", "test-bj-invalid", "{\"template\": "
                + POD.replace("OnFailure", "Always") + "}"));
        assertFalse(r.allowed());
        assertTrue(r.message().contains("pod restartPolicy can only be Never or OnFailure"), r.message());
    }

    @Test
    void presetJobLabelsAreRefused() {
        AdmissionResponse r = validate("v1beta1", bcj("v1beta1", "test-bj-forbidden-labels", "{\"template\": "
                + POD.replace("{\"spec\"", "{\"metadata\": {\"labels\": {\"broadcastjob-name\": \"x\"}}, \"spec\"") + "}"));
        assertFalse(r.allowed());
        assertTrue(r.message().contains("are not allowed to preset in pod labels"), r.message());
    }

    @Test
    void neverWithTtlIsRefused() {
        AdmissionResponse r = validate("v1beta1", bcj("v1beta1", "test-bj-invalid-completion", "{\"completionPolicy\": "
                + "{\"type\": \"Never\", \"ttlSecondsAfterFinished\": 300}, \"template\": " + POD + "}"));
        assertFalse(r.allowed());
        assertTrue(r.message().contains("ttlSecondsAfterFinished can just work with Always"), r.message());
    }

    @Test
    void createV1alpha1() {
        assertTrue(validate("v1alpha1", bcj("v1alpha1", "test-bj-v1alpha1", "{\"template\": " + POD + "}")).allowed());
    }

    @Test
    void invalidJsonIsAnError() {
        byte[] review = ("{\"apiVersion\": \"admission.k8s.io/v1\", \"kind\": \"AdmissionReview\", \"request\": "
                + "{\"uid\": \"u\", \"operation\": \"CREATE\", \"object\": \"invalid json\"}}")
                .getBytes(StandardCharsets.UTF_8);
        assertThrows(BadReview.class, () -> AdmissionReviews.parse(review));
    }

    @Test
    void malformedParallelismAndUnservedVersionsAreRefused() {
        AdmissionResponse r = validate("v1beta1", bcj("v1beta1", "p", "{\"parallelism\": \"lots\", \"template\": " + POD
                + "}"));
        assertFalse(r.allowed());
        assertTrue(r.message().contains("spec.parallelism"), r.message());
        AdmissionResponse negative = validate("v1beta1", bcj("v1beta1", "p", "{\"parallelism\": -1, \"template\": "
                + POD + "}"));
        assertFalse(negative.allowed());
        AdmissionResponse percent = validate("v1beta1", bcj("v1beta1", "p", "{\"parallelism\": \"50%\", \"template\": "
                + POD + "}"));
        assertTrue(percent.allowed(), percent.message());
        AdmissionResponse v2 = validate("v2", bcj("v2", "p", "{\"template\": " + POD + "}"));
        assertEquals(400, v2.code());
    }

    @Test
    void defaultsAsOpenKruise() {
        AdmissionResponse r = BroadcastJobWebhooks.mutating(false).handle(request("v1beta1",
                bcj("v1beta1", "d", "{\"template\": " + POD + "}"))).result();
        List<String> ops = new ArrayList<>();
        for (JsonNode op : r.patch()) {
            ops.add(op.path("path").asText() + "=" + op.path("value"));
        }
        assertTrue(ops.contains("/spec/completionPolicy={\"type\":\"Always\"}"), ops.toString());
        assertTrue(ops.contains("/spec/failurePolicy={\"type\":\"FailFast\"}"), ops.toString());
        assertTrue(ops.contains("/spec/parallelism=2147483647"), ops.toString());
        assertTrue(ops.stream().anyMatch(o -> o.startsWith("/spec/template/spec/dnsPolicy=")), ops.toString());
    }
}
