package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.vertx.core.Future;

/**
 * The admission stage of a write: mutating first (may return a changed object), then validating. A failed
 * future rejects the request; an {@link ApiException} failure is passed to the client as is.
 */
public interface Admission {
    Admission NONE = new Admission() {
        @Override
        public Future<ObjectNode> mutate(AdmissionAttributes attributes) {
            return Future.succeededFuture(attributes.object());
        }

        @Override
        public Future<Void> validate(AdmissionAttributes attributes) {
            return Future.succeededFuture();
        }
    };

    Future<ObjectNode> mutate(AdmissionAttributes attributes);

    Future<Void> validate(AdmissionAttributes attributes);
}
