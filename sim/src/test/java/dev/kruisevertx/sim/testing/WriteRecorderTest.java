package dev.kruisevertx.sim.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.sim.api.StoredEvent;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WriteRecorderTest {
    private static final ObjectMapper M = new ObjectMapper();

    private static ObjectNode pod(String rv, String label, String image, String ready) throws Exception {
        return (ObjectNode) M.readTree("""
                {"metadata":{"name":"p","namespace":"n","resourceVersion":"%s","labels":{"a":"%s"}},
                 "spec":{"containers":[{"name":"c","image":"%s"}]},
                 "status":{"phase":"Running","conditions":[{"type":"Ready","status":"%s"},
                   {"type":"PodScheduled","status":"True"}]}}""".formatted(rv, label, image, ready));
    }

    @Test
    void aModificationNamesThePartsItChangedButNotTheServersBookkeeping() throws Exception {
        StoredEvent e = new StoredEvent(2, "MODIFIED", pod("1", "x", "nginx:1", "True"),
                pod("2", "y", "nginx:2", "False"));
        Set<String> changed = WriteRecorder.changed(e);
        assertEquals(Set.of("metadata.labels", "spec", "status.conditions[Ready]"), changed);
        assertTrue(new WriteRecorder.Write("pods", "MODIFIED", "n", "p", changed).touchesObject());
    }

    @Test
    void aStatusOnlyWriteDoesNotTouchTheObjectButCreatesAndDeletesDo() throws Exception {
        StoredEvent status = new StoredEvent(2, "MODIFIED", pod("1", "x", "nginx:1", "True"),
                pod("2", "x", "nginx:1", "False"));
        Set<String> changed = WriteRecorder.changed(status);
        assertEquals(Set.of("status.conditions[Ready]"), changed);
        assertFalse(new WriteRecorder.Write("pods", "MODIFIED", "n", "p", changed).touchesObject());
        assertEquals(Set.of(), WriteRecorder.changed(new StoredEvent(1, "ADDED", null, pod("1", "x", "a", "True"))));
        assertTrue(new WriteRecorder.Write("pods", "ADDED", "n", "p", Set.of()).touchesObject());
        assertTrue(new WriteRecorder.Write("pods", "DELETED", "n", "p", Set.of()).touchesObject());
        assertEquals(Set.of(), WriteRecorder.changed(new StoredEvent(2, "MODIFIED", pod("1", "x", "a", "True"),
                pod("2", "x", "a", "True"))), "a write that moved only the resourceVersion changed nothing");
    }
}
