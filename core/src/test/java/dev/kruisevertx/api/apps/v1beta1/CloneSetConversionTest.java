package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * CloneSet v1alpha1 <-> v1beta1: OpenKruise master's conversion cases (apis/apps/v1alpha1/conversion_test.go,
 * TestCloneSet_ConvertTo / ConvertFrom) as facts, where this project deliberately differs said so, and round-trip
 * properties over random objects of both versions in the form the defaulting webhook leaves them.
 */
class CloneSetConversionTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final String EXCLUDE = "apps.kruise.io/cloneset-scaling-exclude-preparing-delete";
    private static final String PARALLELISM = "apps.kruise.io/image-predownload-parallelism";
    private static final String TIMEOUT = "apps.kruise.io/image-predownload-timeout-seconds";
    private static final String MIN_READY = "apps.kruise.io/image-predownload-min-updated-ready-pods";

    private static ObjectNode tree(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    private static final String TEMPLATE = "'selector':{'matchLabels':{'app':'test'}},'template':{'metadata':"
            + "{'labels':{'app':'test'}},'spec':{'containers':[{'name':'nginx','image':'nginx:1.14.2'}]}}";

    // --- OpenKruise's TestCloneSet_ConvertTo ---

    @Test
    void allFieldsPopulated() throws Exception {
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'CloneSet','metadata':{'name':'test-cs',"
                + "'namespace':'default','labels':{'app':'test'}},'spec':{'replicas':5," + TEMPLATE + ","
                + "'volumeClaimTemplates':[{'metadata':{'name':'data'},'spec':{'accessModes':['ReadWriteOnce']}}],"
                + "'scaleStrategy':{'podsToDelete':['pod-1'],'maxUnavailable':1},"
                + "'updateStrategy':{'type':'InPlaceIfPossible','partition':2,'maxUnavailable':'20%','maxSurge':1},"
                + "'revisionHistoryLimit':10,'minReadySeconds':30},'status':{'observedGeneration':1,'replicas':5,"
                + "'readyReplicas':5,'availableReplicas':5,'updatedReplicas':3,'updatedReadyReplicas':3,"
                + "'updatedAvailableReplicas':3,'expectedUpdatedReplicas':3,'updateRevision':'rev-123',"
                + "'currentRevision':'rev-122','collisionCount':0,'labelSelector':'app=test'}}");
        ObjectNode beta = CloneSetConversion.toV1beta1(alpha);
        ObjectNode expected = tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'CloneSet','metadata':{'name':'test-cs',"
                + "'namespace':'default','labels':{'app':'test'}},'spec':{'replicas':5," + TEMPLATE + ","
                + "'volumeClaimTemplates':[{'metadata':{'name':'data'},'spec':{'accessModes':['ReadWriteOnce']}}],"
                + "'scaleStrategy':{'podsToDelete':['pod-1'],'maxUnavailable':1,'enablePVCReuse':true},"
                + "'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'partition':2,'maxUnavailable':'20%',"
                + "'maxSurge':1,'podUpdatePolicy':'InPlaceIfPossible'}},"
                + "'revisionHistoryLimit':10,'minReadySeconds':30},'status':{'observedGeneration':1,'replicas':5,"
                + "'readyReplicas':5,'availableReplicas':5,'updatedReplicas':3,'updatedReadyReplicas':3,"
                + "'updatedAvailableReplicas':3,'expectedUpdatedReplicas':3,'updateRevision':'rev-123',"
                + "'currentRevision':'rev-122','collisionCount':0,'labelSelector':'app=test'}}");
        assertEquals(expected, beta);
        assertEquals("InPlaceIfPossible", alpha.path("spec").path("updateStrategy").path("type").asText(), "input untouched");
        assertEquals(alpha, CloneSetConversion.toV1alpha1(beta));
    }

    @Test
    void excludePreparingDeleteLabelBecomesTheField() throws Exception {
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','metadata':{'name':'c','labels':{'app':'test','"
                + EXCLUDE + "':'true'}},'spec':{'replicas':3,'scaleStrategy':{'disablePVCReuse':true}}}");
        ObjectNode beta = CloneSetConversion.toV1beta1(alpha);
        JsonNode scale = beta.path("spec").path("scaleStrategy");
        assertTrue(scale.path("excludePreparingDelete").asBoolean());
        assertFalse(scale.has("enablePVCReuse"));
        // OpenKruise keeps the label on the v1beta1 object too; here the field alone holds the setting.
        assertEquals(tree("{'app':'test'}"), beta.path("metadata").path("labels"));
        assertEquals(tree("{'type':'RollingUpdate','rollingUpdate':{'podUpdatePolicy':'ReCreate'}}"),
                beta.path("spec").path("updateStrategy"));
    }

    @Test
    void minimalFieldsGetEnablePvcReuseAndRollingUpdateReCreate() throws Exception {
        ObjectNode beta = CloneSetConversion.toV1beta1(tree("{'apiVersion':'apps.kruise.io/v1alpha1','metadata':"
                + "{'name':'minimal-cs'},'spec':{'replicas':1," + TEMPLATE + "}}"));
        assertEquals(tree("{'enablePVCReuse':true}"), beta.path("spec").path("scaleStrategy"));
        assertEquals(tree("{'type':'RollingUpdate','rollingUpdate':{'podUpdatePolicy':'ReCreate'}}"),
                beta.path("spec").path("updateStrategy"));
    }

    @Test
    void eachAlphaTypeIsRollingUpdateWithThatPolicy() throws Exception {
        for (String type : List.of("ReCreate", "InPlaceIfPossible", "InPlaceOnly")) {
            ObjectNode beta = CloneSetConversion.toV1beta1(tree("{'apiVersion':'apps.kruise.io/v1alpha1','spec':"
                    + "{'updateStrategy':{'type':'" + type + "'}}}"));
            assertEquals("RollingUpdate", beta.path("spec").path("updateStrategy").path("type").asText());
            assertEquals(type, beta.path("spec").path("updateStrategy").path("rollingUpdate").path("podUpdatePolicy").asText());
        }
        ObjectNode onDelete = CloneSetConversion.toV1beta1(tree("{'apiVersion':'apps.kruise.io/v1alpha1','spec':"
                + "{'updateStrategy':{'type':'OnDelete','partition':1}}}"));
        // OpenKruise drops an OnDelete CloneSet's knobs; they are kept here.
        assertEquals(tree("{'type':'OnDelete','rollingUpdate':{'partition':1}}"),
                onDelete.path("spec").path("updateStrategy"));
    }

    @Test
    void imagePreDownloadAnnotationsBecomeInPlaceFields() throws Exception {
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','metadata':{'name':'c','annotations':{'"
                + PARALLELISM + "':'2','" + TIMEOUT + "':'300','" + MIN_READY + "':'5'}},'spec':{'replicas':3,"
                + "'updateStrategy':{'type':'InPlaceIfPossible'}}}");
        ObjectNode beta = CloneSetConversion.toV1beta1(alpha);
        assertEquals(tree("{'imagePreDownloadParallelism':2,'imagePreDownloadTimeoutSeconds':300,"
                        + "'imagePreDownloadMinUpdatedReadyPods':5}"),
                beta.path("spec").path("updateStrategy").path("rollingUpdate").path("inPlaceUpdateStrategy"));
        assertFalse(beta.path("metadata").has("annotations"), "OpenKruise keeps them; here the fields alone hold them");
        ObjectNode back = CloneSetConversion.toV1alpha1(beta);
        assertEquals(tree("{'" + PARALLELISM + "':'2','" + TIMEOUT + "':'300','" + MIN_READY + "':'5'}"),
                back.path("metadata").path("annotations"));
    }

    @Test
    void annotationsThatAreNotCanonicalNumbersStayAnnotations() throws Exception {
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','metadata':{'annotations':{'" + PARALLELISM
                + "':'50%','" + TIMEOUT + "':'007','" + MIN_READY + "':'many'}},'spec':{'scaleStrategy':{},"
                + "'updateStrategy':{'type':'ReCreate'}}}");
        ObjectNode beta = CloneSetConversion.toV1beta1(alpha);
        assertEquals("50%", beta.path("spec").path("updateStrategy").path("rollingUpdate").path("inPlaceUpdateStrategy")
                .path("imagePreDownloadParallelism").asText());
        assertEquals(tree("{'" + TIMEOUT + "':'007','" + MIN_READY + "':'many'}"), beta.path("metadata").path("annotations"));
        assertEquals(alpha, CloneSetConversion.toV1alpha1(beta));
    }

    // --- OpenKruise's TestCloneSet_ConvertFrom ---

    @Test
    void fromBetaAllFields() throws Exception {
        ObjectNode beta = tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'CloneSet','metadata':{'name':'c'},"
                + "'spec':{'replicas':5," + TEMPLATE + ",'scaleStrategy':{'podsToDelete':['pod-1'],'maxUnavailable':1,"
                + "'enablePVCReuse':true},'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'partition':2,"
                + "'maxUnavailable':'20%','maxSurge':1,'podUpdatePolicy':'InPlaceIfPossible','paused':true,"
                + "'priorityStrategy':{'weightPriority':[{'weight':50,'matchSelector':{'matchLabels':{'k':'v'}}}]},"
                + "'scatterStrategy':[{'key':'zone','value':'a'}],'inPlaceUpdateStrategy':{'gracePeriodSeconds':10}}},"
                + "'minReadySeconds':30,'lifecycle':{'preDelete':{'finalizersHandler':['x/y']}},"
                + "'progressDeadlineSeconds':60},'status':{'replicas':5,'updateRevision':'r'}}");
        ObjectNode alpha = CloneSetConversion.toV1alpha1(beta);
        assertEquals(tree("{'podsToDelete':['pod-1'],'maxUnavailable':1}"), alpha.path("spec").path("scaleStrategy"));
        assertEquals(tree("{'type':'InPlaceIfPossible','partition':2,'maxUnavailable':'20%','maxSurge':1,'paused':true,"
                + "'priorityStrategy':{'weightPriority':[{'weight':50,'matchSelector':{'matchLabels':{'k':'v'}}}]},"
                + "'scatterStrategy':[{'key':'zone','value':'a'}],'inPlaceUpdateStrategy':{'gracePeriodSeconds':10}}"),
                alpha.path("spec").path("updateStrategy"));
        assertEquals(beta.path("spec").path("lifecycle"), alpha.path("spec").path("lifecycle"));
        assertEquals(beta.path("status"), alpha.path("status"));
        assertEquals(beta, CloneSetConversion.toV1beta1(alpha));
    }

    @Test
    void fromBetaExcludePreparingDeleteWritesTheLabel() throws Exception {
        ObjectNode alpha = CloneSetConversion.toV1alpha1(tree("{'apiVersion':'apps.kruise.io/v1beta1','metadata':"
                + "{'name':'c'},'spec':{'scaleStrategy':{'excludePreparingDelete':true}}}"));
        // OpenKruise leaves the label out (its v1alpha1 object then scales differently); this project writes it.
        assertEquals("true", alpha.path("metadata").path("labels").path(EXCLUDE).asText());
        assertEquals(tree("{'disablePVCReuse':true}"), alpha.path("spec").path("scaleStrategy"));
        assertEquals("ReCreate", alpha.path("spec").path("updateStrategy").path("type").asText());
    }

    @Test
    void fromBetaStaleLabelIsDroppedWhenTheFieldIsOff() throws Exception {
        ObjectNode alpha = CloneSetConversion.toV1alpha1(tree("{'apiVersion':'apps.kruise.io/v1beta1','metadata':"
                + "{'labels':{'" + EXCLUDE + "':'true'}},'spec':{'scaleStrategy':{'enablePVCReuse':true}}}"));
        assertFalse(alpha.path("metadata").has("labels"));
    }

    @Test
    void fromBetaMinimalAndEnablePvcReuseFalse() throws Exception {
        ObjectNode alpha = CloneSetConversion.toV1alpha1(tree("{'apiVersion':'apps.kruise.io/v1beta1','metadata':"
                + "{'name':'m'},'spec':{'replicas':1}}"));
        assertEquals(tree("{'disablePVCReuse':true}"), alpha.path("spec").path("scaleStrategy"));
        assertEquals(tree("{'type':'ReCreate'}"), alpha.path("spec").path("updateStrategy"));
        ObjectNode explicit = CloneSetConversion.toV1alpha1(tree("{'apiVersion':'apps.kruise.io/v1beta1','spec':"
                + "{'scaleStrategy':{'enablePVCReuse':false},'updateStrategy':{'type':'RollingUpdate','rollingUpdate':"
                + "{'podUpdatePolicy':'InPlaceOnly'}}}}"));
        assertEquals(tree("{'disablePVCReuse':true}"), explicit.path("spec").path("scaleStrategy"));
        assertEquals(tree("{'type':'InPlaceOnly'}"), explicit.path("spec").path("updateStrategy"));
    }

    @Test
    void fromBetaImageFieldsBecomeAnnotations() throws Exception {
        ObjectNode alpha = CloneSetConversion.toV1alpha1(tree("{'apiVersion':'apps.kruise.io/v1beta1','metadata':"
                + "{'annotations':{'keep':'x'}},'spec':{'updateStrategy':{'type':'RollingUpdate','rollingUpdate':"
                + "{'podUpdatePolicy':'ReCreate','inPlaceUpdateStrategy':{'imagePreDownloadParallelism':'25%',"
                + "'imagePreDownloadTimeoutSeconds':600,'imagePreDownloadMinUpdatedReadyPods':1}}}}}"));
        assertEquals(tree("{'keep':'x','" + PARALLELISM + "':'25%','" + TIMEOUT + "':'600','" + MIN_READY + "':'1'}"),
                alpha.path("metadata").path("annotations"));
        assertFalse(alpha.path("spec").path("updateStrategy").has("inPlaceUpdateStrategy"),
                "an inPlaceUpdateStrategy holding only image fields is not a v1alpha1 one");
    }

    // --- what v1alpha1 cannot hold ---

    @Test
    void unknownBetaTypeAndWrongTypedValuesAreRefusedWithTheField() throws Exception {
        IllegalArgumentException type = assertThrows(IllegalArgumentException.class, () -> CloneSetConversion.toV1alpha1(
                tree("{'apiVersion':'apps.kruise.io/v1beta1','spec':{'updateStrategy':{'type':'Canary'}}}")));
        assertEquals("spec.updateStrategy.type: Unsupported value: \"Canary\": supported values: \"RollingUpdate\", "
                + "\"OnDelete\"", type.getMessage());
        IllegalArgumentException timeout = assertThrows(IllegalArgumentException.class, () -> CloneSetConversion.toV1alpha1(
                tree("{'apiVersion':'apps.kruise.io/v1beta1','spec':{'updateStrategy':{'type':'RollingUpdate',"
                        + "'rollingUpdate':{'inPlaceUpdateStrategy':{'imagePreDownloadTimeoutSeconds':1e20}}}}}")));
        assertTrue(timeout.getMessage().startsWith("spec.updateStrategy.rollingUpdate.inPlaceUpdateStrategy."
                + "imagePreDownloadTimeoutSeconds: Invalid value: "), timeout.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CloneSetConversion.toV1alpha1(
                tree("{'apiVersion':'apps.kruise.io/v1alpha1','spec':{}}")), "wrong source version");
    }

    @Test
    void onDeletePodUpdatePolicyAndUnknownRollingKeysSurviveInV1alpha1() throws Exception {
        ObjectNode beta = tree("{'apiVersion':'apps.kruise.io/v1beta1','spec':{'updateStrategy':{'type':'OnDelete',"
                + "'rollingUpdate':{'podUpdatePolicy':'InPlaceOnly','partition':'10%','futureKnob':{'a':1}}}}}");
        ObjectNode alpha = CloneSetConversion.toV1alpha1(beta);
        assertEquals(tree("{'type':'OnDelete','partition':'10%','rollingUpdate':{'podUpdatePolicy':'InPlaceOnly',"
                + "'futureKnob':{'a':1}}}"), alpha.path("spec").path("updateStrategy"));
        ObjectNode again = CloneSetConversion.toV1beta1(alpha);
        assertEquals(beta.path("spec").path("updateStrategy"), again.path("spec").path("updateStrategy"));
    }

    @Test
    void typedModelsReadTheConvertedObjects() throws Exception {
        ObjectNode beta = CloneSetConversion.toV1beta1(tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'CloneSet',"
                + "'metadata':{'name':'c','annotations':{'" + TIMEOUT + "':'30'}},'spec':{'updateStrategy':"
                + "{'type':'InPlaceOnly','inPlaceUpdateStrategy':{'gracePeriodSeconds':3}}}}"));
        CloneSet typed = ApiJson.serialization().convertValue(beta, CloneSet.class);
        RollingUpdateCloneSetStrategy rolling = typed.getSpec().getUpdateStrategy().getRollingUpdate();
        assertEquals(PodUpdateStrategyType.IN_PLACE_ONLY, rolling.podUpdatePolicyValue().orElseThrow());
        assertEquals(30, rolling.getInPlaceUpdateStrategy().getImagePreDownloadTimeoutSeconds());
        assertEquals(3, rolling.getInPlaceUpdateStrategy().getGracePeriodSeconds());
        assertTrue(typed.getSpec().getScaleStrategy().isEnablePVCReuse());
        dev.kruisevertx.api.apps.v1alpha1.CloneSet alpha = CloneSetConversion.toV1alpha1(typed);
        assertEquals("30", alpha.getMetadata().getAnnotations().get(TIMEOUT));
        assertEquals("InPlaceOnly", alpha.getSpec().getUpdateStrategy().getType());
    }

    // --- properties ---

    @Test
    void randomAlphaObjectsSurviveAlphaBetaAlpha() {
        Random random = new Random(27);
        for (int i = 0; i < 3000; i++) {
            ObjectNode alpha = randomAlpha(random);
            ObjectNode copy = alpha.deepCopy();
            ObjectNode beta = CloneSetConversion.toV1beta1(alpha);
            assertEquals(copy, alpha, "input untouched");
            assertEquals(alpha, CloneSetConversion.toV1alpha1(beta), () -> "case " + alpha + " via " + beta);
        }
    }

    @Test
    void randomBetaObjectsSurviveBetaAlphaBeta() {
        Random random = new Random(72);
        for (int i = 0; i < 3000; i++) {
            ObjectNode beta = randomBeta(random);
            ObjectNode copy = beta.deepCopy();
            ObjectNode alpha = CloneSetConversion.toV1alpha1(beta);
            assertEquals(copy, beta, "input untouched");
            assertEquals(beta, CloneSetConversion.toV1beta1(alpha), () -> "case " + beta + " via " + alpha);
        }
    }

    /**
     * A v1alpha1 CloneSet as the defaulting webhook leaves it (type and scaleStrategy set; an in-place type has an
     * inPlaceUpdateStrategy), with random knobs, labels, annotations (image pre-download ones canonical or not) and
     * unknown fields at every level.
     */
    private static ObjectNode randomAlpha(Random r) {
        ObjectNode o = F.objectNode();
        o.put("apiVersion", "apps.kruise.io/v1alpha1").put("kind", "CloneSet");
        ObjectNode meta = metadata(r, o);
        if (r.nextBoolean()) {
            child(meta, "labels").put(EXCLUDE, pick(r, "true", "false", "yes"));
        }
        for (String key : List.of(PARALLELISM, TIMEOUT, MIN_READY)) {
            if (r.nextInt(3) == 0) {
                child(meta, "annotations").put(key, pick(r, "3", "0", "-4", "007", "", "abc", "2147483648",
                        key.equals(PARALLELISM) ? "30%" : "12"));
            }
        }
        ObjectNode spec = o.putObject("spec");
        commonSpec(r, spec);
        ObjectNode scale = spec.putObject("scaleStrategy");
        scaleCommon(r, scale);
        if (r.nextBoolean()) {
            scale.put("disablePVCReuse", true);
        }
        ObjectNode update = spec.putObject("updateStrategy");
        String type = pick(r, "ReCreate", "InPlaceIfPossible", "InPlaceOnly", "OnDelete", "Weird", "");
        update.put("type", type);
        rollingKnobs(r, update);
        boolean inPlaceType = type.startsWith("InPlace");
        if (inPlaceType) {
            update.set("inPlaceUpdateStrategy", r.nextBoolean() ? F.objectNode() : F.objectNode().put("gracePeriodSeconds", 5));
        } else if (r.nextBoolean()) {
            update.set("inPlaceUpdateStrategy", F.objectNode().put("gracePeriodSeconds", 1 + r.nextInt(30)));
        }
        if (r.nextInt(4) == 0) {
            update.put("x-update", r.nextInt());
        }
        if (r.nextInt(4) == 0) {
            update.putObject("rollingUpdate").put("x-kept", "v" + r.nextInt(9)); // what a v1beta1 object left aside
        }
        status(r, o);
        return o;
    }

    /** A v1beta1 CloneSet as the defaulting webhook leaves it, with random knobs and unknown fields. */
    private static ObjectNode randomBeta(Random r) {
        ObjectNode o = F.objectNode();
        o.put("apiVersion", "apps.kruise.io/v1beta1").put("kind", "CloneSet");
        ObjectNode meta = metadata(r, o);
        ObjectNode spec = o.putObject("spec");
        commonSpec(r, spec);
        ObjectNode scale = F.objectNode();
        scaleCommon(r, scale);
        if (r.nextBoolean()) {
            scale.put("enablePVCReuse", true);
        }
        if (r.nextBoolean()) {
            scale.put("excludePreparingDelete", true);
        }
        if (!scale.isEmpty()) {
            spec.set("scaleStrategy", scale);
        }
        if (!scale.has("excludePreparingDelete") && r.nextInt(4) == 0) {
            child(meta, "labels").put(EXCLUDE, pick(r, "false", "no"));
        }
        ObjectNode update = spec.putObject("updateStrategy");
        boolean onDelete = r.nextInt(5) == 0;
        update.put("type", onDelete ? "OnDelete" : "RollingUpdate");
        ObjectNode rolling = F.objectNode();
        rollingKnobs(r, rolling);
        String policy = pick(r, "ReCreate", "InPlaceIfPossible", "InPlaceOnly", "Weird");
        if (!onDelete || r.nextBoolean()) {
            rolling.put("podUpdatePolicy", policy);
        }
        ObjectNode inPlace = F.objectNode();
        if (policy.startsWith("InPlace") && !onDelete || r.nextBoolean()) {
            if (r.nextBoolean()) {
                inPlace.put("gracePeriodSeconds", 1 + r.nextInt(20));
            }
            if (r.nextBoolean()) {
                if (r.nextBoolean()) {
                    inPlace.put("imagePreDownloadParallelism", r.nextInt(10));
                } else {
                    inPlace.put("imagePreDownloadParallelism", r.nextInt(101) + "%");
                }
            }
            if (r.nextBoolean()) {
                inPlace.put("imagePreDownloadTimeoutSeconds", r.nextInt(5000) - 10);
            }
            if (r.nextBoolean()) {
                inPlace.put("imagePreDownloadMinUpdatedReadyPods", r.nextInt(Integer.MAX_VALUE));
            }
            if (r.nextInt(4) == 0) {
                inPlace.put("x-inplace", true);
            }
            rolling.set("inPlaceUpdateStrategy", inPlace);
        }
        for (String key : List.of(PARALLELISM, TIMEOUT, MIN_READY)) {
            String field = switch (key) {
                case PARALLELISM -> "imagePreDownloadParallelism";
                case TIMEOUT -> "imagePreDownloadTimeoutSeconds";
                default -> "imagePreDownloadMinUpdatedReadyPods";
            };
            if (!inPlace.has(field) && r.nextInt(4) == 0) {
                child(meta, "annotations").put(key, pick(r, "007", "", "+3", "2147483648")); // not canonical: stays
            }
        }
        if (r.nextInt(4) == 0) {
            rolling.put("x-rolling", r.nextInt(100));
        }
        if (!rolling.isEmpty()) {
            update.set("rollingUpdate", rolling);
        }
        if (r.nextInt(4) == 0) {
            update.put("x-update", "u");
        }
        status(r, o);
        return o;
    }

    private static ObjectNode metadata(Random r, ObjectNode o) {
        ObjectNode meta = o.putObject("metadata");
        meta.put("name", "cs-" + r.nextInt(1000)).put("namespace", "ns").put("resourceVersion", "" + r.nextInt(99));
        if (r.nextBoolean()) {
            meta.putObject("labels").put("app", "a" + r.nextInt(5));
        }
        if (r.nextBoolean()) {
            meta.putObject("annotations").put("note", "n" + r.nextInt(5));
        }
        if (r.nextInt(5) == 0) {
            o.put("x-root", "unknown");
        }
        return meta;
    }

    private static void commonSpec(Random r, ObjectNode spec) {
        spec.put("replicas", r.nextInt(10));
        spec.putObject("selector").putObject("matchLabels").put("app", "a");
        spec.putObject("template").putObject("spec").putArray("containers").addObject().put("name", "c")
                .put("image", "nginx:" + r.nextInt(3)).put("x-container-field", r.nextBoolean());
        if (r.nextBoolean()) {
            spec.put("minReadySeconds", r.nextInt(60));
        }
        if (r.nextBoolean()) {
            spec.putObject("lifecycle").putObject("preDelete").putArray("finalizersHandler").add("a.io/b");
        }
        if (r.nextBoolean()) {
            spec.put("revisionHistoryLimit", r.nextInt(20));
        }
        if (r.nextBoolean()) {
            spec.put("progressDeadlineSeconds", r.nextInt(600));
        }
        if (r.nextInt(4) == 0) {
            spec.putObject("x-spec").put("deep", F.arrayNode().add(1));
        }
    }

    private static void scaleCommon(Random r, ObjectNode scale) {
        if (r.nextBoolean()) {
            ArrayNode names = scale.putArray("podsToDelete");
            names.add("p" + r.nextInt(5));
        }
        if (r.nextBoolean()) {
            intOrString(r, scale, "maxUnavailable");
        }
        if (r.nextInt(4) == 0) {
            scale.put("x-scale", 1);
        }
    }

    private static void rollingKnobs(Random r, ObjectNode target) {
        for (String field : List.of("partition", "maxUnavailable", "maxSurge")) {
            if (r.nextBoolean()) {
                intOrString(r, target, field);
            }
        }
        if (r.nextBoolean()) {
            target.put("paused", true);
        }
        if (r.nextInt(3) == 0) {
            target.putObject("priorityStrategy").putArray("orderPriority").addObject().put("orderedKey", "k");
        }
        if (r.nextInt(3) == 0) {
            target.putArray("scatterStrategy").addObject().put("key", "zone").put("value", "z" + r.nextInt(3));
        }
    }

    private static void intOrString(Random r, ObjectNode target, String field) {
        if (r.nextBoolean()) {
            target.put(field, r.nextInt(20) - 2);
        } else {
            target.put(field, r.nextInt(120) + "%");
        }
    }

    private static void status(Random r, ObjectNode o) {
        if (r.nextBoolean()) {
            ObjectNode status = o.putObject("status");
            status.put("replicas", r.nextInt(9)).put("readyReplicas", r.nextInt(9)).put("updateRevision", "r" + r.nextInt(3));
            status.putArray("conditions").addObject().put("type", "FailedScale").put("status", "True");
        }
    }

    private static ObjectNode child(ObjectNode parent, String name) {
        return parent.get(name) instanceof ObjectNode c ? c : parent.putObject(name);
    }

    private static String pick(Random r, String... values) {
        return values[r.nextInt(values.length)];
    }
}
