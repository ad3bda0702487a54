package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobStatus;
import dev.kruisevertx.api.apps.v1beta1.ImageTagSpec;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.PullPolicy;
import io.fabric8.kubernetes.api.model.IntOrString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.kruisevertx.imagepulljob.ImagePullJobFixtures.UID;
import static dev.kruisevertx.imagepulljob.ImagePullJobFixtures.job;
import static dev.kruisevertx.imagepulljob.ImagePullJobFixtures.nodeImage;
import static dev.kruisevertx.imagepulljob.ImagePullJobFixtures.withStatus;
import static dev.kruisevertx.imagepulljob.ImagePullJobFixtures.withTag;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Status and parallelism of an ImagePullJob: OpenKruise's calculateStatus and syncNodeImages as a table. */
class ImagePullJobDecisionTest {
    static final Instant NOW = Instant.parse("2026-11-24T12:00:00Z");

    /**
     * A cluster of nodes n0.. described by one letter each: '.' no tag, 'w' tag injected and not reported, 'p'
     * pulling, 's' succeeded, 'f' failed, 'o' the tag owned by another job, 'v' the job's tag reported at an older
     * version.
     */
    static List<NodeImage> nodes(String states) {
        List<NodeImage> out = new ArrayList<>();
        for (int i = 0; i < states.length(); i++) {
            NodeImage n = nodeImage("n" + i, Map.of());
            switch (states.charAt(i)) {
                case 'w' -> withTag(n, "nginx", "1", 0, UID);
                case 'p' -> withStatus(withTag(n, "nginx", "1", 0, UID), "nginx", "1", 0, "Pulling", null);
                case 's' -> withStatus(withTag(n, "nginx", "1", 0, UID), "nginx", "1", 0, "Succeeded", "2026-11-24T11:00:00Z");
                case 'f' -> withStatus(withTag(n, "nginx", "1", 0, UID), "nginx", "1", 0, "Failed", "2026-11-24T11:00:00Z");
                case 'o' -> withStatus(withTag(n, "nginx", "1", 0, "other"), "nginx", "1", 0, "Succeeded", "2026-11-24T11:00:00Z");
                case 'v' -> withStatus(withTag(n, "nginx", "1", 1, UID), "nginx", "1", 0, "Succeeded", "2026-11-24T11:00:00Z");
                default -> { }
            }
            out.add(n);
        }
        return out;
    }

    @ParameterizedTest(name = "{0} parallelism {1}")
    @CsvSource(delimiter = '|', nullValues = "null", value = {
            // states | parallelism | desired | active | succeeded | failed | inject | completed
            "''|null|0|0|0|0|''|true",
            "...|null|3|0|0|0|n0|false",
            "...|2|3|0|0|0|n0,n1|false",
            "...|10|3|0|0|0|n0,n1,n2|false",
            "...|0|3|0|0|0|''|false",
            "p..|1|3|1|0|0|''|false",
            "p..|2|3|1|0|0|n1|false",
            "w..|2|3|1|0|0|n1|false",
            "pp.|2|3|2|0|0|''|false",
            "s..|1|3|0|1|0|n1|false",
            "sf.|1|3|0|1|1|n2|false",
            "ssf|1|3|0|2|1|''|true",
            "sss|1|3|0|3|0|''|true",
            "o..|3|3|0|0|0|n0,n1,n2|false",
            "v..|1|3|1|0|0|''|false",
            ".s.|s:2|3|0|1|0|n0,n2|false",
            "...|s:50%|3|0|0|0|''|false",
            "ppp|1|3|3|0|0|''|false",
            "f|1|1|0|0|1|''|true",
    })
    void statusAndParallelism(String states, String parallelism, int desired, int active, int succeeded, int failed,
                              String inject, boolean completed) {
        ImagePullJob job = job("nginx:1");
        if (parallelism != null) {
            job.getSpec().setParallelism(parallelism.startsWith("s:") ? new IntOrString(parallelism.substring(2))
                    : new IntOrString(Integer.parseInt(parallelism)));
        }
        ImagePullJobPlan plan = ImagePullJobDecision.decide(job, nodes(states), NOW);
        ImagePullJobStatus s = plan.status();
        assertEquals(desired, s.getDesired());
        assertEquals(active, s.getActive());
        assertEquals(succeeded, s.getSucceeded());
        assertEquals(failed, s.getFailed());
        assertEquals(inject.isEmpty() ? List.of() : List.of(inject.split(",")), plan.injectInto());
        assertEquals(completed, s.getCompletionTime() != null, "completion");
        assertEquals(NOW.toString(), s.getStartTime());
    }

    @Test
    void messagesAndFailedNodesAsOpenKruise() {
        ImagePullJobStatus running = ImagePullJobDecision.decide(job("nginx:1"), nodes("sf.."), NOW).status();
        assertEquals("job is running, progress 50.0%", running.getMessage());
        assertEquals(List.of("n1"), running.getFailedNodes());
        assertEquals("job is running, no progress", ImagePullJobDecision.message(new ImagePullJobStatus()));
        assertEquals("job has completed", ImagePullJobDecision.decide(job("nginx:1"), nodes("s"), NOW).status().getMessage());
    }

