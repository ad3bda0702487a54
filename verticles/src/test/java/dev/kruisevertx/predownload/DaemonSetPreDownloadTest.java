package dev.kruisevertx.predownload;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetSpec;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetStatus;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.revision.TemplateRevisions;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import com.fasterxml.jackson.databind.JsonNode;
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
import static org.junit.jupiter.api.Assertions.assertEquals;

/** OpenKruise v1.9.0's Advanced DaemonSet pre-download rules (daemonset_controller.go's call site and daemonset_predownload_image.go). */
class DaemonSetPreDownloadTest {

    static final class Case {
        boolean enabled = true;
        DaemonSet set = daemonSet("agent:1");
        List<ControllerRevision> old = new ArrayList<>(List.of(revision(set, 1)));
        ControllerRevision update;
        List<ImagePullJob> owned = new ArrayList<>();

        Case() {
            status(5, 1, "old");
        }

        Case next(Consumer<DaemonSet> edit) {
            DaemonSet n = daemonSet("agent:2");
            n.getSpec().setUpdateStrategy(set.getSpec().getUpdateStrategy());
            n.getMetadata().setAnnotations(set.getMetadata().getAnnotations());
            n.setStatus(set.getStatus());
            edit.accept(n);
            set = n;
            update = revision(set, 2);
            return this;
        }

        Case status(int desired, int updated, String updateRevision) {
            DaemonSetStatus st = new DaemonSetStatus();
            st.setDesiredNumberScheduled(desired);
            st.setUpdatedNumberScheduled(updated);
            st.setUpdateRevision(updateRevision);
            set.setStatus(st);
            return this;
        }

        String hash() {
            return TemplateRevisions.hashOf(update);
        }
    }

