package dev.kruisevertx.imagelistpulljob;

import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageListPullJob;
import dev.kruisevertx.api.apps.v1beta1.ImageListPullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageListPullJobStatus;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobStatus;
import dev.kruisevertx.api.common.WellKnown;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * OpenKruise's imagelistpulljob decision as a table. Owned jobs are written {@code image=state[@old]}: state
 * {@code -} not started, {@code a} active, {@code s} all succeeded, {@code f} finished with a failure;
 * {@code @old} an older template hash.
 */
class ImageListPullJobDecisionTest {
    static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("nothing yet: a job per image", "a:1,b:1", "", "Always", "a:1,b:1", "", "0/0/0/0", false),
                Arguments.of("duplicates in the list count once", "a:1,a:1", "", "Always", "a:1", "", "0/0/0/0", false),
                Arguments.of("one exists", "a:1,b:1", "a:1=a", "Always", "b:1", "", "1/0/0/0", false),
                Arguments.of("all exist, running", "a:1,b:1", "a:1=a,b:1=-", "Always", "", "", "1/0/0/0", false),
                Arguments.of("image left the list: deleted", "a:1", "a:1=a,b:1=a", "Always", "", "j-b:1", "2/0/0/0", false),
                Arguments.of("older template: replaced", "a:1", "a:1=a@old", "Always", "a:1", "j-a:1", "1/0/0/0", false),
                Arguments.of("all succeeded: completed", "a:1,b:1", "a:1=s,b:1=s", "Always", "", "", "0/2/2/0", true),
                Arguments.of("one failed: completed, listed", "a:1,b:1", "a:1=s,b:1=f", "Always", "", "", "0/2/1/1", true),
                Arguments.of("Never does not complete", "a:1", "a:1=s", "Never", "", "", "0/1/1/0", false),
                Arguments.of("not started does not count", "a:1", "a:1=-", "Always", "", "", "0/0/0/0", false),
                Arguments.of("empty list completes at once", "", "", "Always", "", "", "0/0/0/0", true)
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decides(String name, String images, String owned, String type, String create, String delete,
                 String counts, boolean completes) {
        ImageListPullJob list = list(images, type);
        String hash = ImageListPullJobDecision.templateHash(list);
        List<ImagePullJob> jobs = new ArrayList<>();
        for (String o : owned.isEmpty() ? new String[0] : owned.split(",")) {
            String image = o.substring(0, o.indexOf('='));
            String state = o.substring(o.indexOf('=') + 1);
            boolean old = state.endsWith("@old");
            jobs.add(job("j-" + image, image, state.substring(0, 1), old ? "older" : hash));
        }
        ImageListPullJobPlan plan = ImageListPullJobDecision.decide(list, jobs, NOW);
        assertEquals(create, String.join(",", plan.create()), "create");
        assertEquals(delete, String.join(",", plan.delete()), "delete");
        ImageListPullJobStatus s = plan.status();
        assertEquals(counts, s.getActive() + "/" + s.getCompleted() + "/" + s.getSucceeded() + "/"
                + (s.getFailedImageStatuses() == null ? 0 : s.getFailedImageStatuses().size()), "status");
        assertEquals(completes, s.getCompletionTime() != null, "completion");
        assertTrue(plan.relabel(), "an unlabelled list job gets the hash label");
    }

    @Test
    void theTemplateHashIgnoresTheImagesAndFollowsTheTemplate() {
        ImageListPullJob a = list("a:1", "Always");
        ImageListPullJob b = list("b:1,c:2", "Always");
        assertEquals(ImageListPullJobDecision.templateHash(a), ImageListPullJobDecision.templateHash(b));
        b.getSpec().setParallelism(new IntOrString(3));
        assertNotEquals(ImageListPullJobDecision.templateHash(a), ImageListPullJobDecision.templateHash(b));
        a.getMetadata().setLabels(Map.of(WellKnown.CONTROLLER_REVISION_HASH_LABEL, ImageListPullJobDecision.templateHash(a)));
        assertFalse(ImageListPullJobDecision.decide(a, List.of(), NOW).relabel());
    }

