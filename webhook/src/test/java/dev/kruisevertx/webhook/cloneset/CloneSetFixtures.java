package dev.kruisevertx.webhook.cloneset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.webhook.admission.Json;

/** A valid, defaulted CloneSet as JSON, to break one rule at a time. */
final class CloneSetFixtures {
    private CloneSetFixtures() {
    }

    static ObjectNode validJson() {
        try {
            return (ObjectNode) Json.MAPPER.readTree("""
                    {"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet",
                     "metadata":{"name":"sample","namespace":"default","uid":"cs-uid"},
                     "spec":{"replicas":5,"revisionHistoryLimit":10,
                       "selector":{"matchLabels":{"app":"sample"}},
                       "template":{"metadata":{"labels":{"app":"sample"}},
                         "spec":{"containers":[{"name":"nginx","image":"nginx:alpine",
                           "volumeMounts":[{"name":"data","mountPath":"/data"}]}]}},
                       "volumeClaimTemplates":[{"metadata":{"name":"data"},"spec":{"accessModes":["ReadWriteOnce"],
                          "resources":{"requests":{"storage":"1Gi"}}}}],
                       "updateStrategy":{"type":"ReCreate","partition":0,"maxUnavailable":"20%","maxSurge":0}}}
                    """);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static CloneSet decode(ObjectNode json) {
        return Json.toModel(json, CloneSet.class);
    }

    static ObjectNode spec(ObjectNode cs) {
        return (ObjectNode) cs.get("spec");
    }

    static ObjectNode update(ObjectNode cs) {
        return (ObjectNode) cs.get("spec").get("updateStrategy");
    }
}
