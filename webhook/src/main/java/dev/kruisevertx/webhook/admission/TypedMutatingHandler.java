package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;

/**
 * Adapts a mutation of a typed object into an admission handler: the request object is decoded into
 * {@code type}, handed to the mutator as a private copy, and the framework sends the resulting JSON patch.
 */
public final class TypedMutatingHandler<T> implements AdmissionHandler {

    /** Changes {@code object} in place; it is a private copy. */
    @FunctionalInterface
    public interface Mutator<T> {
        void mutate(AdmissionRequest request, T object);
    }

    private final Class<T> type;
    private final Mutator<T> mutator;

    public TypedMutatingHandler(Class<T> type, Mutator<T> mutator) {
        this.type = type;
        this.mutator = mutator;
    }

    @Override
    public Future<AdmissionResponse> handle(AdmissionRequest request) {
        if (request.object() == null) {
            return Future.succeededFuture(AdmissionResponse.allow());
        }
        T copy;
        try {
            copy = Json.toModel(request.object(), type);
        } catch (IllegalArgumentException e) {
            return Future.succeededFuture(DecodeProblems.denial(e, request.object()));
        }
        // Serialized before mutating, so both sides of the diff went through the same serializer.
        ObjectNode before = Json.toTree(copy);
        mutator.mutate(request, copy);
        return Future.succeededFuture(AdmissionResponse.patched(ObjectMutation.patch(before, Json.toTree(copy))));
    }

    static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage();
        if (m == null) {
            return t.getClass().getSimpleName();
        }
        int cut = m.indexOf("\n at [Source");
        return cut > 0 ? m.substring(0, cut) : m;
    }
}
