package dev.kruisevertx.expectations;

import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@EnableKubernetesMockClient(crud = true)
class ExpectedDeletesTest {
    static KubernetesClient client;
    static final String KEY = "deletes/set";

    final ScaleExpectations scale = new ScaleExpectations(Duration.ofMinutes(5), new ManualClock(),
            new SimpleMeterRegistry(), "test_leakage");

    @Test
    void aDeletedPodLeavesTheExpectationToItsDeletionEvent() {
        client.pods().inNamespace("deletes").resource(new PodBuilder().withNewMetadata().withName("p1")
                .endMetadata().build()).create();
        scale.expectDelete(KEY, "p1");

        assertTrue(ExpectedDeletes.delete(client.pods().inNamespace("deletes").withName("p1"), scale, KEY, "p1"));

        assertNull(client.pods().inNamespace("deletes").withName("p1").get());
        assertFalse(scale.satisfied(KEY).satisfied(), "the cache's deletion event observes it");
    }

    @Test
    void aPodAlreadyGoneIsObservedAtOnce() {
        scale.expectDelete(KEY, "gone");

        assertFalse(ExpectedDeletes.delete(client.pods().inNamespace("deletes").withName("gone"), scale, KEY, "gone"));

        assertTrue(scale.satisfied(KEY).satisfied(), "no deletion event will come");
    }
}
