package dev.kruisevertx.image;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PullEventsTest {
    static final ObjectReference NODE_IMAGE = PullEvents.nodeImage("node-1", "uid-n", "42");
    static final ObjectReference JOB = new ObjectReferenceBuilder().withApiVersion("apps.kruise.io/v1beta1")
            .withKind("ImagePullJob").withNamespace("team-a").withName("pull-web").withUid("uid-j").build();

    /** Values as Go's time.Duration.String() prints them (go doc time.Duration.String). */
    @ParameterizedTest(name = "{0} ns -> {1}")
    @CsvSource({
            "0, 0s",
            "5, 5ns",
            "12000, 12µs",
            "12345, 12.345µs",
            "450000000, 450ms",
            "1500000, 1.5ms",
            "1000000000, 1s",
            "1500000000, 1.5s",
            "2003457812, 2.003457812s",
            "60000000000, 1m0s",
            "61000000000, 1m1s",
            "3600000000000, 1h0m0s",
            "3723500000000, 1h2m3.5s",
            "-1500000000, -1.5s",
    })
    void durationsPrintAsGoPrintsThem(long nanos, String go) {
        assertEquals(go, PullEvents.goString(Duration.ofNanos(nanos)));
    }

    @Test
    void aSuccessIsOneNormalEventOnTheNodeImageInKruiseDaemonsWords() {
        List<PullEvents.PullEvent> events = PullEvents.succeeded(NODE_IMAGE, "nginx", "1.26", Duration.ofMillis(2500));
        assertEquals(List.of(new PullEvents.PullEvent(NODE_IMAGE, "Normal", "PullImageSucceed",
                "Image nginx:1.26, ecalpsedTime 2.5s")), events);
    }

    @Test
    void aFailureIsAWarningOnEachOwnerAndOnTheNodeImage() {
        String error = "rpc error: code = NotFound desc = failed to pull and unpack image \"nginx:9\": not found";
        List<PullEvents.PullEvent> events = PullEvents.failed(NODE_IMAGE, List.of(JOB), "nginx", "9", error);
        String message = "Image nginx:9 " + error;
        assertEquals(List.of(new PullEvents.PullEvent(JOB, "Warning", "PullImageFailed", message),
                new PullEvents.PullEvent(NODE_IMAGE, "Warning", "PullImageFailed", message)), events);
        assertEquals(1, PullEvents.failed(NODE_IMAGE, List.of(), "nginx", "9", error).size(),
                "a tag without owners: the NodeImage only");
    }

    @Test
    void theEventObjectNamesItsSourceAndLivesInItsObjectsNamespace() {
        Instant now = Instant.parse("2026-11-24T20:00:00.750Z");
        Event onNode = PullEvents.toEvent(PullEvents.succeeded(NODE_IMAGE, "nginx", "1", Duration.ofSeconds(1)).get(0),
                "node-1", now);
        assertEquals("default", onNode.getMetadata().getNamespace(), "a cluster-scoped NodeImage's Events");
        assertTrue(onNode.getMetadata().getName().matches("node-1\\.[0-9a-f]{16}"), onNode.getMetadata().getName());
        assertEquals(NODE_IMAGE, onNode.getInvolvedObject());
        assertEquals("kruise-daemon-imagepuller", onNode.getSource().getComponent());
        assertEquals("node-1", onNode.getSource().getHost());
        assertEquals("2026-11-24T20:00:00Z", onNode.getFirstTimestamp());
        assertEquals(1, onNode.getCount());
        Event onJob = PullEvents.toEvent(PullEvents.failed(NODE_IMAGE, List.of(JOB), "nginx", "9", "boom").get(0),
                "node-1", now);
        assertEquals("team-a", onJob.getMetadata().getNamespace());
        assertEquals("Warning", onJob.getType());
        assertEquals(JOB, onJob.getInvolvedObject());
    }
}
