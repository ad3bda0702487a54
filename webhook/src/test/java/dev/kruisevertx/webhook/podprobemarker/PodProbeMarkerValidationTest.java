package dev.kruisevertx.webhook.podprobemarker;

import dev.kruisevertx.api.apps.v1alpha1.PodContainerProbe;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarker;
import dev.kruisevertx.api.apps.v1alpha1.PodProbeMarkerSpec;
import dev.kruisevertx.api.apps.v1alpha1.ProbeMarkerPolicy;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.webhook.admission.FieldError;
import io.fabric8.kubernetes.api.model.ExecAction;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HTTPGetActionBuilder;
import io.fabric8.kubernetes.api.model.HTTPHeader;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.TCPSocketAction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise v1.9.0's PodProbeMarker validation cases (pkg/webhook/podprobemarker/validating/probe_validating_test.go)
 * as facts: the error counts of TestValidatingPodProbeMarker, and the pass/fail tables of the handler, port, tcpSocket
 * and httpGet checks.
 */
class PodProbeMarkerValidationTest {

    static PodProbeMarker demo() {
        PodProbeMarker ppm = new PodProbeMarker();
        ppm.setMetadata(new ObjectMetaBuilder().withName("ppm-test").build());
        PodProbeMarkerSpec spec = new PodProbeMarkerSpec();
        spec.setSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "test")).build());
        PodContainerProbe probe = new PodContainerProbe();
        probe.setName("healthy");
        probe.setContainerName("main");
        probe.setProbe(new ProbeBuilder().withNewExec().withCommand("/bin/sh", "-c", "/healthy.sh").endExec().build());
        probe.setPodConditionType("game.kruise.io/healthy");
        probe.setMarkerPolicy(new ArrayList<>(List.of(
                policy("Succeeded", Map.of("controller.kubernetes.io/pod-deletion-cost", "10"),
                        Map.of("server-healthy", "true")),
                policy("Failed", Map.of("controller.kubernetes.io/pod-deletion-cost", "-10"),
                        Map.of("server-healthy", "false")))));
        spec.setProbes(new ArrayList<>(List.of(probe)));
        ppm.setSpec(spec);
        return ppm;
    }

    static ProbeMarkerPolicy policy(String state, Map<String, String> annotations, Map<String, String> labels) {
        ProbeMarkerPolicy p = new ProbeMarkerPolicy();
        p.setState(state);
        p.setAnnotations(annotations);
        p.setLabels(labels);
        return p;
    }

    static PodContainerProbe probe(String name, String container, Probe handler, String conditionType) {
        PodContainerProbe p = new PodContainerProbe();
        p.setName(name);
        p.setContainerName(container);
        p.setProbe(handler);
        p.setPodConditionType(conditionType);
        return p;
    }

    static Arguments ppmCase(String name, Consumer<PodProbeMarker> change, int errors) {
        return Arguments.of(name, change, errors);
    }

    static Stream<Arguments> validatingPodProbeMarker() {
        return Stream.of(
                ppmCase("test1 no selector", p -> p.getSpec().setSelector(null), 1),
                ppmCase("test2 no probes", p -> p.getSpec().setProbes(null), 1),
                ppmCase("test3 duplicate probe name", p -> p.getSpec().getProbes().add(
                        probe("healthy", "other", null, null)), 1),
                ppmCase("test4 valid httpGet probe added", p -> p.getSpec().getProbes().add(probe("check", "other",
                        new ProbeBuilder().withHttpGet(new HTTPGetActionBuilder().withPath("/index.html")
                                .withScheme("HTTP").withPort(new IntOrString(80)).build()).build(),
                        "game.kruise.io/check")), 0),
                ppmCase("test5 exec without command", p -> p.getSpec().getProbes().add(probe("check", "other",
                        new ProbeBuilder().withExec(new ExecAction()).build(), "game.kruise.io/check")), 1),
                ppmCase("test6 marker state Unknown", p -> p.getSpec().getProbes().get(0).setMarkerPolicy(List.of(
                        policy("Unknown", Map.of("controller.kubernetes.io/pod-deletion-cost", "10"),
                                Map.of("server-healthy", "true")))), 1),
                ppmCase("test7 bad label key (prefix and name)", p -> p.getSpec().getProbes().get(0).setMarkerPolicy(
                        List.of(policy("Succeeded", Map.of("controller.kubernetes.io/pod-deletion-cost", "10"),
                                Map.of("server-/$healthy", "true")))), 2),
                ppmCase("test8 probe named after a native condition",
                        p -> p.getSpec().getProbes().get(0).setName("Initialized"), 1),
                ppmCase("test9 bad podConditionType",
                        p -> p.getSpec().getProbes().get(0).setPodConditionType("#5invalid"), 1),
                ppmCase("test10 empty probe name", p -> p.getSpec().getProbes().get(0).setName(""), 1),
                ppmCase("test11 empty container name", p -> p.getSpec().getProbes().get(0).setContainerName(""), 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void validatingPodProbeMarker(String name, Consumer<PodProbeMarker> change, int expectedErrors) {
        PodProbeMarker ppm = demo();
        change.accept(ppm);
        List<FieldError> errors = PodProbeMarkerValidation.validate(ppm, null);
        assertEquals(expectedErrors, errors.size(), errors.toString());
    }

    static TCPSocketAction tcp(IntOrString port, String host) {
        TCPSocketAction t = new TCPSocketAction();
        t.setPort(port);
        t.setHost(host);
        return t;
    }

    static HTTPGetAction http(String path, IntOrString port, String host) {
        HTTPGetAction h = new HTTPGetAction();
        h.setPath(path);
        h.setPort(port);
        h.setHost(host);
        return h;
    }

    static Probe handler(ExecAction exec, HTTPGetAction http, TCPSocketAction tcp) {
        Probe p = new Probe();
        p.setExec(exec);
        p.setHttpGet(http);
        p.setTcpSocket(tcp);
        return p;
    }

    static ExecAction exec(String... command) {
        ExecAction e = new ExecAction();
        e.setCommand(List.of(command));
        return e;
    }

    @Test
    void validateHandlerSuccessCases() {
        for (Probe h : List.of(handler(exec("echo"), null, null),
                handler(null, null, tcp(new IntOrString(8000), null)),
                handler(null, null, tcp(new IntOrString("container-port"), null)))) {
            List<FieldError> errors = new ArrayList<>();
            PodProbeMarkerValidation.validateHandler(h, "field", errors);
            assertTrue(errors.isEmpty(), errors.toString());
        }
    }

    @Test
    void validateHandlerErrorCases() {
        IntOrString longName = new IntOrString("container-port-v2");
        List<Probe> cases = List.of(
                handler(null, null, null),
                handler(exec(), null, null),
                handler(null, null, tcp(longName, null)),
                handler(null, null, tcp(new IntOrString(-1), null)),
                handler(null, http("", new IntOrString(0), ""), null),
                handler(null, http("/foo", new IntOrString(65536), "host"), null),
                handler(null, http("", new IntOrString(""), ""), null),
                handler(exec(), null, tcp(longName, null)),
                handler(exec(), http("", new IntOrString(""), ""), null),
                handler(null, http("", new IntOrString(""), ""), tcp(longName, null)),
                handler(exec(), http("", new IntOrString(""), ""), tcp(longName, null)));
        for (Probe h : cases) {
            List<FieldError> errors = new ArrayList<>();
            PodProbeMarkerValidation.validateHandler(h, "field", errors);
            assertFalse(errors.isEmpty(), "expected failure for " + h);
        }
    }

    @Test
    void validatePortNumOrName() {
        for (IntOrString ok : List.of(new IntOrString(80), new IntOrString("abc"))) {
            List<FieldError> errors = new ArrayList<>();
            PodProbeMarkerValidation.validatePort(ok, "field", errors);
            assertTrue(errors.isEmpty(), errors.toString());
        }
        // The last is OpenKruise's "fake type": neither an integer nor a string (here: no port at all).
        for (IntOrString bad : new IntOrString[]{new IntOrString(-1), new IntOrString(""),
                new IntOrString("aaaaabbbbbcccccd"), null}) {
            List<FieldError> errors = new ArrayList<>();
            PodProbeMarkerValidation.validatePort(bad, "field", errors);
            assertFalse(errors.isEmpty(), "expected failure for " + bad);
        }
    }

    @Test
    void validateTcpSocketAction() {
        for (TCPSocketAction ok : List.of(tcp(new IntOrString(80), null), tcp(new IntOrString("abc"), null))) {
            List<FieldError> errors = new ArrayList<>();
            PodProbeMarkerValidation.validateTcpSocket(ok, "field", errors);
            assertTrue(errors.isEmpty(), errors.toString());
        }
        for (TCPSocketAction bad : List.of(tcp(new IntOrString(-1), null), tcp(new IntOrString(""), null),
                tcp(new IntOrString("aaaaabbbbbcccccd"), null), tcp(null, null),
                tcp(new IntOrString(80), "127.0.0.1"))) {
            List<FieldError> errors = new ArrayList<>();
            PodProbeMarkerValidation.validateTcpSocket(bad, "field", errors);
            assertFalse(errors.isEmpty(), "expected failure for " + bad);
        }
    }

    static HTTPGetAction httpGet(String path, IntOrString port, String scheme, String host, String... headers) {
        HTTPGetAction h = http(path, port, host);
        h.setScheme(scheme);
        List<HTTPHeader> list = new ArrayList<>();
        for (String header : headers) {
            list.add(new HTTPHeader(header, "value"));
        }
        h.setHttpHeaders(list.isEmpty() ? null : list);
        return h;
    }

    static Stream<Arguments> validateHttpGetAction() {
        return Stream.of(
                Arguments.of("valid http get action", httpGet("/healthz", new IntOrString(8080), "HTTP", null), 0),
                Arguments.of("missing path", httpGet("", new IntOrString(8080), "HTTP", null), 1),
                Arguments.of("invalid port number", httpGet("/healthz", new IntOrString(65536), "HTTP", null), 1),
                Arguments.of("invalid port name",
                        httpGet("/healthz", new IntOrString("invalid-port-name-!@#"), "HTTP", null), 2),
                Arguments.of("unsupported scheme", httpGet("/healthz", new IntOrString(8080), "FTP", null), 1),
                Arguments.of("invalid header name",
                        httpGet("/healthz", new IntOrString(8080), "HTTPS", null, "Invalid Header:Name"), 1),
                Arguments.of("multiple errors",
                        httpGet("", new IntOrString(99999), "FTP", null, "Invalid:Header"), 4),
                Arguments.of("invalid path",
                        httpGet("path%notvalid", new IntOrString(8080), "HTTP", null, "Valid-Header"), 1),
                Arguments.of("invalid host field", httpGet("/healthz", new IntOrString(8080), "HTTP", "127.0.0.1"), 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource
    void validateHttpGetAction(String name, HTTPGetAction action, int expectedErrors) {
        List<FieldError> errors = new ArrayList<>();
        PodProbeMarkerValidation.validateHttpGet(action, "test", errors);
        assertEquals(expectedErrors, errors.size(), errors.toString());
    }

    @Test
    void messagesNameTheFieldAndTheRule() {
        PodProbeMarker ppm = demo();
        ppm.getSpec().getProbes().get(0).setName("a#b");
        assertEquals("spec.probes: Invalid value: \"a#b\": probe name can't contains '#'.",
                FieldError.aggregate(PodProbeMarkerValidation.validate(ppm, null)));
        PodProbeMarker negative = demo();
        negative.getSpec().getProbes().get(0).getProbe().setPeriodSeconds(-5);
        assertEquals("spec.probe.periodSeconds: Invalid value: -5: must be greater than or equal to 0",
                FieldError.aggregate(PodProbeMarkerValidation.validate(negative, null)));
    }

    @Test
    void selectorIsImmutableOnUpdate() {
        PodProbeMarker old = demo();
        PodProbeMarker changed = demo();
        assertTrue(PodProbeMarkerValidation.validate(changed, old).isEmpty());
        changed.getSpec().setSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "other")).build());
        List<FieldError> errors = PodProbeMarkerValidation.validate(changed, old);
        assertEquals(1, errors.size());
        assertTrue(errors.get(0).toString().contains("selector must be immutable"), errors.toString());
    }

    @Test
    void grpcOnlyProbeIsRefusedAsInOpenKruise() {
        PodProbeMarker ppm = demo();
        ppm.getSpec().getProbes().get(0).setProbe(new ProbeBuilder().withNewGrpc().withPort(9000).endGrpc().build());
        assertEquals("spec.probe: Required value: must specify a handler type",
                FieldError.aggregate(PodProbeMarkerValidation.validate(ppm, null)));
    }

    @Test
    void hugeAnnotationsAreRefused() {
        PodProbeMarker ppm = demo();
        Map<String, String> huge = new LinkedHashMap<>();
        huge.put("example.com/big", "x".repeat(300 * 1024));
        ppm.getSpec().getProbes().get(0).setMarkerPolicy(List.of(policy("Succeeded", huge, null)));
        List<FieldError> errors = PodProbeMarkerValidation.validate(ppm, null);
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.get(0).toString().length() < 300, "the value is not repeated");
        // Round trip of the demo through JSON keeps it valid (the webhook decodes the same shape).
        PodProbeMarker decoded = ApiJson.serialization().unmarshal(ApiJson.toJson(demo()), PodProbeMarker.class);
        assertTrue(PodProbeMarkerValidation.validate(decoded, null).isEmpty());
    }
}
