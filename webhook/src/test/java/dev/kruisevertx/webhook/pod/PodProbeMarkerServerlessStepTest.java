package dev.kruisevertx.webhook.pod;

import dev.kruisevertx.api.apps.v1alpha1.PodContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarkerSpec;
import dev.kruisevertx.api.apps.v1alpha1.ProbeMarkerPolicy;
import dev.kruisevertx.features.FeatureGates;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.WebhookDependencies;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.podprobemarker.PodProbeMarkerLookup;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The serverless PodProbeMarker step of {@code /mutate-pod} as a table: OpenKruise v1.9.0's two cases
 * (pkg/webhook/pod/mutating/pod_probe_marker_test.go, exact annotation values) and the rules around them.
 */
class PodProbeMarkerServerlessStepTest {
    static final String NS = "test";
    static final String PROBES = PodProbeMarker.PROBE_ANNOTATION;
    static final String LIST = PodProbeMarker.MARKER_LIST_ANNOTATION;
    static final LabelSelector WEB = new LabelSelectorBuilder().withMatchLabels(Map.of("app", "web")).build();

    record Case(String name, String operation, Pod pod, List<PodProbeMarker> markers, Map<String, String> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static PodContainerProbe probe(String container, String name, String condition, Probe probe) {
        PodContainerProbe p = new PodContainerProbe();
        p.setContainerName(container);
        p.setName(name);
        p.setPodConditionType(condition);
        p.setProbe(probe);
        ProbeMarkerPolicy policy = new ProbeMarkerPolicy();
        policy.setState("Succeeded");
        policy.setLabels(Map.of("healthy", "true"));
        p.setMarkerPolicy(List.of(policy));
        return p;
    }

    static PodContainerProbe probe(String container, String name, String condition) {
        return probe(container, name, condition, null);
    }

    static PodProbeMarker marker(String name, String namespace, LabelSelector selector, PodContainerProbe... probes) {
        PodProbeMarker m = new PodProbeMarker();
        m.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(namespace).build());
        PodProbeMarkerSpec spec = new PodProbeMarkerSpec();
        spec.setSelector(selector);
        spec.setProbes(List.of(probes));
        m.setSpec(spec);
        return m;
    }

    static PodProbeMarker marker(String name, PodContainerProbe... probes) {
        return marker(name, NS, WEB, probes);
    }

    /** OpenKruise's test pod: init-1 (plain), init-2 (restartable), main, envoy. */
    static Pod pod(Map<String, String> annotations) {
        return new PodBuilder().withNewMetadata().withName("pod-1").withNamespace(NS).addToLabels("app", "web")
                .addToAnnotations(annotations).endMetadata().withNewSpec()
                .addToInitContainers(new ContainerBuilder().withName("init-1").build(),
                        new ContainerBuilder().withName("init-2").withRestartPolicy("Always").build())
                .addToContainers(new ContainerBuilder().withName("main").build(),
                        new ContainerBuilder().withName("envoy").build())
                .endSpec().build();
    }

    static Pod pod() {
        return pod(Map.of("version", "test"));
    }

