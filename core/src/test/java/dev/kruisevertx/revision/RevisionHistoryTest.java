package dev.kruisevertx.revision;

import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class RevisionHistoryTest {
    private static ControllerRevision revision(String name, long number, Object data) {
        return new ControllerRevisionBuilder().withNewMetadata().withName(name).endMetadata().withRevision(number)
                .withData(data).build();
    }

    @Test
    void oldestNonLiveRevisionsBeyondTheLimitArePruned() {
        List<ControllerRevision> history = List.of(revision("r1", 1, null), revision("r2", 2, null),
                revision("r3", 3, null), revision("r4", 4, null), revision("r5", 5, null));
        Set<String> live = Set.of("r1", "r5");
        List<ControllerRevision> prune = RevisionHistory.toPrune(history, r -> live.contains(r.getMetadata().getName()), 1);
        assertEquals(List.of("r2", "r3"), prune.stream().map(r -> r.getMetadata().getName()).toList());
        assertEquals(List.of(), RevisionHistory.toPrune(history, r -> false, 5));
        assertEquals(5, RevisionHistory.toPrune(history, r -> false, -1).size(), "a negative limit keeps none");
    }

    @Test
    void theTemplateIsReadFromSpecTemplateWithoutThePatchDirective() {
        Map<String, Object> template = Map.of("$patch", "replace", "metadata", Map.of("labels", Map.of("a", "b")),
                "spec", Map.of("containers", List.of(Map.of("name", "c", "image", "nginx:2"))));
        ControllerRevision r = revision("web-1", 1, Map.of("spec", Map.of("template", template)));
        assertEquals("nginx:2", RevisionHistory.templateOf(r).getSpec().getContainers().get(0).getImage());
        assertEquals(false, RevisionHistory.templateJson(r).has("$patch"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RevisionHistory.templateOf(revision("junk", 1, Map.of("spec", Map.of("x", 1)))));
        assertEquals("ControllerRevision junk data has no spec.template", e.getMessage());
    }
}
