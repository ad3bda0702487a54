package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.node.ArrayNode;

import java.util.List;

/**
 * What a handler decides. A non-empty {@code patchOps} is an RFC 6902 JSON patch against the request object.
 *
 * @param allowed  whether the request may proceed
 * @param code     HTTP-style status code reported to the user (200 when allowed)
 * @param reason   machine-readable reason, or null
 * @param message  human-readable explanation, or null
 * @param patchOps JSON patch operations, or null
 * @param warnings warnings shown to the client
 */
public record AdmissionResponse(boolean allowed, int code, String reason, String message, JsonPatchOps patchOps,
                                List<String> warnings) {

    public AdmissionResponse {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    public static AdmissionResponse allow() {
        return new AdmissionResponse(true, 200, null, null, null, List.of());
    }

    public static AdmissionResponse allow(String message) {
        return new AdmissionResponse(true, 200, null, message, null, List.of());
    }

    public static AdmissionResponse patched(ArrayNode patch) {
        return patched(patch == null ? null : JsonPatchOps.of(patch));
    }

    public static AdmissionResponse patched(JsonPatchOps patch) {
        if (patch == null || patch.isEmpty()) {
            return allow();
        }
        return new AdmissionResponse(true, 200, null, null, patch, List.of());
    }

    /** A rejection: {@code 403 Forbidden} for policy, {@code 422 Invalid} for validation, as the API server uses them. */
    public static AdmissionResponse denied(int code, String message) {
        return new AdmissionResponse(false, code, reasonFor(code), message, null, List.of());
    }

    /** The answer of a validation: allowed without errors, else {@code 422 Invalid} listing them all. */
    public static AdmissionResponse validated(List<FieldError> errors) {
        return errors.isEmpty() ? allow() : denied(422, FieldError.aggregate(errors));
    }

    /** The request could not be judged (bad object, internal failure). */
    public static AdmissionResponse errored(int code, String message) {
        return new AdmissionResponse(false, code, reasonFor(code), message, null, List.of());
    }

    public AdmissionResponse withWarnings(List<String> more) {
        return new AdmissionResponse(allowed, code, reason, message, patchOps, more);
    }

    public boolean hasPatch() {
        return patchOps != null && !patchOps.isEmpty();
    }

    /** The patch as a JSON array (built on each call), or null. */
    public ArrayNode patch() {
        return patchOps == null ? null : patchOps.toArrayNode();
    }

    static String reasonFor(int code) {
        return switch (code) {
            case 400 -> "BadRequest";
            case 403 -> "Forbidden";
            case 404 -> "NotFound";
            case 409 -> "Conflict";
            case 413 -> "RequestEntityTooLarge";
            case 422 -> "Invalid";
            case 500 -> "InternalError";
            default -> null;
        };
    }
}
