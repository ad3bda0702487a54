package dev.kruisevertx.predownload;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetStatus;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobStatus;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.cloneset.CloneSetRevisions;
import dev.kruisevertx.controller.reason.ReasonCode;
import dev.kruisevertx.inplace.InPlaceUpdateOptions;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static dev.kruisevertx.predownload.PreDownloadPlan.Action.CREATE;
import static dev.kruisevertx.predownload.PreDownloadPlan.Action.DELETE;
import static dev.kruisevertx.predownload.PreDownloadPlan.Action.IGNORE;
import static dev.kruisevertx.predownload.PreDownloadPlan.Action.NONE;
import static dev.kruisevertx.predownload.PreDownloadPlan.Action.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** OpenKruise v1.9.0's CloneSet pre-download rules (cloneset_controller.go's call site and createImagePullJobsForInPlaceUpdate). */
class CloneSetPreDownloadTest {

    /** One case: what the CloneSet (and its revisions and jobs) look like, and what the decision must be. */
    static final class Case {
        boolean enabled = true;
        CloneSet cs = cloneSet(5, "InPlaceIfPossible", "app:1");
        ControllerRevision current = CloneSetRevisions.newRevision(cs, 1, null);
        List<ImagePullJob> owned = new ArrayList<>();
        ControllerRevision update;

        Case newTemplate(Consumer<CloneSet> edit) {
            CloneSet next = cloneSet(5, "InPlaceIfPossible", "app:2");
            next.getSpec().setReplicas(cs.getSpec().getReplicas());
            next.getSpec().setUpdateStrategy(cs.getSpec().getUpdateStrategy());
            next.getMetadata().setAnnotations(cs.getMetadata().getAnnotations());
            edit.accept(next);
            cs = next;
            update = CloneSetRevisions.newRevision(cs, 2, null);
            return this;
        }
    }

