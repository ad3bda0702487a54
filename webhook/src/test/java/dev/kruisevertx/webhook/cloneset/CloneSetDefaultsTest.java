package dev.kruisevertx.webhook.cloneset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import io.fabric8.zjsonpatch.JsonPatch;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CloneSetDefaultsTest {

    static ObjectNode minimal() throws Exception {
        return (ObjectNode) Json.MAPPER.readTree("""
                {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","metadata":{"name":"s","namespace":"d"},
                 "spec":{"selector":{"matchLabels":{"app":"s"}},
                   "template":{"metadata":{"labels":{"app":"s"}},"spec":{"containers":[{"name":"c","image":"nginx",
                     "ports":[{"containerPort":80}],
                     "readinessProbe":{"httpGet":{"port":80}},
                     "env":[{"name":"NODE","valueFrom":{"fieldRef":{"fieldPath":"spec.nodeName"}}}]},
                     {"name":"d","image":"busybox:1.36"}],
                     "volumes":[{"name":"tmp"},{"name":"cfg","configMap":{"name":"x"}}]}},
                   "volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"]}}]}}
                """);
    }

    static AdmissionRequest request(String op, ObjectNode obj, ObjectNode old) {
        return new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1alpha1", "CloneSet", "clonesets", "",
                "s", "d", op, obj, old, false, null);
    }

    static JsonNode mutate(AdmissionRequest r, boolean templateNoDefaults) throws Exception {
        AdmissionResponse resp = CloneSetWebhooks.mutating(templateNoDefaults).handle(r).toCompletionStage().toCompletableFuture().get();
        assertTrue(resp.allowed(), String.valueOf(resp.message()));
        return resp.hasPatch() ? JsonPatch.apply(resp.patch(), r.object()) : r.object();
    }

    @Test
    void v1alpha1DefaultsAsOpenKruise() throws Exception {
        JsonNode out = mutate(request("CREATE", minimal(), null), false);
        JsonNode spec = out.path("spec");
        assertEquals(1, spec.path("replicas").asInt());
        assertEquals(10, spec.path("revisionHistoryLimit").asInt());
        JsonNode u = spec.path("updateStrategy");
        assertEquals("ReCreate", u.path("type").asText());
        assertEquals(0, u.path("partition").asInt());
        assertTrue(u.path("partition").isInt());
        assertEquals("20%", u.path("maxUnavailable").asText());
        assertEquals(0, u.path("maxSurge").asInt());
        assertFalse(u.has("inPlaceUpdateStrategy"), "no inPlaceUpdateStrategy for ReCreate");
    }

    @Test
    void podAndPvcTemplateDefaultsOnCreate() throws Exception {
        JsonNode out = mutate(request("CREATE", minimal(), null), false);
        JsonNode pod = out.path("spec").path("template").path("spec");
        assertEquals("Always", pod.path("restartPolicy").asText());
        assertEquals("ClusterFirst", pod.path("dnsPolicy").asText());
        assertEquals(30, pod.path("terminationGracePeriodSeconds").asInt());
        assertEquals("default-scheduler", pod.path("schedulerName").asText());
        assertTrue(pod.path("securityContext").isObject());
        JsonNode c = pod.path("containers").get(0);
        assertEquals("Always", c.path("imagePullPolicy").asText(), "untagged image");
        // OpenKruise v1.9's SetDefaultPodSpec: a template's containers pull Always whatever the tag (in-place update).
        assertEquals("Always", pod.path("containers").get(1).path("imagePullPolicy").asText(), "tagged image");
        assertEquals("/dev/termination-log", c.path("terminationMessagePath").asText());
        assertEquals("File", c.path("terminationMessagePolicy").asText());
        assertEquals("TCP", c.path("ports").get(0).path("protocol").asText());
        JsonNode probe = c.path("readinessProbe");
        assertEquals(1, probe.path("timeoutSeconds").asInt());
        assertEquals(10, probe.path("periodSeconds").asInt());
        assertEquals(1, probe.path("successThreshold").asInt());
        assertEquals(3, probe.path("failureThreshold").asInt());
        assertEquals("HTTP", probe.path("httpGet").path("scheme").asText());
        assertEquals("/", probe.path("httpGet").path("path").asText());
        assertEquals("v1", c.path("env").get(0).path("valueFrom").path("fieldRef").path("apiVersion").asText());
        assertTrue(pod.path("volumes").get(0).path("emptyDir").isObject());
        assertEquals(420, pod.path("volumes").get(1).path("configMap").path("defaultMode").asInt());
        JsonNode pvc = out.path("spec").path("volumeClaimTemplates").get(0);
        assertEquals("Filesystem", pvc.path("spec").path("volumeMode").asText());
        assertEquals("Pending", pvc.path("status").path("phase").asText());
    }

    @Test
    void templateDefaultsOnUpdateOnlyWhenTheTemplateChangedAndNeverWithTemplateNoDefaults() throws Exception {
        ObjectNode old = minimal();
        ObjectNode sameTemplate = minimal();
        ((ObjectNode) sameTemplate.get("spec")).put("replicas", 3);
        JsonNode untouched = mutate(request("UPDATE", sameTemplate, old), false);
        assertFalse(untouched.path("spec").path("template").path("spec").has("dnsPolicy"));
        assertEquals("ReCreate", untouched.path("spec").path("updateStrategy").path("type").asText(), "spec defaults still apply");

        ObjectNode changed = minimal();
        ((ObjectNode) changed.at("/spec/template/spec/containers/0")).put("image", "nginx:1.27");
        assertEquals("ClusterFirst", mutate(request("UPDATE", changed, old), false).at("/spec/template/spec/dnsPolicy").asText());

        assertFalse(mutate(request("CREATE", minimal(), null), true).at("/spec/template/spec").has("dnsPolicy"));
    }

    @Test
    void inPlaceTypesGetAnEmptyInPlaceUpdateStrategy() throws Exception {
        for (String type : new String[]{"InPlaceIfPossible", "InPlaceOnly"}) {
            ObjectNode cs = minimal();
            ((ObjectNode) cs.get("spec")).putObject("updateStrategy").put("type", type);
            JsonNode out = mutate(request("CREATE", cs, null), false);
            assertTrue(out.at("/spec/updateStrategy/inPlaceUpdateStrategy").isObject(), type);
        }
    }

    @Test
    void explicitValuesAreKeptAndADefaultedObjectNeedsNoPatch() throws Exception {
        ObjectNode cs = minimal();
        ObjectNode spec = (ObjectNode) cs.get("spec");
        spec.put("replicas", 0).put("revisionHistoryLimit", 2);
        spec.putObject("updateStrategy").put("type", "InPlaceIfPossible").put("partition", "50%")
                .put("maxUnavailable", 2).put("maxSurge", "10%");
        JsonNode out = mutate(request("CREATE", cs, null), false);
        assertEquals(0, out.at("/spec/replicas").asInt());
        assertEquals(2, out.at("/spec/revisionHistoryLimit").asInt());
        assertEquals("50%", out.at("/spec/updateStrategy/partition").asText());
        assertEquals(2, out.at("/spec/updateStrategy/maxUnavailable").asInt());
        AdmissionResponse again = CloneSetWebhooks.mutating(false).handle(request("CREATE", (ObjectNode) out, null))
                .toCompletionStage().toCompletableFuture().get();
        assertFalse(again.hasPatch(), "defaulting is idempotent: " + again.patch());
    }

    @Test
    void pureFunctionIsUsableByTheController() throws Exception {
        CloneSet cs = Json.toModel(minimal(), CloneSet.class);
        CloneSetDefaults.apply(cs, false);
        assertEquals(1, cs.getSpec().getReplicas());
        assertEquals("ReCreate", cs.getSpec().getUpdateStrategy().getType());
    }

    @Test
    void otherVersionsAreRefusedWithAClearMessage() throws Exception {
        ObjectNode cs = minimal();
        // v1beta1 is served since issue 27 (CloneSetV1beta1WebhooksTest); any other version is still refused.
        cs.put("apiVersion", "apps.kruise.io/v2");
        AdmissionResponse resp = CloneSetWebhooks.mutating(false).handle(request("CREATE", cs, null))
                .toCompletionStage().toCompletableFuture().get();
        assertFalse(resp.allowed());
        assertTrue(resp.message().contains("apps.kruise.io/v2 is not served"), resp.message());
    }
}
