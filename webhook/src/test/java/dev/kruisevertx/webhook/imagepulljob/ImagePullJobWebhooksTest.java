package dev.kruisevertx.webhook.imagepulljob;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** OpenKruise v1.9.0's ImagePullJob, ImageListPullJob and NodeImage webhook cases, ported as facts. */
class ImagePullJobWebhooksTest {
    static final ImagePullJobWebhooks.Gates ON = new ImagePullJobWebhooks.Gates(true, true);

    static ObjectNode object(String version, String kind, String spec) {
        try {
            return (ObjectNode) Json.MAPPER.readTree("{\"apiVersion\": \"apps.kruise.io/" + version + "\", \"kind\": \""
                    + kind + "\", \"metadata\": {\"name\": \"job\", \"namespace\": \"default\"}, \"spec\": " + spec + "}");
        } catch (IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static AdmissionRequest request(String version, String kind, String op, ObjectNode object, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", version, kind,
                kind.toLowerCase() + "s", "", "job", "default", op, object, old, false, null);
    }

    static AdmissionResponse ipj(String spec) {
        return ImagePullJobWebhooks.validatingImagePullJob(ON).handle(request("v1beta1", "ImagePullJob", "CREATE",
                object("v1beta1", "ImagePullJob", spec), null)).result();
    }

    static AdmissionResponse ilpj(String spec) {
        return ImagePullJobWebhooks.validatingImageListPullJob(ON).handle(request("v1beta1", "ImageListPullJob",
                "CREATE", object("v1beta1", "ImageListPullJob", spec), null)).result();
    }

    static AdmissionResponse nodeImage(String spec) {
        return ImagePullJobWebhooks.validatingNodeImage(ON).handle(request("v1beta1", "NodeImage", "CREATE",
                object("v1beta1", "NodeImage", spec), null)).result();
    }

    static void refused(AdmissionResponse r, int code, String message) {
        assertFalse(r.allowed());
        assertEquals(code, r.code());
        assertEquals(message, r.message());
    }

    @ParameterizedTest(name = "parallelism {0}")
    @CsvSource(delimiter = '|', value = {
            "5|",
            "0|",
            "-1|parallelism must be non-negative",
            "\"50%\"|parallelism does not support percentage value",
            "\"5\"|",
            "\"0\"|",
            "\"-1\"|parallelism must be non-negative",
            "\"abc\"|parallelism must be a valid integer: strconv.ParseInt: parsing \"abc\": invalid syntax",
            "null|",
            "\"99999999999\"|parallelism must be a valid integer: strconv.ParseInt: parsing \"99999999999\": value out of range",
    })
    void parallelismAsOpenKruiseChecksIt(String parallelism, String error) {
        AdmissionResponse r = ipj("{\"image\": \"nginx:1\", \"parallelism\": " + parallelism
                + ", \"completionPolicy\": {\"type\": \"Always\"}}");
        if (error == null) {
            assertTrue(r.allowed(), r.message());
        } else {
            refused(r, 400, error);
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "names and labels|{\"names\": [\"a\"], \"matchLabels\": {\"a\": \"b\"}}|null|can not set both names and labelSelector in this spec.selector",
            "duplicated names|{\"names\": [\"a\", \"a\"]}|null|duplicated name in selector names",
            "bad expression|{\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"In\"}]}|null|invalid selector: label selector operator In on \"a\" needs at least one value",
            "both selectors|{\"names\": [\"a\"]}|{\"matchLabels\": {\"app\": \"x\"}}|can not set both selector and podSelector",
            "bad pod selector|null|{\"matchExpressions\": [{\"key\": \"a\", \"operator\": \"Bogus\"}]}|invalid podSelector: unknown label selector operator \"Bogus\" on \"a\"",
    })
    void selectorRules(String name, String selector, String podSelector, String error) {
        AdmissionResponse r = ipj("{\"image\": \"nginx:1\", \"selector\": " + selector + ", \"podSelector\": "
                + podSelector + ", \"completionPolicy\": {\"type\": \"Always\"}}");
        assertFalse(r.allowed());
        assertEquals(400, r.code());
        assertEquals(error, r.message());
    }

    @Test
    void imageAndCompletionRules() {
        refused(ipj("{\"completionPolicy\": {\"type\": \"Always\"}}"), 400, "image can not be empty");
        refused(ipj("{\"image\": \"Nginx\", \"completionPolicy\": {\"type\": \"Always\"}}"), 400,
                "invalid image Nginx: repository name must be lowercase");
        refused(ipj("{\"image\": \"nginx\", \"completionPolicy\": {\"type\": \"Sometimes\"}}"), 400,
                "unknown type of completionPolicy: Sometimes");
        refused(ipj("{\"image\": \"nginx\", \"completionPolicy\": {\"type\": \"Never\", \"activeDeadlineSeconds\": 5}}"),
                400, "activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType");
        refused(ipj("{\"image\": \"nginx\", \"completionPolicy\": {\"type\": \"Always\", \"activeDeadlineSeconds\": 5}}"),
                400, "completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds(default 600)");
        assertTrue(ipj("{\"image\": \"nginx\", \"pullPolicy\": {\"timeoutSeconds\": 5}, \"completionPolicy\": "
                + "{\"type\": \"Always\", \"activeDeadlineSeconds\": 5}}").allowed());
        assertTrue(ipj("{\"image\": \"nginx\", \"completionPolicy\": {\"type\": \"Never\"}}").allowed());
    }

    @ParameterizedTest(name = "pullSecrets {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "[\"a\"]|[\"a\"]|true",
            "[\"a\"]|[\"b\"]|false",
            "null|[\"a\"]|false",
            "[\"a\"]|null|false",
            "null|null|true",
    })
    void pullSecretsAreImmutable(String before, String after, boolean allowed) {
        String spec = "{\"image\": \"nginx\", \"completionPolicy\": {\"type\": \"Always\"}, \"pullSecrets\": ";
        AdmissionResponse r = ImagePullJobWebhooks.validatingImagePullJob(ON).handle(request("v1beta1", "ImagePullJob",
                "UPDATE", object("v1beta1", "ImagePullJob", spec + after + "}"),
                object("v1beta1", "ImagePullJob", spec + before + "}"))).result();
        assertEquals(allowed, r.allowed(), r.message());
        if (!allowed) {
            refused(r, 403, "spec.pullSecrets is immutable");
        }
    }

    @Test
    void gatesRefuseEverythingButDeletes() {
        ObjectNode o = object("v1beta1", "ImagePullJob", "{\"image\": \"nginx\", \"completionPolicy\": {\"type\": \"Always\"}}");
        refused(ImagePullJobWebhooks.validatingImagePullJob(new ImagePullJobWebhooks.Gates(false, true))
                .handle(request("v1beta1", "ImagePullJob", "CREATE", o, null)).result(), 403,
                "feature-gate KruiseDaemon is not enabled");
        refused(ImagePullJobWebhooks.validatingImagePullJob(new ImagePullJobWebhooks.Gates(true, false))
                .handle(request("v1beta1", "ImagePullJob", "CREATE", o, null)).result(), 403,
                "feature-gate ImagePullJobGate is not enabled");
        refused(ImagePullJobWebhooks.validatingImageListPullJob(new ImagePullJobWebhooks.Gates(true, false))
                .handle(request("v1beta1", "ImageListPullJob", "CREATE", o, null)).result(), 403,
                "feature-gate ImagePullJobGate is not enabled");
        // NodeImage needs only KruiseDaemon.
        assertTrue(ImagePullJobWebhooks.validatingNodeImage(new ImagePullJobWebhooks.Gates(true, false))
                .handle(request("v1beta1", "NodeImage", "CREATE", object("v1beta1", "NodeImage", "{}"), null))
                .result().allowed());
        assertTrue(ImagePullJobWebhooks.validatingImagePullJob(new ImagePullJobWebhooks.Gates(false, false))
                .handle(request("v1beta1", "ImagePullJob", "DELETE", null, o)).result().allowed());
        refused(ImagePullJobWebhooks.validatingImagePullJob(ON).handle(request("v2", "ImagePullJob", "CREATE", o, null))
                .result(), 400, "ImagePullJob v2 is not served: the served versions are v1alpha1 and v1beta1");
    }

    @Test
    void imageListRules() {
        refused(ilpj("{\"completionPolicy\": {\"type\": \"Always\"}}"), 400, "image can not be empty");
        refused(ilpj("{\"images\": [\"a\", \"a\"], \"completionPolicy\": {\"type\": \"Always\"}}"), 400,
                "images cannot have duplicate values");
        StringBuilder many = new StringBuilder("[");
        for (int i = 0; i < 256; i++) {
            many.append(i == 0 ? "" : ",").append("\"img").append(i).append("\"");
        }
        refused(ilpj("{\"images\": " + many + "], \"completionPolicy\": {\"type\": \"Always\"}}"), 400,
                "the maximum number of images cannot > 255");
        refused(ilpj("{\"images\": [\"a:\"], \"completionPolicy\": {\"type\": \"Always\"}}"), 400,
                "invalid image a:: invalid reference format");
        // OpenKruise leaves the template's deadline and parallelism to the ImagePullJobs, whose webhook then refuses
        // every job the list creates: refused here up front, with the ImagePullJob's words.
        refused(ilpj("{\"images\": [\"a\"], \"completionPolicy\": {\"type\": \"Always\", \"activeDeadlineSeconds\": 1}}"),
                400, "completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds(default 600)");
        assertTrue(ilpj("{\"images\": [\"a\"], \"pullPolicy\": {\"timeoutSeconds\": 1}, "
                + "\"completionPolicy\": {\"type\": \"Always\", \"activeDeadlineSeconds\": 1}}").allowed());
        refused(ilpj("{\"images\": [\"a\"], \"parallelism\": -1, \"completionPolicy\": {\"type\": \"Always\"}}"), 400,
                "parallelism must be non-negative");
        refused(ilpj("{\"images\": [\"a\"], \"parallelism\": \"50%\", \"completionPolicy\": {\"type\": \"Always\"}}"),
                400, "parallelism does not support percentage value");
        refused(ilpj("{\"images\": [\"\"], \"completionPolicy\": {\"type\": \"Always\"}}"), 400,
                "invalid image : repository name must have at least one component");
        refused(ilpj("{\"images\": [\"a\"], \"completionPolicy\": {\"type\": \"Never\", \"ttlSecondsAfterFinished\": 1}}"),
                400, "activeDeadlineSeconds and ttlSecondsAfterFinished can only work with Always CompletionPolicyType");
        refused(ilpj("{\"images\": [\"a\"], \"completionPolicy\": {}}"), 400, "unknown type of completionPolicy: ");
    }

    @Test
    void nodeImageRules() {
        String tag = "{\"tag\": \"1\", \"createdAt\": \"2026-01-01T00:00:00Z\", \"pullPolicy\": {\"ttlSecondsAfterFinished\": 300}}";
        assertTrue(nodeImage("{\"images\": {\"nginx\": {\"tags\": [" + tag + "]}}}").allowed());
        refused(nodeImage("{\"images\": {\"nginx\": {\"tags\": [" + tag + ", " + tag + "]}}}"), 400,
                "duplicated tag 1 for image nginx");
        refused(nodeImage("{\"images\": {\"nginx\": {\"tags\": [{\"tag\": \"\"}]}}}"), 400,
                "tag for image nginx can not be empty");
        refused(nodeImage("{\"images\": {\"nginx\": {\"tags\": [{\"tag\": \"1\"}]}}}"), 400,
                "createAt field for nginx/1 can not be empty");
        refused(nodeImage("{\"images\": {\"nginx\": {\"tags\": [{\"tag\": \"1\", \"createdAt\": \"2026-01-01T00:00:00Z\", "
                + "\"version\": -1}]}}}"), 400, "version for nginx/1 can not be less than 0");
        refused(nodeImage("{\"images\": {\"nginx\": {\"tags\": [{\"tag\": \"1\", \"createdAt\": \"2026-01-01T00:00:00Z\"}]}}}"),
                400, "pullPolicy field for nginx/1 must set");
        refused(nodeImage("{\"images\": {\"nginx\": {\"tags\": [{\"tag\": \"1\", \"createdAt\": \"2026-01-01T00:00:00Z\", "
                + "\"pullPolicy\": {}}]}}}"), 400, "pullPolicy.ttlSecondsAfterFinished for nginx/1 must set");
        refused(nodeImage("{\"images\": {\"\": {\"tags\": []}}}"), 400, "image name can not be empty");
        StringBuilder many = new StringBuilder("{");
        for (int i = 0; i < 257; i++) {
            many.append(i == 0 ? "" : ",").append("\"img").append(i).append("\": {\"tags\": []}");
        }
        refused(nodeImage("{\"images\": " + many + "}}"), 400, "spec images length 257 can not be more than 256");
    }

    static JsonNode patched(AdmissionHandler handler, AdmissionRequest request) {
        AdmissionResponse r = handler.handle(request).result();
        assertTrue(r.allowed(), r.message());
        ObjectNode object = request.object().deepCopy();
        return r.patchOps() == null ? object : io.fabric8.zjsonpatch.JsonPatch.apply(r.patchOps().toArrayNode(), object);
    }

    @Test
    void defaultsAndTheAlphaOnlyFinalizer() {
        ObjectNode alpha = object("v1alpha1", "ImagePullJob", "{\"image\": \"nginx\"}");
        JsonNode a = patched(ImagePullJobWebhooks.mutatingImagePullJob(),
                request("v1alpha1", "ImagePullJob", "CREATE", alpha, null));
        assertEquals("Always", a.at("/spec/completionPolicy/type").asText());
        assertEquals(600, a.at("/spec/pullPolicy/timeoutSeconds").asInt());
        assertEquals(3, a.at("/spec/pullPolicy/backoffLimit").asInt());
        assertEquals("IfNotPresent", a.at("/spec/imagePullPolicy").asText());
        assertEquals("[\"apps.kruise.io/deletion-protection\"]", a.at("/metadata/finalizers").toString());
        JsonNode b = patched(ImagePullJobWebhooks.mutatingImagePullJob(),
                request("v1beta1", "ImagePullJob", "CREATE", object("v1beta1", "ImagePullJob", "{\"image\": \"nginx\"}"), null));
        assertTrue(b.at("/metadata/finalizers").isMissingNode(), b.toString());
        JsonNode update = patched(ImagePullJobWebhooks.mutatingImagePullJob(),
                request("v1alpha1", "ImagePullJob", "UPDATE", alpha, alpha));
        assertTrue(update.at("/metadata/finalizers").isMissingNode(), update.toString());

        JsonNode list = patched(ImagePullJobWebhooks.mutatingImageListPullJob(), request("v1beta1", "ImageListPullJob",
                "CREATE", object("v1beta1", "ImageListPullJob", "{\"images\": [\"a\"]}"), null));
        assertEquals("Always", list.at("/spec/completionPolicy/type").asText());
        assertTrue(list.at("/spec/imagePullPolicy").isMissingNode(), "OpenKruise leaves a list's imagePullPolicy unset");

        Clock clock = Clock.fixed(Instant.parse("2026-11-24T10:00:00.123Z"), ZoneOffset.UTC);
        JsonNode ni = patched(ImagePullJobWebhooks.mutatingNodeImage(clock), request("v1beta1", "NodeImage", "CREATE",
                object("v1beta1", "NodeImage", "{\"images\": {\"nginx\": {\"tags\": [{\"tag\": \"1\"}]}}}"), null));
        assertEquals("2026-11-24T10:00:00Z", ni.at("/spec/images/nginx/tags/0/createdAt").asText());
        assertEquals(600, ni.at("/spec/images/nginx/tags/0/pullPolicy/timeoutSeconds").asInt());
        assertEquals(3, ni.at("/spec/images/nginx/tags/0/pullPolicy/backoffLimit").asInt());
    }

    /** Issue 24 hostile input: a v1alpha1 CREATE whose metadata is null got a 500 (NullPointerException) before. */
    @Test
    void anAlphaCreateWithoutMetadataStillGetsItsFinalizer() {
        ObjectNode alpha = object("v1alpha1", "ImagePullJob", "{\"image\": \"nginx\"}");
        alpha.putNull("metadata");
        JsonNode a = patched(ImagePullJobWebhooks.mutatingImagePullJob(),
                request("v1alpha1", "ImagePullJob", "CREATE", alpha, null));
        assertEquals("[\"apps.kruise.io/deletion-protection\"]", a.at("/metadata/finalizers").toString());
        assertEquals("Always", a.at("/spec/completionPolicy/type").asText());
    }

    /** The hostile storms vary these objects, so each must be one the validating webhook admits as it stands. */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"IMAGEPULLJOB,v1beta1", "IMAGEPULLJOB_ALPHA,v1alpha1", "IMAGELISTPULLJOB,v1beta1", "NODEIMAGE,v1beta1"})
    void theHostileSeedsAreValid(String sample, String version) throws Exception {
        ObjectNode object = (ObjectNode) Json.MAPPER.readTree(
                (String) dev.kruisevertx.webhook.bench.HostileTarget.class.getField(sample).get(null));
        String kind = object.path("kind").asText();
        AdmissionHandler handler = switch (kind) {
            case "ImagePullJob" -> ImagePullJobWebhooks.validatingImagePullJob(ON);
            case "ImageListPullJob" -> ImagePullJobWebhooks.validatingImageListPullJob(ON);
            default -> ImagePullJobWebhooks.validatingNodeImage(ON);
        };
        AdmissionResponse r = handler.handle(request(version, kind, "CREATE", object, null)).result();
        assertTrue(r.allowed(), sample + ": " + r.message());
    }
}
