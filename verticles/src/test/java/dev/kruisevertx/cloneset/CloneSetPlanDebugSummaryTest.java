package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.common.LifecycleState;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.controller.PlanSummary;
import dev.kruisevertx.inplace.InPlaceUpdateSpec;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/** The CloneSet plan as /debug/plans shows it: every action by name and revision, never the pods' contents. */
class CloneSetPlanDebugSummaryTest {
    static final String SECRET = "s3cr3t-env-value";

    static PodTemplateSpec template(String image) {
        return new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "web").endMetadata().withNewSpec()
                .addNewContainer().withName("main").withImage(image).addNewEnv().withName("DB_PASSWORD").withValue(SECRET)
                .endEnv().endContainer().endSpec().build();
    }

    static Pod pod(String name, String revision) {
        return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revision)
                .addToAnnotations("secret-annotation", SECRET).endMetadata()
                .withSpec(template("nginx:1").getSpec()).build();
    }

    static PersistentVolumeClaim claim(String name) {
        return new PersistentVolumeClaimBuilder().withNewMetadata().withName(name).withNamespace("ns")
                .addToAnnotations("secret-annotation", SECRET).endMetadata().build();
    }

    @Test
    void everyActionIsNamedAndNoObjectContentIsShown() {
        Pod a = pod("web-aaaaa", "web-rev1");
        Pod b = pod("web-bbbbb", "web-rev1");
        InPlaceUpdateSpec inPlace = new InPlaceUpdateSpec("web-rev2", Map.of("main", "nginx:2"), Map.of(),
                Map.of("secret-label", SECRET), Map.of(), false, 0, template("nginx:1"), template("nginx:2"));
        CloneSetPlan plan = new CloneSetPlan(CloneSetPlan.Phase.SCALE, "scale up", new CloneSetDiff(2, 0, 1, 0, 2, 1, 0, 0, 0, 1),
                List.of(new CloneSetPlan.Create(pod("web-ccccc", "web-rev2"), List.of(claim("data-web-ccccc")), false)),
                List.of(new CloneSetPlan.LifecycleChange(a, LifecycleState.PREPARING_DELETE, true)),
                List.of(new CloneSetPlan.Delete(b, List.of(claim("data-web-bbbbb")))),
                List.of(claim("data-web-zzzzz")), List.of(a),
                List.of(new CloneSetPlan.InPlace(a, inPlace)), List.of(new CloneSetPlan.PodWrite(a, b)), List.of(b),
                Duration.ofSeconds(30));

        PlanSummary summary = plan.debugSummary();
        assertEquals(List.of(
                "create pod web-ccccc at revision web-rev2 with new PVCs data-web-ccccc",
                "delete pod web-bbbbb with PVCs data-web-bbbbb",
                "set lifecycle state of pod web-aaaaa to " + LifecycleState.PREPARING_DELETE + " (KruisePodReady follows)",
                "mark pod web-aaaaa for deletion (recreate at the update revision)",
                "delete PVC data-web-zzzzz",
                "update pod web-aaaaa in place to revision web-rev2 (containers main)",
                "continue the in-place update of pod web-aaaaa",
                "set InPlaceUpdateReady on pod web-bbbbb"), summary.actions());
        assertEquals(Map.of("scaleUpNum", 2L, "scaleDownNum", 1L, "scaleUpLimit", 2L, "deleteReadyLimit", 1L,
                "updateMaxUnavailable", 1L, "requeueAfterSeconds", 30L), summary.counts());
        assertEquals(plan.summary(), summary.summary());
        String json = Serialization.asJson(summary);
        assertFalse(json.contains(SECRET), json);
        assertFalse(json.contains("nginx"), "no images either: they are pod spec contents: " + json);
    }
}
