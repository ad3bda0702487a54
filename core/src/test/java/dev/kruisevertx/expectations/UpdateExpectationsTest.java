package dev.kruisevertx.expectations;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class UpdateExpectationsTest {
    private static final String KEY = "ns/cs";
    private final UpdateExpectations expectations = UpdateExpectations.byRevisionLabel();

    private static Pod pod(String name, String revision) {
        PodBuilder b = new PodBuilder().withNewMetadata().withNamespace("ns").withName(name).endMetadata();
        if (revision != null) {
            b.editMetadata().addToLabels(UpdateExpectations.REVISION_LABEL, revision).endMetadata();
        }
        return b.build();
    }

    @Test
    void satisfiedOnceEveryUpdatedPodShowsTheRevision() {
        expectations.expectUpdated(KEY, "rev-2", pod("a", "rev-1"));
        expectations.expectUpdated(KEY, "rev-2", pod("b", "rev-1"));
        assertFalse(expectations.satisfied(KEY, "rev-2"));
        assertEquals(List.of("ns/a", "ns/b"), expectations.pending(KEY, "rev-2"));

        expectations.observeUpdated(KEY, "rev-2", pod("a", "rev-1")); // cache still shows the old revision
        assertFalse(expectations.satisfied(KEY, "rev-2"));
        expectations.observeUpdated(KEY, "rev-2", pod("a", "rev-2"));
        assertEquals(List.of("ns/b"), expectations.pending(KEY, "rev-2"));
        expectations.observeUpdated(KEY, "rev-2", pod("b", "rev-2"));
        assertTrue(expectations.satisfied(KEY, "rev-2"));
    }

    @Test
    void anotherRevisionIsNotWaitedFor() {
        expectations.expectUpdated(KEY, "rev-2", pod("a", "rev-1"));
        assertTrue(expectations.satisfied(KEY, "rev-3"));
        assertEquals(List.of(), expectations.pending(KEY, "rev-3"));
    }

    @Test
    void expectingANewRevisionStartsOver() {
        expectations.expectUpdated(KEY, "rev-2", pod("a", "rev-1"));
        expectations.expectUpdated(KEY, "rev-3", pod("b", "rev-2"));
        assertEquals(List.of("ns/b"), expectations.pending(KEY, "rev-3"));
        assertTrue(expectations.satisfied(KEY, "rev-2"));
    }

    @Test
    void observingForAnotherRevisionForgetsTheController() {
        expectations.expectUpdated(KEY, "rev-2", pod("a", "rev-1"));
        expectations.observeUpdated(KEY, "rev-3", pod("a", "rev-3"));
        assertTrue(expectations.satisfied(KEY, "rev-2"));
    }

    @Test
    void deleteForgets() {
        expectations.expectUpdated(KEY, "rev-2", pod("a", null));
        expectations.delete(KEY);
        assertTrue(expectations.satisfied(KEY, "rev-2"));
    }
}
