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
}
