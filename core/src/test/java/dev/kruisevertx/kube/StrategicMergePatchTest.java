package dev.kruisevertx.kube;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Kubernetes' strategic merge over pod JSON: keyed lists merge by key, directives, nulls, and the target is kept. */
class StrategicMergePatchTest {
    static final ObjectMapper JSON = new ObjectMapper();

    static JsonNode json(String s) throws Exception {
        return JSON.readTree(s.replace('\'', '"'));
    }

    static JsonNode apply(String target, String patch) throws Exception {
        return StrategicMergePatch.apply(json(target), (ObjectNode) json(patch));
    }

    @Test
    void containersMergeByNameAndOtherListsAreReplaced() throws Exception {
        JsonNode target = json("{'spec':{'containers':[{'name':'a','image':'x'},{'name':'b','image':'y'}],"
                + "'tolerations':[{'key':'k1','operator':'Exists'}]}}");
        JsonNode out = StrategicMergePatch.apply(target, (ObjectNode) json("{'spec':{'containers':[{'name':'b',"
                + "'resources':{'limits':{'cpu':'2'}}},{'name':'c','image':'z'}],'tolerations':[{'key':'k2',"
                + "'operator':'Exists'}]}}"));
        assertEquals(json("{'spec':{'containers':[{'name':'a','image':'x'},{'name':'b','image':'y','resources':"
                + "{'limits':{'cpu':'2'}}},{'name':'c','image':'z'}],'tolerations':[{'key':'k2','operator':'Exists'}]}}"),
                out);
        assertEquals(json("{'spec':{'containers':[{'name':'a','image':'x'},{'name':'b','image':'y'}],"
                + "'tolerations':[{'key':'k1','operator':'Exists'}]}}"), target, "the target is not modified");
    }

    @Test
    void directivesAndNulls() throws Exception {
        assertEquals(json("{'metadata':{'labels':{'b':'2'}}}"),
                apply("{'metadata':{'labels':{'a':'1'}}}", "{'metadata':{'labels':{'a':null,'b':'2'}}}"));
        assertEquals(json("{'spec':{'containers':[{'name':'b'}]}}"),
                apply("{'spec':{'containers':[{'name':'a'},{'name':'b'}]}}",
                        "{'spec':{'containers':[{'name':'a','$patch':'delete'}]}}"));
        assertEquals(json("{'spec':{'containers':[{'name':'n'}]}}"),
                apply("{'spec':{'containers':[{'name':'a'},{'name':'b'}]}}",
                        "{'spec':{'containers':[{'name':'n'},{'$patch':'replace'}]}}"));
        assertEquals(json("{'metadata':{'labels':{'x':'y'}}}"),
                apply("{'metadata':{'labels':{'a':'1'}}}", "{'metadata':{'labels':{'$patch':'replace','x':'y'}}}"));
        assertEquals(json("{'metadata':{'finalizers':['f1','f2']}}"),
                apply("{'metadata':{'finalizers':['f1']}}", "{'metadata':{'finalizers':['f2','f1']}}"));
    }
}
