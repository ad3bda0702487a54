package dev.kruisevertx.webhook.daemonset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise v1.9's DaemonSet validation cases (pkg/webhook/daemonset/validating), as facts run through the
 * validating handler in both served versions, plus the rules this project adds.
 */
class DaemonSetValidationTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static ObjectNode daemonSet(String version, String spec) {
        try {
            ObjectNode ds = (ObjectNode) JSON.readTree(("{'apiVersion':'apps.kruise.io/" + version + "','kind':'DaemonSet',"
                    + "'metadata':{'name':'ds1','namespace':'default'},'spec':{'selector':{'matchLabels':{'a':'b'}},"
                    + "'template':{'metadata':{'labels':{'a':'b'}},'spec':{'restartPolicy':'Always',"
                    + "'containers':[{'name':'abc','image':'image'}]}}}}").replace('\'', '"'));
            ObjectNode extra = (ObjectNode) JSON.readTree(spec.replace('\'', '"'));
            ((ObjectNode) ds.get("spec")).setAll(extra);
            return ds;
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    static AdmissionResponse validate(String op, ObjectNode obj, ObjectNode old) throws Exception {
        String version = obj.path("apiVersion").asText().substring("apps.kruise.io/".length());
        AdmissionRequest r = new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", version, "DaemonSet",
                "daemonsets", "", "ds1", "default", op, obj, old, false, null);
        return DaemonSetWebhooks.validating().handle(r).toCompletionStage().toCompletableFuture().get();
    }

    static String rolling(String ru) {
        return "{'updateStrategy':{'type':'RollingUpdate','rollingUpdate':" + ru + "}}";
    }