    @Test
    void aReplacementSeenBeforeTheReplacedJobsDeletionIsKeptWhateverTheNamesSortAs() {
        ImageListPullJob l = list("a:1", "Always");
        String hash = ImageListPullJobDecision.templateHash(l);
        // Generated names sort in any order: the replaced job's name after the replacement's.
        ImagePullJob replaced = job("l-zzzzz", "a:1", "a", "older");
        ImagePullJob replacement = job("l-aaaaa", "a:1", "-", hash);
        for (List<ImagePullJob> owned : List.of(List.of(replaced, replacement), List.of(replacement, replaced))) {
            ImageListPullJobPlan plan = ImageListPullJobDecision.decide(l, owned, NOW);
            assertEquals(List.of(), plan.create(), "the image has its job of the current template");
            assertEquals(List.of("l-zzzzz"), plan.delete(), "the replaced job goes (again, if already going)");
        }
    }

    @Test
    void twoJobsOfOneImageAndTemplateAreCutToTheOldest() {
        ImageListPullJob l = list("a:1,b:1", "Always");
        String hash = ImageListPullJobDecision.templateHash(l);
        ImagePullJob older = job("l-bbbbb", "a:1", "s", hash);
        older.getMetadata().setCreationTimestamp("2026-11-24T11:00:00Z");
        ImagePullJob newer = job("l-aaaaa", "a:1", "a", hash);
        newer.getMetadata().setCreationTimestamp("2026-11-24T11:30:00Z");
        ImagePullJob b = job("l-ccccc", "b:1", "s", hash);
        ImageListPullJobPlan plan = ImageListPullJobDecision.decide(l, List.of(newer, b, older), NOW);
        assertEquals(List.of(), plan.create());
        assertEquals(List.of("l-aaaaa"), plan.delete());
        assertEquals(2, plan.status().getSucceeded(), "the status counts the kept job of each image");
        assertEquals(0, plan.status().getActive());
    }

    @Test
    void finishedListsWaitForTheirTtlThenGo() {
        ImageListPullJob l = list("a:1", "Always");
        l.setStatus(new ImageListPullJobStatus());
        l.getStatus().setCompletionTime("2026-11-24T11:59:00Z");
        ImageListPullJobPlan noTtl = ImageListPullJobDecision.decide(l, List.of(), NOW);
        assertNull(noTtl.status());
        assertFalse(noTtl.deleteSelf());
        l.getSpec().getCompletionPolicy().setTtlSecondsAfterFinished(120);
        assertEquals(java.time.Duration.ofSeconds(60), ImageListPullJobDecision.decide(l, List.of(), NOW).requeueAfter());
        l.getSpec().getCompletionPolicy().setTtlSecondsAfterFinished(60);
        assertTrue(ImageListPullJobDecision.decide(l, List.of(), NOW).deleteSelf());
    }

    static ImageListPullJob list(String images, String type) {
        ImageListPullJob l = new ImageListPullJob();
        l.setMetadata(new ObjectMetaBuilder().withName("l").withNamespace("ns").withUid("u").build());
        ImageListPullJobSpec spec = new ImageListPullJobSpec();
        spec.setImages(images.isEmpty() ? List.of() : List.of(images.split(",")));
        spec.setCompletionPolicy(new CompletionPolicy());
        spec.getCompletionPolicy().setType(type);
        l.setSpec(spec);
        return l;
    }

    static ImagePullJob job(String name, String image, String state, String hash) {
        ImagePullJob j = new ImagePullJob();
        j.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns")
                .withLabels(Map.of(WellKnown.CONTROLLER_REVISION_HASH_LABEL, hash)).build());
        j.setSpec(new ImagePullJobSpec());
        j.getSpec().setImage(image);
        if (!"-".equals(state)) {
            ImagePullJobStatus s = new ImagePullJobStatus();
            s.setStartTime("2026-11-24T11:00:00Z");
            s.setDesired(2);
            switch (state) {
                case "a" -> { s.setActive(1); s.setSucceeded(1); }
                case "s" -> s.setSucceeded(2);
                default -> { s.setSucceeded(1); s.setFailed(1); }
            }
            j.setStatus(s);
        }
        return j;
    }
}
