package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * UnitedDeployment v1alpha1 <-> v1beta1: OpenKruise master's conversion cases
 * (apis/apps/v1alpha1/uniteddeployment_conversion_test.go) as facts, and round-trip properties over random objects of
 * both versions, including unknown fields, annotations and statuses v1beta1 cannot spell.
 */
class UnitedDeploymentConversionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private static ObjectNode tree(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    private static final String POD_TEMPLATE = "'template':{'metadata':{'labels':{'app':'demo'}},'spec':{'containers':"
            + "[{'name':'main','image':'nginx:1.25'}]}}";

    /** Master's unitedDeploymentForTemplate fixture with the given subset template. */
    private static ObjectNode alphaFor(String template) throws Exception {
        return tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'UnitedDeployment','metadata':{'name':'demo',"
                + "'namespace':'default','labels':{'app':'demo'}},'spec':{'replicas':5,'selector':{'matchLabels':"
                + "{'app':'demo'}},'template':{" + template + "},'topology':{'subsets':[{'name':'subset-a',"
                + "'minReplicas':1,'maxReplicas':'80%','patch':{'metadata':{'labels':{'subset':'a'}}}},"
                + "{'name':'subset-b'}],'scheduleStrategy':{'type':'Adaptive','adaptive':{'rescheduleCriticalSeconds':45,"
                + "'unschedulableDuration':600,'reserveUnschedulablePods':true}}},'updateStrategy':{'type':'Manual',"
                + "'manualUpdate':{'partitions':{'subset-a':1}}},'revisionHistoryLimit':12},'status':{"
                + "'observedGeneration':7,'readyReplicas':4,'replicas':5,'updatedReplicas':3,'reservedPods':1,"
                + "'updatedReadyReplicas':2,'collisionCount':1,'currentRevision':'rev-old','subsetReplicas':"
                + "{'subset-a':3,'subset-b':2},'subsetStatuses':[{'name':'subset-a','replicas':3,'readyReplicas':2,"
                + "'partition':1,'reservedPods':1,'conditions':[{'type':'Schedulable','status':'False',"
                + "'lastTransitionTime':'2024-03-09T16:00:00Z','reason':'reschedule','message':'reserved pods found'}]},"
                + "{'name':'subset-b','replicas':2,'readyReplicas':2}],'conditions':[{'type':'UnitedDeploymentUpdated',"
                + "'status':'False','lastTransitionTime':'2024-03-09T16:00:00Z','reason':'UnitedDeploymentRevisionUpdating',"
                + "'message':'updating to revision rev-new'}],'updateStatus':{'updatedRevision':'rev-new',"
                + "'currentPartitions':{'subset-a':1,'subset-b':0}},'labelSelector':'app=demo'}}");
    }

    // --- OpenKruise's TestUnitedDeploymentConversionRoundTrip, one case per template kind ---

    @Test
    void statefulSetTemplate() throws Exception {
        roundTripOfMastersFixture("'statefulSetTemplate':{'metadata':{'labels':{'app':'demo'}},'spec':{"
                + POD_TEMPLATE + "}}", "statefulSetTemplate");
    }

    @Test
    void advancedStatefulSetTemplate() throws Exception {
        roundTripOfMastersFixture("'advancedStatefulSetTemplate':{'metadata':{'labels':{'app':'demo'}},'spec':{"
                + POD_TEMPLATE + "}}", "advancedStatefulSetTemplate");
    }

    @Test
    void cloneSetTemplate() throws Exception {
        ObjectNode beta = roundTripOfMastersFixture("'cloneSetTemplate':{'metadata':{'labels':{'app':'demo'}},'spec':{"
                + POD_TEMPLATE + ",'updateStrategy':{'type':'InPlaceIfPossible','partition':1},'scaleStrategy':{}}}",
                "cloneSetTemplate");
        // The template's CloneSet spec is a v1beta1 one in v1beta1, as in OpenKruise's master.
        assertEquals(tree("{'type':'RollingUpdate','rollingUpdate':{'partition':1,'podUpdatePolicy':'InPlaceIfPossible'}}"),
                beta.at("/spec/template/cloneSetTemplate/spec/updateStrategy"));
        assertEquals(tree("{'enablePVCReuse':true}"), beta.at("/spec/template/cloneSetTemplate/spec/scaleStrategy"));
    }

    @Test
    void deploymentTemplate() throws Exception {
        roundTripOfMastersFixture("'deploymentTemplate':{'metadata':{'labels':{'app':'demo'}},'spec':{"
                + POD_TEMPLATE + "}}", "deploymentTemplate");
    }

    private ObjectNode roundTripOfMastersFixture(String template, String kind) throws Exception {
        ObjectNode alpha = alphaFor(template);
        ObjectNode beta = UnitedDeploymentConversion.toV1beta1(alpha);
        assertEquals("apps.kruise.io/v1beta1", beta.path("apiVersion").asText());
        assertEquals("UnitedDeployment", beta.path("kind").asText());
        assertEquals("demo", beta.at("/metadata/name").asText());
        assertEquals("Manual", beta.at("/spec/updateStrategy/type").asText());
        assertEquals(tree("{'subset-a':1}"), beta.at("/spec/updateStrategy/manualUpdate/partitions"));
        assertEquals("rev-new", beta.at("/status/updatedRevision").asText());
        assertEquals(2, beta.at("/status/subsetStatuses").size());
        assertEquals(3, beta.at("/status/subsetStatuses/0/replicas").asInt());
        assertEquals(2, beta.at("/status/subsetStatuses/1/replicas").asInt());
        assertEquals("Adaptive", beta.at("/spec/topology/scheduleStrategy/type").asText());
        assertTrue(beta.at("/spec/template/" + kind).isObject());
        assertFalse(beta.path("status").has("subsetReplicas"));
        assertFalse(beta.path("status").has("updateStatus"));
        assertFalse(beta.path("metadata").has("annotations"), "nothing kept aside for a status v1beta1 can spell");
        ObjectNode back = UnitedDeploymentConversion.toV1alpha1(beta);
        assertEquals(alpha, back);
        return beta;
    }

    // --- TestUnitedDeploymentConvertToV1beta1MergesLegacyStatusIntoSubsetStatuses ---

    @Test
    void legacyMapsAreMergedIntoSubsetStatuses() throws Exception {
        ObjectNode alpha = alphaFor("'deploymentTemplate':{'metadata':{'labels':{'app':'demo'}},'spec':{"
                + POD_TEMPLATE + "}}");
        ObjectNode status = (ObjectNode) alpha.get("status");
        status.set("subsetReplicas", tree("{'subset-a':5,'subset-c':1}"));
        ((ObjectNode) status.get("updateStatus")).set("currentPartitions", tree("{'subset-a':2,'subset-c':3}"));
        ObjectNode beta = UnitedDeploymentConversion.toV1beta1(alpha);
        JsonNode a = subset(beta, "subset-a");
        assertEquals(5, a.path("replicas").asInt());
        assertEquals(2, a.path("partition").asInt());
        assertEquals(2, a.path("readyReplicas").asInt());
        assertEquals(1, a.path("conditions").size());
        JsonNode c = subset(beta, "subset-c");
        assertEquals(1, c.path("replicas").asInt());
        assertEquals(3, c.path("partition").asInt());
        assertFalse(c.has("conditions"));
        // OpenKruise loses the observed replicas and the map entries here; this project keeps the v1alpha1 status aside.
        assertTrue(beta.at("/metadata/annotations").has(UnitedDeploymentConversion.ALPHA_STATUS_ANNOTATION));
        assertEquals(alpha, UnitedDeploymentConversion.toV1alpha1(beta));
    }

    // --- TestUnitedDeploymentConvertFromV1beta1NormalizesLegacySubsetReplicas ---

    @Test
    void unnamedSubsetStatusesAreLeftOutOfTheMaps() throws Exception {
        ObjectNode beta = tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'UnitedDeployment','status':{"
                + "'subsetStatuses':[{'name':'','replicas':9},{'name':'subset-a','replicas':3}]}}");
        ObjectNode alpha = UnitedDeploymentConversion.toV1alpha1(beta);
        assertEquals(tree("{'subset-a':3}"), alpha.at("/status/subsetReplicas"));
        assertEquals(beta, UnitedDeploymentConversion.toV1beta1(alpha));
    }

    // --- TestUnitedDeploymentConvertFromV1beta1LeavesLegacySubsetReplicasNilWhenNoNamedStatuses ---

    @Test
    void noNamedSubsetStatusesNoSubsetReplicas() throws Exception {
        ObjectNode beta = tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'UnitedDeployment','status':{"
                + "'subsetStatuses':[{'name':'','replicas':9}]}}");
        ObjectNode alpha = UnitedDeploymentConversion.toV1alpha1(beta);
        assertFalse(alpha.path("status").has("subsetReplicas"));
        assertEquals(beta, UnitedDeploymentConversion.toV1beta1(alpha));
    }

    // --- this project's rules ---

    @Test
    void aKeptStatusIsIgnoredOnceTheV1beta1StatusChanged() throws Exception {
        ObjectNode alpha = alphaFor("'deploymentTemplate':{'spec':{" + POD_TEMPLATE + "}}");
        ((ObjectNode) alpha.get("status")).set("subsetReplicas", tree("{'subset-a':5,'subset-b':2}"));
        ObjectNode beta = UnitedDeploymentConversion.toV1beta1(alpha);
        assertTrue(beta.at("/metadata/annotations").has(UnitedDeploymentConversion.ALPHA_STATUS_ANNOTATION));
        ((ObjectNode) beta.at("/status/subsetStatuses/0")).put("replicas", 4);
        ObjectNode back = UnitedDeploymentConversion.toV1alpha1(beta);
        assertEquals(tree("{'subset-a':4,'subset-b':2}"), back.at("/status/subsetReplicas"));
        assertFalse(back.path("metadata").has("annotations"), "the stale copy is dropped");
    }

    @Test
    void aV1beta1ObjectWithoutStatusStaysWithoutOne() throws Exception {
        ObjectNode beta = tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'UnitedDeployment','metadata':{'name':'u'},"
                + "'spec':{'selector':{'matchLabels':{'app':'a'}},'template':{'cloneSetTemplate':{'metadata':{'labels':"
                + "{'app':'a'}},'spec':{" + POD_TEMPLATE + "}}}}}");
        ObjectNode alpha = UnitedDeploymentConversion.toV1alpha1(beta);
        assertFalse(alpha.has("status"));
        assertEquals("ReCreate", alpha.at("/spec/template/cloneSetTemplate/spec/updateStrategy/type").asText());
        assertEquals(beta, UnitedDeploymentConversion.toV1beta1(alpha));
    }

    @Test
    void aCloneSetTemplateV1alpha1CannotHoldIsRefusedWithTheField() throws Exception {
        ObjectNode beta = tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'UnitedDeployment','spec':{'template':"
                + "{'cloneSetTemplate':{'spec':{'updateStrategy':{'type':'Sideways'}}}}}}");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UnitedDeploymentConversion.toV1alpha1(beta));
        assertTrue(e.getMessage().startsWith("spec.template.cloneSetTemplate.spec.updateStrategy.type: Unsupported value"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UnitedDeploymentConversion.toV1alpha1(alphaFor("")));
    }

    @Test
    void typedModelsReadTheConvertedObjects() throws Exception {
        ObjectNode alpha = alphaFor("'cloneSetTemplate':{'spec':{" + POD_TEMPLATE + ",'updateStrategy':{'type':'ReCreate'}}}");
        UnitedDeployment beta = ApiJson.serialization().convertValue(UnitedDeploymentConversion.toV1beta1(alpha),
                UnitedDeployment.class);
        assertEquals("rev-new", beta.getStatus().getUpdatedRevision());
        assertEquals(3, beta.getStatus().getSubsetStatuses().get(0).getReplicas());
        assertEquals(CloneSetUpdateStrategyType.ROLLING_UPDATE.value(),
                beta.getSpec().getTemplate().getCloneSetTemplate().getSpec().getUpdateStrategy().getType());
        dev.kruisevertx.api.apps.v1alpha1.UnitedDeployment typed = UnitedDeploymentConversion.toV1alpha1(beta);
        assertEquals("rev-new", typed.getStatus().getUpdateStatus().getUpdatedRevision());
        assertEquals(3, typed.getStatus().getSubsetReplicas().get("subset-a"));
    }

    @Test
    void hostileShapesConvertOrAreRefusedWithAMessage() throws Exception {
        // Wrong JSON types at every place the conversion looks: converted as they are or refused with a message.
        String[] values = {"null", "7", "\"x\"", "[]", "[1]", "{}", "true", "-1e40"};
        String[] paths = {"metadata", "metadata/annotations", "spec", "spec/template", "spec/template/cloneSetTemplate",
                "spec/template/cloneSetTemplate/spec", "spec/template/cloneSetTemplate/metadata",
                "spec/template/cloneSetTemplate/spec/updateStrategy",
                "spec/template/cloneSetTemplate/spec/updateStrategy/type",
                "spec/template/cloneSetTemplate/spec/scaleStrategy", "status", "status/subsetStatuses",
                "status/subsetStatuses/0", "status/subsetStatuses/0/name", "status/subsetStatuses/0/replicas",
                "status/subsetReplicas", "status/subsetReplicas/a", "status/updateStatus",
                "status/updateStatus/updatedRevision", "status/updateStatus/currentPartitions", "status/updatedRevision"};
        for (boolean alpha : new boolean[] {true, false}) {
            for (String path : paths) {
                for (String value : values) {
                    ObjectNode o = tree("{'apiVersion':'apps.kruise.io/" + (alpha ? "v1alpha1" : "v1beta1") + "',"
                            + "'metadata':{'name':'h','annotations':{'a':'b'}},'spec':{'template':{'cloneSetTemplate':"
                            + "{'metadata':{},'spec':{'updateStrategy':{'type':'" + (alpha ? "ReCreate" : "RollingUpdate")
                            + "'},'scaleStrategy':{}}}}},'status':{'subsetStatuses':[{'name':'a','replicas':1}],"
                            + "'subsetReplicas':{'a':1},'updateStatus':{'updatedRevision':'r','currentPartitions':{}},"
                            + "'updatedRevision':'r'}}");
                    String[] parts = path.split("/");
                    JsonNode parent = o;
                    for (int i = 0; i < parts.length - 1; i++) {
                        parent = parts[i].matches("\\d+") ? parent.get(Integer.parseInt(parts[i])) : parent.get(parts[i]);
                    }
                    String last = parts[parts.length - 1];
                    JsonNode v = JSON.readTree(value);
                    if (parent instanceof ArrayNode a) {
                        a.set(Integer.parseInt(last), v);
                    } else {
                        ((ObjectNode) parent).set(last, v);
                    }
                    try {
                        ObjectNode converted = alpha ? UnitedDeploymentConversion.toV1beta1(o)
                                : UnitedDeploymentConversion.toV1alpha1(o);
                        ObjectNode back = alpha ? UnitedDeploymentConversion.toV1alpha1(converted)
                                : UnitedDeploymentConversion.toV1beta1(converted);
                        if (!path.startsWith("metadata")) {
                            // (a metadata or annotations that is not an object has nowhere to keep a part, and an
                            // empty or null one made to hold it reads back absent: the API server never stores such
                            // an object, every object has a name)
                            assertEquals(o, back, path + "=" + value);
                        }
                    } catch (IllegalArgumentException e) {
                        assertFalse(alpha, "a v1alpha1 object always converts: " + path + "=" + value);
                        assertTrue(e.getMessage().startsWith("spec.template.cloneSetTemplate."), e.getMessage());
                    }
                }
            }
        }
    }

    // --- round-trip properties ---

    @Test
    void randomAlphaObjectsSurviveAlphaBetaAlpha() {
        Random random = new Random(27);
        for (int i = 0; i < 2000; i++) {
            ObjectNode alpha = randomObject(random, true);
            ObjectNode beta = UnitedDeploymentConversion.toV1beta1(alpha);
            assertEquals(alpha, UnitedDeploymentConversion.toV1alpha1(beta), "case " + i + ": " + alpha);
            // Converting the same object again gives the same answer (the kept copies are stable).
            assertEquals(beta, UnitedDeploymentConversion.toV1beta1(UnitedDeploymentConversion.toV1alpha1(beta)),
                    "case " + i);
        }
    }

    @Test
    void randomBetaObjectsSurviveBetaAlphaBeta() {
        Random random = new Random(72);
        for (int i = 0; i < 2000; i++) {
            ObjectNode beta = randomObject(random, false);
            ObjectNode alpha = UnitedDeploymentConversion.toV1alpha1(beta);
            assertEquals(beta, UnitedDeploymentConversion.toV1beta1(alpha), "case " + i + ": " + beta);
        }
    }

    private static JsonNode subset(JsonNode ud, String name) {
        for (JsonNode s : ud.at("/status/subsetStatuses")) {
            if (name.equals(s.path("name").asText())) {
                return s;
            }
        }
        throw new AssertionError("no subset status " + name);
    }

    private static ObjectNode randomObject(Random r, boolean alpha) {
        ObjectNode o = F.objectNode();
        o.put("apiVersion", alpha ? UnitedDeploymentConversion.ALPHA : UnitedDeploymentConversion.BETA);
        o.put("kind", "UnitedDeployment");
        if (r.nextInt(4) > 0) {
            ObjectNode m = o.putObject("metadata");
            m.put("name", "ud-" + r.nextInt(100));
            if (r.nextBoolean()) {
                m.putObject("annotations").put("team", "t" + r.nextInt(5));
            }
            if (r.nextBoolean()) {
                m.putObject("labels").put("app", "a");
            }
        }
        if (r.nextInt(5) > 0) {
            ObjectNode spec = o.putObject("spec");
            if (r.nextBoolean()) {
                spec.put("replicas", r.nextInt(10));
            }
            spec.putObject("selector").putObject("matchLabels").put("app", "a");
            ObjectNode template = spec.putObject("template");
            switch (r.nextInt(3)) {
                case 0 -> template.set("deploymentTemplate", podTemplateHolder(r));
                case 1 -> template.set("cloneSetTemplate", cloneSetTemplate(r, alpha));
                default -> {
                }
            }
            if (r.nextBoolean()) {
                ArrayNode subsets = spec.putObject("topology").putArray("subsets");
                for (int i = 0; i < r.nextInt(3); i++) {
                    subsets.addObject().put("name", "s" + i).put("replicas", r.nextBoolean() ? "50%" : "2");
                }
            }
            if (r.nextBoolean()) {
                spec.putObject("updateStrategy").put("type", "Manual").putObject("manualUpdate")
                        .putObject("partitions").put("s0", r.nextInt(3));
            }
            if (r.nextBoolean()) {
                spec.put("futureSpecField", "x" + r.nextInt(9)); // unknown to both models
            }
        }
        if (r.nextInt(4) > 0) {
            o.set("status", alpha ? alphaStatus(r) : betaStatus(r));
        }
        return o;
    }

    private static ObjectNode podTemplateHolder(Random r) {
        ObjectNode holder = F.objectNode();
        if (r.nextBoolean()) {
            holder.putObject("metadata").putObject("labels").put("app", "a");
        }
        holder.putObject("spec").putObject("template").putObject("spec").putArray("containers").addObject()
                .put("name", "c").put("image", "nginx:" + r.nextInt(3));
        return holder;
    }

    private static ObjectNode cloneSetTemplate(Random r, boolean alpha) {
        ObjectNode holder = podTemplateHolder(r);
        ObjectNode spec = (ObjectNode) holder.get("spec");
        if (alpha) {
            if (r.nextBoolean()) {
                ObjectNode update = spec.putObject("updateStrategy");
                if (r.nextBoolean()) {
                    update.put("type", pick(r, "ReCreate", "InPlaceIfPossible", "InPlaceOnly", "OnDelete"));
                }
                if (r.nextBoolean()) {
                    update.put("partition", r.nextInt(4));
                }
            }
            if (r.nextBoolean()) {
                ObjectNode scale = spec.putObject("scaleStrategy");
                if (r.nextBoolean()) {
                    scale.put("disablePVCReuse", r.nextBoolean());
                }
            }
            if (r.nextInt(4) == 0) {
                ((ObjectNode) holder.with("metadata")).putObject("annotations")
                        .put("apps.kruise.io/image-predownload-parallelism", pick(r, "5", "007", "50%"));
            }
        } else {
            if (r.nextBoolean()) {
                ObjectNode update = spec.putObject("updateStrategy");
                update.put("type", pick(r, "RollingUpdate", "OnDelete"));
                if (r.nextBoolean()) {
                    ObjectNode rolling = update.putObject("rollingUpdate");
                    if (r.nextBoolean()) {
                        rolling.put("podUpdatePolicy", pick(r, "ReCreate", "InPlaceIfPossible", "InPlaceOnly"));
                    }
                    if (r.nextBoolean()) {
                        rolling.put("partition", r.nextInt(4));
                    }
                }
            }
            if (r.nextBoolean()) {
                ObjectNode scale = spec.putObject("scaleStrategy");
                if (r.nextBoolean()) {
                    scale.put("enablePVCReuse", r.nextBoolean());
                }
                if (r.nextBoolean()) {
                    scale.put("excludePreparingDelete", r.nextBoolean());
                }
            }
        }
        if (r.nextInt(4) == 0) {
            spec.put("unknownCloneSetField", r.nextInt(9));
        }
        return holder;
    }

    private static ObjectNode commonStatus(Random r) {
        ObjectNode s = F.objectNode();
        s.put("replicas", r.nextInt(6)).put("updatedReplicas", r.nextInt(6)).put("currentRevision", "rev-" + r.nextInt(3));
        if (r.nextBoolean()) {
            s.put("observedGeneration", 1 + r.nextInt(5));
        }
        if (r.nextBoolean()) {
            s.put("labelSelector", "app=a");
        }
        if (r.nextInt(5) == 0) {
            s.put("futureStatusField", true);
        }
        return s;
    }

    private static ArrayNode subsetStatuses(Random r, ObjectNode status) {
        ArrayNode list = status.putArray("subsetStatuses");
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            ObjectNode e = list.addObject();
            e.put("name", r.nextInt(6) == 0 ? "" : "s" + r.nextInt(3)); // duplicates and unnamed ones too
            if (r.nextBoolean()) {
                e.put("replicas", 1 + r.nextInt(4));
            }
            if (r.nextBoolean()) {
                e.put("partition", 1 + r.nextInt(3));
            }
            if (r.nextBoolean()) {
                e.put("readyReplicas", 1 + r.nextInt(4));
            }
            if (r.nextInt(4) == 0) {
                e.putArray("conditions").addObject().put("type", "Schedulable").put("status", "False");
            }
        }
        if (n == 0 && r.nextBoolean()) {
            status.remove("subsetStatuses");
        }
        return list;
    }

    private static ObjectNode alphaStatus(Random r) {
        ObjectNode s = commonStatus(r);
        subsetStatuses(r, s);
        if (r.nextBoolean()) {
            ObjectNode map = s.putObject("subsetReplicas");
            for (int i = 0; i < r.nextInt(3); i++) {
                map.put("s" + r.nextInt(3), r.nextInt(4));
            }
        }
        if (r.nextBoolean()) {
            ObjectNode update = s.putObject("updateStatus");
            if (r.nextBoolean()) {
                update.put("updatedRevision", "rev-" + r.nextInt(3));
            }
            if (r.nextBoolean()) {
                ObjectNode map = update.putObject("currentPartitions");
                for (int i = 0; i < r.nextInt(3); i++) {
                    map.put("s" + r.nextInt(3), r.nextInt(3));
                }
            }
        }
        return s;
    }

    private static ObjectNode betaStatus(Random r) {
        ObjectNode s = commonStatus(r);
        subsetStatuses(r, s);
        if (r.nextBoolean()) {
            s.put("updatedRevision", r.nextInt(4) == 0 ? "" : "rev-" + r.nextInt(3));
        }
        return s;
    }

    private static String pick(Random r, String... values) {
        return values[r.nextInt(values.length)];
    }
}