    /** TestValidateRollingUpdateDaemonSet (v1alpha1 and v1beta1), TestValidateDaemonSetUpdateStrategy(V1beta1). */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "v1alpha1|Valid maxUnavailable|{'maxUnavailable':1}|true|",
            "v1alpha1|Valid maxSurge|{'maxSurge':1}|true|",
            "v1alpha1|Both maxUnavailable and maxSurge|{'maxUnavailable':1,'maxSurge':1}|false|may not be set when maxUnavailable is non-zero",
            "v1alpha1|Both zero|{'maxUnavailable':0,'maxSurge':0}|false|cannot be 0 when maxSurge is 0",
            "v1alpha1|Standard type|{'rollingUpdateType':'Standard','maxUnavailable':1}|true|",
            "v1alpha1|InPlaceIfPossible with maxSurge|{'rollingUpdateType':'InPlaceIfPossible','maxSurge':1}|false|must be 0 for InPlaceIfPossible type",
            "v1alpha1|InPlaceIfPossible with maxUnavailable|{'rollingUpdateType':'InPlaceIfPossible','maxUnavailable':1}|true|",
            "v1alpha1|Surging with maxUnavailable|{'rollingUpdateType':'Surging','maxUnavailable':1}|false|must be 0 for Surging type",
            "v1alpha1|Surging with maxSurge|{'rollingUpdateType':'Surging','maxSurge':1}|true|",
            "v1alpha1|Percent value|{'maxUnavailable':'50%'}|true|",
            "v1alpha1|Invalid percent value|{'maxUnavailable':'150%'}|false|must not be greater than 100%",
            "v1alpha1|With partition|{'maxUnavailable':1,'partition':5}|true|",
            "v1beta1|Valid maxUnavailable|{'maxUnavailable':1}|true|",
            "v1beta1|Valid maxSurge|{'maxSurge':1}|true|",
            "v1beta1|Both maxUnavailable and maxSurge|{'maxUnavailable':1,'maxSurge':1}|false|may not be set when maxUnavailable is non-zero",
            "v1beta1|Both zero|{'maxUnavailable':0,'maxSurge':0}|false|cannot be 0 when maxSurge is 0",
            "v1beta1|Standard type|{'rollingUpdateType':'Standard','maxUnavailable':1}|true|",
            "v1beta1|InPlaceIfPossible with maxSurge|{'rollingUpdateType':'InPlaceIfPossible','maxSurge':1}|false|must be 0 for InPlaceIfPossible type",
            "v1beta1|InPlaceIfPossible with maxUnavailable|{'rollingUpdateType':'InPlaceIfPossible','maxUnavailable':1}|true|",
            "v1beta1|Percent value|{'maxUnavailable':'50%'}|true|",
            "v1beta1|Invalid percent value|{'maxUnavailable':'150%'}|false|must not be greater than 100%",
            "v1beta1|With partition|{'maxUnavailable':1,'partition':5}|true|",
            "v1beta1|Invalid type|{'rollingUpdateType':'Surging','maxUnavailable':1}|false|Unsupported value: \"Surging\": supported values: \"Standard\", \"InPlaceIfPossible\"",
            "v1beta1|Negative partition|{'maxUnavailable':1,'partition':-1}|false|spec.updateStrategy.rollingUpdate.partition",
            "v1beta1|Partition over 100%|{'maxUnavailable':1,'partition':'101%'}|false|spec.updateStrategy.rollingUpdate.partition",
            "v1beta1|Partition percent|{'maxUnavailable':1,'partition':'30%'}|true|",
            "v1beta1|Surge percent|{'maxSurge':'10%','maxUnavailable':0}|true|",
            "v1beta1|Bad percent syntax|{'maxSurge':'x%'}|false|a valid percent string",
            "v1beta1|Negative maxUnavailable|{'maxUnavailable':-1}|false|should not be less than 1",
            "v1beta1|Bad update selector|{'maxUnavailable':1,'selector':{'matchExpressions':[{'key':'a','operator':'Near'}]}}|false|spec.updateStrategy.rollingUpdate.selector",
            "v1beta1|Paused|{'maxUnavailable':1,'paused':true}|true|",
    })
    void rollingUpdate(String version, String name, String ru, boolean allowed, String message) throws Exception {
        AdmissionResponse r = validate("CREATE", daemonSet(version, rolling(ru)), null);
        assertEquals(allowed, r.allowed(), name + ": " + r.message());
        if (message != null) {
            assertTrue(r.message().contains(message), name + ": expected '" + message + "' in " + r.message());
        }
    }

    /** TestValidateDaemonSetUpdateStrategy(V1beta1) and TestValidateDaemonSetSpec(V1beta1). */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "v1alpha1|OnDelete strategy|{'updateStrategy':{'type':'OnDelete'}}|true|",
            "v1alpha1|RollingUpdate with maxUnavailable|{'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'maxUnavailable':1}}}|true|",
            "v1alpha1|RollingUpdate without RollingUpdate field|{'updateStrategy':{'type':'RollingUpdate'}}|false|spec.updateStrategy.rollingUpdate: Required value",
            "v1alpha1|RollingUpdate with maxSurge|{'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':1}}}|true|",
            "v1alpha1|Invalid strategy type|{'updateStrategy':{'type':'Invalid'}}|false|supported values: \"RollingUpdate\", \"OnDelete\"",
            "v1beta1|OnDelete strategy|{'updateStrategy':{'type':'OnDelete'}}|true|",
            "v1beta1|RollingUpdate with maxUnavailable|{'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'maxUnavailable':1}}}|true|",
            "v1beta1|RollingUpdate without RollingUpdate field|{'updateStrategy':{'type':'RollingUpdate'}}|false|spec.updateStrategy.rollingUpdate: Required value",
            "v1beta1|RollingUpdate with maxSurge|{'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'maxSurge':1}}}|true|",
            "v1beta1|Invalid strategy type|{'updateStrategy':{'type':'Invalid'}}|false|supported values: \"RollingUpdate\", \"OnDelete\"",
            "v1beta1|No strategy type|{'updateStrategy':{}}|false|spec.updateStrategy.type: Unsupported value",
            "v1alpha1|empty selector|{'updateStrategy':{'type':'OnDelete'},'selector':{}}|false|empty selector is invalid for daemonset",
            "v1alpha1|invalid restart policy|{'updateStrategy':{'type':'OnDelete'},'template':{'metadata':{'labels':{'a':'b'}},'spec':{'restartPolicy':'Never','containers':[{'name':'c','image':'i'}]}}}|false|spec.template.spec.restartPolicy: Unsupported value: \"Never\"",
            "v1alpha1|with activeDeadlineSeconds|{'updateStrategy':{'type':'OnDelete'},'template':{'metadata':{'labels':{'a':'b'}},'spec':{'activeDeadlineSeconds':5,'containers':[{'name':'c','image':'i'}]}}}|false|activeDeadlineSeconds in DaemonSet is not Supported",
            "v1alpha1|with revisionHistoryLimit|{'updateStrategy':{'type':'OnDelete'},'revisionHistoryLimit':5}|true|",
            "v1alpha1|with inPlaceUpdate lifecycle|{'updateStrategy':{'type':'OnDelete'},'lifecycle':{'inPlaceUpdate':{'labelsHandler':{'x':'y'}}}}|false|inPlaceUpdate hook has not supported yet",
            "v1beta1|empty selector|{'updateStrategy':{'type':'OnDelete'},'selector':{}}|false|empty selector is invalid for daemonset",
            "v1beta1|invalid restart policy|{'updateStrategy':{'type':'OnDelete'},'template':{'metadata':{'labels':{'a':'b'}},'spec':{'restartPolicy':'OnFailure','containers':[{'name':'c','image':'i'}]}}}|false|spec.template.spec.restartPolicy: Unsupported value: \"OnFailure\"",
            "v1beta1|with activeDeadlineSeconds|{'updateStrategy':{'type':'OnDelete'},'template':{'metadata':{'labels':{'a':'b'}},'spec':{'activeDeadlineSeconds':5,'containers':[{'name':'c','image':'i'}]}}}|false|activeDeadlineSeconds in DaemonSet is not Supported",
            "v1beta1|with revisionHistoryLimit|{'updateStrategy':{'type':'OnDelete'},'revisionHistoryLimit':5}|true|",
            "v1beta1|with inPlaceUpdate lifecycle|{'updateStrategy':{'type':'OnDelete'},'lifecycle':{'inPlaceUpdate':{'labelsHandler':{'x':'y'}}}}|false|inPlaceUpdate hook has not supported yet",
            "v1beta1|preDelete lifecycle|{'updateStrategy':{'type':'OnDelete'},'lifecycle':{'preDelete':{'labelsHandler':{'x':'y'}}}}|true|",
            "v1alpha1|selector not match|{'updateStrategy':{'type':'OnDelete'},'selector':{'matchLabels':{'key1':'value1'}},'template':{'metadata':{'labels':{'key1':'value2'}},'spec':{'containers':[{'name':'c','image':'i'}]}}}|false|`selector` does not match template `labels`",
            "v1alpha1|selector match|{'selector':{'matchLabels':{'key1':'value1'}},'template':{'metadata':{'labels':{'key1':'value1'}},'spec':{'restartPolicy':'Always','containers':[{'name':'a','image':'b'}]}},'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'rollingUpdateType':'Standard','maxUnavailable':1}}}|true|",
            "v1beta1|selector not match|{'updateStrategy':{'type':'OnDelete'},'selector':{'matchLabels':{'key1':'value1'}},'template':{'metadata':{'labels':{'key1':'value2'}},'spec':{'containers':[{'name':'c','image':'i'}]}}}|false|`selector` does not match template `labels`",
            "v1beta1|negative minReadySeconds|{'updateStrategy':{'type':'OnDelete'},'minReadySeconds':-1}|false|spec.minReadySeconds",
            "v1beta1|negative revisionHistoryLimit|{'updateStrategy':{'type':'OnDelete'},'revisionHistoryLimit':-1}|false|spec.revisionHistoryLimit",
            "v1beta1|no containers|{'updateStrategy':{'type':'OnDelete'},'template':{'metadata':{'labels':{'a':'b'}},'spec':{}}}|false|spec.template.spec.containers: Required value",
            "v1beta1|no selector|{'updateStrategy':{'type':'OnDelete'},'selector':null}|false|spec.selector: Required value",
            "v1beta1|zero burstReplicas|{'updateStrategy':{'type':'OnDelete'},'burstReplicas':0}|false|spec.burstReplicas",
            "v1beta1|burstReplicas percent|{'updateStrategy':{'type':'OnDelete'},'burstReplicas':'50%'}|true|",
    })
    void spec(String version, String name, String spec, boolean allowed, String message) throws Exception {
        AdmissionResponse r = validate("CREATE", daemonSet(version, spec), null);
        assertEquals(allowed, r.allowed(), name + ": " + r.message());
        if (message != null) {
            assertTrue(r.message().contains(message), name + ": expected '" + message + "' in " + r.message());
        }
    }

    /** TestValidateDaemonSetUpdate(V1beta1): only the selector is fixed. */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "v1alpha1|burstReplicas changes|{'burstReplicas':2}|{'burstReplicas':1}|true",
            "v1beta1|burstReplicas changes|{'burstReplicas':2}|{'burstReplicas':1}|true",
            "v1beta1|strategy, minReadySeconds, history, lifecycle, scaleStrategy change|{'minReadySeconds':0}|{'minReadySeconds':9,'revisionHistoryLimit':3,'scaleStrategy':{'partitionedScaling':true},'lifecycle':{'preDelete':{'labelsHandler':{'x':'y'}}},'updateStrategy':{'type':'OnDelete'}}|true",
            "v1alpha1|selector changes|{}|{'selector':{'matchLabels':{'c':'d'}},'template':{'metadata':{'labels':{'c':'d'}},'spec':{'containers':[{'name':'c','image':'i'}]}}}|false",
            "v1beta1|selector changes|{}|{'selector':{'matchLabels':{'c':'d'}},'template':{'metadata':{'labels':{'c':'d'}},'spec':{'containers':[{'name':'c','image':'i'}]}}}|false",
    })
    void update(String version, String name, String oldSpec, String newSpec, boolean allowed) throws Exception {
        String strategy = "'updateStrategy':{'type':'RollingUpdate','rollingUpdate':{'maxUnavailable':1}}";
        ObjectNode old = daemonSet(version, "{" + strategy + (oldSpec.equals("{}") ? "}" : "," + oldSpec.substring(1)));
        ObjectNode now = daemonSet(version, "{" + strategy + (newSpec.equals("{}") ? "}" : "," + newSpec.substring(1)));
        AdmissionResponse r = validate("UPDATE", now, old);
        assertEquals(allowed, r.allowed(), name + ": " + r.message());
        if (!allowed) {
            assertTrue(r.message().contains("updates to daemonset spec for fields other than"), r.message());
        }
    }

    @Test
    void namesMustBeDnsSubdomainsShortEnoughForRevisions() throws Exception {
        ObjectNode ds = daemonSet("v1beta1", "{'updateStrategy':{'type':'OnDelete'}}");
        ((ObjectNode) ds.get("metadata")).put("name", "Bad_Name");
        assertFalse(validate("CREATE", ds, null).allowed());
        ((ObjectNode) ds.get("metadata")).put("name", "a".repeat(243));
        AdmissionResponse r = validate("CREATE", ds, null);
        assertFalse(r.allowed());
        assertTrue(r.message().contains("ControllerRevisions are named"), r.message());
        ((ObjectNode) ds.get("metadata")).put("name", "a.b-c");
        assertTrue(validate("CREATE", ds, null).allowed());
    }

    @Test
    void deleteAndUnservedVersions() throws Exception {
        AdmissionRequest del = new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", "v1beta1", "DaemonSet",
                "daemonsets", "", "ds1", "default", "DELETE", null, daemonSet("v1beta1", "{}"), false, null);
        assertTrue(DaemonSetWebhooks.validating().handle(del).toCompletionStage().toCompletableFuture().get().allowed());
        ObjectNode wrong = daemonSet("v1beta1", "{}");
        wrong.put("apiVersion", "apps.kruise.io/v2");
        AdmissionResponse r = validate("CREATE", wrong, null);
        assertFalse(r.allowed());
        assertEquals(400, r.code());
        JsonNode typo = daemonSet("v1beta1", "{'minReadySeconds':'soon'}");
        AdmissionResponse bad = validate("CREATE", (ObjectNode) typo, null);
        assertFalse(bad.allowed());
        assertTrue(bad.message().contains("minReadySeconds"), bad.message());
    }
}
