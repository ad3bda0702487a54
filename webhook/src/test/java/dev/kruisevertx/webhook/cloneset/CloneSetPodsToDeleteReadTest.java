package dev.kruisevertx.webhook.cloneset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import io.fabric8.kubernetes.api.model.Pod;
import io.vertx.core.Future;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.kruisevertx.webhook.cloneset.CloneSetFixtures.spec;
import static dev.kruisevertx.webhook.cloneset.CloneSetFixtures.validJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A replica of a sharded manager does not cache every namespace's pods: the pods newly named in podsToDelete are read
 * through {@link PodLookup#findAsync} (the API server for such a namespace) before the in-memory validation.
 */
class CloneSetPodsToDeleteReadTest {
    private final List<String> asked = new CopyOnWriteArrayList<>();
    /** Nothing in memory; the "API server" has the fixture's pods. */
    private final PodLookup notCached = new PodLookup() {
        @Override
        public Optional<Pod> find(String namespace, String name) {
            return Optional.empty();
        }

        @Override
        public Future<Optional<Pod>> findAsync(String namespace, String name) {
            asked.add(namespace + "/" + name);
            return Future.succeededFuture(CloneSetValidationTest.LOOKUP.find(namespace, name));
        }
    };

    private static AdmissionRequest request(String op, ObjectNode object, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1alpha1", "CloneSet", "clonesets",
                "", "sample", "default", op, object, old, false, null);
    }

    private AdmissionResponse answer(AdmissionRequest r) throws Exception {
        return CloneSetWebhooks.validating(notCached).handle(r).toCompletionStage().toCompletableFuture().get();
    }

    @Test
    void podsNamedForDeletionAreReadAsynchronouslyBeforeValidation() throws Exception {
        ObjectNode cs = validJson();
        spec(cs).putObject("scaleStrategy").putArray("podsToDelete").add("mine").add("mine-2");
        assertTrue(answer(request("CREATE", cs, null)).allowed());
        assertEquals(List.of("default/mine", "default/mine-2"), asked);

        ObjectNode foreign = validJson();
        spec(foreign).putObject("scaleStrategy").putArray("podsToDelete").add("foreign");
        AdmissionResponse denied = answer(request("CREATE", foreign, null));
        assertFalse(denied.allowed());
        assertTrue(denied.message().contains("find pod foreign owner is not this CloneSet"), denied.message());
    }

    @Test
    void onlyNewlyNamedPodsAreRead() throws Exception {
        ObjectNode old = validJson();
        spec(old).putObject("scaleStrategy").putArray("podsToDelete").add("ghost");
        ObjectNode now = validJson();
        spec(now).putObject("scaleStrategy").putArray("podsToDelete").add("ghost").add("mine");
        assertTrue(answer(request("UPDATE", now, old)).allowed());
        assertEquals(List.of("default/mine"), asked);
    }
}
