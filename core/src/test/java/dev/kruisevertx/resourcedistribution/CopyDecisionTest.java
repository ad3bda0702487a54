package dev.kruisevertx.resourcedistribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution;
import dev.kruisevertx.api.common.ApiJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static dev.kruisevertx.resourcedistribution.CopyDecision.Action.CONFLICT;
import static dev.kruisevertx.resourcedistribution.CopyDecision.Action.CREATE;
import static dev.kruisevertx.resourcedistribution.CopyDecision.Action.DELETE;
import static dev.kruisevertx.resourcedistribution.CopyDecision.Action.IN_SYNC;
import static dev.kruisevertx.resourcedistribution.CopyDecision.Action.NAMESPACE_NOT_EXISTS;
import static dev.kruisevertx.resourcedistribution.CopyDecision.Action.NOTHING;
import static dev.kruisevertx.resourcedistribution.CopyDecision.Action.UPDATE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the controller does with one namespace's copy (OpenKruise v1.9.0's distributeResource / cleanResource). */
class CopyDecisionTest {
    static final String RD = "rd-1";
    static final DistributedResource SECRET = DistributedResource.parse(json(
            "{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":\"s\"},\"type\":\"Opaque\","
                    + "\"data\":{\"test\":\"dGVzdA==\"}}"));