    static CloneSet cloneSet(int replicas, String type, String image) {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName("web").withNamespace("ns").withUid("uid-web").build());
        CloneSetSpec spec = new CloneSetSpec();
        spec.setReplicas(replicas);
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "web").build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "web")
                .addToAnnotations("team", "a").endMetadata().withNewSpec()
                .addNewContainer().withName("main").withImage(image).endContainer()
                .addNewContainer().withName("side").withImage("side:1").endContainer().endSpec().build());
        CloneSetUpdateStrategy us = new CloneSetUpdateStrategy();
        us.setType(type);
        us.setMaxUnavailable(new IntOrString(1));
        spec.setUpdateStrategy(us);
        cs.setSpec(spec);
        return cs;
    }

    static Case image() {
        return new Case().newTemplate(cs -> { });
    }

    static Case annotated(String key, String value) {
        Case c = new Case();
        c.cs.getMetadata().setAnnotations(new HashMap<>(Map.of(key, value)));
        return c.newTemplate(cs -> { });
    }

    static Case withStatus(Case c, boolean sameUpdateRevision, int updatedReady) {
        CloneSetStatus st = new CloneSetStatus();
        st.setUpdateRevision(sameUpdateRevision ? c.update.getMetadata().getName() : c.current.getMetadata().getName());
        st.setUpdatedReadyReplicas(updatedReady);
        c.cs.setStatus(st);
        return c;
    }

    static ImagePullJob job(String name, boolean terminating) {
        ImagePullJob j = new ImagePullJob();
        j.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns")
                .withDeletionTimestamp(terminating ? "2026-11-24T00:00:00Z" : null).build());
        return j;
    }

    static ControllerRevision labelled(ControllerRevision r, String label) {
        return new ControllerRevisionBuilder(r).editMetadata().addToLabels(label, "true").endMetadata().build();
    }

    static Stream<Arguments> table() {
        String min = WellKnown.IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION;
        List<Arguments> rows = new ArrayList<>();
        Case gateOff = image();
        gateOff.enabled = false;
        rows.add(Arguments.of("gate off", gateOff, NONE, null, 0));
        Case same = new Case();
        same.update = same.current;
        rows.add(Arguments.of("one revision, no jobs", same, NONE, null, 0));
        Case cleanup = new Case();
        cleanup.update = cleanup.current;
        cleanup.owned.add(job("web-old-main", false));
        cleanup.owned.add(job("web-older-main", true));
        rows.add(Arguments.of("one revision: old-revision jobs deleted (not those already going)", cleanup, DELETE,
                null, 0));
        rows.add(Arguments.of("an image change in place: one job, labelled created", image(), CREATE,
                PreDownloadJobs.CREATED_LABEL, 1));
        Case created = image();
        created.update = labelled(created.update, PreDownloadJobs.CREATED_LABEL);
        rows.add(Arguments.of("revision already labelled created", created, NONE, null, 0));
        Case ignored = image();
        ignored.update = labelled(ignored.update, PreDownloadJobs.IGNORED_LABEL);
        rows.add(Arguments.of("revision labelled image-predownload-ignored", ignored, NONE, null, 0));
        rows.add(Arguments.of("ReCreate", new Case().newTemplate(cs -> cs.getSpec().getUpdateStrategy()
                .setType("ReCreate")), IGNORE, PreDownloadJobs.IGNORED_LABEL, 0));
        rows.add(Arguments.of("3 replicas: too few", new Case().newTemplate(cs -> cs.getSpec().setReplicas(3)), IGNORE,
                PreDownloadJobs.IGNORED_LABEL, 0));
        rows.add(Arguments.of("4 replicas: enough", new Case().newTemplate(cs -> cs.getSpec().setReplicas(4)), CREATE,
                PreDownloadJobs.CREATED_LABEL, 1));
        rows.add(Arguments.of("partition 0, maxUnavailable 100%: one batch", new Case().newTemplate(cs -> cs.getSpec()
                .getUpdateStrategy().setMaxUnavailable(new IntOrString("100%"))), IGNORE, PreDownloadJobs.IGNORED_LABEL, 0));
        rows.add(Arguments.of("partition 2, maxUnavailable 100%: batches", new Case().newTemplate(cs -> {
            cs.getSpec().getUpdateStrategy().setMaxUnavailable(new IntOrString("100%"));
            cs.getSpec().getUpdateStrategy().setPartition(new IntOrString(2));
        }), CREATE, PreDownloadJobs.CREATED_LABEL, 1));
        rows.add(Arguments.of("maxUnavailable unset: 20% of 5 is 1", new Case().newTemplate(cs -> cs.getSpec()
                .getUpdateStrategy().setMaxUnavailable(null)), CREATE, PreDownloadJobs.CREATED_LABEL, 1));
        rows.add(Arguments.of("partition not a percentage: error, no label", new Case().newTemplate(cs -> cs.getSpec()
                .getUpdateStrategy().setPartition(new IntOrString("lots"))), NONE, null, 0));
        rows.add(Arguments.of("an env change cannot be applied in place", new Case().newTemplate(cs -> cs.getSpec()
                .getTemplate().getSpec().getContainers().get(0).setEnv(List.of(new EnvVar("A", "1", null)))),
                IGNORE, PreDownloadJobs.IGNORED_LABEL, 0));
        rows.add(Arguments.of("no image change (label only)", new Case().newTemplate(cs -> {
            cs.getSpec().getTemplate().getSpec().getContainers().get(0).setImage("app:1");
            cs.getSpec().getTemplate().getMetadata().getLabels().put("v", "2");
        }), CREATE, PreDownloadJobs.CREATED_LABEL, 0));
        rows.add(Arguments.of("both images change: two jobs", new Case().newTemplate(cs -> cs.getSpec().getTemplate()
                .getSpec().getContainers().get(1).setImage("side:2")), CREATE, PreDownloadJobs.CREATED_LABEL, 2));
        Case exists = image();
        exists.owned.add(job(exists.update.getMetadata().getName() + "-main", false));
        rows.add(Arguments.of("the revision's job exists: not again, still labelled", exists, CREATE,
                PreDownloadJobs.CREATED_LABEL, 0));
        rows.add(Arguments.of("min updated ready 2, 1 ready: wait", withStatus(annotated(min, "2"), true, 1), WAIT,
                null, 0));
        rows.add(Arguments.of("min updated ready 2, 2 ready", withStatus(annotated(min, "2"), true, 2), CREATE,
                PreDownloadJobs.CREATED_LABEL, 1));
        rows.add(Arguments.of("min 2, 5 ready of an older update revision: counts 0",
                withStatus(annotated(min, "2"), false, 5), WAIT, null, 0));
        rows.add(Arguments.of("min 50% of 5 rounds up to 3, 2 ready", withStatus(annotated(min, "50%"), true, 2), WAIT,
                null, 0));
        rows.add(Arguments.of("min negative never waits", annotated(min, "-3"), CREATE, PreDownloadJobs.CREATED_LABEL, 1));
        rows.add(Arguments.of("min not a number counts 0", annotated(min, "many"), CREATE, PreDownloadJobs.CREATED_LABEL,
                1));
        rows.add(Arguments.of("min huge: Go keeps its low 32 bits (1215752191)", annotated(min, "99999999999"), WAIT,
                null, 0));
        rows.add(Arguments.of("min beyond int64: a string, counts 0", annotated(min, "99999999999999999999999"), CREATE,
                PreDownloadJobs.CREATED_LABEL, 1));
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void decides(String name, Case c, PreDownloadPlan.Action action, String label, int jobs) {
        PreDownloadPlan plan = CloneSetPreDownload.decide(c.enabled, c.cs, c.current, c.update, c.owned,
                InPlaceUpdateOptions.defaults());
        assertEquals(action, plan.action(), plan.reason());
        assertEquals(label, plan.label(), plan.reason());
        assertEquals(jobs, plan.create().size(), plan.reason());
        if (action == DELETE) {
            assertEquals(List.of("web-old-main"), plan.delete());
        }
        if (action == WAIT) {
            assertEquals(ReasonCode.IMAGE_PRE_DOWNLOAD, plan.why().code());
        }
    }

    @Test
    void theJobIsShapedAsOpenKruiseShapesIt() {
        Case c = new Case();
        c.cs.getMetadata().setAnnotations(new HashMap<>(Map.of(
                WellKnown.IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION, "3",
                WellKnown.IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS_ANNOTATION, "120")));
        // Both revisions pull with the secret: adding one is no in-place change.
        c.cs.getSpec().getTemplate().getSpec().setImagePullSecrets(List.of(new LocalObjectReference("regcred")));
        c.current = CloneSetRevisions.newRevision(c.cs, 1, null);
        c.newTemplate(cs -> cs.getSpec().getTemplate().getSpec().setImagePullSecrets(
                List.of(new LocalObjectReference("regcred"))));
        PreDownloadPlan plan = CloneSetPreDownload.decide(true, c.cs, c.current, c.update, List.of(),
                InPlaceUpdateOptions.defaults());
        ImagePullJob job = plan.create().get(0);
        String rev = c.update.getMetadata().getName();
        String hash = c.update.getMetadata().getLabels().get("controller.kubernetes.io/hash");
        assertEquals(rev + "-main", job.getMetadata().getName());
        assertEquals("ns", job.getMetadata().getNamespace());
        var ref = job.getMetadata().getOwnerReferences().get(0);
        assertEquals(List.of("apps.kruise.io/v1alpha1", "CloneSet", "web", "uid-web", true, true),
                List.of(ref.getApiVersion(), ref.getKind(), ref.getName(), ref.getUid(), ref.getController(),
                        ref.getBlockOwnerDeletion()));
        assertEquals(Map.of("app", "web", "controller.kubernetes.io/hash", hash), job.getMetadata().getLabels());
        assertEquals("app:2", job.getSpec().getImage());
        assertEquals(List.of("regcred"), job.getSpec().getPullSecrets());
        assertEquals(Map.of("app", "web"), job.getSpec().getPodSelector().getMatchLabels());
        assertEquals(List.of(new LabelSelectorRequirement("controller-revision-hash", "NotIn", List.of(rev, hash))),
                job.getSpec().getPodSelector().getMatchExpressions());
        assertEquals(new IntOrString(3), job.getSpec().getParallelism());
        assertEquals(120, job.getSpec().getPullPolicy().getTimeoutSeconds());
        assertEquals(1, job.getSpec().getPullPolicy().getBackoffLimit());
        assertEquals("Always", job.getSpec().getCompletionPolicy().getType());
        assertEquals(600, job.getSpec().getCompletionPolicy().getTtlSecondsAfterFinished());
        assertNull(job.getSpec().getCompletionPolicy().getActiveDeadlineSeconds());
        assertEquals(Map.of("app", "web", "controller.kubernetes.io/hash", hash),
                job.getSpec().getSandboxConfig().getLabels());
        assertEquals(Map.of("team", "a"), job.getSpec().getSandboxConfig().getAnnotations());
        assertNull(job.getSpec().getImagePullPolicy(), "left to the ImagePullJob webhook's default");
    }

    @ParameterizedTest(name = "parallelism {0} -> {1}, timeout {0} -> {2}")
    @org.junit.jupiter.params.provider.CsvSource({
            "5, 5, 5",
            "+7, 7, 7",
            "-5, -5, -5",
            "0, 0, 0",
            "99999999999, 1215752191, 300",
            "2147483648, -2147483648, 300",
            "99999999999999999999999, 1, 300",
            "abc, 1, 300",
            "'', 1, 300",
            "50%, 1, 300",
            "' 5', 1, 300",
            "٥, 1, 300"})
    void hostileAnnotationValuesEndWhereGoLeavesThem(String value, int parallelism, int timeout) {
        assertEquals(parallelism, PreDownloadValues.parallelism(value));
        assertEquals(timeout, PreDownloadValues.timeoutSeconds(value));
    }

    @Test
    void runningJobsOfTheUpdateRevisionShowTheirProgress() {
        Case c = image();
        c.update = labelled(c.update, PreDownloadJobs.CREATED_LABEL);
        ImagePullJob running = job(c.update.getMetadata().getName() + "-main", false);
        ImagePullJobStatus st = new ImagePullJobStatus();
        st.setDesired(4);
        st.setSucceeded(1);
        running.setStatus(st);
        c.owned.add(running);
        PreDownloadPlan plan = CloneSetPreDownload.decide(true, c.cs, c.current, c.update, c.owned,
                InPlaceUpdateOptions.defaults());
        assertEquals(NONE, plan.action());
        assertEquals("ImagePreDownload: image pre-download done on 1 of 4 nodes", plan.why().text());
    }
}
