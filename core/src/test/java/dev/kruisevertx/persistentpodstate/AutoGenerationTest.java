package dev.kruisevertx.persistentpodstate;

import dev.kruisevertx.api.apps.v1alpha1.NodeTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodAnnotation;
import dev.kruisevertx.api.apps.v1alpha1.PersistentPodState;
import dev.kruisevertx.api.apps.v1alpha1.PreferredTopologyTerm;
import dev.kruisevertx.api.apps.v1alpha1.TargetReference;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.kruisevertx.persistentpodstate.AutoGeneration.Action.CREATE;
import static dev.kruisevertx.persistentpodstate.AutoGeneration.Action.DELETE;
import static dev.kruisevertx.persistentpodstate.AutoGeneration.Action.NONE;
import static dev.kruisevertx.persistentpodstate.AutoGeneration.Action.UPDATE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The generation table: OpenKruise v1.9.0's autoGeneratePersistentPodState and its event filters, as facts. */
class AutoGenerationTest {
    static final String AV = "apps/v1";

    static HasMetadata sts(String... kv) {
        Map<String, String> a = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            a.put(kv[i], kv[i + 1]);
        }
        return new StatefulSetBuilder().withNewMetadata().withName("echo").withNamespace("ns").withUid("uid-1")
                .withAnnotations(a).endMetadata().build();
    }

    static PersistentPodState existing(String ownerUid) {
        PersistentPodState p = AutoGeneration.generated(sts(PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "zone"),
                AV, "StatefulSet");
        if (ownerUid == null) {
            p.getMetadata().setOwnerReferences(null);
        } else {
            p.getMetadata().setOwnerReferences(List.of(new OwnerReferenceBuilder().withUid(ownerUid)
                    .withController(true).withKind("StatefulSet").withApiVersion(AV).withName("echo").build()));
        }
        return p;
    }

    @Test
    void requiredAndPreferredAndAnnotationsAreSplitAtCommas() {
        var d = AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true",
                PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "zone,rack",
                PersistentPodState.PREFERRED_TOPOLOGY_ANNOTATION, "kubernetes.io/hostname",
                PersistentPodState.PERSISTENT_POD_ANNOTATIONS_ANNOTATION, "ip,mac"), AV, "StatefulSet", null);
        assertEquals(CREATE, d.action());
        PersistentPodState p = d.desired();
        assertEquals("echo", p.getMetadata().getName());
        assertEquals("ns", p.getMetadata().getNamespace());
        assertEquals("uid-1", p.getMetadata().getOwnerReferences().get(0).getUid());
        assertTrue(p.getMetadata().getOwnerReferences().get(0).getController());
        assertEquals(new TargetReference(AV, "StatefulSet", "echo"), p.getSpec().getTargetReference());
        assertEquals(new NodeTopologyTerm(List.of("zone", "rack")), p.getSpec().getRequiredPersistentTopology());
        assertEquals(List.of(new PreferredTopologyTerm(100, new NodeTopologyTerm(List.of("kubernetes.io/hostname")))),
                p.getSpec().getPreferredPersistentTopology());
        assertEquals(List.of(new PersistentPodAnnotation("ip"), new PersistentPodAnnotation("mac")),
                p.getSpec().getPersistentPodAnnotations());
        assertNull(p.getSpec().getPersistentPodStateRetentionPolicy());
    }

    @Test
    void requiredOnly() {
        var d = AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true",
                PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "zone"), AV, "StatefulSet", null);
        assertEquals(CREATE, d.action());
        assertNull(d.desired().getSpec().getPreferredPersistentTopology());
    }

    @Test
    void preferredOnly() {
        var d = AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true",
                PersistentPodState.PREFERRED_TOPOLOGY_ANNOTATION, "zone"), AV, "StatefulSet", null);
        assertEquals(CREATE, d.action());
        assertNull(d.desired().getSpec().getRequiredPersistentTopology());
    }

    @Test
    void withoutTopologyNothingIsGenerated() {
        var d = AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true",
                PersistentPodState.PERSISTENT_POD_ANNOTATIONS_ANNOTATION, "ip"), AV, "StatefulSet", null);
        assertEquals(NONE, d.action());
        assertTrue(d.reason().startsWith("annotations incomplete"));
    }

    @Test
    void incompleteAnnotationsKeepAnExistingOne() {
        assertEquals(NONE, AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true"), AV,
                "StatefulSet", existing("uid-1")).action());
    }

    @Test
    void onlyTheExactValueTrueGenerates() {
        assertEquals(NONE, AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "True",
                PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "zone"), AV, "StatefulSet", null).action());
    }

    @Test
    void anUpToDateOneIsLeftAlone() {
        assertEquals(NONE, AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true",
                PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "zone"), AV, "StatefulSet", existing("uid-1")).action());
    }

    @Test
    void changedAnnotationsUpdateTheSpec() {
        var d = AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true",
                PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "rack"), AV, "StatefulSet", existing("uid-1"));
        assertEquals(UPDATE, d.action());
        assertEquals(List.of("rack"), d.desired().getSpec().getRequiredPersistentTopology().getNodeTopologyKeys());
    }

    @Test
    void aRetentionPolicySetByHandIsReplacedAsOpenKruiseDoes() {
        PersistentPodState e = existing("uid-1");
        e.getSpec().setPersistentPodStateRetentionPolicy("WhenDeleted");
        assertEquals(UPDATE, AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true",
                PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "zone"), AV, "StatefulSet", e).action());
    }

    @Test
    void turningGenerationOffDeletesTheGeneratedOne() {
        assertEquals(DELETE, AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "false"), AV,
                "StatefulSet", existing("uid-1")).action());
        assertEquals(DELETE, AutoGeneration.decide(sts(), AV, "StatefulSet", existing("uid-1")).action());
    }

    @Test
    void aSameNamedOneMadeByHandIsNotDeleted() {
        assertEquals(NONE, AutoGeneration.decide(sts(), AV, "StatefulSet", existing(null)).action());
        assertEquals(NONE, AutoGeneration.decide(sts(), AV, "StatefulSet", existing("other-uid")).action());
    }

    @Test
    void nothingToDeleteIsNothingToDo() {
        assertEquals(NONE, AutoGeneration.decide(sts(), AV, "StatefulSet", null).action());
        assertEquals(NONE, AutoGeneration.decide(null, AV, "StatefulSet", existing("uid-1")).action());
    }

    @Test
    void emptyPartsAreKeptAsGoSplitKeepsThem() {
        var d = AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true",
                PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "zone,"), AV, "StatefulSet", null);
        assertEquals(List.of("zone", ""), d.desired().getSpec().getRequiredPersistentTopology().getNodeTopologyKeys());
    }

    @Test
    void eventFilters() {
        assertTrue(AutoGeneration.wanted(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true",
                PersistentPodState.PREFERRED_TOPOLOGY_ANNOTATION, "zone")));
        assertFalse(AutoGeneration.wanted(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true")));
        assertFalse(AutoGeneration.wanted(sts(PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "zone")));
        assertTrue(AutoGeneration.annotationsChanged(sts(), sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true")));
        assertTrue(AutoGeneration.annotationsChanged(sts(PersistentPodState.PERSISTENT_POD_ANNOTATIONS_ANNOTATION, "a"),
                sts(PersistentPodState.PERSISTENT_POD_ANNOTATIONS_ANNOTATION, "b")));
        assertFalse(AutoGeneration.annotationsChanged(sts("x", "1"), sts("x", "2")));
    }

    @Test
    void requestNamesRoundTrip() {
        String n = AutoGeneration.requestName("apps.kruise.io/v1beta1", "StatefulSet", "web");
        assertEquals("generate#apps.kruise.io/v1beta1#StatefulSet#web", n);
        assertEquals(new TargetReference("apps.kruise.io/v1beta1", "StatefulSet", "web"),
                AutoGeneration.parseRequestName(n));
        assertNull(AutoGeneration.parseRequestName("web"));
        assertNull(AutoGeneration.parseRequestName("generate#a#b"));
    }

    @Test
    void theGeneratedObjectSerializesWithOpenKruisesFieldNames() {
        var d = AutoGeneration.decide(sts(PersistentPodState.AUTO_GENERATE_ANNOTATION, "true",
                PersistentPodState.REQUIRED_TOPOLOGY_ANNOTATION, "zone"), AV, "StatefulSet", null);
        var json = ApiJson.serialization().convertValue(d.desired().getSpec(),
                com.fasterxml.jackson.databind.JsonNode.class);
        assertEquals(ApiJson.serialization().unmarshal("{\"targetRef\":{\"apiVersion\":\"apps/v1\",\"kind\":\"StatefulSet\",\"name\":\"echo\"},"
                + "\"requiredPersistentTopology\":{\"nodeTopologyKeys\":[\"zone\"]}}",
                com.fasterxml.jackson.databind.JsonNode.class), json);
    }
}
