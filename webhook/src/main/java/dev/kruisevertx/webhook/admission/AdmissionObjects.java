package dev.kruisevertx.webhook.admission;

/**
 * The objects of an admission request in the model, decoded the way every kind's webhook decodes them: the object
 * sent strictly (a field the model does not know is an error naming it), the stored old object of an UPDATE
 * leniently (as the API server kept it). Either failing is the answer.
 */
public final class AdmissionObjects {
    private AdmissionObjects() {
    }

    /**
     * The decoded objects, or the answer to send when one cannot be read.
     *
     * @param old the stored object of an UPDATE, else null
     */
    public record Decoded<T>(T object, T old, AdmissionResponse refusal) {
    }

    /** @param kind the kind as the answer names it, e.g. {@code CloneSet} */
    public static <T> Decoded<T> decode(AdmissionRequest request, Class<T> type, String kind) {
        T object;
        try {
            object = Json.decode(request.object(), type);
        } catch (IllegalArgumentException e) {
            return new Decoded<>(null, null, DecodeProblems.denial(e, request.object()));
        }
        if (!request.isUpdate() || request.oldObject() == null) {
            return new Decoded<>(object, null, null);
        }
        try {
            return new Decoded<>(object, Json.toModel(request.oldObject(), type), null);
        } catch (IllegalArgumentException e) {
            return new Decoded<>(null, null, AdmissionResponse.denied(422, storedUnreadable(kind)
                    + DecodeProblems.fieldError(e, request.oldObject())));
        }
    }

    /**
     * The start of the answer when the stored object does not fit the model at all: nothing the request changes can
     * fix that, so the answer says so instead of blaming the new object.
     */
    public static String storedUnreadable(String kind) {
        return "the stored " + kind + " cannot be read, so this update cannot be checked: ";
    }
}
