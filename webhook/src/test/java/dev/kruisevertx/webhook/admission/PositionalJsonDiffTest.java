package dev.kruisevertx.webhook.admission;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.zjsonpatch.JsonPatch;
import org.junit.jupiter.api.Test;

import java.io.StringWriter;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PositionalJsonDiffTest {

    static JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text.replace('\'', '"'));
    }

    /** The patch, applied by an independent RFC 6902 implementation, turns source into target. */
    static ArrayNode assertPatches(JsonNode source, JsonNode target) throws Exception {
        JsonPatchOps ops = PositionalJsonDiff.diff(source, target);
        ArrayNode tree = ops.toArrayNode();
        assertEquals(target, JsonPatch.apply(tree, source), "patch " + tree);
        StringWriter streamed = new StringWriter();
        try (JsonGenerator gen = Json.MAPPER.getFactory().createGenerator(streamed)) {
            ops.writeTo(gen);
        }
        assertEquals(tree, Json.MAPPER.readTree(streamed.toString()), "streamed and tree forms agree");
        return tree;
    }

    @Test
    void objectsAreComparedKeyByKey() throws Exception {
        ArrayNode patch = assertPatches(json("{'a':1,'b':{'c':2,'d':3},'e':[1]}"), json("{'a':1,'b':{'c':5,'x':null},'f':true}"));
        assertEquals(json("[{'op':'replace','path':'/b/c','value':5},{'op':'remove','path':'/b/d'},"
                + "{'op':'add','path':'/b/x','value':null},{'op':'remove','path':'/e'},{'op':'add','path':'/f','value':true}]"),
                patch);
    }

    @Test
    void arraysAreComparedByPositionGrowingAndShrinkingAtTheTail() throws Exception {
        assertEquals(json("[{'op':'replace','path':'/a/1','value':9},{'op':'add','path':'/a/3','value':4},"
                + "{'op':'add','path':'/a/4','value':5}]"), assertPatches(json("{'a':[1,2,3]}"), json("{'a':[1,9,3,4,5]}")));
        assertEquals(json("[{'op':'replace','path':'/a/0','value':7},{'op':'remove','path':'/a/3'},"
                + "{'op':'remove','path':'/a/2'}]"), assertPatches(json("{'a':[1,2,3,4]}"), json("{'a':[7,2]}")));
        // An insertion at the front is a longer patch than a minimal one, but a correct one.
        assertPatches(json("{'a':[{'n':'x'},{'n':'y'}]}"), json("{'a':[{'n':'new'},{'n':'x'},{'n':'y'}]}"));
        assertPatches(json("[]"), json("[1,[2],{'3':3}]"));
        assertPatches(json("[1,[2],{'3':3}]"), json("[]"));
    }

    @Test
    void elementsChangedInPlaceArePatchedFieldByField() throws Exception {
        ArrayNode patch = assertPatches(json("{'c':[{'name':'a','image':'x'},{'name':'b','image':'x'}]}"),
                json("{'c':[{'name':'a','image':'x','pull':'Always'},{'name':'b','image':'y'}]}"));
        assertEquals(json("[{'op':'add','path':'/c/0/pull','value':'Always'},{'op':'replace','path':'/c/1/image','value':'y'}]"),
                patch);
    }

    @Test
    void typeChangesReplaceWholeValuesAndTheRootCanBeReplaced() throws Exception {
        assertEquals(json("[{'op':'replace','path':'/a','value':[1]}]"), assertPatches(json("{'a':{'b':1}}"), json("{'a':[1]}")));
        assertEquals(json("[{'op':'replace','path':'/a','value':'1'}]"), assertPatches(json("{'a':1}"), json("{'a':'1'}")));
        assertEquals(json("[{'op':'replace','path':'','value':[1]}]"), assertPatches(json("{'a':1}"), json("[1]")));
        assertEquals(0, PositionalJsonDiff.diff(json("{'a':[1,{'b':null}]}"), json("{'a':[1,{'b':null}]}")).size());
    }

    @Test
    void keysWithSlashAndTildeAreEscaped() throws Exception {
        ArrayNode patch = assertPatches(json("{'metadata':{'annotations':{'a/b':'1','c~d':'2'}}}"),
                json("{'metadata':{'annotations':{'a/b':'3','c~d':'2','e~/f':'4'}}}"));
        assertEquals(List.of("/metadata/annotations/a~1b", "/metadata/annotations/e~0~1f"),
                List.of(patch.get(0).path("path").asText(), patch.get(1).path("path").asText()));
    }

    @Test
    void randomEditsOfNestedDocumentsRoundTrip() throws Exception {
        Random random = new Random(42);
        for (int round = 0; round < 300; round++) {
            JsonNode source = randomNode(random, 4);
            JsonNode target = mutate(source.deepCopy(), random, 4);
            assertPatches(source, target);
        }
    }

    @Test
    void patchSizeGrowsWithTheChangesNotWithTheSquareOfTheArray() throws Exception {
        ObjectNode source = Json.MAPPER.createObjectNode();
        ArrayNode list = source.putArray("containers");
        for (int i = 0; i < 50_000; i++) {
            list.addObject().put("name", "c" + i);
        }
        ObjectNode target = source.deepCopy();
        target.withArray("containers").forEach(c -> ((ObjectNode) c).put("policy", "File"));
        ((ArrayNode) target.get("containers")).remove(49_999);
        JsonPatchOps ops = PositionalJsonDiff.diff(source, target);
        assertEquals(49_999 + 1, ops.size(), "one add per kept element and one remove");
        assertEquals(target, JsonPatch.apply(ops.toArrayNode(), source));
    }

    static JsonNode randomNode(Random r, int depth) {
        int kind = depth == 0 ? r.nextInt(3) : r.nextInt(5);
        switch (kind) {
            case 0:
                return Json.MAPPER.getNodeFactory().numberNode(r.nextInt(5));
            case 1:
                return Json.MAPPER.getNodeFactory().textNode("s" + r.nextInt(3));
            case 2:
                return r.nextBoolean() ? Json.MAPPER.getNodeFactory().nullNode() : Json.MAPPER.getNodeFactory().booleanNode(true);
            case 3: {
                ArrayNode a = Json.MAPPER.createArrayNode();
                for (int i = r.nextInt(5); i > 0; i--) {
                    a.add(randomNode(r, depth - 1));
                }
                return a;
            }
            default: {
                ObjectNode o = Json.MAPPER.createObjectNode();
                for (int i = r.nextInt(5); i > 0; i--) {
                    o.set("k" + r.nextInt(6) + (r.nextInt(8) == 0 ? "/~" : ""), randomNode(r, depth - 1));
                }
                return o;
            }
        }
    }

    static JsonNode mutate(JsonNode node, Random r, int depth) {
        if (r.nextInt(6) == 0 || depth == 0) {
            return r.nextBoolean() ? node : randomNode(r, depth);
        }
        if (node instanceof ObjectNode o) {
            List<String> keys = new java.util.ArrayList<>();
            o.fieldNames().forEachRemaining(keys::add);
            for (String k : keys) {
                switch (r.nextInt(4)) {
                    case 0 -> o.remove(k);
                    case 1 -> o.set(k, mutate(o.get(k), r, depth - 1));
                    default -> { }
                }
            }
            if (r.nextBoolean()) {
                o.set("n" + r.nextInt(4), randomNode(r, depth - 1));
            }
        } else if (node instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                if (r.nextInt(3) == 0) {
                    a.set(i, mutate(a.get(i), r, depth - 1));
                }
            }
            if (a.size() > 0 && r.nextInt(3) == 0) {
                a.remove(r.nextInt(a.size()));
            }
            if (r.nextInt(3) == 0) {
                a.insert(r.nextInt(a.size() + 1), randomNode(r, depth - 1));
            }
        }
        return node;
    }
}
