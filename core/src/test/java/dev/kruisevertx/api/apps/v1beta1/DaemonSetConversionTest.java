package dev.kruisevertx.api.apps.v1beta1;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DaemonSetConversionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ObjectNode tree(String json) throws Exception {
        return (ObjectNode) JSON.readTree(json.replace('\'', '"'));
    }

    @Test
    void alphaAnnotationBecomesPartitionedScalingAndSurgingBecomesStandard() throws Exception {
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'DaemonSet','metadata':{'name':'d',"
                + "'annotations':{'daemonset.kruise.io/progressive-create-pod':'true','keep':'x'}},"
                + "'spec':{'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'rollingUpdateType':'Surging','maxSurge':1}},"
                + "'unknownField':7},"
                + "'status':{'daemonSetHash':'abc','numberReady':2}}");
        ObjectNode beta = DaemonSetConversion.toV1beta1(alpha);
        assertEquals("apps.kruise.io/v1beta1", beta.path("apiVersion").asText());
        assertTrue(beta.path("spec").path("scaleStrategy").path("partitionedScaling").asBoolean());
        assertEquals("Standard", beta.path("spec").path("updateStrategy").path("rollingUpdate").path("rollingUpdateType").asText());
        assertEquals(1, beta.path("spec").path("updateStrategy").path("rollingUpdate").path("maxSurge").asInt());
        assertEquals(7, beta.path("spec").path("unknownField").asInt(), "unknown fields pass through");
        assertEquals("abc", beta.path("status").path("updateRevision").asText());
        assertFalse(beta.path("metadata").path("annotations").has(DaemonSetConversion.PROGRESSIVE_CREATE_POD_ANNOTATION));
        assertEquals(DaemonSetConversion.toV1alpha1(beta), DaemonSetConversion.toV1alpha1(DaemonSetConversion.toV1beta1(DaemonSetConversion.toV1alpha1(beta))),
                "alpha round trip after Surging became Standard is stable");
        assertFalse(beta.path("status").has("daemonSetHash"));
        assertEquals("Surging", alpha.path("spec").path("updateStrategy").path("rollingUpdate").path("rollingUpdateType").asText(),
                "input untouched");

        JsonNode back = DaemonSetConversion.toV1alpha1(beta);
        assertEquals("true", back.path("metadata").path("annotations").path(DaemonSetConversion.PROGRESSIVE_CREATE_POD_ANNOTATION).asText());
        assertEquals("x", back.path("metadata").path("annotations").path("keep").asText());
        assertFalse(back.path("spec").has("scaleStrategy"));
        assertEquals("abc", back.path("status").path("daemonSetHash").asText());
        assertFalse(back.path("status").has("updateRevision"));
    }

    @Test
    void betaRoundTripIsLossless() throws Exception {
        ObjectNode beta = tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'DaemonSet','metadata':{'name':'d'},"
                + "'spec':{'selector':{'matchLabels':{'a':'b'}},'minReadySeconds':3,'burstReplicas':'10%',"
                + "'scaleStrategy':{'partitionedScaling':true},"
                + "'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'rollingUpdateType':'InPlaceIfPossible',"
                + "'maxUnavailable':'20%','partition':3,'paused':true,'selector':{'matchLabels':{'pool':'x'}}}},"
                + "'lifecycle':{'preDelete':{'finalizersHandler':['f/x']}}},"
                + "'status':{'updateRevision':'h1','desiredNumberScheduled':5,'collisionCount':1}}");
        assertEquals(beta, DaemonSetConversion.toV1beta1(DaemonSetConversion.toV1alpha1(beta)));
        ObjectNode off = beta.deepCopy();
        ((ObjectNode) off.path("spec")).remove("scaleStrategy");
        assertEquals(off, DaemonSetConversion.toV1beta1(DaemonSetConversion.toV1alpha1(off)));
    }

    @Test
    void staleAnnotationIsDroppedWhenPartitionedScalingIsOff() throws Exception {
        ObjectNode beta = tree("{'apiVersion':'apps.kruise.io/v1beta1','kind':'DaemonSet','metadata':{'name':'d',"
                + "'annotations':{'daemonset.kruise.io/progressive-create-pod':'true'}},'spec':{}}");
        JsonNode alpha = DaemonSetConversion.toV1alpha1(beta);
        assertFalse(alpha.path("metadata").has("annotations"));
        assertFalse(DaemonSetConversion.toV1beta1(alpha).path("spec").has("scaleStrategy"));
    }

    @Test
    void annotationOtherThanTrueIsNotProgressive() throws Exception {
        ObjectNode alpha = tree("{'apiVersion':'apps.kruise.io/v1alpha1','metadata':{'annotations':"
                + "{'daemonset.kruise.io/progressive-create-pod':'yes'}},'spec':{'scaleStrategy':{'partitionedScaling':true}}}");
        assertFalse(DaemonSetConversion.toV1beta1(alpha).path("spec").has("scaleStrategy"),
                "a v1alpha1 object cannot carry scaleStrategy; only the annotation counts");
    }

    @Test
    void wrongVersionAndNonObjectsAreRefused() throws Exception {
        assertThrows(IllegalArgumentException.class, () -> DaemonSetConversion.toV1beta1(tree("{'apiVersion':'apps.kruise.io/v1beta1'}")));
        assertThrows(IllegalArgumentException.class, () -> DaemonSetConversion.toV1alpha1(tree("{'apiVersion':'apps/v1'}")));
        assertThrows(IllegalArgumentException.class, () -> DaemonSetConversion.toV1alpha1(JSON.readTree("[]")));
    }

    @Test
    void typedFormsAgree() {
        DaemonSet beta = new DaemonSet();
        beta.getMetadata().setName("d");
        beta.setSpec(new DaemonSetSpec());
        beta.getSpec().setScaleStrategy(new DaemonSetScaleStrategy());
        beta.getSpec().getScaleStrategy().setPartitionedScaling(true);
        beta.setStatus(new DaemonSetStatus());
        beta.getStatus().setUpdateRevision("r");
        dev.kruisevertx.api.apps.v1alpha1.DaemonSet alpha = DaemonSetConversion.toV1alpha1(beta);
        assertEquals("true", alpha.getMetadata().getAnnotations().get(DaemonSetConversion.PROGRESSIVE_CREATE_POD_ANNOTATION));
        assertEquals("r", alpha.getStatus().getDaemonSetHash());
        DaemonSet again = DaemonSetConversion.toV1beta1(alpha);
        assertTrue(again.getSpec().getScaleStrategy().isPartitionedScaling());
        assertEquals("r", again.getStatus().getUpdateRevision());
    }
}
