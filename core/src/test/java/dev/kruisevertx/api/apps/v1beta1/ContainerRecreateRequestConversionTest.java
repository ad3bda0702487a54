package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise master's ContainerRecreateRequest conversion cases (conversion_test.go) as facts, this project's
 * differences (the annotations move instead of being copied; unparsable ones stay; other conditions are kept aside),
 * and round-trip properties over generated objects of both versions.
 */
class ContainerRecreateRequestConversionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SYNC = ContainerRecreateRequestConversion.SYNC;
    private static final String UNREADY = ContainerRecreateRequestConversion.UNREADY;
    private static final String STASH = ContainerRecreateRequestConversion.CONDITIONS_ANNOTATION;
    private static final String TS = "2024-06-01T10:00:00Z";
    private static final String SYNC_JSON = "[{\"name\":\"app\",\"ready\":true,\"restartCount\":3,"
            + "\"containerID\":\"docker://abc123\"}]";

    private static ObjectNode parse(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    private static ObjectNode alpha(String annotations, String status) throws Exception {
        ObjectNode o = parse("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'ContainerRecreateRequest',"
                + "'metadata':{'name':'test-crr','namespace':'default','labels':{'crr.apps.kruise.io/pod-uid':'uid-001',"
                + "'crr.apps.kruise.io/node-name':'node-1','crr.apps.kruise.io/active':'true'},"
                + "'finalizers':['crr.apps.kruise.io/unready-acquired']},"
                + "'spec':{'podName':'pod-0','activeDeadlineSeconds':60,'ttlSecondsAfterFinished':10,"
                + "'containers':[{'name':'app','statusContext':{'containerID':'docker://abc123','restartCount':3}}],"
                + "'strategy':{'failurePolicy':'Fail','orderedRecreate':true,'forceRecreate':true,"
                + "'terminationGracePeriodSeconds':30,'unreadyGracePeriodSeconds':5,'minStartedSeconds':10}}}");
        if (annotations != null) {
            ((ObjectNode) o.get("metadata")).set("annotations", JSON.readTree(annotations));
        }
        if (status != null) {
            o.set("status", parse(status));
        }
        return o;
    }

    @Test
    void masterConvertToPromotesTheAnnotationsAndKeepsEverythingElse() throws Exception {
        ObjectNode annotations = JSON.createObjectNode().put(SYNC, SYNC_JSON).put(UNREADY, TS);
        ObjectNode src = alpha(annotations.toString(), "{'phase':'Recreating','completionTime':'" + TS + "',"
                + "'message':'in progress','containerRecreateStates':[{'name':'app','phase':'Recreating','isKilled':true}]}");
        ObjectNode beta = ContainerRecreateRequestConversion.toV1beta1(src);
        assertEquals("apps.kruise.io/v1beta1", beta.get("apiVersion").asText());
        assertEquals(src.get("spec"), beta.get("spec"));
        assertEquals(src.at("/metadata/labels"), beta.at("/metadata/labels"));
        assertEquals(src.at("/metadata/finalizers"), beta.at("/metadata/finalizers"));
        assertEquals(JSON.readTree(SYNC_JSON), beta.at("/status/containerStatusSnapshot"));
        assertEquals(JSON.readTree(("[{'type':'PreRecreateGrace','status':'True','lastTransitionTime':'" + TS + "',"
                + "'reason':'PreRecreateGrace','message':'Pod has been forced to not-ready for unreadyGracePeriodSeconds "
                + "drain'}]").replace('\'', '"')), beta.at("/status/conditions"));
        assertEquals("Recreating", beta.at("/status/phase").asText());
        assertTrue(beta.at("/status/containerRecreateStates/0/isKilled").asBoolean());
        // Difference: OpenKruise keeps both annotations next to the fields; here they moved.
        assertFalse(beta.get("metadata").has("annotations"), beta.toString());
        assertEquals(src, ContainerRecreateRequestConversion.toV1alpha1(beta));
    }

    @Test
    void masterEmptyAndMalformedAnnotationsProduceNoSnapshotOrConditions() throws Exception {
        ObjectNode minimal = parse("{'apiVersion':'apps.kruise.io/v1alpha1','metadata':{'name':'minimal',"
                + "'namespace':'default'},'spec':{'podName':'pod-0','containers':[{'name':'app'}]}}");
        ObjectNode beta = ContainerRecreateRequestConversion.toV1beta1(minimal);
        assertFalse(beta.has("status"));
        assertEquals(minimal, ContainerRecreateRequestConversion.toV1alpha1(beta));
        for (String[] bad : List.of(new String[]{UNREADY, "not-a-time"}, new String[]{SYNC, "{invalid}"},
                new String[]{UNREADY, "2024-06-01T10:00:00.5Z"}, new String[]{UNREADY, "2024-06-01T12:00:00+02:00"},
                new String[]{SYNC, "[ {\"name\":\"app\"}]"}, new String[]{SYNC, "[1]"}, new String[]{STASH, "nope"})) {
            ObjectNode src = alpha(JSON.createObjectNode().put(bad[0], bad[1]).toString(), "{'phase':'Pending'}");
            ObjectNode out = ContainerRecreateRequestConversion.toV1beta1(src);
            assertEquals(bad[1], out.at("/metadata/annotations").get(bad[0]).asText(), bad[1]);
            assertFalse(out.get("status").has("conditions") || out.get("status").has("containerStatusSnapshot"), bad[1]);
            assertEquals(src, ContainerRecreateRequestConversion.toV1alpha1(out), bad[1]);
        }
    }

    @Test
    void masterConvertFromWritesTheAnnotationsAndKeepsTheConditionAside() throws Exception {
        ObjectNode beta = parse("{'apiVersion':'apps.kruise.io/v1beta1','metadata':{'name':'test-crr',"
                + "'namespace':'default','labels':{'crr.apps.kruise.io/pod-uid':'uid-001'}},"
                + "'spec':{'podName':'pod-0','containers':[{'name':'app'}],'strategy':{'failurePolicy':'Ignore',"
                + "'orderedRecreate':true,'minStartedSeconds':5}},"
                + "'status':{'phase':'Completed','completionTime':'" + TS + "','message':'done',"
                + "'containerRecreateStates':[{'name':'app','phase':'Succeeded','isKilled':true}],"
                + "'containerStatusSnapshot':[{'name':'app','ready':true,'restartCount':3,'containerID':'docker://abc123'}],"
                + "'conditions':[{'type':'PreRecreateGrace','status':'True','lastTransitionTime':'" + TS + "',"
                + "'reason':'PreRecreateGrace'}]}}");
        ObjectNode alpha = ContainerRecreateRequestConversion.toV1alpha1(beta);
        assertEquals(SYNC_JSON, alpha.at("/metadata/annotations").get(SYNC).asText());
        assertEquals(TS, alpha.at("/metadata/annotations").get(UNREADY).asText());
        assertFalse(alpha.get("status").has("containerStatusSnapshot"));
        assertFalse(alpha.get("status").has("conditions"));
        assertEquals(beta.get("spec"), alpha.get("spec"));
        // Difference: OpenKruise drops the condition's other fields (and every other condition); here they are kept.
        assertEquals("[{\"type\":\"PreRecreateGrace\",\"status\":\"True\",\"lastTransitionTime\":\"" + TS + "\","
                + "\"reason\":\"PreRecreateGrace\"}]", alpha.at("/metadata/annotations").get(STASH).asText());
        assertEquals(beta, ContainerRecreateRequestConversion.toV1beta1(alpha));
    }

    @Test
    void badStatusFieldsAreRefusedWithTheFieldNamed() throws Exception {
        for (String status : List.of("{'containerStatusSnapshot':'x'}", "{'containerStatusSnapshot':[1]}",
                "{'conditions':{}}", "{'conditions':['True']}")) {
            ObjectNode beta = parse("{'apiVersion':'apps.kruise.io/v1beta1','status':" + status + "}");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> ContainerRecreateRequestConversion.toV1alpha1(beta), status);
            assertTrue(e.getMessage().startsWith("status."), e.getMessage());
        }
        assertThrows(IllegalArgumentException.class, () -> ContainerRecreateRequestConversion.toV1beta1(
                parse("{'apiVersion':'apps.kruise.io/v1beta1'}")));
    }

    private static ObjectNode randomStatus(Random random, int i) {
        ObjectNode status = JSON.createObjectNode();
        List<String> phases = List.of("Pending", "Recreating", "Succeeded", "Failed", "Completed");
        status.put("phase", phases.get(random.nextInt(phases.size())));
        if (random.nextBoolean()) {
            status.put("message", "m" + i);
        }
        if (random.nextBoolean()) {
            status.putArray("containerRecreateStates").addObject().put("name", "app").put("phase", "Recreating")
                    .put("isKilled", random.nextBoolean());
        }
        if (random.nextInt(5) == 0) {
            status.put("futureStatus", i);
        }
        return status;
    }

    private static ArrayNode randomSnapshot(Random random) {
        ArrayNode list = JSON.createArrayNode();
        for (int n = random.nextInt(3); n > 0; n--) {
            ObjectNode s = list.addObject().put("name", "c" + n).put("ready", random.nextBoolean())
                    .put("restartCount", random.nextInt(9));
            if (random.nextBoolean()) {
                s.put("containerID", "containerd://" + random.nextInt(1000));
            }
        }
        return list;
    }

    private static String randomTime(Random random) {
        return java.time.Instant.ofEpochSecond(1_600_000_000L + random.nextInt(100_000_000)).toString();
    }

    private static ArrayNode randomConditions(Random random) {
        ArrayNode list = JSON.createArrayNode();
        if (random.nextBoolean()) {
            list.add(ContainerRecreateRequestConversion.graceCondition(randomTime(random)));
            return list;
        }
        for (int n = random.nextInt(3); n > 0; n--) {
            ObjectNode c = list.addObject().put("type", random.nextBoolean() ? "PreRecreateGrace" : "Other" + n)
                    .put("status", random.nextBoolean() ? "True" : "False").put("lastTransitionTime", randomTime(random));
            if (random.nextBoolean()) {
                c.put("reason", "R").put("observedGeneration", random.nextInt(5));
            }
        }
        return list;
    }

    @Test
    void generatedObjectsRoundTripUnchangedInBothDirections() throws Exception {
        Random random = new Random(27);
        List<String> odd = List.of("", "x", "{invalid}", "[1]", "2024-06-01T10:00:00.5Z", "[]", "[ ]");
        for (int i = 0; i < 2000; i++) {
            // v1alpha1 -> v1beta1 -> v1alpha1
            ObjectNode annotations = JSON.createObjectNode();
            if (random.nextBoolean()) {
                annotations.put(SYNC, random.nextInt(4) == 0 ? odd.get(random.nextInt(odd.size()))
                        : randomSnapshot(random).toString());
            }
            if (random.nextBoolean()) {
                annotations.put(UNREADY, random.nextInt(4) == 0 ? odd.get(random.nextInt(odd.size())) : randomTime(random));
            }
            if (random.nextInt(3) == 0) {
                ArrayNode conditions = randomConditions(random);
                annotations.put(STASH, random.nextInt(4) == 0 ? odd.get(random.nextInt(odd.size())) : conditions.toString());
                String derived = ContainerRecreateRequestConversion.trueGraceTime(conditions);
                if (derived != null && ContainerRecreateRequestConversion.graceTime(conditions) == null) {
                    annotations.put(UNREADY, derived); // as the conversion writes them together
                }
            }
            if (random.nextBoolean()) {
                annotations.put("other", "o" + i);
            }
            ObjectNode alpha = alpha(annotations.isEmpty() ? null : annotations.toString(), null);
            if (random.nextInt(4) != 0) {
                alpha.set("status", randomStatus(random, i));
            }
            if (random.nextInt(4) == 0) {
                ((ObjectNode) alpha.get("spec")).put("futureSpec", "f");
            }
            JsonNode beta = ContainerRecreateRequestConversion.toV1beta1(alpha);
            assertEquals(alpha, ContainerRecreateRequestConversion.toV1alpha1(beta), alpha.toString());

            // v1beta1 -> v1alpha1 -> v1beta1
            ObjectNode b = alpha(random.nextBoolean() ? "{\"other\":\"o\"}" : null, null);
            b.put("apiVersion", ContainerRecreateRequestConversion.BETA);
            if (random.nextInt(4) != 0) {
                ObjectNode status = randomStatus(random, i);
                if (random.nextBoolean()) {
                    status.set("containerStatusSnapshot", randomSnapshot(random));
                }
                if (random.nextBoolean()) {
                    status.set("conditions", randomConditions(random));
                }
                b.set("status", status);
            }
            ObjectNode a = ContainerRecreateRequestConversion.toV1alpha1(b);
            assertEquals(b, ContainerRecreateRequestConversion.toV1beta1(a), b.toString());
        }
    }
}
