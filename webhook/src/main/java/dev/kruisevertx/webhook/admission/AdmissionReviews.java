package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Set;

/** Reads AdmissionReview requests and writes responses in the same apiVersion (v1 or v1beta1). */
public final class AdmissionReviews {
    public static final String V1 = "admission.k8s.io/v1";
    public static final String V1BETA1 = "admission.k8s.io/v1beta1";
    private static final Set<String> VERSIONS = Set.of(V1, V1BETA1);

    private AdmissionReviews() {
    }

    /** @throws BadAdmissionReview when the body is not a usable AdmissionReview request */
    public static AdmissionRequest parse(byte[] body) {
        if (body == null || body.length == 0) {
            throw new BadAdmissionReview("request body is empty: expected an AdmissionReview");
        }
        JsonNode root;
        try {
            root = Json.MAPPER.readTree(body);
        } catch (java.io.IOException e) {
            throw new BadAdmissionReview("request body is not valid JSON: " + TypedMutatingHandler.rootMessage(e));
        }
        if (root == null || !root.isObject()) {
            throw new BadAdmissionReview("request body must be a JSON object (an AdmissionReview)");
        }
        String kind = root.path("kind").asText("");
        String apiVersion = root.path("apiVersion").asText("");
        if (!"AdmissionReview".equals(kind)) {
            throw new BadAdmissionReview("expected kind AdmissionReview, got " + (kind.isEmpty() ? "no kind" : "'" + kind + "'"));
        }
        if (!VERSIONS.contains(apiVersion)) {
            throw new BadAdmissionReview("unsupported AdmissionReview apiVersion '" + apiVersion + "': expected "
                    + V1 + " or " + V1BETA1);
        }
        JsonNode req = root.get("request");
        if (req == null || !req.isObject()) {
            throw new BadAdmissionReview("AdmissionReview has no request");
        }
        String uid = req.path("uid").asText("");
        if (uid.isEmpty()) {
            throw new BadAdmissionReview("AdmissionReview request.uid is missing");
        }
        String operation = req.path("operation").asText("");
        if (operation.isEmpty()) {
            throw new BadAdmissionReview("AdmissionReview request.operation is missing");
        }
        JsonNode object = req.get("object");
        JsonNode oldObject = req.get("oldObject");
        if (object != null && !object.isNull() && !object.isObject()) {
            throw new BadAdmissionReview("AdmissionReview request.object must be a JSON object");
        }
        if (oldObject != null && !oldObject.isNull() && !oldObject.isObject()) {
            throw new BadAdmissionReview("AdmissionReview request.oldObject must be a JSON object");
        }
        JsonNode gvk = req.path("kind");
        JsonNode gvr = req.path("resource");
        return new AdmissionRequest(apiVersion, uid,
                gvk.path("group").asText(""), gvk.path("version").asText(""), gvk.path("kind").asText(""),
                gvr.path("resource").asText(""), req.path("subResource").asText(""),
                req.path("name").asText(""), req.path("namespace").asText(""), operation,
                object instanceof ObjectNode o ? o : null,
                oldObject instanceof ObjectNode o2 ? o2 : null,
                req.path("dryRun").asBoolean(false),
                req.get("userInfo"));
    }

    public static byte[] encode(AdmissionRequest request, AdmissionResponse response) {
        return encode(request.reviewApiVersion(), request.uid(), response);
    }

    public static byte[] encode(String apiVersion, String uid, AdmissionResponse response) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("apiVersion", apiVersion);
        root.put("kind", "AdmissionReview");
        ObjectNode r = root.putObject("response");
        r.put("uid", uid);
        r.put("allowed", response.allowed());
        if (!response.allowed() || response.message() != null) {
            ObjectNode status = r.putObject("status");
            status.put("code", response.code());
            if (response.reason() != null) {
                status.put("reason", response.reason());
            }
            if (response.message() != null) {
                status.put("message", response.message());
            }
            if (!response.allowed()) {
                status.put("status", "Failure");
            }
        }
        if (response.hasPatch()) {
            r.put("patchType", "JSONPatch");
            r.put("patch", Base64.getEncoder().encodeToString(writeBytes(response.patch())));
        }
        if (!response.warnings().isEmpty()) {
            ArrayNode w = r.putArray("warnings");
            response.warnings().forEach(w::add);
        }
        return writeBytes(root);
    }

    /** Decodes the patch of an encoded response (tests and clients). */
    public static ArrayNode decodePatch(JsonNode response) {
        String b64 = response.path("patch").asText("");
        if (b64.isEmpty()) {
            return Json.MAPPER.createArrayNode();
        }
        try {
            return (ArrayNode) Json.MAPPER.readTree(new String(Base64.getDecoder().decode(b64), StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("patch is not JSON", e);
        }
    }

    private static byte[] writeBytes(JsonNode node) {
        try {
            return Json.MAPPER.writeValueAsBytes(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot serialize JSON", e);
        }
    }
}