    static DaemonSet daemonSet(String image) {
        DaemonSet ds = new DaemonSet();
        ds.setMetadata(new ObjectMetaBuilder().withName("agent").withNamespace("ns").withUid("uid-agent").build());
        DaemonSetSpec spec = new DaemonSetSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "agent").build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "agent").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage(image).endContainer()
                .addNewContainer().withName("side").withImage("side:1").endContainer().endSpec().build());
        DaemonSetUpdateStrategy us = new DaemonSetUpdateStrategy();
        us.setType("RollingUpdate");
        us.setRollingUpdate(new RollingUpdateDaemonSet());
        spec.setUpdateStrategy(us);
        ds.setSpec(spec);
        return ds;
    }

    static ControllerRevision revision(DaemonSet set, long number) {
        PodTemplateSpec t = set.getSpec().getTemplate();
        JsonNode data = TemplateRevisions.dataOf(t);
        String hash = TemplateRevisions.hash(data, 0);
        return TemplateRevisions.build("agent", "ns", set.getSpec().getSelector(),
                DaemonSetPreDownload.ownerReference(set), data, hash, hash, number);
    }

    static Case image() {
        return new Case().next(ds -> { });
    }

    static ImagePullJob job(String name) {
        ImagePullJob j = new ImagePullJob();
        j.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace("ns").build());
        return j;
    }

    static Stream<Arguments> table() {
        List<Arguments> rows = new ArrayList<>();
        Case off = image();
        off.enabled = false;
        rows.add(Arguments.of("gate off", off, NONE, null, 0));
        Case done = image();
        done.status(5, 5, done.hash());
        rows.add(Arguments.of("every pod updated, no jobs", done, NONE, null, 0));
        Case cleanup = image();
        cleanup.status(5, 5, cleanup.hash());
        cleanup.owned.add(job("agent-old-main"));
        rows.add(Arguments.of("every pod updated: jobs deleted", cleanup, DELETE, null, 0));
        Case allUpdatedOldStatus = image();
        allUpdatedOldStatus.status(5, 5, "old");
        rows.add(Arguments.of("all updated but the status names another revision", allUpdatedOldStatus, CREATE,
                PreDownloadJobs.CREATED_LABEL, 1));
        rows.add(Arguments.of("an image change, maxUnavailable 1 of 5", image(), CREATE, PreDownloadJobs.CREATED_LABEL, 1));
        Case created = image();
        created.update = new ControllerRevisionBuilder(created.update).editMetadata()
                .addToLabels(PreDownloadJobs.CREATED_LABEL, "true").endMetadata().build();
        rows.add(Arguments.of("revision labelled created", created, NONE, null, 0));
        Case ignored = image();
        ignored.update = new ControllerRevisionBuilder(ignored.update).editMetadata()
                .addToLabels(PreDownloadJobs.IGNORED_LABEL, "").endMetadata().build();
        rows.add(Arguments.of("revision labelled ignored (any value)", ignored, NONE, null, 0));
        rows.add(Arguments.of("maxUnavailable 100%: one batch", new Case().next(ds -> ds.getSpec().getUpdateStrategy()
                .getRollingUpdate().setMaxUnavailable(new IntOrString("100%"))), IGNORE, PreDownloadJobs.IGNORED_LABEL, 0));
        rows.add(Arguments.of("maxUnavailable 5 of 5, partition 1", new Case().next(ds -> {
            ds.getSpec().getUpdateStrategy().getRollingUpdate().setMaxUnavailable(new IntOrString(5));
            ds.getSpec().getUpdateStrategy().getRollingUpdate().setPartition(new IntOrString(1));
        }), CREATE, PreDownloadJobs.CREATED_LABEL, 1));
        rows.add(Arguments.of("partition 10% of 5 rounds down to 0, maxUnavailable 5", new Case().next(ds -> {
            ds.getSpec().getUpdateStrategy().getRollingUpdate().setMaxUnavailable(new IntOrString(5));
            ds.getSpec().getUpdateStrategy().getRollingUpdate().setPartition(new IntOrString("10%"));
        }), IGNORE, PreDownloadJobs.IGNORED_LABEL, 0));
        rows.add(Arguments.of("partition not a percentage: error, no label", new Case().next(ds -> ds.getSpec()
                .getUpdateStrategy().getRollingUpdate().setPartition(new IntOrString("half"))), NONE, null, 0));
        rows.add(Arguments.of("maxUnavailable not a percentage counts 0", new Case().next(ds -> ds.getSpec()
                .getUpdateStrategy().getRollingUpdate().setMaxUnavailable(new IntOrString("x"))), CREATE,
                PreDownloadJobs.CREATED_LABEL, 1));
        Case one = new Case().next(ds -> { });
        one.status(1, 0, "old");
        rows.add(Arguments.of("one node: maxUnavailable 1 covers it", one, IGNORE, PreDownloadJobs.IGNORED_LABEL, 0));
        Case none = new Case().next(ds -> { });
        none.status(0, 0, "");
        rows.add(Arguments.of("no node yet: ignored", none, IGNORE, PreDownloadJobs.IGNORED_LABEL, 0));
        rows.add(Arguments.of("no update strategy: defaults", new Case().next(ds -> ds.getSpec().setUpdateStrategy(null)),
                CREATE, PreDownloadJobs.CREATED_LABEL, 1));
        rows.add(Arguments.of("a change no in-place update can apply still pre-downloads", new Case().next(ds -> ds
                .getSpec().getTemplate().getSpec().getContainers().get(0).setEnv(List.of(new EnvVar("A", "1", null)))),
                CREATE, PreDownloadJobs.CREATED_LABEL, 1));
        Case older = new Case();
        DaemonSet mid = daemonSet("agent:2");
        older.old.add(revision(mid, 2));
        older.next(ds -> ds.getSpec().getTemplate().getSpec().getContainers().get(1).setImage("side:2"));
        rows.add(Arguments.of("an image some old revision runs differs from another: still pulled", older, CREATE,
                PreDownloadJobs.CREATED_LABEL, 2));
        Case exists = image();
        exists.owned.add(job(exists.update.getMetadata().getName() + "-main"));
        rows.add(Arguments.of("the revision's job exists", exists, CREATE, PreDownloadJobs.CREATED_LABEL, 0));
        Case min = new Case();
        min.set.getMetadata().setAnnotations(new HashMap<>(Map.of(
                WellKnown.IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION, "4")));
        min.next(ds -> { });
        rows.add(Arguments.of("min updated ready pods is read but does not gate (OpenKruise's todo)", min, CREATE,
                PreDownloadJobs.CREATED_LABEL, 1));
        Case hostile = new Case();
        hostile.set.getMetadata().setAnnotations(new HashMap<>(Map.of(
                WellKnown.IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION, "-1e9",
                WellKnown.IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION, "-4",
                WellKnown.IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS_ANNOTATION, "forever")));
        hostile.next(ds -> { });
        rows.add(Arguments.of("hostile annotations", hostile, CREATE, PreDownloadJobs.CREATED_LABEL, 1));
        return rows.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void decides(String name, Case c, PreDownloadPlan.Action action, String label, int jobs) {
        PreDownloadPlan plan = DaemonSetPreDownload.decide(c.enabled, c.set, c.old, c.update, c.hash(), c.owned);
        assertEquals(action, plan.action(), plan.reason());
        assertEquals(label, plan.label(), plan.reason());
        assertEquals(jobs, plan.create().size(), plan.reason());
        if (action == DELETE) {
            assertEquals(List.of("agent-old-main"), plan.delete());
        }
    }

    @Test
    void theJobTargetsTheSetsPodsAsOpenKruiseDoes() {
        Case c = new Case();
        c.set.getMetadata().setAnnotations(new HashMap<>(Map.of(
                WellKnown.IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION, "-4",
                WellKnown.IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS_ANNOTATION, "forever")));
        c.next(ds -> { });
        ImagePullJob job = DaemonSetPreDownload.decide(true, c.set, c.old, c.update, c.hash(), List.of()).create().get(0);
        String rev = c.update.getMetadata().getName();
        assertEquals(rev + "-main", job.getMetadata().getName());
        assertEquals("apps.kruise.io/v1beta1", job.getMetadata().getOwnerReferences().get(0).getApiVersion());
        assertEquals("DaemonSet", job.getMetadata().getOwnerReferences().get(0).getKind());
        // A DaemonSet revision has no controller.kubernetes.io/hash label: OpenKruise puts the empty value.
        assertEquals(Map.of("app", "agent", "controller.kubernetes.io/hash", ""), job.getMetadata().getLabels());
        assertEquals(List.of(new LabelSelectorRequirement("controller-revision-hash", "NotIn", List.of(rev, ""))),
                job.getSpec().getPodSelector().getMatchExpressions());
        assertEquals(new IntOrString(-4), job.getSpec().getParallelism());
        assertEquals(300, job.getSpec().getPullPolicy().getTimeoutSeconds());
    }
}
