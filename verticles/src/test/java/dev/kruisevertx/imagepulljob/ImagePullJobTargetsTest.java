package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobNodeSelector;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobPodSelector;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.kruisevertx.imagepulljob.ImagePullJobFixtures.byName;
import static dev.kruisevertx.imagepulljob.ImagePullJobFixtures.job;
import static dev.kruisevertx.imagepulljob.ImagePullJobFixtures.nodeImage;
import static dev.kruisevertx.imagepulljob.ImagePullJobFixtures.pod;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which NodeImages a job targets: OpenKruise's GetNodeImagesForJob as a table. */
class ImagePullJobTargetsTest {
    static final Map<String, NodeImage> NODES = byName(
            nodeImage("n1", Map.of("zone", "a", "pool", "x")),
            nodeImage("n2", Map.of("zone", "b", "pool", "x")),
            nodeImage("n3", Map.of("zone", "a")),
            nodeImage("n4", Map.of()));

    static ImagePullJobNodeSelector names(String... names) {
        ImagePullJobNodeSelector s = new ImagePullJobNodeSelector();
        s.setNames(List.of(names));
        return s;
    }

    static ImagePullJobNodeSelector labels(Map<String, String> labels, LabelSelectorRequirement... expressions) {
        ImagePullJobNodeSelector s = new ImagePullJobNodeSelector();
        s.setMatchLabels(labels);
        s.setMatchExpressions(expressions.length == 0 ? null : List.of(expressions));
        return s;
    }

    static ImagePullJobPodSelector pods(Map<String, String> labels) {
        ImagePullJobPodSelector s = new ImagePullJobPodSelector();
        s.setMatchLabels(labels);
        return s;
    }

    static LabelSelectorRequirement req(String key, String op, String... values) {
        return new LabelSelectorRequirement(key, op, values.length == 0 ? null : List.of(values));
    }

    static Pod running(String name, String node) {
        return pod(name, "ns", node, Map.of("app", "web"), "Running", false);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("no selector: every NodeImage, by name", null, null, List.of(), List.of("n1", "n2", "n3", "n4")),
                Arguments.of("names in the order given", names("n3", "n1"), null, List.of(), List.of("n3", "n1")),
                Arguments.of("names without a NodeImage are skipped", names("n1", "gone"), null, List.of(), List.of("n1")),
                Arguments.of("only unknown names", names("x", "y"), null, List.of(), List.of()),
                Arguments.of("empty names list targets nothing", names(), null, List.of(), List.of()),
                Arguments.of("matchLabels one label", labels(Map.of("zone", "a")), null, List.of(), List.of("n1", "n3")),
                Arguments.of("matchLabels two labels", labels(Map.of("zone", "a", "pool", "x")), null, List.of(), List.of("n1")),
                Arguments.of("matchLabels no match", labels(Map.of("zone", "c")), null, List.of(), List.of()),
                Arguments.of("empty label selector matches all", labels(Map.of()), null, List.of(), List.of("n1", "n2", "n3", "n4")),
                Arguments.of("In", labels(null, req("zone", "In", "b")), null, List.of(), List.of("n2")),
                Arguments.of("NotIn includes unlabelled", labels(null, req("zone", "NotIn", "a")), null, List.of(), List.of("n2", "n4")),
                Arguments.of("Exists", labels(null, req("pool", "Exists")), null, List.of(), List.of("n1", "n2")),
                Arguments.of("DoesNotExist", labels(null, req("zone", "DoesNotExist")), null, List.of(), List.of("n4")),
                Arguments.of("labels and expressions ANDed", labels(Map.of("pool", "x"), req("zone", "In", "a")), null, List.of(), List.of("n1")),
                Arguments.of("pods: nodes of matching running pods", null, pods(Map.of("app", "web")),
                        List.of(running("p1", "n2"), running("p2", "n1")), List.of("n2", "n1")),
                Arguments.of("pods: a node once for several pods", null, pods(Map.of("app", "web")),
                        List.of(running("p1", "n2"), running("p2", "n2"), running("p3", "n3")), List.of("n2", "n3")),
                Arguments.of("pods: unscheduled pods do not count", null, pods(Map.of("app", "web")),
                        List.of(pod("p1", "ns", null, Map.of("app", "web"), "Pending", false)), List.of()),
                Arguments.of("pods: succeeded pods do not count", null, pods(Map.of("app", "web")),
                        List.of(pod("p1", "ns", "n1", Map.of("app", "web"), "Succeeded", false)), List.of()),
                Arguments.of("pods: failed pods do not count", null, pods(Map.of("app", "web")),
                        List.of(pod("p1", "ns", "n1", Map.of("app", "web"), "Failed", false)), List.of()),
                Arguments.of("pods: deleting pods do not count", null, pods(Map.of("app", "web")),
                        List.of(pod("p1", "ns", "n1", Map.of("app", "web"), "Running", true)), List.of()),
                Arguments.of("pods: pending scheduled pods count", null, pods(Map.of("app", "web")),
                        List.of(pod("p1", "ns", "n3", Map.of("app", "web"), "Pending", false)), List.of("n3")),
                Arguments.of("pods: other namespaces do not count", null, pods(Map.of("app", "web")),
                        List.of(pod("p1", "other", "n1", Map.of("app", "web"), "Running", false)), List.of()),
                Arguments.of("pods: labels must match", null, pods(Map.of("app", "db")),
                        List.of(running("p1", "n1")), List.of()),
                Arguments.of("pods: node without NodeImage is skipped", null, pods(Map.of("app", "web")),
                        List.of(running("p1", "fresh-node"), running("p2", "n4")), List.of("n4")),
                Arguments.of("pods: empty pod selector matches every pod", null, pods(Map.of()),
                        List.of(running("p1", "n1"), pod("p2", "ns", "n2", Map.of(), "Running", false)), List.of("n1", "n2")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void targets(String name, ImagePullJobNodeSelector selector, ImagePullJobPodSelector podSelector, List<Pod> pods,
                 List<String> expected) {
        ImagePullJob job = job("nginx:1");
        job.getSpec().setSelector(selector);
        job.getSpec().setPodSelector(podSelector);
        assertEquals(expected, ImagePullJobTargets.of(job.getSpec(), "ns", NODES, pods).stream()
                .map(n -> n.getMetadata().getName()).toList());
    }
}
