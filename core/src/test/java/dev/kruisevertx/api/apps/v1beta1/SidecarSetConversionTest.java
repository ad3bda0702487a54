package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.common.ApiJson;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The two differences between v1alpha1 and v1beta1 SidecarSets, converted as OpenKruise v1.9 does. */
class SidecarSetConversionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode json(String text) throws Exception {
        return (ObjectNode) JSON.readTree(text.replace('\'', '"'));
    }

    private static final String ALPHA = "{'apiVersion':'apps.kruise.io/v1alpha1','kind':'SidecarSet',"
            + "'metadata':{'name':'s','labels':{'app':'x','apps.kruise.io/sidecarset-custom-version':'v2'}},"
            + "'spec':{'namespace':'ns1','selector':{'matchLabels':{'app':'x'}},"
            + "'containers':[{'name':'log','image':'log:1','podInjectPolicy':'AfterAppContainer',"
            + "'futureContainerField':7}],'futureSpecField':{'a':1}},"
            + "'status':{'matchedPods':3,'updatedPods':2,'readyPods':1,'latestRevision':'s-abc'}}";

    @Test
    void namespaceBecomesASelectorOnTheMetadataNameLabel() throws Exception {
        ObjectNode beta = SidecarSetConversion.toV1beta1(json(ALPHA));
        assertEquals("apps.kruise.io/v1beta1", beta.get("apiVersion").asText());
        assertFalse(beta.get("spec").has("namespace"));
        assertEquals(json("{'matchLabels':{'kubernetes.io/metadata.name':'ns1'}}"),
                beta.get("spec").get("namespaceSelector"));
    }

    @Test
    void namespaceWinsOverANamespaceSelectorSetNextToIt() throws Exception {
        ObjectNode alpha = json(ALPHA);
        ((ObjectNode) alpha.get("spec")).set("namespaceSelector", json("{'matchLabels':{'team':'a'}}"));
        assertEquals(json("{'matchLabels':{'kubernetes.io/metadata.name':'ns1'}}"),
                SidecarSetConversion.toV1beta1(alpha).get("spec").get("namespaceSelector"));
    }

    @Test
    void anEmptyNamespaceKeepsTheNamespaceSelector() throws Exception {
        ObjectNode alpha = json(ALPHA);
        ((ObjectNode) alpha.get("spec")).put("namespace", "");
        ((ObjectNode) alpha.get("spec")).set("namespaceSelector", json("{'matchLabels':{'team':'a'}}"));
        JsonNode spec = SidecarSetConversion.toV1beta1(alpha).get("spec");
        assertEquals(json("{'matchLabels':{'team':'a'}}"), spec.get("namespaceSelector"));
        assertFalse(spec.has("namespace"));
    }

    @Test
    void customVersionLabelMovesToTheSpecAndBack() throws Exception {
        ObjectNode beta = SidecarSetConversion.toV1beta1(json(ALPHA));
        assertEquals("v2", beta.get("spec").get("customVersion").asText());
        assertEquals(json("{'app':'x'}"), beta.get("metadata").get("labels"));

        ObjectNode alpha = SidecarSetConversion.toV1alpha1(beta);
        assertFalse(alpha.get("spec").has("customVersion"));
        assertEquals("v2", alpha.get("metadata").get("labels").get(SidecarSet.CUSTOM_VERSION_LABEL).asText());
    }

    @Test
    void theOnlyLabelLeavingDropsTheEmptyLabelsMap() throws Exception {
        ObjectNode alpha = json("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'SidecarSet','metadata':{'name':'s',"
                + "'labels':{'apps.kruise.io/sidecarset-custom-version':'v1'}},'spec':{}}");
        ObjectNode beta = SidecarSetConversion.toV1beta1(alpha);
        assertFalse(beta.get("metadata").has("labels"));
        assertEquals("v1", beta.get("spec").get("customVersion").asText());
    }

    @Test
    void anEmptyCustomVersionIsNoLabel() throws Exception {
        ObjectNode beta = json("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'s'},"
                + "'spec':{'customVersion':''}}");
        ObjectNode alpha = SidecarSetConversion.toV1alpha1(beta);
        assertFalse(alpha.get("metadata").has("labels"));
        assertFalse(alpha.get("spec").has("customVersion"));
    }

    @Test
    void unknownFieldsAndStatusPassThroughAndInputIsNotModified() throws Exception {
        ObjectNode input = json(ALPHA);
        ObjectNode beta = SidecarSetConversion.toV1beta1(input);
        assertEquals(json(ALPHA), input);
        assertEquals(7, beta.at("/spec/containers/0/futureContainerField").asInt());
        assertEquals(1, beta.at("/spec/futureSpecField/a").asInt());
        assertEquals(json(ALPHA).get("status"), beta.get("status"));
        ObjectNode back = SidecarSetConversion.toV1alpha1(beta);
        assertEquals(json(ALPHA).get("status"), back.get("status"));
        assertEquals(json(ALPHA).get("metadata"), back.get("metadata"));
        // A v1beta1 round trip is exact.
        assertEquals(beta, SidecarSetConversion.toV1beta1(back));
    }

    @Test
    void typedFormsKeepTheContainerAndItsSidecarFields() throws Exception {
        dev.kruisevertx.api.apps.v1alpha1.SidecarSet alpha = ApiJson.serialization().convertValue(json(ALPHA),
                dev.kruisevertx.api.apps.v1alpha1.SidecarSet.class);
        SidecarSet beta = SidecarSetConversion.toV1beta1(alpha);
        SidecarContainer c = beta.getSpec().getContainers().get(0);
        assertEquals("log:1", c.getImage());
        assertEquals(PodInjectPolicyType.AFTER_APP_CONTAINER, c.podInjectPolicyValue().orElseThrow());
        assertEquals(7, ((Number) c.getAdditionalProperties().get("futureContainerField")).intValue());
        assertEquals("v2", beta.getSpec().getCustomVersion());
        assertEquals(3, beta.getStatus().getMatchedPods());
        assertEquals("v2", SidecarSetConversion.toV1alpha1(beta).getMetadata().getLabels()
                .get(SidecarSet.CUSTOM_VERSION_LABEL));
    }

    @Test
    void wrongVersionsAreRefused() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> SidecarSetConversion.toV1beta1(
                json("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet'}")));
        assertThrows(IllegalArgumentException.class, () -> SidecarSetConversion.toV1alpha1(
                json("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'SidecarSet'}")));
        assertThrows(IllegalArgumentException.class, () -> SidecarSetConversion.toV1alpha1(JSON.readTree("[]")));
        assertTrue(SidecarSetConversion.toV1beta1(json("{'apiVersion':'apps.kruise.io/v1alpha1',"
                + "'kind':'SidecarSet','metadata':{'name':'s'}}")).has("metadata"));
    }
}
