package dev.kruisevertx.webhook.daemonset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.conversion.ConversionException;
import io.fabric8.zjsonpatch.JsonPatch;
import org.junit.jupiter.api.Test;

import static dev.kruisevertx.webhook.daemonset.DaemonSetValidationTest.daemonSet;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DaemonSetDefaultsTest {

    static JsonNode mutate(ObjectNode obj) throws Exception {
        String version = obj.path("apiVersion").asText().substring("apps.kruise.io/".length());
        AdmissionRequest r = new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", version, "DaemonSet",
                "daemonsets", "", "ds1", "default", "CREATE", obj, null, false, null);
        AdmissionResponse resp = DaemonSetWebhooks.mutating().handle(r).toCompletionStage().toCompletableFuture().get();
        assertTrue(resp.allowed(), String.valueOf(resp.message()));
        return resp.hasPatch() ? JsonPatch.apply(resp.patch(), obj) : obj;
    }

    @Test
    void v1beta1DefaultsAsOpenKruise() throws Exception {
        JsonNode spec = mutate(daemonSet("v1beta1", "{}")).path("spec");
        assertEquals(250, spec.path("burstReplicas").asInt());
        assertTrue(spec.path("burstReplicas").isInt());
        assertEquals(10, spec.path("revisionHistoryLimit").asInt());
        JsonNode u = spec.path("updateStrategy");
        assertEquals("RollingUpdate", u.path("type").asText());
        assertEquals("Standard", u.path("rollingUpdate").path("rollingUpdateType").asText());
        assertEquals(1, u.path("rollingUpdate").path("maxUnavailable").asInt());
        assertEquals(0, u.path("rollingUpdate").path("maxSurge").asInt());
        assertFalse(spec.path("template").path("spec").has("dnsPolicy"), "the template is not defaulted, as OpenKruise");
        // the defaulted object is valid and defaulting again changes nothing
        ObjectNode out = (ObjectNode) mutate(daemonSet("v1beta1", "{}"));
        assertEquals(out, mutate(out.deepCopy()));
        assertTrue(DaemonSetValidationTest.validate("CREATE", out, null).allowed());
    }

    @Test
    void setValuesAreKept() throws Exception {
        JsonNode spec = mutate(daemonSet("v1beta1", "{'burstReplicas':'10%','revisionHistoryLimit':0,"
                + "'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':'20%','rollingUpdateType':'InPlaceIfPossible'}}}")).path("spec");
        assertEquals("10%", spec.path("burstReplicas").asText());
        assertEquals(0, spec.path("revisionHistoryLimit").asInt());
        JsonNode ru = spec.path("updateStrategy").path("rollingUpdate");
        assertEquals("20%", ru.path("maxSurge").asText());
        assertFalse(ru.has("maxUnavailable"), "maxUnavailable stays unset when maxSurge is set");
        assertEquals("InPlaceIfPossible", ru.path("rollingUpdateType").asText());
    }

    @Test
    void onDeleteGetsNoRollingUpdate() throws Exception {
        JsonNode spec = mutate(daemonSet("v1beta1", "{'updateStrategy':{'type':'OnDelete'}}")).path("spec");
        assertFalse(spec.path("updateStrategy").has("rollingUpdate"));
    }

    @Test
    void v1alpha1SurgingBecomesStandardWithItsSurge() throws Exception {
        ObjectNode alpha = daemonSet("v1alpha1", "{'updateStrategy':{'rollingUpdate':{'rollingUpdateType':'Surging'}}}");
        ((ObjectNode) alpha.get("metadata")).putObject("annotations").put("daemonset.kruise.io/progressive-create-pod", "true");
        JsonNode out = mutate(alpha);
        assertEquals("apps.kruise.io/v1alpha1", out.path("apiVersion").asText());
        JsonNode ru = out.path("spec").path("updateStrategy").path("rollingUpdate");
        assertEquals("Standard", ru.path("rollingUpdateType").asText());
        assertEquals(1, ru.path("maxSurge").asInt());
        assertEquals(0, ru.path("maxUnavailable").asInt());
        assertEquals("RollingUpdate", out.path("spec").path("updateStrategy").path("type").asText());
        assertFalse(out.path("spec").has("scaleStrategy"), "a v1alpha1 object cannot hold scaleStrategy");
        assertEquals("true", out.path("metadata").path("annotations").path("daemonset.kruise.io/progressive-create-pod").asText());
        assertTrue(DaemonSetValidationTest.validate("CREATE", (ObjectNode) out, null).allowed());
    }

    @Test
    void converterAnswersBothDirectionsAndRefusesOthers() throws Exception {
        ObjectNode alpha = daemonSet("v1alpha1", "{}");
        ((ObjectNode) alpha.get("metadata")).putObject("annotations").put("daemonset.kruise.io/progressive-create-pod", "true");
        JsonNode beta = DaemonSetWebhooks.converter().convert(alpha, "apps.kruise.io/v1beta1");
        assertTrue(beta.path("spec").path("scaleStrategy").path("partitionedScaling").asBoolean());
        JsonNode back = DaemonSetWebhooks.converter().convert((ObjectNode) beta, "apps.kruise.io/v1alpha1");
        assertEquals(alpha, back);
        assertThrows(ConversionException.class, () -> DaemonSetWebhooks.converter().convert(alpha, "apps.kruise.io/v2"));
        ObjectNode odd = alpha.deepCopy();
        odd.set("apiVersion", TextNode.valueOf("apps/v1"));
        assertThrows(ConversionException.class, () -> DaemonSetWebhooks.converter().convert(odd, "apps.kruise.io/v1beta1"));
    }
}
