package dev.kruisevertx.revision;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RevisionDataTest {
    static JsonNode json(String text) throws Exception {
        return RevisionData.SORTED.readTree(text);
    }

    static ControllerRevision stored(String name, long number, Object data) {
        return new ControllerRevisionBuilder().withNewMetadata().withName(name).endMetadata()
                .withRevision(number).withData(data).build();
    }

    @Test
    void equalTemplatesGiveEqualBytesWhateverTheKeyOrder() throws Exception {
        byte[] a = RevisionData.bytes(RevisionData.sortKeys(json("{\"b\":1,\"a\":{\"y\":2,\"x\":3}}")));
        byte[] b = RevisionData.bytes(RevisionData.sortKeys(json("{\"a\":{\"x\":3,\"y\":2},\"b\":1}")));
        assertEquals("{\"a\":{\"x\":3,\"y\":2},\"b\":1}", new String(a, StandardCharsets.UTF_8));
        assertEquals(new String(a, StandardCharsets.UTF_8), new String(b, StandardCharsets.UTF_8));
    }

    @Test
    void sameDataIgnoresNullAndEmptyFieldsAndNumberWidths() throws Exception {
        // As Go writes it: no empty fields; numbers read back as ints.
        ControllerRevision fromGo = stored("web-1", 1, Map.of("spec", Map.of("template",
                Map.of("spec", Map.of("terminationGracePeriodSeconds", 30)))));
        JsonNode ours = json("{\"spec\":{\"template\":{\"metadata\":{},\"spec\":{\"volumes\":[],\"nodeName\":null}}}}");
        ((ObjectNode) ours.path("spec").path("template").path("spec")).put("terminationGracePeriodSeconds", 30L);
        assertTrue(RevisionData.sameData(fromGo, ours));
        assertFalse(RevisionData.sameData(fromGo,
                json("{\"spec\":{\"template\":{\"spec\":{\"terminationGracePeriodSeconds\":31}}}}")));
        assertFalse(RevisionData.sameData(
                new ControllerRevisionBuilder().withNewMetadata().withName("x").endMetadata().build(), ours));
    }

    @Test
    void sortedByRevisionNumberThenName() {
        ControllerRevision r3 = stored("c", 3, Map.of());
        ControllerRevision r1b = stored("b", 1, Map.of());
        ControllerRevision r1a = stored("a", 1, Map.of());
        ControllerRevision none = new ControllerRevisionBuilder().withNewMetadata().withName("z").endMetadata().build();
        assertEquals(List.of(none, r1a, r1b, r3), RevisionData.sorted(List.of(r3, r1b, none, r1a)));
    }
}
