package dev.kruisevertx.podutil;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PodPatchesTest {
    private static Pod pod() {
        return new PodBuilder().withNewMetadata().withName("p").withResourceVersion("5").addToLabels("a", "1").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec()
                .withNewStatus().withPhase("Running").endStatus().build();
    }

    @Test
    void metadataAndSpecOnlyWithOptionalGuard() {
        Pod before = pod();
        Pod after = new PodBuilder(before).editMetadata().addToLabels("b", "2").withResourceVersion("9").endMetadata()
                .editSpec().editFirstContainer().withImage("nginx:2").endContainer().endSpec()
                .editStatus().withPhase("Failed").endStatus().build();
        assertEquals("[{\"op\":\"add\",\"path\":\"/metadata/labels/b\",\"value\":\"2\"},"
                + "{\"op\":\"replace\",\"path\":\"/spec/containers/0/image\",\"value\":\"nginx:2\"}]",
                PodPatches.forPod(before, after, false));
        assertTrue(PodPatches.forPod(before, after, true)
                .startsWith("[{\"op\":\"test\",\"path\":\"/metadata/resourceVersion\",\"value\":\"5\"},"));
        assertEquals("[{\"op\":\"replace\",\"path\":\"/status/phase\",\"value\":\"Failed\"}]",
                PodPatches.forStatus(before, after));
    }

    @Test
    void noChangeIsEmptyEvenWithGuard() {
        assertTrue(PodPatches.isEmpty(PodPatches.forPod(pod(), pod(), true)));
        assertTrue(PodPatches.isEmpty(PodPatches.forStatus(pod(), pod())));
    }
}
