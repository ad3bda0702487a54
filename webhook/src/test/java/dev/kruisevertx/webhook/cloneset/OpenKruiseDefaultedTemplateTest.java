package dev.kruisevertx.webhook.cloneset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.revision.GoRevisionData;
import dev.kruisevertx.webhook.admission.Json;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A template OpenKruise v1.9's webhook already defaulted ({@code SetDefaultPodSpec}: pod, container, port, fieldRef,
 * probe, httpGet and volume defaults) passes this webhook's defaulting unchanged, so a CloneSet taken over from
 * OpenKruise (or re-applied) keeps the revision data it had: defaults alone never make a new revision.
 */
class OpenKruiseDefaultedTemplateTest {
    static final String TEMPLATE = """
            {"metadata":{"labels":{"app":"s"}},"spec":{
              "containers":[{"name":"c","image":"nginx:1.25","imagePullPolicy":"Always",
                "ports":[{"containerPort":80,"protocol":"TCP"}],
                "readinessProbe":{"httpGet":{"path":"/","port":80,"scheme":"HTTP"},"timeoutSeconds":1,
                  "periodSeconds":10,"successThreshold":1,"failureThreshold":3},
                "env":[{"name":"NODE","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"spec.nodeName"}}}],
                "resources":{"requests":{"cpu":"500m","memory":"1Gi"}},
                "terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File"}],
              "volumes":[{"name":"tmp","emptyDir":{}},{"name":"cfg","configMap":{"name":"x","defaultMode":420}}],
              "restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst",
              "securityContext":{},"schedulerName":"default-scheduler"}}""";

    @Test
    void anOpenKruiseDefaultedTemplateIsLeftAsItIs() throws Exception {
        for (String op : new String[]{"CREATE", "UPDATE"}) {
            ObjectNode cs = CloneSetDefaultsTest.minimal();
            JsonNode template = Json.MAPPER.readTree(TEMPLATE);
            ((ObjectNode) cs.path("spec")).set("template", template.deepCopy());
            ((ObjectNode) cs.path("spec")).remove("volumeClaimTemplates");
            ObjectNode old = cs.deepCopy();
            // On UPDATE the template differs from the old one, so OpenKruise (and this webhook) default it again.
            ((ObjectNode) old.path("spec").path("template").path("spec").path("containers").get(0))
                    .put("image", "nginx:1.24");
            JsonNode out = CloneSetDefaultsTest.mutate(CloneSetDefaultsTest.request(op, cs,
                    op.equals("UPDATE") ? old : null), false);

            assertEquals(template, out.path("spec").path("template"), op);
            assertEquals(new String(GoRevisionData.bytes(GoRevisionData.of(template)), StandardCharsets.UTF_8),
                    new String(GoRevisionData.bytes(GoRevisionData.of(out.path("spec").path("template"))),
                            StandardCharsets.UTF_8), op);
        }
    }

    /**
     * OpenKruise v1.9's {@code SetDefaultPodSpec} gives a template's containers {@code imagePullPolicy: Always} even
     * for a tagged image (for in-place image updates) and its init containers the upstream rule (IfNotPresent for a
     * tag other than latest); a policy already set is kept, so a template stored by either webhook reads the same.
     */
    @Test
    void pullPolicyDefaultsAsOpenKruiseSetDefaultPodSpec() throws Exception {
        ObjectNode cs = CloneSetDefaultsTest.minimal();
        ((ObjectNode) cs.path("spec")).set("template", Json.MAPPER.readTree("""
                {"metadata":{"labels":{"app":"s"}},"spec":{
                  "initContainers":[{"name":"i1","image":"busybox:1.36"},{"name":"i2","image":"busybox"}],
                  "containers":[{"name":"c1","image":"nginx:1.25"},{"name":"c2","image":"nginx@sha256:abc"},
                    {"name":"c3","image":"nginx:1.25","imagePullPolicy":"IfNotPresent"}]}}"""));
        ((ObjectNode) cs.path("spec")).remove("volumeClaimTemplates");

        JsonNode spec = CloneSetDefaultsTest.mutate(CloneSetDefaultsTest.request("CREATE", cs, null), false)
                .path("spec").path("template").path("spec");

        assertEquals("IfNotPresent", spec.path("initContainers").get(0).path("imagePullPolicy").asText());
        assertEquals("Always", spec.path("initContainers").get(1).path("imagePullPolicy").asText());
        assertEquals("Always", spec.path("containers").get(0).path("imagePullPolicy").asText());
        assertEquals("Always", spec.path("containers").get(1).path("imagePullPolicy").asText());
        assertEquals("IfNotPresent", spec.path("containers").get(2).path("imagePullPolicy").asText());
    }
}
