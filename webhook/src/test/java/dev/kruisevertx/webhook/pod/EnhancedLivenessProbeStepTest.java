package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.webhook.admission.AdmissionRequest;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * OpenKruise v1.9.0's enhanced liveness probe cases (pkg/webhook/pod/mutating/enhancedlivenessprobe_handler_test.go):
 * the exact annotation value, several containers, none, the opt-in annotation, and pods not owned by kruise.
 */
class EnhancedLivenessProbeStepTest {
    static Probe http() {
        return new ProbeBuilder().withNewHttpGet().withPath("/health").withPort(new IntOrString(7001)).withScheme("HTTP")
                .endHttpGet().withInitialDelaySeconds(3000).withTimeoutSeconds(5).withPeriodSeconds(100)
                .withSuccessThreshold(1).withFailureThreshold(3).build();
    }

    static Probe exec() {
        return new ProbeBuilder().withNewExec().withCommand("/home/admin/liveness.sh").endExec()
                .withInitialDelaySeconds(3000).withTimeoutSeconds(5).withPeriodSeconds(100).withSuccessThreshold(1)
                .withFailureThreshold(3).build();
    }

    static Pod pod(String using, boolean ownedByKruise, Probe c1, Probe c2) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").endMetadata()
                .withNewSpec().addNewContainer().withName("c1").withImage("i").withLivenessProbe(c1).endContainer()
                .addNewContainer().withName("c2").withImage("i").withLivenessProbe(c2).endContainer().endSpec();
        if (using != null) {
            b.editMetadata().addToAnnotations(EnhancedLivenessProbeStep.USING_ENHANCED_LIVENESS, using).endMetadata();
        }
        if (ownedByKruise) {
            b.editMetadata().addNewOwnerReference().withApiVersion("apps.kruise.io/v1alpha1").withKind("CloneSet")
                    .withName("cs").withUid("u").withController(true).endOwnerReference().endMetadata();
        }
        return b.build();
    }

    static AdmissionRequest create() {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "", "v1", "Pod", "pods", "", "p", "ns", "CREATE",
                null, null, false, null);
    }

    static String context(Pod pod) {
        return pod.getMetadata().getAnnotations() == null ? null
                : pod.getMetadata().getAnnotations().get(EnhancedLivenessProbeStep.PROBE_CONTEXT);
    }

    @Test
    void oneContainerIsBackedUpByteForByteAsOpenKruise() {
        Pod pod = pod("true", true, http(), null);
        new EnhancedLivenessProbeStep().mutate(create(), pod);
        assertEquals("[{\"name\":\"c1\",\"livenessProbe\":{\"httpGet\":{\"path\":\"/health\",\"port\":7001,\"scheme\":\"HTTP\"},"
                + "\"initialDelaySeconds\":3000,\"timeoutSeconds\":5,\"periodSeconds\":100,\"successThreshold\":1,"
                + "\"failureThreshold\":3}}]", context(pod));
        assertNull(pod.getSpec().getContainers().get(0).getLivenessProbe());
    }

    @Test
    void severalContainersInOrder() {
        Pod pod = pod("true", true, http(), exec());
        new EnhancedLivenessProbeStep().mutate(create(), pod);
        assertEquals("[{\"name\":\"c1\",\"livenessProbe\":{\"httpGet\":{\"path\":\"/health\",\"port\":7001,\"scheme\":\"HTTP\"},"
                + "\"initialDelaySeconds\":3000,\"timeoutSeconds\":5,\"periodSeconds\":100,\"successThreshold\":1,"
                + "\"failureThreshold\":3}},{\"name\":\"c2\",\"livenessProbe\":{\"exec\":{\"command\":[\"/home/admin/liveness.sh\"]},"
                + "\"initialDelaySeconds\":3000,\"timeoutSeconds\":5,\"periodSeconds\":100,\"successThreshold\":1,"
                + "\"failureThreshold\":3}}]", context(pod));
        assertNull(pod.getSpec().getContainers().get(1).getLivenessProbe());
    }

    @Test
    void noLivenessProbeNoAnnotation() {
        Pod pod = pod("true", true, null, null);
        new EnhancedLivenessProbeStep().mutate(create(), pod);
        assertNull(context(pod));
    }

    @Test
    void onlyWithTheOptInAnnotationTrue() {
        for (String using : new String[]{null, "false", "TRUE"}) {
            Pod pod = pod(using, true, http(), null);
            new EnhancedLivenessProbeStep().mutate(create(), pod);
            assertNull(context(pod), "annotation " + using);
            assertNotNull(pod.getSpec().getContainers().get(0).getLivenessProbe());
        }
    }

    @Test
    void podsNotOwnedByKruiseAndUpdatesAreLeftAlone() {
        Pod notKruise = pod("true", false, http(), null);
        new EnhancedLivenessProbeStep().mutate(create(), notKruise);
        assertNull(context(notKruise));
        Pod update = pod("true", true, http(), null);
        new EnhancedLivenessProbeStep().mutate(new AdmissionRequest("admission.k8s.io/v1", "u", "", "v1", "Pod", "pods",
                "", "p", "ns", "UPDATE", null, null, false, null), update);
        assertNull(context(update));
        assertNotNull(update.getSpec().getContainers().get(0).getLivenessProbe());
    }
}