    @Test
    void neverCompletesWithCompletionPolicyNever() {
        ImagePullJob job = job("nginx:1");
        job.getSpec().getCompletionPolicy().setType("Never");
        assertNull(ImagePullJobDecision.decide(job, nodes("ss"), NOW).status().getCompletionTime());
    }

    @Test
    void activeDeadlineFailsWhatIsNotDone() {
        ImagePullJob job = job("nginx:1");
        job.getSpec().getCompletionPolicy().setActiveDeadlineSeconds(60L);
        ImagePullJobStatus old = new ImagePullJobStatus();
        old.setStartTime(NOW.minusSeconds(61).toString());
        job.setStatus(old);
        ImagePullJobPlan plan = ImagePullJobDecision.decide(job, nodes("sp.f"), NOW);
        assertEquals("job exceeds activeDeadlineSeconds", plan.status().getMessage());
        assertEquals(List.of("n3", "n1", "n2"), plan.status().getFailedNodes());
        assertEquals(3, plan.status().getFailed());
        assertEquals(1, plan.status().getSucceeded());
        assertTrue(plan.injectInto().isEmpty());

        old.setStartTime(NOW.minusSeconds(30).toString());
        ImagePullJobPlan waiting = ImagePullJobDecision.decide(job, nodes("sp.f"), NOW);
        assertNull(waiting.status().getCompletionTime());
        assertEquals(Duration.ofSeconds(30), waiting.requeueAfter());
    }

    @Test
    void finishedJobsAreDeletedAfterTheirTtlAndLoseTheFinalizer() {
        ImagePullJob job = job("nginx:1");
        job.getMetadata().setFinalizers(List.of(ImagePullJobDecision.FINALIZER));
        job.getSpec().getCompletionPolicy().setTtlSecondsAfterFinished(100);
        ImagePullJobStatus done = new ImagePullJobStatus();
        done.setCompletionTime(NOW.minusSeconds(40).toString());
        job.setStatus(done);
        ImagePullJobPlan wait = ImagePullJobDecision.decide(job, nodes("s"), NOW);
        assertTrue(wait.removeFinalizer());
        assertFalse(wait.deleteJob());
        assertEquals(Duration.ofSeconds(60), wait.requeueAfter());
        assertNull(wait.status());
        done.setCompletionTime(NOW.minusSeconds(100).toString());
        assertTrue(ImagePullJobDecision.decide(job, nodes("s"), NOW).deleteJob());
        job.getMetadata().setDeletionTimestamp(NOW.toString());
        ImagePullJobPlan deleting = ImagePullJobDecision.decide(job, nodes("s"), NOW);
        assertTrue(deleting.removeFinalizer());
        assertFalse(deleting.deleteJob());
    }

    @Test
    void injectionAddsAnOwnerAndANewVersionToAnotherJobsTag() {
        ImagePullJob job = job("nginx:1");
        NodeImage other = nodes("o").get(0);
        assertTrue(NodeImageTags.inject(other, job, NOW.toString(), 300, 0));
        ImageTagSpec tag = other.getSpec().getImages().get("nginx").getTags().get(0);
        assertEquals(1, tag.getVersion());
        assertEquals(List.of("other", UID), tag.ownerReferences().stream().map(o -> o.getUid()).toList());
        assertFalse(NodeImageTags.inject(other, job, NOW.toString(), 300, 0), "already owned: nothing to do");

        NodeImage fresh = withStatus(nodeImage("x", Map.of()), "nginx", "1", 4, "Succeeded", null);
        job.getSpec().setPullPolicy(new PullPolicy());
        job.getSpec().getPullPolicy().setTimeoutSeconds(100);
        job.getSpec().getPullPolicy().setBackoffLimit(2);
        NodeImageTags.inject(withTag(fresh, "nginx", "0.9", 0, "old"), job, NOW.toString(), 300, 0.5);
        List<ImageTagSpec> tags = fresh.getSpec().getImages().get("nginx").getTags();
        assertEquals(List.of("0.9", "1"), tags.stream().map(ImageTagSpec::getTag).toList());
        assertEquals(5, tags.get(1).getVersion(), "the reported version plus one");
        assertEquals(100 * 2 + 300 + 150, tags.get(1).getPullPolicy().getTtlSecondsAfterFinished());
        assertEquals(NOW.toString(), tags.get(1).getCreatedAt());
    }

    @Test
    void neverJobsKeepTagsAboutADay() {
        ImagePullJob job = job("registry.example.com/app@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
        job.getSpec().getCompletionPolicy().setType("Never");
        NodeImage n = nodeImage("x", Map.of());
        NodeImageTags.inject(n, job, NOW.toString(), 300, 0.5);
        ImageTagSpec tag = n.getSpec().getImages().get("registry.example.com/app").getTags().get(0);
        assertEquals("sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", tag.getTag());
        assertEquals(24 * 3600, tag.getPullPolicy().getTtlSecondsAfterFinished());
        assertEquals(1800L, tag.getPullPolicy().getActiveDeadlineSeconds());
    }
}
