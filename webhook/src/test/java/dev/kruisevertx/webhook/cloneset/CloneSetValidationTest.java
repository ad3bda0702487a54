package dev.kruisevertx.webhook.cloneset;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.webhook.admission.Json;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

import static dev.kruisevertx.webhook.cloneset.CloneSetFixtures.decode;
import static dev.kruisevertx.webhook.cloneset.CloneSetFixtures.spec;
import static dev.kruisevertx.webhook.cloneset.CloneSetFixtures.update;
import static dev.kruisevertx.webhook.cloneset.CloneSetFixtures.validJson;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** One bad object per OpenKruise CloneSet rule, each checked for its message. */
class CloneSetValidationTest {
    static Pod pod(String name, String ownerUid, boolean terminating) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace("default").endMetadata();
        if (ownerUid != null) {
            b.editMetadata().addNewOwnerReference().withApiVersion("apps.kruise.io/v1alpha1").withKind("CloneSet")
                    .withName("sample").withUid(ownerUid).withController(true).endOwnerReference().endMetadata();
        }
        if (terminating) {
            b.editMetadata().withDeletionTimestamp("2026-01-01T00:00:00Z").endMetadata();
        }
        return b.build();
    }

    static final Map<String, Pod> PODS = Map.of(
            "mine", pod("mine", "cs-uid", false),
            "mine-2", pod("mine-2", "cs-uid", false),
            "dying", pod("dying", "cs-uid", true),
            "foreign", pod("foreign", "other-uid", false),
            "orphan", pod("orphan", null, false));
    static final PodLookup LOOKUP = (ns, name) -> "default".equals(ns) ? Optional.ofNullable(PODS.get(name)) : Optional.empty();

    static String createErrors(Consumer<ObjectNode> breakIt) {
        ObjectNode cs = validJson();
        breakIt.accept(cs);
        List<FieldError> errors = CloneSetValidation.validateCreate(decode(cs), LOOKUP);
        return errors.isEmpty() ? "" : FieldError.aggregate(errors);
    }

    static void assertRejected(String expected, Consumer<ObjectNode> breakIt) {
        String message = createErrors(breakIt);
        assertTrue(message.contains(expected), "expected <" + expected + "> in <" + message + ">");
    }

    @Test
    void theFixtureIsValid() {
        assertEquals("", createErrors(cs -> { }));
    }

    @Test
    void metadataName() {
        assertRejected("metadata.name: Invalid value: \"Bad_Name\"", cs -> ((ObjectNode) cs.get("metadata")).put("name", "Bad_Name"));
        assertRejected("metadata.name: Required value", cs -> ((ObjectNode) cs.get("metadata")).remove("name"));
    }

    @Test
    void replicasNonNegative() {
        assertRejected("spec.replicas: Invalid value: -1: must be greater than or equal to 0", cs -> spec(cs).put("replicas", -1));
    }

    @Test
    void selectorRequiredNonEmptyValidAndMatchingTheTemplate() {
        assertRejected("spec.selector: Required value", cs -> spec(cs).remove("selector"));
        assertRejected("empty selector is invalid for cloneset", cs -> spec(cs).putObject("selector"));
        assertRejected("spec.selector.matchExpressions[0].values: Required value", cs -> spec(cs).putObject("selector")
                .putArray("matchExpressions").addObject().put("key", "app").put("operator", "In"));
        assertRejected("spec.selector.matchExpressions[0].operator: Invalid value: \"Near\"", cs -> spec(cs).putObject("selector")
                .putArray("matchExpressions").addObject().put("key", "app").put("operator", "Near"));
        assertRejected("spec.selector.matchLabels: Invalid value: \"bad key!\"",
                cs -> ((ObjectNode) spec(cs).get("selector")).putObject("matchLabels").put("bad key!", "x"));
        assertRejected("spec.template.metadata.labels: Invalid value: \"{app=other}\": `selector` does not match template `labels`",
                cs -> ((ObjectNode) spec(cs).at("/template/metadata/labels")).put("app", "other"));
    }

    @Test
    void podTemplate() {
        assertRejected("spec.template.spec.containers: Required value",
                cs -> ((ObjectNode) spec(cs).at("/template/spec")).putArray("containers"));
        assertRejected("spec.template.spec.containers[0].image: Required value",
                cs -> ((ObjectNode) spec(cs).at("/template/spec/containers/0")).remove("image"));
        assertRejected("spec.template.spec.containers[1].name: Duplicate value: \"nginx\"",
                cs -> ((ArrayNode) spec(cs).at("/template/spec/containers")).addObject().put("name", "nginx").put("image", "x"));
        assertRejected("spec.template.spec.containers[0].volumeMounts[0].name: Not found: \"data\"",
                cs -> spec(cs).remove("volumeClaimTemplates"));
        assertRejected("spec.template.metadata.labels: Invalid value: \"bad value!\"",
                cs -> ((ObjectNode) spec(cs).at("/template/metadata/labels")).put("tier", "bad value!"));
        assertRejected("spec.template.spec.restartPolicy: Unsupported value: \"Never\": supported values: \"Always\"",
                cs -> ((ObjectNode) spec(cs).at("/template/spec")).put("restartPolicy", "Never"));
        assertRejected("spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in cloneset is not Supported",
                cs -> ((ObjectNode) spec(cs).at("/template/spec")).put("activeDeadlineSeconds", 30));
    }

    @Test
    void podsToDelete() {
        assertRejected("spec.scaleStrategy.podsToDelete: Invalid value: \"[mine, mine]\": duplicated items [mine]",
                cs -> spec(cs).putObject("scaleStrategy").putArray("podsToDelete").add("mine").add("mine"));
        assertRejected("find pod ghost failed: pods \"ghost\" not found",
                cs -> spec(cs).putObject("scaleStrategy").putArray("podsToDelete").add("ghost"));
        assertRejected("find pod dying already terminating",
                cs -> spec(cs).putObject("scaleStrategy").putArray("podsToDelete").add("dying"));
        assertRejected("find pod foreign owner is not this CloneSet",
                cs -> spec(cs).putObject("scaleStrategy").putArray("podsToDelete").add("foreign"));
        assertRejected("find pod orphan owner is not this CloneSet",
                cs -> spec(cs).putObject("scaleStrategy").putArray("podsToDelete").add("orphan"));
        assertEquals("", createErrors(cs -> spec(cs).putObject("scaleStrategy").putArray("podsToDelete").add("mine").add("mine-2")));
    }

    @Test
    void podsToDeleteAlreadyListedBeforeAreNotCheckedAgain() {
        ObjectNode old = validJson();
        spec(old).putObject("scaleStrategy").putArray("podsToDelete").add("dying");
        ObjectNode now = validJson();
        spec(now).putObject("scaleStrategy").putArray("podsToDelete").add("dying").add("mine");
        assertTrue(CloneSetValidation.validateUpdate(decode(now), decode(old), LOOKUP).isEmpty());
    }

    @Test
    void scaleStrategyMaxUnavailable() {
        assertRejected("spec.scaleStrategy.maxUnavailable: Invalid value: \"abc\"",
                cs -> spec(cs).putObject("scaleStrategy").put("maxUnavailable", "abc"));
    }

    @Test
    void updateStrategyType() {
        assertRejected("spec.updateStrategy.type: Invalid value: \"Rolling\": must be 'ReCreate', InPlaceIfPossible or 'InPlaceOnly'",
                cs -> update(cs).put("type", "Rolling"));
    }

    @Test
    void partition() {
        assertRejected("spec.updateStrategy.partition: Invalid value: \"5\": a valid percent string must be a numeric string followed by an ending '%'",
                cs -> update(cs).put("partition", "5"));
        assertRejected("spec.updateStrategy.partition: Invalid value: -1: must be greater than or equal to 0",
                cs -> update(cs).put("partition", -1));
    }

    @Test
    void priorityStrategy() {
        assertRejected("spec.updateStrategy.priorityStrategy: Required value: only one of weightPriority and orderPriority can be used",
                cs -> {
                    ObjectNode p = update(cs).putObject("priorityStrategy");
                    p.putArray("orderPriority").addObject().put("orderedKey", "k");
                    p.putArray("weightPriority").addObject().put("weight", 50).putObject("matchSelector").putObject("matchLabels").put("a", "b");
                });
        assertRejected("weight must be valid number in the range 1-100", cs -> update(cs).putObject("priorityStrategy")
                .putArray("weightPriority").addObject().put("weight", 101).putObject("matchSelector").putObject("matchLabels").put("a", "b"));
        assertRejected("selector can not be empty", cs -> update(cs).putObject("priorityStrategy")
                .putArray("weightPriority").addObject().put("weight", 10).putObject("matchSelector"));
        assertRejected("order key can not be empty", cs -> update(cs).putObject("priorityStrategy")
                .putArray("orderPriority").addObject().put("orderedKey", ""));
    }

    @Test
    void scatterStrategy() {
        assertRejected("spec.updateStrategy.scatterStrategy: Required value: key should not be empty",
                cs -> update(cs).putArray("scatterStrategy").addObject().put("key", "").put("value", "v"));
        assertRejected("duplicated term with key=zone value=a", cs -> {
            ArrayNode s = update(cs).putArray("scatterStrategy");
            s.addObject().put("key", "zone").put("value", "a");
            s.addObject().put("key", "zone").put("value", "a");
        });
    }

    @Test
    void maxUnavailableAndMaxSurge() {
        assertRejected("spec.updateStrategy.maxUnavailable: Invalid value: \"abc\": a valid percent string must be a numeric string followed by an ending '%'",
                cs -> update(cs).put("maxUnavailable", "abc"));
        assertRejected("spec.updateStrategy.maxSurge: Invalid value: \"3\": a valid percent string must be a numeric string followed by an ending '%'",
                cs -> update(cs).put("maxSurge", "3"));
        assertRejected("spec.updateStrategy.maxSurge: Invalid value: \"1\": can not use maxSurge with strategy type InPlaceOnly",
                cs -> update(cs).put("type", "InPlaceOnly").put("maxSurge", 1));
        assertRejected("maxUnavailable and maxSurge should not both be less than 1",
                cs -> update(cs).put("maxUnavailable", 0).put("maxSurge", "0%"));
        // 1% of 5 replicas rounds up to 1: allowed.
        assertEquals("", createErrors(cs -> update(cs).put("maxUnavailable", "1%").put("maxSurge", 0)));
        // With no replicas nothing can be unavailable anyway.
        assertEquals("", createErrors(cs -> {
            spec(cs).put("replicas", 0);
            update(cs).put("maxUnavailable", 0);
        }));
    }

    @Test
    void preDownloadAnnotations() {
        assertRejected("metadata.annotations[apps.kruise.io/image-predownload-parallelism]: Invalid value: \"-1\": must be a non-negative integer",
                cs -> ((ObjectNode) cs.get("metadata")).putObject("annotations").put("apps.kruise.io/image-predownload-parallelism", "-1"));
        assertRejected("metadata.annotations[apps.kruise.io/image-predownload-parallelism]: Invalid value: \"lots\"",
                cs -> ((ObjectNode) cs.get("metadata")).putObject("annotations").put("apps.kruise.io/image-predownload-parallelism", "lots"));
        assertEquals("", createErrors(cs -> ((ObjectNode) cs.get("metadata")).putObject("annotations")
                .put("apps.kruise.io/image-predownload-parallelism", "5")));
    }

    @Test
    void progressDeadlineSecondsMustExceedMinReadySeconds() {
        assertRejected("spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds",
                cs -> spec(cs).put("minReadySeconds", 10).put("progressDeadlineSeconds", 10));
        assertEquals("", createErrors(cs -> spec(cs).put("minReadySeconds", 10).put("progressDeadlineSeconds", 600)));
        // A typed field since issue 17: its rules still apply (they once read it from the unknown fields).
        assertRejected("spec.progressDeadlineSeconds: Invalid value: -5: must be greater than or equal to 0",
                cs -> spec(cs).put("progressDeadlineSeconds", -5));
    }

    @Test
    void updatesMayOnlyTouchTheUpdatableFields() {
        ObjectNode old = validJson();
        ObjectNode selectorChanged = validJson();
        ((ObjectNode) spec(selectorChanged).at("/selector/matchLabels")).put("tier", "web");
        ((ObjectNode) spec(selectorChanged).at("/template/metadata/labels")).put("tier", "web");
        String message = FieldError.aggregate(CloneSetValidation.validateUpdate(decode(selectorChanged), decode(old), LOOKUP));
        assertTrue(message.contains("spec: Forbidden: updates to cloneset spec for fields other than 'replicas', 'template'"), message);

        ObjectNode allowed = validJson();
        spec(allowed).put("replicas", 9).put("minReadySeconds", 3).put("revisionHistoryLimit", 3).put("progressDeadlineSeconds", 60);
        update(allowed).put("partition", 2);
        ((ObjectNode) spec(allowed).at("/template/spec/containers/0")).put("image", "nginx:1.27");
        assertTrue(CloneSetValidation.validateUpdate(decode(allowed), decode(old), LOOKUP).isEmpty());
    }

    @Test
    void inPlaceOnlyUpdatesMayOnlyChangeImages() {
        ObjectNode old = validJson();
        update(old).put("type", "InPlaceOnly");
        ObjectNode envAdded = validJson();
        update(envAdded).put("type", "InPlaceOnly");
        ((ObjectNode) spec(envAdded).at("/template/spec/containers/0")).putArray("env").addObject().put("name", "A").put("value", "1");
        String message = FieldError.aggregate(CloneSetValidation.validateUpdate(decode(envAdded), decode(old), LOOKUP));
        assertTrue(message.contains("only allowed to update images in spec for InPlaceOnly, but found add /containers/0/env"), message);
        ObjectNode imageOnly = validJson();
        update(imageOnly).put("type", "InPlaceOnly");
        ((ObjectNode) spec(imageOnly).at("/template/spec/containers/0")).put("image", "nginx:2");
        assertTrue(CloneSetValidation.validateUpdate(decode(imageOnly), decode(old), LOOKUP).isEmpty());
    }

    @Test
    void handlerDeniesWith422AndAggregatesErrorsAndLetsDeletesThrough() throws Exception {
        ObjectNode bad = validJson();
        spec(bad).put("replicas", -1);
        update(bad).put("type", "Rolling");
        AdmissionRequest create = new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1alpha1", "CloneSet",
                "clonesets", "", "sample", "default", "CREATE", bad, null, false, null);
        AdmissionResponse resp = CloneSetWebhooks.validating(LOOKUP).handle(create).toCompletionStage().toCompletableFuture().get();
        assertFalse(resp.allowed());
        assertEquals(422, resp.code());
        assertTrue(resp.message().startsWith("[spec.replicas: Invalid value: -1"), resp.message());
        assertTrue(resp.message().contains("spec.updateStrategy.type"), resp.message());

        AdmissionRequest delete = new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1alpha1", "CloneSet",
                "clonesets", "", "sample", "default", "DELETE", null, validJson(), false, null);
        assertTrue(CloneSetWebhooks.validating(LOOKUP).handle(delete).toCompletionStage().toCompletableFuture().get().allowed());

        AdmissionRequest good = new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1alpha1", "CloneSet",
                "clonesets", "", "sample", "default", "CREATE", validJson(), null, false, null);
        assertTrue(CloneSetWebhooks.validating(LOOKUP).handle(good).toCompletionStage().toCompletableFuture().get().allowed());
    }

    // Issue 13: values OpenKruise takes although nothing sensible can come of them.

    @Test
    void negativeHistoryLimitAndMinReadySecondsAreRejected() {
        assertRejected("spec.revisionHistoryLimit: Invalid value: -5: must be greater than or equal to 0",
                cs -> spec(cs).put("revisionHistoryLimit", -5));
        assertRejected("spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0",
                cs -> spec(cs).put("minReadySeconds", -1));
        assertEquals("", createErrors(cs -> spec(cs).put("revisionHistoryLimit", 0).put("minReadySeconds", 0)));
    }

    @Test
    void percentagesAboveAllPodsAreRejectedWhereTheyCannotWork() {
        assertRejected("spec.updateStrategy.partition: Invalid value: \"150%\": must not be greater than 100%",
                cs -> update(cs).put("partition", "150%"));
        assertRejected("spec.updateStrategy.maxUnavailable: Invalid value: \"101%\": must not be greater than 100%",
                cs -> update(cs).put("maxUnavailable", "101%"));
        assertRejected("spec.scaleStrategy.maxUnavailable: Invalid value: \"150%\": must not be greater than 100%",
                cs -> spec(cs).putObject("scaleStrategy").put("maxUnavailable", "150%"));
        assertEquals("", createErrors(cs -> update(cs).put("partition", "100%").put("maxUnavailable", "100%")));
        // As for a Deployment, a surge may be larger than the CloneSet: it is capped by the pods still to update.
        assertEquals("", createErrors(cs -> update(cs).put("maxSurge", "150%")));
    }

    @Test
    void scaleMaxUnavailableIsNeverNegative() {
        assertRejected("spec.scaleStrategy.maxUnavailable: Invalid value: -1: must be greater than or equal to 0",
                cs -> spec(cs).putObject("scaleStrategy").put("maxUnavailable", -1));
        // 0 holds scale-up (the CloneSet only adopts), which CloneSetEndToEndTest relies on.
        assertEquals("", createErrors(cs -> spec(cs).putObject("scaleStrategy").put("maxUnavailable", 0)));
        assertEquals("", createErrors(cs -> spec(cs).putObject("scaleStrategy").put("maxUnavailable", "1%")));
        assertEquals("", createErrors(cs -> spec(cs).putObject("scaleStrategy").put("maxUnavailable", 3)));
    }

    @Test
    void negativeSurgeAndUnavailableAreRejected() {
        assertRejected("spec.updateStrategy.maxSurge: Invalid value: -1: must be greater than or equal to 0",
                cs -> update(cs).put("maxSurge", -1));
        assertRejected("spec.updateStrategy.maxUnavailable: Invalid value: -1: must be greater than or equal to 0",
                cs -> update(cs).put("maxUnavailable", -1).put("maxSurge", 1));
    }

    @Test
    void overflowingSignedAndForeignPercentagesAreRejected() {
        assertRejected("spec.updateStrategy.partition: Invalid value: \"99999999999999999999%\": must not be greater than 100%",
                cs -> update(cs).put("partition", "99999999999999999999%"));
        assertRejected("spec.updateStrategy.maxSurge: Invalid value: \"99999999999999999999%\": must not be greater than "
                + Integer.MAX_VALUE + "%", cs -> update(cs).put("maxSurge", "99999999999999999999%"));
        for (String bad : List.of("\u0665\u0660%", "-5%", "+5%", "5.5%", "%", " 5%")) {
            assertRejected("spec.updateStrategy.partition: Invalid value: \"" + bad + "\": a valid percent string",
                    cs -> update(cs).put("partition", bad));
        }
    }

    @Test
    void preDownloadNumbersAreAsciiIntegers() {
        assertRejected("metadata.annotations[apps.kruise.io/image-predownload-parallelism]: Invalid value: \"\u0665\"",
                cs -> ((ObjectNode) cs.get("metadata")).putObject("annotations")
                        .put("apps.kruise.io/image-predownload-parallelism", "\u0665"));
        assertRejected("metadata.annotations[apps.kruise.io/image-predownload-parallelism]: Invalid value: \"99999999999\"",
                cs -> ((ObjectNode) cs.get("metadata")).putObject("annotations")
                        .put("apps.kruise.io/image-predownload-parallelism", "99999999999"));
        assertEquals("", createErrors(cs -> ((ObjectNode) cs.get("metadata")).putObject("annotations")
                .put("apps.kruise.io/image-predownload-parallelism", "+5")));
    }

    @Test
    void namesMustLeaveRoomForRevisionNames() {
        String longest = "a".repeat(242);
        assertEquals("", createErrors(cs -> {
            ((ObjectNode) cs.get("metadata")).put("name", longest);
            spec(cs).remove("volumeClaimTemplates");
            ((ObjectNode) spec(cs).at("/template/spec/containers/0")).remove("volumeMounts");
        }));
        String message = createErrors(cs -> ((ObjectNode) cs.get("metadata")).put("name", "a".repeat(10_000)));
        assertTrue(message.contains("metadata.name: Too long: may not be more than 242 characters"), message);
        assertFalse(message.contains("aaaaaaaaaa"), "the name is not echoed back: " + message.length());
        // The API server keeps 58 characters of a generateName prefix, so any length works; its syntax must.
        assertEquals("", createErrors(cs -> {
            ((ObjectNode) cs.get("metadata")).remove("name");
            ((ObjectNode) cs.get("metadata")).put("generateName", "a".repeat(240) + "-");
        }));
        assertRejected("metadata.generateName: Invalid value: \"Bad_\"", cs -> {
            ((ObjectNode) cs.get("metadata")).remove("name");
            ((ObjectNode) cs.get("metadata")).put("generateName", "Bad_");
        });
    }

    @Test
    void claimTemplatesNameVolumesAndPvcsThatMustExist() {
        assertRejected("spec.volumeClaimTemplates[0].metadata.name: Invalid value: \"" + "d".repeat(64) + "\"", cs -> {
            ((ObjectNode) spec(cs).at("/volumeClaimTemplates/0/metadata")).put("name", "d".repeat(64));
            ((ObjectNode) spec(cs).at("/template/spec/containers/0")).remove("volumeMounts");
        });
        assertRejected("spec.volumeClaimTemplates[0].metadata.name: Required value",
                cs -> ((ObjectNode) spec(cs).at("/volumeClaimTemplates/0")).remove("metadata"));
        assertRejected("would be named <template>-<cloneset>-<instance id> with 254 characters", cs -> {
            ((ObjectNode) cs.get("metadata")).put("name", "a".repeat(242));
            ((ObjectNode) spec(cs).at("/volumeClaimTemplates/0/metadata")).put("name", "d".repeat(5));
            ((ObjectNode) spec(cs).at("/template/spec/containers/0")).remove("volumeMounts");
        });
    }

    @Test
    void aNameTooLongForRevisionLabelsIsAllowedWithAWarning() throws Exception {
        ObjectNode cs = validJson();
        ((ObjectNode) cs.get("metadata")).put("name", "a".repeat(53));
        AdmissionResponse resp = CloneSetWebhooks.validating(LOOKUP).handle(request("CREATE", cs, null))
                .toCompletionStage().toCompletableFuture().get();
        assertTrue(resp.allowed(), resp.message());
        assertEquals(1, resp.warnings().size());
        assertTrue(resp.warnings().get(0).contains("CloneSetShortHash"), resp.warnings().toString());
        ((ObjectNode) cs.get("metadata")).put("name", "a".repeat(52));
        assertEquals(List.of(), CloneSetWebhooks.validating(LOOKUP).handle(request("CREATE", cs, null))
                .toCompletionStage().toCompletableFuture().get().warnings());
    }

    @Test
    void valuesOfTheWrongJsonTypeAreA422NamingTheField() throws Exception {
        Object[][] cases = {
                {"replicas", "7", "spec.replicas: Invalid value: \"7\": must be an integer"},
                {"replicas", "\u0665", "spec.replicas: Invalid value: \"\u0665\": must be an integer"},
                {"replicas", new java.math.BigInteger("99999999999999999999"),
                        "spec.replicas: Invalid value: 99999999999999999999: must be an integer between"},
                {"minReadySeconds", 1.5, "spec.minReadySeconds: Invalid value: 1.5: must be an integer"},
                {"selector", Json.MAPPER.createArrayNode(), "spec.selector: Invalid value: array: must be an object"},
        };
        for (Object[] c : cases) {
            ObjectNode cs = validJson();
            spec(cs).set((String) c[0], Json.MAPPER.valueToTree(c[1]));
            for (AdmissionRequest r : List.of(request("CREATE", cs, null), request("UPDATE", cs, validJson()))) {
                for (AdmissionResponse resp : List.of(
                        CloneSetWebhooks.validating(LOOKUP).handle(r).toCompletionStage().toCompletableFuture().get(),
                        CloneSetWebhooks.mutating(false).handle(r).toCompletionStage().toCompletableFuture().get())) {
                    assertFalse(resp.allowed());
                    assertEquals(422, resp.code(), resp.message());
                    assertTrue(resp.message().contains((String) c[2]), resp.message());
                    assertFalse(resp.message().contains("java.") || resp.message().contains("dev.kruisevertx"),
                            resp.message());
                }
            }
        }
    }

    @Test
    void aStoredObjectThatPredatesStrictDecodingCanStillBeFixed() throws Exception {
        ObjectNode stored = validJson();
        ((ObjectNode) spec(stored).at("/template/spec/containers/0")).putArray("ports").addObject()
                .put("containerPort", "80");
        ObjectNode fixed = validJson();
        ((ObjectNode) spec(fixed).at("/template/spec/containers/0")).putArray("ports").addObject()
                .put("containerPort", 80);
        AdmissionResponse resp = CloneSetWebhooks.validating(LOOKUP).handle(request("UPDATE", fixed, stored))
                .toCompletionStage().toCompletableFuture().get();
        assertTrue(resp.allowed(), resp.message());
    }

    static AdmissionRequest request(String operation, ObjectNode object, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1alpha1", "CloneSet",
                "clonesets", "", object.at("/metadata/name").asText(), "default", operation, object, old, false, null);
    }

    @Test
    void resourceQuantitiesFollowTheKubernetesSyntax() {
        assertRejected("spec.template.spec.containers[0].resources.limits[cpu]: Invalid value: \"abc\": quantities must match",
                cs -> ((ObjectNode) spec(cs).at("/template/spec/containers/0")).putObject("resources")
                        .putObject("limits").put("cpu", "abc"));
        assertRejected("spec.template.spec.containers[0].resources.requests[memory]: Invalid value: \"-1Gi\": must be "
                + "greater than or equal to 0", cs -> ((ObjectNode) spec(cs).at("/template/spec/containers/0"))
                .putObject("resources").putObject("requests").put("memory", "-1Gi"));
        assertRejected("spec.volumeClaimTemplates[0].spec.resources.requests[storage]: Invalid value: \"\u0665Gi\"",
                cs -> ((ObjectNode) spec(cs).at("/volumeClaimTemplates/0/spec/resources/requests")).put("storage", "\u0665Gi"));
        assertEquals("", createErrors(cs -> ((ObjectNode) spec(cs).at("/template/spec/containers/0")).putObject("resources")
                .putObject("limits").put("cpu", "1.5").put("memory", "512Mi").put("ephemeral-storage", "1e9").put("x", 2)));
    }
}