    static Map<String, String> annotations(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("version", "test");
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    static String entry(String name, String container, String probe, String condition) {
        return "{\"name\":\"" + name + "\",\"containerName\":\"" + container + "\",\"probe\":" + probe
                + ",\"podConditionType\":\"" + condition + "\"}";
    }

    static String list(String... entries) {
        return "[" + String.join(",", entries) + "]";
    }

    static Case create(String name, Pod pod, List<PodProbeMarker> markers, Map<String, String> expected) {
        return new Case(name, AdmissionRequest.CREATE, pod, markers, expected);
    }

    static Stream<Case> cases() {
        Probe exec = new ProbeBuilder().withNewExec().withCommand("/bin/sh", "-c", "/healthy.sh").endExec()
                .withInitialDelaySeconds(0).withTimeoutSeconds(3).withPeriodSeconds(5).withSuccessThreshold(1)
                .withFailureThreshold(0).build();
        Probe http = new ProbeBuilder().withNewHttpGet().withHost("").withScheme("HTTP").withPath("/h")
                .withPort(new IntOrString("http")).addNewHttpHeader().withName("X").withValue("1").endHttpHeader()
                .endHttpGet().withPeriodSeconds(2).withTerminationGracePeriodSeconds(0L).build();
        Probe tcp = new ProbeBuilder().withNewTcpSocket().withPort(new IntOrString(8080)).endTcpSocket().build();
        LabelSelector expression = new LabelSelectorBuilder().addNewMatchExpression().withKey("app")
                .withOperator("In").withValues("web", "api").endMatchExpression().build();
        LabelSelector invalid = new LabelSelectorBuilder().addNewMatchExpression().withKey("app")
                .withOperator("Near").withValues("web").endMatchExpression().build();
        String healthy = entry("healthy", "main", "{}", "game.kruise.io/healthy");
        return Stream.of(
                create("OpenKruise: selector matched but no conditionType (and an unknown container): unchanged", pod(),
                        List.of(marker("healthy", probe("main", "healthy", ""),
                                probe("invalid", "healthy", "game.kruise.io/healthy"))),
                        annotations()),
                create("OpenKruise: selector matched, two markers", pod(),
                        List.of(marker("healthy", probe("main", "healthy", "game.kruise.io/healthy"),
                                        probe("envoy", "healthy", "game.kruise.io/healthy")),
                                marker("init", probe("init-1", "init", "game.kruise.io/init"),
                                        probe("init-2", "init", "game.kruise.io/init"))),
                        annotations(PROBES, list(healthy, entry("init", "init-2", "{}", "game.kruise.io/init")),
                                LIST, "healthy,init")),
                new Case("an UPDATE is left alone", AdmissionRequest.UPDATE, pod(),
                        List.of(marker("healthy", probe("main", "healthy", "game.kruise.io/healthy"))), annotations()),
                create("no markers: unchanged", pod(), List.of(), annotations()),
                create("a marker of another namespace does not apply", pod(),
                        List.of(marker("healthy", "other", WEB, probe("main", "healthy", "game.kruise.io/healthy"))),
                        annotations()),
                create("a selector that does not match", pod(),
                        List.of(marker("healthy", NS, new LabelSelectorBuilder().withMatchLabels(Map.of("app", "db"))
                                .build(), probe("main", "healthy", "game.kruise.io/healthy"))),
                        annotations()),
                create("an empty selector selects nothing", pod(),
                        List.of(marker("healthy", NS, new LabelSelector(), probe("main", "healthy", "game.kruise.io/healthy"))),
                        annotations()),
                create("a missing selector selects nothing", pod(),
                        List.of(marker("healthy", NS, null, probe("main", "healthy", "game.kruise.io/healthy"))),
                        annotations()),
                create("an invalid selector is skipped; the valid marker still applies", pod(),
                        List.of(marker("bad", NS, invalid, probe("envoy", "e", "game.kruise.io/envoy")),
                                marker("healthy", probe("main", "healthy", "game.kruise.io/healthy"))),
                        annotations(PROBES, list(healthy), LIST, "healthy")),
                create("matchExpressions select too", pod(),
                        List.of(marker("healthy", NS, expression, probe("main", "healthy", "game.kruise.io/healthy"))),
                        annotations(PROBES, list(healthy), LIST, "healthy")),
                create("a condition type already taken by an earlier marker (name order) is skipped", pod(),
                        List.of(marker("b-second", probe("envoy", "other", "game.kruise.io/healthy")),
                                marker("a-first", probe("main", "healthy", "game.kruise.io/healthy"))),
                        annotations(PROBES, list(healthy), LIST, "a-first")),
                create("the same container/probe name in two markers is taken once", pod(),
                        List.of(marker("a", probe("main", "healthy", "game.kruise.io/healthy")),
                                marker("b", probe("main", "healthy", "game.kruise.io/other"))),
                        annotations(PROBES, list(healthy), LIST, "a")),
                create("a plain init container is not probed", pod(),
                        List.of(marker("init", probe("init-1", "init", "game.kruise.io/init"))), annotations()),
                create("an exec probe is written as Go writes it: zero fields omitted, markerPolicy dropped", pod(),
                        List.of(marker("healthy", probe("main", "healthy", "game.kruise.io/healthy", exec))),
                        annotations(PROBES, list(entry("healthy", "main",
                                "{\"exec\":{\"command\":[\"/bin/sh\",\"-c\",\"/healthy.sh\"]},\"timeoutSeconds\":3,"
                                        + "\"periodSeconds\":5,\"successThreshold\":1}", "game.kruise.io/healthy")),
                                LIST, "healthy")),
                create("an httpGet probe in Go's field order, an empty host omitted, a zero grace period kept", pod(),
                        List.of(marker("healthy", probe("main", "healthy", "game.kruise.io/healthy", http))),
                        annotations(PROBES, list(entry("healthy", "main",
                                "{\"httpGet\":{\"path\":\"/h\",\"port\":\"http\",\"scheme\":\"HTTP\",\"httpHeaders\":"
                                        + "[{\"name\":\"X\",\"value\":\"1\"}]},\"periodSeconds\":2,"
                                        + "\"terminationGracePeriodSeconds\":0}", "game.kruise.io/healthy")),
                                LIST, "healthy")),
                create("a marker with two probes is listed once; probes keep their order", pod(),
                        List.of(marker("m", probe("main", "a", "game.kruise.io/a", tcp),
                                probe("envoy", "b", "game.kruise.io/b"))),
                        annotations(PROBES, list(entry("a", "main", "{\"tcpSocket\":{\"port\":8080}}", "game.kruise.io/a"),
                                entry("b", "envoy", "{}", "game.kruise.io/b")), LIST, "m")),
                create("the marker-list annotation names the markers, selector or not; unknown names skipped",
                        pod(Map.of("version", "test", LIST, "gone,elsewhere")),
                        List.of(marker("elsewhere", NS, new LabelSelectorBuilder().withMatchLabels(Map.of("app", "db"))
                                        .build(), probe("main", "healthy", "game.kruise.io/healthy")),
                                marker("healthy", probe("envoy", "e", "game.kruise.io/envoy"))),
                        annotations(LIST, "elsewhere", PROBES, list(healthy))),
                create("a stale probe annotation is replaced; other annotations stay",
                        pod(Map.of("version", "test", PROBES, "[]")),
                        List.of(marker("healthy", probe("main", "healthy", "game.kruise.io/healthy"))),
                        annotations(PROBES, list(healthy), LIST, "healthy")),
                create("listed markers that are all gone: unchanged",
                        pod(Map.of("version", "test", LIST, "gone")),
                        List.of(marker("healthy", probe("main", "healthy", "game.kruise.io/healthy"))),
                        annotations(LIST, "gone")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void table(Case c) {
        Pod pod = c.pod();
        AdmissionRequest request = new AdmissionRequest("admission.k8s.io/v1", "u", "", "v1", "Pod", "pods", "",
                "pod-1", NS, c.operation(), null, null, false, null);
        new PodProbeMarkerServerlessStep(PodProbeMarkerLookup.of(c.markers())).mutate(request, pod);
        assertEquals(c.expected(), pod.getMetadata().getAnnotations());
    }

    static AdmissionResponse mutate(String gates, Pod pod, PodProbeMarker... markers) throws Exception {
        AdmissionRegistry registry = new AdmissionRegistry();
        PodMutatingPipeline pipeline = KruiseWebhooks.registerAll(registry, WebhookDependencies.of(FeatureGates.parse(gates, Map.of()))
                .withPodProbeMarkers(PodProbeMarkerLookup.of(Arrays.asList(markers))));
        AdmissionRequest request = new AdmissionRequest("admission.k8s.io/v1", "u", "", "v1", "Pod", "pods", "",
                "pod-1", NS, AdmissionRequest.CREATE, Json.toTree(pod), null, false, null);
        return pipeline.handle(request).toCompletionStage().toCompletableFuture().get();
    }

    @Test
    void theGateDecidesWhetherMutatePodRunsTheStep() throws Exception {
        PodProbeMarker m = marker("healthy", probe("main", "healthy", "game.kruise.io/healthy"));
        AdmissionResponse on = mutate("EnablePodProbeMarkerOnServerless=true", pod(), m);
        assertTrue(on.hasPatch());
        List<String> paths = new ArrayList<>();
        on.patch().forEach(op -> paths.add(op.path("path").asText()));
        assertTrue(paths.contains("/metadata/annotations/kruise.io~1podprobe"), paths.toString());
        assertTrue(paths.contains("/metadata/annotations/kruise.io~1podprobemarker-list"), paths.toString());

        AdmissionResponse off = mutate("", pod(), m);
        assertFalse(off.hasPatch() && off.patch().toString().contains("podprobe"), String.valueOf(off.patch()));
    }
}
