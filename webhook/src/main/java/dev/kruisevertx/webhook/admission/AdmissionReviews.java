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
        ReviewEnvelope envelope = ReviewEnvelope.read(root, "AdmissionReview", V1, V1BETA1, BadAdmissionReview::new);
        JsonNode req = envelope.request();
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
        return new AdmissionRequest(envelope.apiVersion(), envelope.uid(),
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
