package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.ByteArrayOutputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** Reads AdmissionReview requests and writes responses in the same apiVersion (v1 or v1beta1). */
public final class AdmissionReviews {
    public static final String V1 = "admission.k8s.io/v1";
    public static final String V1BETA1 = "admission.k8s.io/v1beta1";

    private AdmissionReviews() {
    }

    private static final java.util.Set<String> OPERATIONS = java.util.Set.of("CREATE", "UPDATE", "DELETE", "CONNECT");

    /**
     * @throws BadReview when the body is not a usable AdmissionReview request; answerable (a review denying
     *                            it can be sent) once the body had a supported apiVersion and a uid
     */
    public static AdmissionRequest parse(byte[] body) {
        ReviewEnvelope envelope = ReviewEnvelope.read(ReviewEnvelope.parse(body, "AdmissionReview"), "AdmissionReview", V1, V1BETA1);
        JsonNode req = envelope.request();
        JsonNode operationNode = req.path("operation");
        String operation = operationNode.isTextual() ? operationNode.asText() : "";
        if (!OPERATIONS.contains(operation)) {
            throw envelope.invalid(operationNode.isMissingNode() || operationNode.isNull() || "".equals(operationNode.asText(null))
                    ? "AdmissionReview request.operation is missing"
                    : "AdmissionReview request.operation must be one of CREATE, UPDATE, DELETE or CONNECT, got "
                    + ReviewEnvelope.shown(operationNode));
        }
        JsonNode object = req.get("object");
        JsonNode oldObject = req.get("oldObject");
        if (object != null && !object.isNull() && !object.isObject()) {
            throw envelope.invalid("AdmissionReview request.object must be a JSON object, got " + ReviewEnvelope.shown(object));
        }
        if (oldObject != null && !oldObject.isNull() && !oldObject.isObject()) {
            throw envelope.invalid("AdmissionReview request.oldObject must be a JSON object, got "
                    + ReviewEnvelope.shown(oldObject));
        }
        JsonNode gvk = objectOrEmpty(envelope, req, "kind");
        JsonNode gvr = objectOrEmpty(envelope, req, "resource");
        JsonNode userInfo = req.get("userInfo");
        if (userInfo != null && !userInfo.isNull() && !userInfo.isObject()) {
            throw envelope.invalid("AdmissionReview request.userInfo must be a JSON object, got " + ReviewEnvelope.shown(userInfo));
        }
        JsonNode dryRun = req.path("dryRun");
        if (!dryRun.isMissingNode() && !dryRun.isNull() && !dryRun.isBoolean()) {
            throw envelope.invalid("AdmissionReview request.dryRun must be a boolean, got " + ReviewEnvelope.shown(dryRun));
        }
        return new AdmissionRequest(envelope.apiVersion(), envelope.uid(),
                string(envelope, gvk, "kind.group"), string(envelope, gvk, "kind.version"),
                string(envelope, gvk, "kind.kind"), string(envelope, gvr, "resource.resource"),
                string(envelope, req, "subResource"), string(envelope, req, "name"),
                string(envelope, req, "namespace"), operation,
                object instanceof ObjectNode o ? o : null,
                oldObject instanceof ObjectNode o2 ? o2 : null,
                dryRun.asBoolean(false),
                userInfo != null && userInfo.isObject() ? userInfo : null);
    }

    private static JsonNode objectOrEmpty(ReviewEnvelope envelope, JsonNode req, String field) {
        JsonNode node = req.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
        if (!node.isObject()) {
            throw envelope.invalid("AdmissionReview request." + field + " must be a JSON object, got " + ReviewEnvelope.shown(node));
        }
        return node;
    }

    /** A string field ({@code ""} when absent or null); the API server never sends another type there. */
    private static String string(ReviewEnvelope envelope, JsonNode parent, String dotted) {
        String field = dotted.substring(dotted.lastIndexOf('.') + 1);
        JsonNode node = parent.path(field);
        if (node.isMissingNode() || node.isNull()) {
            return "";
        }
        if (!node.isTextual()) {
            throw envelope.invalid("AdmissionReview request." + dotted + " must be a string, got " + ReviewEnvelope.shown(node));
        }
        return node.asText();
    }

    public static byte[] encode(AdmissionRequest request, AdmissionResponse response) {
        return encode(request.reviewApiVersion(), request.uid(), response);
    }

    public static byte[] encode(String apiVersion, String uid, AdmissionResponse response) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(512);
        try {
            write(out, apiVersion, uid, response);
        } catch (IOException e) {
            throw new IllegalStateException("cannot serialize the AdmissionReview", e);
        }
        return out.toByteArray();
    }

    /**
     * Streams the AdmissionReview answering {@code uid} to {@code out}, which stays open. The patch is written as
     * base64 of its JSON straight through an encoder, so neither its JSON nor its base64 text is ever held whole:
     * a patch can be tens of megabytes.
     */
    public static void write(OutputStream out, String apiVersion, String uid, AdmissionResponse response)
            throws IOException {
        JsonGenerator gen = Json.MAPPER.getFactory().createGenerator(out);
        gen.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        gen.writeStartObject();
        gen.writeStringField("apiVersion", apiVersion);
        gen.writeStringField("kind", "AdmissionReview");
        gen.writeObjectFieldStart("response");
        gen.writeStringField("uid", uid);
        gen.writeBooleanField("allowed", response.allowed());
        if (!response.allowed() || response.message() != null) {
            gen.writeObjectFieldStart("status");
            gen.writeNumberField("code", response.code());
            if (response.reason() != null) {
                gen.writeStringField("reason", response.reason());
            }
            if (response.message() != null) {
                gen.writeStringField("message", response.message());
            }
            if (!response.allowed()) {
                gen.writeStringField("status", "Failure");
            }
            gen.writeEndObject();
        }
        if (!response.warnings().isEmpty()) {
            gen.writeArrayFieldStart("warnings");
            for (String w : response.warnings()) {
                gen.writeString(w);
            }
            gen.writeEndArray();
        }
        if (response.hasPatch()) {
            gen.writeStringField("patchType", "JSONPatch");
            gen.writeFieldName("patch");
            // The opening quote goes through the generator (which then places the separators right); the base64
            // text, which needs no escaping, goes around it, straight to the stream.
            gen.writeRawValue("\"");
            gen.flush();
            try (OutputStream base64 = Base64.getEncoder().wrap(new KeepOpen(out));
                 JsonGenerator patch = Json.MAPPER.getFactory().createGenerator(base64)) {
                response.patchOps().writeTo(patch);
            }
            out.write('"');
        }
        gen.writeEndObject();
        gen.writeEndObject();
        gen.close();
    }

    /** Lets the base64 encoder finish (padding) on close without closing the response stream. */
    private static final class KeepOpen extends FilterOutputStream {
        KeepOpen(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
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
}
