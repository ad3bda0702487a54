package dev.kruisevertx.pub;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import dev.kruisevertx.api.policy.v1alpha1.PubOperation;
import dev.kruisevertx.api.policy.v1beta1.PodUnavailableBudgetConversion;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static dev.kruisevertx.pub.PubAdmission.Verdict.ADMIT;
import static dev.kruisevertx.pub.PubAdmission.Verdict.ADMIT_DRY_RUN;
import static dev.kruisevertx.pub.PubAdmission.Verdict.DENY;
import static dev.kruisevertx.pub.PubAdmission.Verdict.EXEMPT;
import static dev.kruisevertx.api.policy.v1alpha1.PubOperation.DELETE;
import static dev.kruisevertx.api.policy.v1alpha1.PubOperation.EVICT;
import static dev.kruisevertx.api.policy.v1alpha1.PubOperation.RESIZE;
import static dev.kruisevertx.api.policy.v1alpha1.PubOperation.UPDATE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The PUB admission decision as a table: exemptions, admissions with their record, denials with their message. */
class PubAdmissionTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:01:00Z");
    static final String RECORDED_AT = "2026-01-01T00:01:00Z";
    static final String NONE = "podunavailablebudget.policy.kruise.io \"web-pub\" is forbidden: pub unavailable "
            + "allowed is negative";
    static final String TOO_MANY = "podunavailablebudget.policy.kruise.io \"web-pub\" is forbidden: DisruptedPods "
            + "and UnavailablePods map too big - too many unavailable not confirmed by PUB controller";

    static final ObjectMapper JSON = new ObjectMapper();
    static final String IGNORED = "pod matches the budget's ignoredPodSelector";
    static final String UNEVALUABLE = "podunavailablebudget.policy.kruise.io \"web-pub\" is forbidden: "
            + "spec.ignoredPodSelector cannot be evaluated: ";

    static PodUnavailableBudget pub(int allowed, int desired, Consumer<PodUnavailableBudget> edit) {
        PodUnavailableBudget p = new PodUnavailableBudget();
        p.setMetadata(new ObjectMetaBuilder().withName("web-pub").withNamespace("default")
                .withAnnotations(new HashMap<>()).build());
        PodUnavailableBudgetStatus s = new PodUnavailableBudgetStatus();
        s.setUnavailableAllowed(allowed);
        s.setDesiredAvailable(desired);
        s.setCurrentAvailable(allowed + desired);
        s.setTotalReplicas(allowed + desired);
        p.setStatus(s);
        edit.accept(p);
        return p;
    }

    static PodUnavailableBudget pub(int allowed) {
        return pub(allowed, 2, p -> { });
    }

    static PodUnavailableBudget ops(String annotation) {
        return pub(1, 2, p -> p.getMetadata().getAnnotations().put("kruise.io/pub-protect-operations", annotation));
    }

    static PodUnavailableBudget records(int disrupted, int unavailable, String... recordedPods) {
        return pub(5, 2, p -> {
            Map<String, String> d = new HashMap<>();
            Map<String, String> u = new HashMap<>();
            for (int i = 0; i < disrupted; i++) {
                d.put("d" + i, "2026-01-01T00:00:50Z");
            }
            for (int i = 0; i < unavailable; i++) {
                u.put("u" + i, "2026-01-01T00:00:50Z");
            }
            for (String r : recordedPods) {
                (r.startsWith("u:") ? u : d).put(r.substring(2), "2026-01-01T00:00:50Z");
            }
            p.getStatus().setDisruptedPods(d.isEmpty() ? null : d);
            p.getStatus().setUnavailablePods(u.isEmpty() ? null : u);
        });
    }

    static Pod pod(String state) {
        return PubStatusCalculatorTest.pod("web-0", state);
    }

    static Pod labelled(String... keyValues) {
        Pod p = pod("ready");
        Map<String, String> labels = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            labels.put(keyValues[i], keyValues[i + 1]);
        }
        p.getMetadata().setLabels(labels);
        return p;
    }

    /**
     * A budget with {@code spec.ignoredPodSelector} as a v1beta1 client writes it, stored as v1alpha1 through the
     * conversion (which keeps the field in an annotation).
     */
    static PodUnavailableBudget ignoring(String selectorJson, int allowed, int desired) {
        ObjectNode beta = (ObjectNode) read("""
                {"apiVersion":"policy.kruise.io/v1beta1","kind":"PodUnavailableBudget",
                 "metadata":{"name":"web-pub","namespace":"default"},
                 "spec":{"maxUnavailable":1,"ignoredPodSelector":%s}}""".formatted(selectorJson));
        Map<String, String> stored = JSON.convertValue(
                PodUnavailableBudgetConversion.toV1alpha1(beta).path("metadata").path("annotations"),
                new TypeReference<Map<String, String>>() { });
        return pub(allowed, desired, p -> p.getMetadata().getAnnotations().putAll(stored));
    }

    static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static PodUnavailableBudget ignoring(String selectorJson) {
        return ignoring(selectorJson, 0, 2);
    }

    static PodUnavailableBudget annotated(String betaFields) {
        return pub(0, 2, p -> p.getMetadata().getAnnotations().put(PodUnavailableBudgetConversion.BETA_FIELDS_ANNOTATION,
                betaFields));
    }

    static Pod podAnnotated(String key, String value) {
        Pod p = pod("ready");
        p.getMetadata().setAnnotations(Map.of(key, value));
        return p;
    }

    static Arguments c(String name, Pod pod, boolean consistent, PodUnavailableBudget pub, PubOperation op,
                       boolean resizeGate, boolean dryRun, PubAdmission.Verdict verdict, String reasonOrRecord) {
        return Arguments.of(name, pod, consistent, pub, op, resizeGate, dryRun, verdict, reasonOrRecord);
    }

    static Stream<Arguments> table() {
        List<Arguments> cases = new ArrayList<>();
        for (PubOperation op : List.of(DELETE, EVICT, UPDATE)) {
            String record = op == UPDATE ? "unavailable" : "disrupted";
            cases.add(c(op + " admitted and recorded", pod("ready"), true, pub(1), op, false, false, ADMIT, record));
            cases.add(c(op + " denied when nothing allowed", pod("ready"), true, pub(0), op, false, false, DENY, NONE));
            cases.add(c(op + " denied when the count went negative", pod("ready"), true, pub(-1), op, false, false,
                    DENY, NONE));
            cases.add(c(op + " of an annotated pod", podAnnotated("pub.kruise.io/no-protect", "true"), true, pub(0), op,
                    false, false, EXEMPT, "pod is annotated pub.kruise.io/no-protect=true"));
            cases.add(c(op + " of a not ready pod", pod("notready"), true, pub(0), op, false, false, EXEMPT,
                    "pod is not available already"));
            cases.add(c(op + " of a pending pod", pod("pending"), true, pub(0), op, false, false, EXEMPT,
                    "pod is not available already"));
            cases.add(c(op + " of a pod marked unavailable", pod("marked"), true, pub(0), op, false, false, EXEMPT,
                    "pod is not available already"));
            cases.add(c(op + " of an inconsistent pod", pod("ready"), false, pub(0), op, false, false, EXEMPT,
                    "pod is not available already"));
            cases.add(c(op + " without a budget", pod("ready"), true, null, op, false, false, EXEMPT,
                    "no PodUnavailableBudget protects the pod"));
            cases.add(c(op + " when nothing is desired", pod("ready"), true, pub(0, 0, p -> { }), op, false, false,
                    EXEMPT, "budget desires no available pods"));
            cases.add(c(op + " dry run admitted without a record", pod("ready"), true, pub(1), op, false, true,
                    ADMIT_DRY_RUN, "dry run: nothing recorded"));
            cases.add(c(op + " dry run still denied", pod("ready"), true, pub(0), op, false, true, DENY, NONE));
            cases.add(c(op + " of a pod the ignoredPodSelector selects", labelled("app", "web", "maintenance", "true"),
                    true, ignoring("{\"matchLabels\":{\"maintenance\":\"true\"}}"), op, false, false, EXEMPT,
                    IGNORED));
            cases.add(c(op + " of a pod the ignoredPodSelector does not select", labelled("app", "web"), true,
                    ignoring("{\"matchLabels\":{\"maintenance\":\"true\"}}"), op, false, false, DENY, NONE));
        }
        cases.addAll(List.of(
                c("no-protect other than true protects", podAnnotated("pub.kruise.io/no-protect", "false"), true,
                        pub(0), DELETE, false, false, DENY, NONE),
                c("already disrupted pod", pod("ready"), true, records(0, 0, "d:web-0"), DELETE, false, false, EXEMPT,
                        "pod is already recorded by the budget"),
                c("already unavailable pod deleted", pod("ready"), true, records(0, 0, "u:web-0"), DELETE, false, false,
                        EXEMPT, "pod is already recorded by the budget"),
                c("recorded pod passes even at zero", pod("ready"), true, pub(0, 2, p -> p.getStatus()
                        .setDisruptedPods(Map.of("web-0", "2026-01-01T00:00:50Z"))), EVICT, false, false, EXEMPT,
                        "pod is already recorded by the budget"),
                c("2000 records still admit", pod("ready"), true, records(1500, 500), DELETE, false, false, ADMIT,
                        "disrupted"),
                c("2001 records deny", pod("ready"), true, records(1500, 501), DELETE, false, false, DENY, TOO_MANY),
                c("2001 records deny an update", pod("ready"), true, records(2001, 0), UPDATE, false, false, DENY,
                        TOO_MANY),
                c("DELETE only: eviction not protected", pod("ready"), true, ops("DELETE"), EVICT, false, false, EXEMPT,
                        "budget does not protect EVICT"),
                c("DELETE only: update not protected", pod("ready"), true, ops("DELETE"), UPDATE, false, false, EXEMPT,
                        "budget does not protect UPDATE"),
                c("DELETE only: delete protected", pod("ready"), true, ops("DELETE"), DELETE, false, false, ADMIT,
                        "disrupted"),
                c("EVICT,UPDATE: delete not protected", pod("ready"), true, ops("EVICT,UPDATE"), DELETE, false, false,
                        EXEMPT, "budget does not protect DELETE"),
                c("empty annotation protects the defaults", pod("ready"), true, ops(""), DELETE, false, false, ADMIT,
                        "disrupted"),
                c("default does not protect resize with the gate", pod("ready"), true, pub(0), RESIZE, true, false,
                        EXEMPT, "budget does not protect RESIZE"),
                c("default protects resize as update without the gate", pod("ready"), true, pub(0), RESIZE, false, false,
                        DENY, NONE),
                c("resize recorded as a disruption", pod("ready"), true, pub(1), RESIZE, false, false, ADMIT,
                        "disrupted"),
                c("RESIZE listed with the gate", pod("ready"), true, ops("RESIZE"), RESIZE, true, false, ADMIT,
                        "disrupted"),
                c("DELETE only: resize without the gate not protected", pod("ready"), true, ops("DELETE"), RESIZE,
                        false, false, EXEMPT, "budget does not protect RESIZE"),
                c("unknown operation in the annotation ignored", pod("ready"), true, ops("DELETE,bogus"), EVICT, false,
                        false, EXEMPT, "budget does not protect EVICT"),
                c("ignoredPodSelector by expression", labelled("tier", "batch"), true, ignoring(
                        "{\"matchExpressions\":[{\"key\":\"tier\",\"operator\":\"In\",\"values\":[\"batch\",\"cron\"]}]}"),
                        DELETE, false, false, EXEMPT, IGNORED),
                c("ignoredPodSelector needs every requirement", labelled("tier", "batch"), true, ignoring(
                        "{\"matchLabels\":{\"tier\":\"batch\"},\"matchExpressions\":[{\"key\":\"zone\","
                                + "\"operator\":\"Exists\"}]}"), DELETE, false, false, DENY, NONE),
                c("ignoredPodSelector DoesNotExist selects a pod without the key", labelled("app", "web"), true, ignoring(
                        "{\"matchExpressions\":[{\"key\":\"protected\",\"operator\":\"DoesNotExist\"}]}"),
                        EVICT, false, false, EXEMPT, IGNORED),
                c("an ignored pod is admitted with room left and not recorded", labelled("maintenance", "true"), true,
                        ignoring("{\"matchLabels\":{\"maintenance\":\"true\"}}", 3, 2), DELETE, false, false,
                        EXEMPT, IGNORED),
                c("ignoredPodSelector is judged before desiredAvailable", labelled("maintenance", "true"), true,
                        ignoring("{\"matchLabels\":{\"maintenance\":\"true\"}}", 0, 0), DELETE, false, false,
                        EXEMPT, IGNORED),
                c("no-protect is judged before ignoredPodSelector", podAnnotated("pub.kruise.io/no-protect", "true"),
                        true, ignoring("{\"matchExpressions\":[{\"key\":\"x\",\"operator\":\"DoesNotExist\"}]}"),
                        DELETE, false, false, EXEMPT, "pod is annotated pub.kruise.io/no-protect=true"),
                c("an empty ignoredPodSelector ignores nothing", labelled("app", "web"), true, ignoring("{}"), DELETE,
                        false, false, DENY, NONE),
                c("an annotation not in the conversion's form is no selector", labelled("maintenance", "true"), true,
                        annotated("{\"ignoredPodSelector\": {\"matchLabels\":{\"maintenance\":\"true\"}}}"),
                        DELETE, false, false, DENY, NONE),
                c("an unevaluable ignoredPodSelector refuses", labelled("app", "web"), true, ignoring(
                        "{\"matchExpressions\":[{\"key\":\"a\",\"operator\":\"Near\"}]}"), DELETE, false, false,
                        DENY, UNEVALUABLE + "unknown label selector operator \"Near\" on \"a\""),
                c("an ignoredPodSelector that is no selector refuses", labelled("app", "web"), true,
                        annotated("{\"ignoredPodSelector\":{\"matchLabels\":\"maintenance\"}}"), DELETE, false,
                        false, DENY, UNEVALUABLE + "spec.ignoredPodSelector: Invalid value: not a label selector")));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void decides(String name, Pod pod, boolean consistent, PodUnavailableBudget pub, PubOperation op,
                 boolean resizeGate, boolean dryRun, PubAdmission.Verdict verdict, String reasonOrRecord) {
        PubAdmission.Decision d = PubAdmission.decide(pod, consistent, pub, op, resizeGate, dryRun, NOW);
        assertEquals(verdict, d.verdict(), String.valueOf(d.reason()));
        if (verdict != ADMIT) {
            assertEquals(reasonOrRecord, d.reason());
            assertNull(d.status());
            return;
        }
        PodUnavailableBudgetStatus before = pub.status();
        assertEquals(before.getUnavailableAllowed() - 1, d.status().getUnavailableAllowed());
        Map<String, String> into = reasonOrRecord.equals("unavailable") ? d.status().getUnavailablePods()
                : d.status().getDisruptedPods();
        Map<String, String> other = reasonOrRecord.equals("unavailable") ? d.status().getDisruptedPods()
                : d.status().getUnavailablePods();
        assertEquals(RECORDED_AT, into.get("web-0"));
        int beforeInto = size(reasonOrRecord.equals("unavailable") ? before.getUnavailablePods()
                : before.getDisruptedPods());
        int beforeOther = size(reasonOrRecord.equals("unavailable") ? before.getDisruptedPods()
                : before.getUnavailablePods());
        assertEquals(beforeInto + 1, into.size());
        assertEquals(beforeOther, other.size());
        assertEquals(List.of(before.getDesiredAvailable(), before.getCurrentAvailable(), before.getTotalReplicas()),
                List.of(d.status().getDesiredAvailable(), d.status().getCurrentAvailable(),
                        d.status().getTotalReplicas()));
    }

    private static int size(Map<String, String> m) {
        return m == null ? 0 : m.size();
    }

    @Test
    void theStoredBudgetIsNotModified() {
        PodUnavailableBudget pub = records(1, 0);
        PubAdmission.decide(pod("ready"), true, pub, DELETE, false, false, NOW);
        assertEquals(5, pub.getStatus().getUnavailableAllowed());
        assertEquals(1, pub.getStatus().getDisruptedPods().size());
    }

    @Test
    void statusFieldsOfANewerVersionSurvive() {
        PodUnavailableBudget pub = pub(1);
        pub.getStatus().setAdditionalProperty("conditions", List.of());
        PubAdmission.Decision d = PubAdmission.decide(pod("ready"), true, pub, EVICT, false, false, NOW);
        assertEquals(List.of(), d.status().getAdditionalProperties().get("conditions"));
    }
}
