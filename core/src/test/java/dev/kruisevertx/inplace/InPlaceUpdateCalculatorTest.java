package dev.kruisevertx.inplace;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static dev.kruisevertx.inplace.InPlaceFixtures.container;
import static dev.kruisevertx.inplace.InPlaceFixtures.envFromAnnotation;
import static dev.kruisevertx.inplace.InPlaceFixtures.envFromLabel;
import static dev.kruisevertx.inplace.InPlaceFixtures.json;
import static dev.kruisevertx.inplace.InPlaceFixtures.map;
import static dev.kruisevertx.inplace.InPlaceFixtures.revision;
import static dev.kruisevertx.inplace.InPlaceFixtures.template;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InPlaceUpdateCalculatorTest {
    private static final InPlaceUpdateOptions OPTS = InPlaceUpdateOptions.defaults();

    private static PodTemplateSpec base() {
        return template(map("app", "demo"), map("note", "a"), container("main", "nginx:1.0", null),
                container("sidecar", "busybox:1.0", null));
    }

    private static PodTemplateSpec withImage(PodTemplateSpec t, int idx, String image) {
        PodTemplateSpec copy = new PodTemplateSpecBuilder(t).build();
        copy.getSpec().getContainers().set(idx, new ContainerBuilder(copy.getSpec().getContainers().get(idx))
                .withImage(image).build());
        return copy;
    }

    @Test
    void imageChangeIsInPlace() {
        ControllerRevision oldRev = revision("demo-old111", base());
        ControllerRevision newRev = revision("demo-new222", withImage(base(), 1, "busybox:2.0"));
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(oldRev, newRev, OPTS);
        assertNotNull(spec);
        assertEquals("demo-new222", spec.revision());
        assertEquals(Map.of("sidecar", "busybox:2.0"), spec.containerImages());
        assertTrue(spec.containerRefMetadata().isEmpty());
        assertTrue(spec.labelsPatch().isEmpty());
        assertFalse(spec.updateEnvFromMetadata());
        assertNull(spec.metaDataPatch());
        assertEquals("busybox:1.0", spec.oldTemplate().getSpec().getContainers().get(1).getImage());
        assertTrue(InPlaceUpdateCalculator.canUpdateInPlace(oldRev, newRev, OPTS));
    }

    @Test
    void twoImagesAndGracePeriod() {
        PodTemplateSpec next = withImage(withImage(base(), 0, "nginx:2.0"), 1, "busybox:2.0");
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(revision("a-1", base()), revision("a-2", next),
                OPTS.withGracePeriodSeconds(30));
        assertEquals(Map.of("main", "nginx:2.0", "sidecar", "busybox:2.0"), spec.containerImages());
        assertEquals(30, spec.graceSeconds());
    }

    @Test
    void otherSpecChangesAreNotInPlace() {
        PodTemplateSpec envChanged = new PodTemplateSpecBuilder(base()).editSpec().editFirstContainer()
                .addNewEnv().withName("A").withValue("1").endEnv().endContainer().endSpec().build();
        assertNull(InPlaceUpdateCalculator.calculate(revision("a-1", base()), revision("a-2", envChanged), OPTS));

        PodTemplateSpec added = new PodTemplateSpecBuilder(base()).editSpec()
                .addToContainers(container("third", "x:1", null)).endSpec().build();
        assertNull(InPlaceUpdateCalculator.calculate(revision("a-1", base()), revision("a-2", added), OPTS));

        PodTemplateSpec imageAndCommand = new PodTemplateSpecBuilder(withImage(base(), 0, "nginx:2.0")).editSpec()
                .editFirstContainer().withCommand("sh").endContainer().endSpec().build();
        assertNull(InPlaceUpdateCalculator.calculate(revision("a-1", base()), revision("a-2", imageAndCommand), OPTS));

        PodTemplateSpec nodeSelector = new PodTemplateSpecBuilder(base()).editSpec()
                .withNodeSelector(map("zone", "a")).endSpec().build();
        assertNull(InPlaceUpdateCalculator.calculate(revision("a-1", base()), revision("a-2", nodeSelector), OPTS));
    }

    @Test
    void missingRevisionIsNotInPlace() {
        assertNull(InPlaceUpdateCalculator.calculate(null, revision("a-2", base()), OPTS));
        assertNull(InPlaceUpdateCalculator.calculate(revision("a-1", base()), null, OPTS));
        ControllerRevision empty = new ControllerRevisionBuilder().withNewMetadata().withName("x").endMetadata().build();
        assertNull(InPlaceUpdateCalculator.calculate(empty, revision("a-2", base()), OPTS));
    }

    @Test
    void unchangedTemplateGivesAnEmptySpec() {
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(revision("a-1", base()), revision("a-2", base()), OPTS);
        assertNotNull(spec);
        assertTrue(spec.isEmpty());
        assertEquals("a-2", spec.revision());
    }

    @Test
    void labelAndAnnotationChangesBecomeAMetadataPatch() {
        PodTemplateSpec next = template(map("app", "demo", "tier", "web", "example.com/team", "x"), map(),
                container("main", "nginx:1.0", null), container("sidecar", "busybox:1.0", null));
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(base(), next, "a-2", OPTS);
        assertNotNull(spec);
        assertEquals(map("tier", "web", "example.com/team", "x"), spec.labelsPatch());
        Map<String, String> removed = new HashMap<>();
        removed.put("note", null);
        assertEquals(removed, spec.annotationsPatch());
        assertFalse(spec.updateEnvFromMetadata());
        // Templates are compared in Go's form, whose maps are sorted by key (as OpenKruise's json.Marshal writes them).
        assertEquals("{\"metadata\":{\"labels\":{\"example.com/team\":\"x\",\"tier\":\"web\"},\"annotations\":{\"note\":null}}}",
                spec.metaDataPatch());
    }

    @Test
    void labelsAppearingOnATemplateWithoutLabels() {
        PodTemplateSpec bare = new PodTemplateSpecBuilder(base()).editMetadata().withLabels(null).endMetadata().build();
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(bare, base(), "a-2", OPTS);
        assertEquals(map("app", "demo"), spec.labelsPatch());
    }

    @Test
    void envFromMetadataIsAppliedPerContainer() {
        PodTemplateSpec before = template(map("app", "demo", "version", "1"), map("config", "v1"),
                envFromAnnotation(container("sidecar", "busybox:1.0", 10), "CONFIG", "config"),
                envFromLabel(container("main", "nginx:1.0", null), "VERSION", "version"));
        PodTemplateSpec after = template(map("app", "demo", "version", "2"), map("config", "v2"),
                envFromAnnotation(container("sidecar", "busybox:1.0", 10), "CONFIG", "config"),
                envFromLabel(container("main", "nginx:2.0", null), "VERSION", "version"));
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(revision("a-1", before), revision("a-2", after), OPTS);
        assertNotNull(spec);
        assertTrue(spec.updateEnvFromMetadata());
        assertEquals(Map.of("main", "nginx:2.0"), spec.containerImages());
        assertEquals(map("version", "2"), spec.containerRefMetadata().get("main").getLabels());
        assertEquals(map("config", "v2"), spec.containerRefMetadata().get("sidecar").getAnnotations());
        assertTrue(spec.labelsPatch().isEmpty(), "referenced keys go with their containers, not the plain patch");
        assertTrue(spec.annotationsPatch().isEmpty());

        InPlaceUpdateSpec gateOff = InPlaceUpdateCalculator.calculate(revision("a-1", before), revision("a-2", after),
                OPTS.withEnvFromMetadata(false));
        assertFalse(gateOff.updateEnvFromMetadata());
        assertTrue(gateOff.containerRefMetadata().isEmpty());
        assertEquals(map("version", "2"), gateOff.labelsPatch());
        assertEquals(map("config", "v2"), gateOff.annotationsPatch());
    }

    @Test
    void acceptsTheTemplateAsRevisionData() {
        ControllerRevision direct = new ControllerRevisionBuilder().withNewMetadata().withName("a-2").endMetadata()
                .withData(withImage(base(), 0, "nginx:3")).build();
        assertEquals("nginx:3", InPlaceUpdateCalculator.templateOf(direct).getSpec().getContainers().get(0).getImage());
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(revision("a-1", base()), direct, OPTS);
        assertEquals(Map.of("main", "nginx:3"), spec.containerImages());
    }

    @Test
    void readsTheRevisionTemplateWithoutThePatchDirective() {
        PodTemplateSpec t = InPlaceUpdateCalculator.templateOf(revision("a-1", base()));
        assertFalse(json(t).contains("$patch"));
        ControllerRevision junk = new ControllerRevisionBuilder().withNewMetadata().withName("bad").endMetadata()
                .withData(Map.of("spec", Map.of("replicas", 3))).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> InPlaceUpdateCalculator.templateOf(junk));
        assertTrue(e.getMessage().contains("bad"), e.getMessage());
    }

    @Test
    void revisionNameCanBeOverridden() {
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(revision("demo-1", base()),
                revision("demo-2", withImage(base(), 0, "nginx:2")), OPTS.withRevisionName(r -> "custom"));
        assertEquals("custom", spec.revision());
    }

    @Test
    void splitsSubscriptedFieldPaths() {
        assertEquals("metadata.labels", InPlaceUpdateCalculator.splitSubscript("metadata.labels['a/b']")[0]);
        assertEquals("a/b", InPlaceUpdateCalculator.splitSubscript("metadata.labels['a/b']")[1]);
        assertNull(InPlaceUpdateCalculator.splitSubscript("metadata.name"));
    }

    @Test
    void graceJsonRoundTrips() {
        PodTemplateSpec before = template(map("app", "demo"), map("config", "v1"),
                envFromAnnotation(container("main", "nginx:1.0", null), "CONFIG", "config"));
        PodTemplateSpec after = template(map("app", "demo", "extra", "x"), map("config", "v2"),
                envFromAnnotation(container("main", "nginx:2.0", null), "CONFIG", "config"));
        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(before, after, "demo-2", OPTS.withGracePeriodSeconds(20));
        String json = spec.toGraceJson();
        assertTrue(json.contains("\"metaDataPatch\":\""), "bytes are base64 as Go writes them: " + json);
        InPlaceUpdateSpec back = InPlaceUpdateSpec.fromGraceJson("k", json);
        assertEquals(spec.revision(), back.revision());
        assertEquals(spec.containerImages(), back.containerImages());
        assertEquals(spec.containerRefMetadata(), back.containerRefMetadata());
        assertEquals(spec.labelsPatch(), back.labelsPatch());
        assertEquals(20, back.graceSeconds());
        assertTrue(back.updateEnvFromMetadata());
        assertThrows(IllegalArgumentException.class, () -> InPlaceUpdateSpec.fromGraceJson("k", "{not json"));
    }
}
