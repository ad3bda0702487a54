package dev.kruisevertx.webhook.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.sidecarset.SidecarSetHash;
import dev.kruisevertx.webhook.KruiseWebhooks;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.conversion.ConversionRegistry;
import io.fabric8.zjsonpatch.JsonPatch;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** OpenKruise's SidecarSet defaults and hash annotations through the mutating handler, and /convert. */
class SidecarSetDefaultsTest {
    static ObjectNode json(String s) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(s.replace('\'', '"'));
    }

    static JsonNode mutate(ObjectNode object) throws Exception {
        String version = object.path("apiVersion").asText().substring("apps.kruise.io/".length());
        AdmissionRequest request = new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", version,
                "SidecarSet", "sidecarsets", "", "s", "", AdmissionRequest.CREATE, object, null, false, null);
        AdmissionResponse r = SidecarSetWebhooks.mutating().handle(request).toCompletionStage().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        assertTrue(r.allowed(), r.message());
        return r.patch() == null ? object : JsonPatch.apply(r.patch(), object);
    }

    static final String BETA = "{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet','metadata':{'name':'s'},"
            + "'spec':{'selector':{'matchLabels':{'app':'x'}},"
            + "'containers':[{'name':'c','image':'busybox:1.36','ports':[{'containerPort':80}],"
            + "'transferEnv':[{'sourceContainerNameFrom':{'fieldRef':{'fieldPath':'metadata.name'}},'envName':'E'}]}],"
            + "'initContainers':[{'name':'i','image':'busybox'}],'volumes':[{'name':'v'}],"
            + "'patchPodMetadata':[{'annotations':{'k':'v'}}],"
            + "'injectionStrategy':{'revision':{'revisionName':'s-1'}}}}";

    @Test
    void openKruiseDefaults() throws Exception {
        JsonNode out = mutate(json(BETA));
        JsonNode spec = out.get("spec");
        assertEquals(json("{'type':'RollingUpdate','maxUnavailable':1,'partition':0}"), spec.get("updateStrategy"));
        JsonNode c = spec.at("/containers/0");
        assertEquals("BeforeAppContainer", c.get("podInjectPolicy").asText());
        assertEquals("ColdUpgrade", c.at("/upgradeStrategy/upgradeType").asText());
        assertEquals("disabled", c.at("/shareVolumePolicy/type").asText());
        assertEquals("IfNotPresent", c.get("imagePullPolicy").asText());
        assertEquals("TCP", c.at("/ports/0/protocol").asText());
        assertEquals("File", c.get("terminationMessagePolicy").asText());
        assertEquals("v1", c.at("/transferEnv/0/sourceContainerNameFrom/fieldRef/apiVersion").asText());
        JsonNode i = spec.at("/initContainers/0");
        assertEquals("AfterAppContainer", i.get("podInjectPolicy").asText());
        assertEquals("Always", i.get("imagePullPolicy").asText(), "untagged image");
        assertTrue(spec.at("/volumes/0").has("emptyDir"), "a bare volume becomes an emptyDir");
        assertEquals(10, spec.get("revisionHistoryLimit").asInt());
        assertEquals("Retain", spec.at("/patchPodMetadata/0/patchPolicy").asText());
        assertEquals("Always", spec.at("/injectionStrategy/revision/policy").asText());
    }

    @Test
    void hashAnnotationsChangeWithImagesOnlyInTheFullHash() throws Exception {
        JsonNode first = mutate(json(BETA));
        JsonNode second = mutate(json(BETA.replace("busybox:1.36", "busybox:1.37")));
        JsonNode third = mutate(json(BETA.replace("'ports':[{'containerPort':80}]", "'ports':[{'containerPort':81}]")));
        String h = SidecarSetHash.HASH_ANNOTATION;
        String w = SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION;
        assertNotEquals(annotation(first, h), annotation(second, h));
        assertEquals(annotation(first, w), annotation(second, w));
        assertNotEquals(annotation(first, w), annotation(third, w));
        // Stamped hashes equal the hash of the defaulted object (what the controller and pod injection compute).
        SidecarSet model = Json.toModel(first, SidecarSet.class);
        assertEquals(SidecarSetHash.of(model), annotation(first, h));
        assertTrue(annotation(first, h).matches("[bcdfghjklmnpqrstvwxz2456789]{64}"), annotation(first, h));
        // A non-sidecar init container is not part of the hash; a native sidecar is.
        assertEquals(annotation(first, h), annotation(mutate(json(BETA.replace("'name':'i','image':'busybox'",
                "'name':'i','image':'busybox:2'"))), h));
        assertNotEquals(annotation(first, h), annotation(mutate(json(BETA.replace("'name':'i','image':'busybox'",
                "'name':'i','image':'busybox','restartPolicy':'Always'"))), h));
    }

    @Test
    void defaultingIsIdempotent() throws Exception {
        JsonNode once = mutate(json(BETA));
        assertEquals(once, mutate((ObjectNode) once.deepCopy()));
    }

    @Test
    void v1alpha1KeepsItsNamespaceAndCustomVersionLabel() throws Exception {
        ObjectNode alpha = json("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'SidecarSet','metadata':{'name':'s',"
                + "'labels':{'apps.kruise.io/sidecarset-custom-version':'v7'}},'spec':{'namespace':'prod',"
                + "'selector':{'matchLabels':{'app':'x'}},'containers':[{'name':'c','image':'busybox:1.36'}]}}");
        JsonNode out = mutate(alpha);
        assertEquals("prod", out.at("/spec/namespace").asText());
        assertFalse(out.get("spec").has("namespaceSelector"));
        assertFalse(out.get("spec").has("customVersion"));
        assertEquals("v7", out.at("/metadata/labels/apps.kruise.io~1sidecarset-custom-version").asText());
        assertEquals("RollingUpdate", out.at("/spec/updateStrategy/type").asText());
        assertTrue(out.at("/metadata/annotations").has(SidecarSetHash.HASH_ANNOTATION));
    }

    @Test
    void conversionThroughTheConvertEndpointLogic() throws Exception {
        ConversionRegistry conversions = KruiseWebhooks.registerConversions(new ConversionRegistry());
        ObjectNode review = json("{'apiVersion':'apiextensions.k8s.io/v1','kind':'ConversionReview','request':{"
                + "'uid':'u1','desiredAPIVersion':'apps.kruise.io/v1beta1','objects':[{'apiVersion':'apps.kruise.io/v1alpha1',"
                + "'kind':'SidecarSet','metadata':{'name':'s','labels':{'apps.kruise.io/sidecarset-custom-version':'v3'}},"
                + "'spec':{'namespace':'prod'}}]}}");
        JsonNode out = conversions.review(review);
        assertEquals("Success", out.at("/response/result/status").asText(), out.toString());
        JsonNode beta = out.at("/response/convertedObjects/0");
        assertEquals("apps.kruise.io/v1beta1", beta.get("apiVersion").asText());
        assertEquals("prod", beta.at("/spec/namespaceSelector/matchLabels/kubernetes.io~1metadata.name").asText());
        assertEquals("v3", beta.at("/spec/customVersion").asText());

        ObjectNode back = json("{'apiVersion':'apiextensions.k8s.io/v1','kind':'ConversionReview','request':{"
                + "'uid':'u2','desiredAPIVersion':'apps.kruise.io/v1alpha1','objects':[]}}");
        ((com.fasterxml.jackson.databind.node.ArrayNode) back.at("/request/objects")).add(beta);
        JsonNode alpha = conversions.review(back).at("/response/convertedObjects/0");
        assertEquals("v3", alpha.at("/metadata/labels/apps.kruise.io~1sidecarset-custom-version").asText());
        assertFalse(alpha.get("spec").has("customVersion"));

        ObjectNode wrong = json("{'apiVersion':'apiextensions.k8s.io/v1','kind':'ConversionReview','request':{"
                + "'uid':'u3','desiredAPIVersion':'apps.kruise.io/v2','objects':[{'apiVersion':'apps.kruise.io/v1alpha1',"
                + "'kind':'SidecarSet','metadata':{'name':'s'}}]}}");
        JsonNode failed = conversions.review(wrong);
        assertEquals("Failure", failed.at("/response/result/status").asText());
        assertTrue(failed.at("/response/result/message").asText().contains("the served versions are"));
    }

    private static String annotation(JsonNode object, String key) {
        return object.path("metadata").path("annotations").path(key).asText();
    }
}