    static JsonNode json(String s) {
        try {
            return ApiJson.serialization().convertValue(new com.fasterxml.jackson.databind.ObjectMapper().readTree(s),
                    JsonNode.class);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** A live copy: the resource's content, with owner and annotations as the controller writes them. */
    static ObjectNode copy(String owner, String hash) {
        ObjectNode live = SECRET.content().deepCopy();
        ObjectNode meta = live.putObject("metadata");
        meta.put("name", "s").put("namespace", "ns-1").put("resourceVersion", "7");
        if (hash != null) {
            meta.putObject("annotations").put(ResourceDistribution.HASH_ANNOTATION, hash)
                    .put(ResourceDistribution.FROM_ANNOTATION, RD);
        }
        if (owner != null) {
            meta.putArray("ownerReferences").addObject().put("apiVersion", ResourceDistribution.API_VERSION)
                    .put("kind", ResourceDistribution.KIND).put("name", owner).put("uid", "u").put("controller", true);
        }
        return live;
    }

    static ObjectNode edited(ObjectNode live, String key, String value) {
        ((ObjectNode) live.path("data")).put(key, value);
        return live;
    }

    static Stream<Arguments> table() {
        ObjectNode ownedWithoutHash = copy(RD, null);
        ObjectNode noControllerFlag = copy(RD, SECRET.hash());
        ((ObjectNode) noControllerFlag.path("metadata").path("ownerReferences").get(0)).put("controller", false);
        ObjectNode otherKind = copy(RD, SECRET.hash());
        ((ObjectNode) otherKind.path("metadata").path("ownerReferences").get(0)).put("kind", "CloneSet");
        ObjectNode defaultedType = copy(RD, SECRET.hash());
        defaultedType.remove("type");
        ObjectNode extraLabel = copy(RD, SECRET.hash());
        ((ObjectNode) extraLabel.path("metadata")).putObject("labels").put("added-by", "someone");
        ObjectNode withStatus = copy(RD, SECRET.hash());
        withStatus.putObject("status").put("x", 1);
        return Stream.of(
                Arguments.of("target, namespace missing", true, false, null, NAMESPACE_NOT_EXISTS),
                Arguments.of("target, namespace missing, stale copy in cache", true, false, copy(RD, SECRET.hash()),
                        NAMESPACE_NOT_EXISTS),
                Arguments.of("target, no copy", true, true, null, CREATE),
                Arguments.of("target, copy in sync", true, true, copy(RD, SECRET.hash()), IN_SYNC),
                Arguments.of("target, copy edited by hand is restored", true, true,
                        edited(copy(RD, SECRET.hash()), "test", "aGFja2Vk"), UPDATE),
                Arguments.of("target, key added by hand is removed", true, true,
                        edited(copy(RD, SECRET.hash()), "extra", "eA=="), UPDATE),
                Arguments.of("target, copy of an older spec (hash differs)", true, true, copy(RD, "0ld"), UPDATE),
                Arguments.of("target, owned copy without hash annotation", true, true, ownedWithoutHash, UPDATE),
                Arguments.of("target, same-named object nobody owns", true, true, copy(null, null), CONFLICT),
                Arguments.of("target, same-named object of another distribution", true, true,
                        copy("rd-2", SECRET.hash()), CONFLICT),
                Arguments.of("target, owner reference without controller flag", true, true, noControllerFlag,
                        CONFLICT),
                Arguments.of("target, controller of another kind with the same name", true, true, otherKind, CONFLICT),
                Arguments.of("target, metadata added by others is not a difference", true, true, extraLabel, IN_SYNC),
                Arguments.of("target, status is not a difference", true, true, withStatus, IN_SYNC),
                Arguments.of("target, type defaulted by the API server is not a difference", true, true,
                        defaultedType, IN_SYNC),
                Arguments.of("not a target, our copy is removed", false, true, copy(RD, SECRET.hash()), DELETE),
                Arguments.of("not a target, our old copy is removed", false, true, copy(RD, "0ld"), DELETE),
                Arguments.of("not a target, someone else's object is left alone", false, true, copy(null, null),
                        NOTHING),
                Arguments.of("not a target, another distribution's copy is left alone", false, true,
                        copy("rd-2", "h"), NOTHING),
                Arguments.of("not a target, no object", false, true, null, NOTHING),
                Arguments.of("not a target, namespace terminating", false, false, copy(RD, SECRET.hash()), NOTHING));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void decides(String name, boolean target, boolean nsUsable, JsonNode live, CopyDecision.Action expected) {
        CopyDecision.Step step = CopyDecision.decide(RD, SECRET, "ns-1", target, nsUsable, live);
        assertEquals(expected, step.action(), step.reason());
        assertEquals("ns-1", step.namespace());
    }

    @Test
    void stringDataComparesEqualToTheDataTheApiServerStores() {
        DistributedResource withStringData = DistributedResource.parse(json("{\"apiVersion\":\"v1\",\"kind\":\"Secret\","
                + "\"metadata\":{\"name\":\"s\"},\"stringData\":{\"test\":\"test\"}}"));
        ObjectNode live = copy(RD, withStringData.hash());
        assertEquals(IN_SYNC, CopyDecision.decide(RD, withStringData, "ns-1", true, true, live).action());
    }

    @Test
    void parseRefusesWhatOpenKruiseRefuses() {
        assertEquals("empty resource is not allowed",
                assertThrows(IllegalArgumentException.class, () -> DistributedResource.parse(null)).getMessage());
        assertEquals("empty resource is not allowed", assertThrows(IllegalArgumentException.class,
                () -> DistributedResource.parse(json("{}"))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DistributedResource.parse(json(
                "{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"}}"))).getMessage()
                .startsWith("unknown or unsupported resource GroupKind"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DistributedResource.parse(json("\"text\"")))
                .getMessage().startsWith("failed to deserialize resource"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> DistributedResource.parse(json(
                "{\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"d\"}}"))).getMessage().contains("Kind"));
        assertEquals("resource metadata.name is required", assertThrows(IllegalArgumentException.class,
                () -> DistributedResource.parse(json("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\"}"))).getMessage());
        DistributedResource cm = DistributedResource.parse(json(
                "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"game-demo\"},\"data\":{\"a\":\"1\"}}"));
        assertEquals("ConfigMap", cm.kind());
        assertEquals("game-demo", cm.name());
        assertEquals(64, cm.hash().length());
        assertNotEquals(cm.hash(), SECRET.hash());
    }
}
