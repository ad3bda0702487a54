package dev.kruisevertx.webhook.podunavailablebudget;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetSpec;
import dev.kruisevertx.api.policy.v1alpha1.TargetReference;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** OpenKruise's PUB validation cases (and the rules they pin) as a table: the messages are OpenKruise's. */
class PodUnavailableBudgetValidationTest {

    static PodUnavailableBudget pub(String name, Consumer<PodUnavailableBudgetSpec> edit) {
        PodUnavailableBudget p = new PodUnavailableBudget();
        p.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("default")
                .withAnnotations(new HashMap<>()).build());
        PodUnavailableBudgetSpec s = new PodUnavailableBudgetSpec();
        s.setTargetRef(new TargetReference("apps.kruise.io/v1alpha1", "CloneSet", "web"));
        s.setMaxUnavailable(new IntOrString(1));
        edit.accept(s);
        p.setSpec(s);
        return p;
    }

    static LabelSelector labels(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        LabelSelector s = new LabelSelector();
        s.setMatchLabels(m);
        return s;
    }

    static LabelSelector expr(String key, String op, String... values) {
        LabelSelector s = new LabelSelector();
        s.setMatchExpressions(List.of(new LabelSelectorRequirement(key, op, values.length == 0 ? null : List.of(values))));
        return s;
    }

    static Consumer<PodUnavailableBudgetSpec> selector(LabelSelector sel) {
        return s -> {
            s.setTargetRef(null);
            s.setSelector(sel);
        };
    }

    static PodUnavailableBudget annotated(String key, String value) {
        PodUnavailableBudget p = pub("pub", s -> { });
        p.getMetadata().getAnnotations().put(key, value);
        return p;
    }

    static Stream<Arguments> single() {
        String ops = WellKnown.PUB_PROTECT_OPERATIONS_ANNOTATION;
        String total = WellKnown.PUB_PROTECT_TOTAL_REPLICAS_ANNOTATION;
        String badOps = "metadata: Internal error: annotation[kruise.io/pub-protect-operations] is invalid";
        String badTotal = "metadata: Internal error: annotation[pub.kruise.io/protect-total-replicas] is invalid";
        return Stream.of(
                Arguments.of("targetRef and maxUnavailable", pub("pub", s -> { }), List.of()),
                Arguments.of("selector and minAvailable", pub("pub", s -> {
                    selector(labels("app", "web")).accept(s);
                    s.setMaxUnavailable(null);
                    s.setMinAvailable(new IntOrString("50%"));
                }), List.of()),
                Arguments.of("neither selector nor targetRef", pub("pub", s -> s.setTargetRef(null)),
                        List.of("spec.selector, targetRef: Required value: no selector or targetRef defined in "
                                + "PodUnavailableBudget")),
                Arguments.of("both selector and targetRef", pub("pub", s -> s.setSelector(labels("app", "web"))),
                        List.of("spec.selector, targetRef: Required value: selector and targetRef are mutually exclusive")),
                Arguments.of("neither maxUnavailable nor minAvailable", pub("pub", s -> s.setMaxUnavailable(null)),
                        List.of("spec.maxUnavailable, minAvailable: Required value: no maxUnavailable or minAvailable "
                                + "defined in PodUnavailableBudget")),
                Arguments.of("both maxUnavailable and minAvailable", pub("pub", s -> s.setMinAvailable(new IntOrString(1))),
                        List.of("spec.maxUnavailable, minAvailable: Required value: maxUnavailable and minAvailable are "
                                + "mutually exclusive")),
                Arguments.of("unknown protected operation", annotated(ops, "xxxxx"), List.of(badOps)),
                Arguments.of("every protected operation", annotated(ops, "EVICT,DELETE,UPDATE,RESIZE"), List.of()),
                Arguments.of("lower-case operation", annotated(ops, "delete"), List.of(badOps)),
                Arguments.of("two bad operations are two errors", annotated(ops, "DELETE,x,y"), List.of(badOps, badOps)),
                Arguments.of("empty operations annotation", annotated(ops, ""), List.of(badOps)),
                Arguments.of("total replicas not a number", annotated(total, "%%"), List.of(badTotal)),
                Arguments.of("total replicas a number", annotated(total, "1000"), List.of()),
                Arguments.of("total replicas beyond int32", annotated(total, "3000000000"), List.of(badTotal)),
                Arguments.of("targetRef without kind", pub("pub", s -> s.getTargetRef().setKind("")),
                        List.of("spec.TargetReference: Invalid value: \"{apiVersion:apps.kruise.io/v1alpha1, kind:, "
                                + "name:web}\": empty TargetReference is not valid for PodUnavailableBudget.")),
                Arguments.of("targetRef with a bad apiVersion", pub("pub", s -> s.getTargetRef().setApiVersion("a/b/c")),
                        List.of("spec.TargetReference: Invalid value: \"{apiVersion:a/b/c, kind:CloneSet, name:web}\": "
                                + "unexpected GroupVersion string: a/b/c")),
                Arguments.of("core apiVersion parses", pub("pub", s -> s.getTargetRef().setApiVersion("v1")), List.of()),
                Arguments.of("empty selector", pub("pub", selector(new LabelSelector())),
                        List.of("spec.selector: Invalid value: \"{}\": empty selector is not valid for PodUnavailableBudget.")),
                Arguments.of("selector with a bad operator", pub("pub", selector(expr("app", "Like", "x"))),
                        List.of("spec.selector.matchExpressions[0].operator: Invalid value: \"Like\": not a valid "
                                + "selector operator")),
                Arguments.of("In without values", pub("pub", selector(expr("app", "In"))),
                        List.of("spec.selector.matchExpressions[0].values: Required value: must be specified when "
                                + "`operator` is 'In' or 'NotIn'")),
                Arguments.of("maxUnavailable negative", pub("pub", s -> s.setMaxUnavailable(new IntOrString(-1))),
                        List.of("spec.maxUnavailable: Invalid value: -1: must be greater than or equal to 0")),
                Arguments.of("maxUnavailable 0 is allowed", pub("pub", s -> s.setMaxUnavailable(new IntOrString(0))),
                        List.of()),
                Arguments.of("maxUnavailable over 100%", pub("pub", s -> s.setMaxUnavailable(new IntOrString("101%"))),
                        List.of("spec.maxUnavailable: Invalid value: \"101%\": must not be greater than 100%")),
                Arguments.of("maxUnavailable not a percent", pub("pub", s -> s.setMaxUnavailable(new IntOrString("abc"))),
                        List.of("spec.maxUnavailable: Invalid value: \"abc\": a valid percent string must be a numeric "
                                + "string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is "
                                + "'[0-9]+%')")),
                Arguments.of("minAvailable negative", pub("pub", s -> {
                    s.setMaxUnavailable(null);
                    s.setMinAvailable(new IntOrString(-2));
                }), List.of("spec.minAvailable: Invalid value: -2: must be greater than or equal to 0")),
                Arguments.of("minAvailable 100%", pub("pub", s -> {
                    s.setMaxUnavailable(null);
                    s.setMinAvailable(new IntOrString("100%"));
                }), List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("single")
    void validatesOneBudget(String name, PodUnavailableBudget pub, List<String> expected) {
        assertEquals(expected, PodUnavailableBudgetValidation.validate(pub, null, List.of()).stream()
                .map(FieldError::toString).toList());
    }

    static Stream<Arguments> conflicts() {
        return Stream.of(
                Arguments.of("different workloads", pub("pub", s -> { }),
                        List.of(pub("pub1", s -> s.getTargetRef().setName("web1")),
                                pub("pub2", s -> s.getTargetRef().setKind("Deployment"))), null),
                Arguments.of("same workload, other version of the group", pub("pub", s -> { }),
                        List.of(pub("pub1", s -> s.getTargetRef().setApiVersion("apps.kruise.io/v1beta1"))), "pub1"),
                Arguments.of("same name, other group", pub("pub", s -> { }),
                        List.of(pub("pub1", s -> s.getTargetRef().setApiVersion("apps/v1"))), null),
                Arguments.of("itself is skipped", pub("pub", s -> { }), List.of(pub("pub", s -> { })), null),
                Arguments.of("targetRef against selector never conflicts", pub("pub", s -> { }),
                        List.of(pub("pub1", selector(labels("app", "web")))), null),
                Arguments.of("selectors with different values", pub("pub", selector(labels("app", "pub-controller"))),
                        List.of(pub("pub1", selector(labels("app", "pub1-controller")))), null),
                Arguments.of("equal selectors", pub("pub", selector(labels("app", "pub-controller"))),
                        List.of(pub("pub2", selector(labels("app", "x"))),
                                pub("pub1", selector(labels("app", "pub-controller")))), "pub1"),
                Arguments.of("selectors over different keys are not loose overlaps",
                        pub("pub", selector(labels("app", "web"))),
                        List.of(pub("pub1", selector(labels("app", "web", "tier", "front")))), null),
                Arguments.of("In overlaps Exists", pub("pub", selector(labels("app", "web"))),
                        List.of(pub("pub1", selector(expr("app", "Exists")))), "pub1"),
                Arguments.of("In against NotIn of the same value", pub("pub", selector(labels("app", "web"))),
                        List.of(pub("pub1", selector(expr("app", "NotIn", "web")))), null),
                Arguments.of("In against NotIn of another value", pub("pub", selector(labels("app", "web"))),
                        List.of(pub("pub1", selector(expr("app", "NotIn", "db")))), "pub1"),
                Arguments.of("DoesNotExist against Exists", pub("pub", selector(expr("app", "DoesNotExist"))),
                        List.of(pub("pub1", selector(expr("app", "Exists")))), null),
                Arguments.of("other namespace", pub("pub", selector(labels("app", "web"))),
                        List.of(inNamespace(pub("pub1", selector(labels("app", "web"))), "other")), null));
    }

    static PodUnavailableBudget inNamespace(PodUnavailableBudget p, String ns) {
        p.getMetadata().setNamespace(ns);
        return p;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("conflicts")
    void refusesABudgetOverlappingAnother(String name, PodUnavailableBudget pub, List<PodUnavailableBudget> others,
                                          String conflictsWith) {
        List<String> errors = PodUnavailableBudgetValidation.validate(pub, null, others).stream()
                .map(FieldError::toString).toList();
        if (conflictsWith == null) {
            assertEquals(List.of(), errors);
        } else {
            assertEquals(1, errors.size(), errors.toString());
            assertTrue(errors.get(0).endsWith("is in conflict with other PodUnavailableBudget " + conflictsWith),
                    errors.get(0));
        }
    }

    @Test
    void selectorAndTargetRefAreImmutable() {
        String immutable = "spec.selector, targetRef: Required value: selector and targetRef cannot be modified";
        PodUnavailableBudget old = pub("pub", s -> { });
        assertEquals(List.of(), PodUnavailableBudgetValidation.validate(pub("pub", s -> s.setMaxUnavailable(
                new IntOrString("30%"))), old, List.of()).stream().map(FieldError::toString).toList());
        assertEquals(List.of(immutable), PodUnavailableBudgetValidation.validate(pub("pub",
                s -> s.getTargetRef().setName("web2")), old, List.of()).stream().map(FieldError::toString).toList());
        PodUnavailableBudget oldSel = pub("pub", selector(labels("app", "web")));
        assertEquals(List.of(immutable), PodUnavailableBudgetValidation.validate(pub("pub",
                selector(labels("app", "web2"))), oldSel, List.of()).stream().map(FieldError::toString).toList());
    }

    static AdmissionRequest request(PodUnavailableBudget pub) {
        ObjectNode o = (ObjectNode) Json.MAPPER.valueToTree(pub);
        o.put("apiVersion", PodUnavailableBudget.API_VERSION).put("kind", PodUnavailableBudget.KIND);
        return new AdmissionRequest("admission.k8s.io/v1", "u", PodUnavailableBudget.GROUP, "v1alpha1",
                PodUnavailableBudget.KIND, PodUnavailableBudget.PLURAL, "", pub.getMetadata().getName(), "default",
                "CREATE", o, null, false, null);
    }

    @Test
    void handlerDeniesWithEveryProblemAndChecksTheNamespacesBudgets() {
        PodUnavailableBudget bad = pub("pub", s -> s.setMinAvailable(new IntOrString(1)));
        AdmissionResponse r = PodUnavailableBudgetWebhooks.validating(true, ns -> List.of())
                .handle(request(bad)).result();
        assertFalse(r.allowed());
        assertEquals("spec.maxUnavailable, minAvailable: Required value: maxUnavailable and minAvailable are mutually "
                + "exclusive", r.message());
        List<String> asked = new java.util.ArrayList<>();
        AdmissionResponse conflict = PodUnavailableBudgetWebhooks.validating(true, ns -> {
            asked.add(ns);
            return List.of(pub("pub1", s -> { }));
        }).handle(request(pub("pub", s -> { }))).result();
        assertFalse(conflict.allowed());
        assertEquals(List.of("default"), asked);
        assertTrue(conflict.message().contains("in conflict with other PodUnavailableBudget pub1"), conflict.message());
        assertTrue(PodUnavailableBudgetWebhooks.validating(true, ns -> List.of()).handle(request(pub("pub", s -> { })))
                .result().allowed());
    }

    @Test
    void refusedWhileBothGatesAreOff() {
        AdmissionResponse r = PodUnavailableBudgetWebhooks.validating(false, ns -> List.of())
                .handle(request(pub("pub", s -> { }))).result();
        assertFalse(r.allowed());
        assertEquals(400, r.code());
        assertEquals(PodUnavailableBudgetWebhooks.GATES_OFF, r.message());
    }
}
