package dev.kruisevertx.advancedcronjob;

import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob;
import dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobSpec;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobSpec;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobTemplateSpec;
import dev.kruisevertx.api.apps.v1beta1.CronJobTemplate;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.invariants.InvariantChecker;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpec;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * AdvancedCronJob in the manager against the embedded cluster: its Jobs are run by the cluster's built-in Job
 * controller and their pods finish through the simulated kubelet's exit annotation.
 */
class AdvancedCronJobEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new dev.kruisevertx.sim.EmbeddedClusterOptions().setNodes(2))
            .build();

    /** A pod whose container exits with {@code exit} (e.g. {@code code=0,after=1s}), or runs on when null. */
    static PodTemplateSpec pod(String exit) {
        PodTemplateSpecBuilder b = new PodTemplateSpecBuilder().withNewMetadata().endMetadata().withNewSpec()
                .withRestartPolicy("Never").addNewContainer().withName("main").withImage("batch/work:1").endContainer()
                .endSpec();
        if (exit != null) {
            b.editMetadata().addToAnnotations("sim.kruise-vertx.dev/exit", exit).endMetadata();
        }
        return b.build();
    }

    static AdvancedCronJob jobCron(String name, String schedule, String exit, Consumer<AdvancedCronJobSpec> edit) {
        AdvancedCronJobSpec spec = new AdvancedCronJobSpec();
        spec.setSchedule(schedule);
        CronJobTemplate t = new CronJobTemplate();
        JobTemplateSpec jt = new JobTemplateSpec();
        jt.setMetadata(new ObjectMetaBuilder().addToLabels("run-of", name).build());
        jt.setSpec(new JobSpecBuilder().withBackoffLimit(0).withTemplate(pod(exit)).build());
        t.setJobTemplate(jt);
        spec.setTemplate(t);
        edit.accept(spec);
        return create(name, spec);
    }

    static AdvancedCronJob create(String name, AdvancedCronJobSpec spec) {
        AdvancedCronJob acj = new AdvancedCronJob();
        acj.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(product.namespace()).build());
        acj.setSpec(spec);
        return product.client().resource(acj).create();
    }

    static Resource<AdvancedCronJob> acj(String name) {
        return product.client().resources(AdvancedCronJob.class).inNamespace(product.namespace()).withName(name);
    }

    /** Changes the spec from the live object; a conflict with the controller's status write is retried. */
    static void editSpec(String name, Consumer<AdvancedCronJobSpec> change) {
        Await.waitFor("an edit of " + name, WAIT, () -> {
            try {
                acj(name).edit(a -> {
                    change.accept(a.getSpec());
                    return a;
                });
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) {
                    throw e;
                }
                return false;
            }
        });
    }

    static List<Job> jobsOf(AdvancedCronJob acj) {
        return product.client().batch().v1().jobs().inNamespace(product.namespace()).list().getItems().stream()
                .filter(j -> j.getMetadata().getOwnerReferences() != null && j.getMetadata().getOwnerReferences()
                        .stream().anyMatch(r -> r.getUid().equals(acj.getMetadata().getUid())))
                .toList();
    }

    static boolean finished(Job j, String type) {
        return j.getStatus() != null && j.getStatus().getConditions() != null && j.getStatus().getConditions().stream()
                .anyMatch(c -> type.equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static List<Event> events(String name) {
        return product.client().v1().events().inNamespace(product.namespace()).list().getItems().stream()
                .filter(e -> name.equals(e.getInvolvedObject().getName())).toList();
    }

    @Test
    void everyFewSecondsCreatesJobsThatRunAndHistoryLimitsPruneThem() {
        AdvancedCronJob created = jobCron("ticker", "@every 3s", "code=0,after=500ms", s -> {
            s.setSuccessfulJobsHistoryLimit(2);
        });
        // Defaults from the webhook.
        assertEquals("Allow", created.getSpec().getConcurrencyPolicy());
        assertEquals(1, created.getSpec().getFailedJobsHistoryLimit());
        Set<String> seen = new HashSet<>();
        Await.waitFor("four runs of ticker seen, finished ones pruned to two", WAIT, () -> {
            List<Job> jobs = jobsOf(created);
            jobs.forEach(j -> seen.add(j.getMetadata().getName()));
            long succeeded = jobs.stream().filter(j -> finished(j, "Complete")).count();
            return seen.size() >= 4 && succeeded <= 2;
        });
        Job job = jobsOf(created).get(0);
        assertTrue(job.getMetadata().getName().matches("ticker-\\d{10}"), job.getMetadata().getName());
        String scheduledAt = job.getMetadata().getAnnotations().get(WellKnown.SCHEDULED_AT_ANNOTATION);
        assertNotNull(Pods.parseTime(scheduledAt), scheduledAt);
        assertEquals(String.valueOf(Pods.parseTime(scheduledAt).getEpochSecond()),
                job.getMetadata().getName().substring("ticker-".length()));
        assertEquals("ticker", job.getMetadata().getLabels().get("run-of"));
        assertEquals(Boolean.TRUE, job.getMetadata().getOwnerReferences().get(0).getController());
        AdvancedCronJob status = Await.waitFor("ticker's status", WAIT, () -> acj("ticker").get(),
                a -> a.getStatus() != null && "Job".equals(a.getStatus().getType())
                        && a.getStatus().getLastScheduleTime() != null);
        assertNotNull(Pods.parseTime(status.getStatus().getLastScheduleTime()));
        Await.waitFor("SuccessfulCreate and SuccessfulDelete events", WAIT, () -> {
            List<String> reasons = events("ticker").stream().map(Event::getReason).toList();
            return reasons.contains("SuccessfulCreate") && reasons.contains("SuccessfulDelete");
        });
    }

    @Test
    void forbidSkipsWhileARunIsActive() throws Exception {
        AdvancedCronJob created = jobCron("forbid", "@every 2s", null, s -> s.setConcurrencyPolicy("Forbid"));
        Await.waitFor("the first run of forbid", WAIT, () -> jobsOf(created).size() == 1);
        // Several schedule ticks pass; the first run never ends, so no second one starts.
        Thread.sleep(7_000);
        assertEquals(1, jobsOf(created).size());
        AdvancedCronJob live = Await.waitFor("forbid lists its active run", WAIT, () -> acj("forbid").get(),
                a -> a.getStatus() != null && a.getStatus().getActive() != null && a.getStatus().getActive().size() == 1);
        assertEquals("Job", live.getStatus().getActive().get(0).getKind());
    }

    @Test
    void replaceDeletesTheActiveRunAndStartsTheNext() {
        AdvancedCronJob created = jobCron("replace", "@every 3s", null, s -> s.setConcurrencyPolicy("Replace"));
        Job first = Await.waitFor("the first run of replace", WAIT, () -> jobsOf(created),
                jobs -> jobs.size() == 1).get(0);
        Await.waitFor("the first run replaced by a later one", WAIT, () -> {
            List<Job> jobs = jobsOf(created).stream().filter(j -> j.getMetadata().getDeletionTimestamp() == null)
                    .toList();
            return jobs.size() == 1 && !jobs.get(0).getMetadata().getName().equals(first.getMetadata().getName())
                    && jobsOf(created).stream().noneMatch(j -> j.getMetadata().getUid()
                    .equals(first.getMetadata().getUid()));
        });
    }

    @Test
    void broadcastJobTemplatesCreateBroadcastJobs() {
        AdvancedCronJobSpec spec = new AdvancedCronJobSpec();
        spec.setSchedule("@every 2s");
        spec.setConcurrencyPolicy("Forbid");
        CronJobTemplate t = new CronJobTemplate();
        BroadcastJobTemplateSpec bt = new BroadcastJobTemplateSpec();
        bt.setMetadata(new ObjectMetaBuilder().addToLabels("kind-of-run", "broadcast").build());
        BroadcastJobSpec bs = new BroadcastJobSpec();
        bs.setTemplate(pod("code=0,after=500ms"));
        bt.setSpec(bs);
        t.setBroadcastJobTemplate(bt);
        spec.setTemplate(t);
        AdvancedCronJob created = create("broadcast", spec);
        BroadcastJob child = Await.waitFor("a BroadcastJob of broadcast", WAIT, () -> product.client()
                        .resources(BroadcastJob.class).inNamespace(product.namespace()).list().getItems(),
                l -> !l.isEmpty()).get(0);
        assertTrue(child.getMetadata().getName().startsWith("broadcast-"));
        assertEquals("broadcast", child.getMetadata().getLabels().get("kind-of-run"));
        assertNotNull(child.getMetadata().getAnnotations().get(WellKnown.SCHEDULED_AT_ANNOTATION));
        assertEquals(created.getMetadata().getUid(), child.getMetadata().getOwnerReferences().get(0).getUid());
        Await.waitFor("broadcast's status type", WAIT, () -> acj("broadcast").get(),
                a -> a.getStatus() != null && "BroadcastJob".equals(a.getStatus().getType()));
    }

    @Test
    void pausedCreatesNothing() throws Exception {
        AdvancedCronJob created = jobCron("paused", "@every 1s", "code=0", s -> s.setPaused(true));
        Thread.sleep(4_000);
        assertEquals(List.of(), jobsOf(created));
        editSpec("paused", spec -> spec.setPaused(false));
        Await.waitFor("a run once resumed", WAIT, () -> !jobsOf(created).isEmpty());
    }

    @Test
    void hostileSpecsAreRefusedWithTheReason() {
        KubernetesClientException badSchedule = assertThrows(KubernetesClientException.class,
                () -> jobCron("bad-schedule", "every tuesday", "code=0", s -> { }));
        assertTrue(badSchedule.getMessage().contains("spec.schedule"), badSchedule.getMessage());
        KubernetesClientException badZone = assertThrows(KubernetesClientException.class,
                () -> jobCron("bad-zone", "0 * * * *", "code=0", s -> s.setTimeZone("Mars/Olympus")));
        assertTrue(badZone.getMessage().contains("spec.timeZone"), badZone.getMessage());
        KubernetesClientException badPolicy = assertThrows(KubernetesClientException.class,
                () -> jobCron("bad-policy", "0 * * * *", "code=0", s -> s.setConcurrencyPolicy("Sometimes")));
        assertTrue(badPolicy.getMessage().contains("Unsupported value: \"Sometimes\""), badPolicy.getMessage());
        KubernetesClientException noTemplate = assertThrows(KubernetesClientException.class, () -> {
            AdvancedCronJobSpec spec = new AdvancedCronJobSpec();
            spec.setSchedule("0 * * * *");
            spec.setTemplate(new CronJobTemplate());
            create("no-template", spec);
        });
        assertTrue(noTemplate.getMessage().contains("spec must have one template"), noTemplate.getMessage());
        KubernetesClientException negative = assertThrows(KubernetesClientException.class,
                () -> jobCron("negative", "0 * * * *", "code=0", s -> s.setSuccessfulJobsHistoryLimit(-1)));
        assertTrue(negative.getMessage().contains("spec.successfulJobsHistoryLimit"), negative.getMessage());
    }

    @Test
    void tooManyMissedStartsIsAWarningNotACatchUp() {
        AdvancedCronJob created = jobCron("backlog", "@every 1s", "code=0", s -> s.setPaused(true));
        // Another writer puts the last run an hour back: 3600 missed starts, far over the 100 that are caught up.
        Await.waitFor("backlog's status written back an hour", WAIT, () -> {
            try {
                acj("backlog").editStatus(a -> {
                    a.setStatus(a.status());
                    a.getStatus().setLastScheduleTime(Pods.formatTime(java.time.Instant.now().minusSeconds(3600)));
                    return a;
                });
                return true;
            } catch (KubernetesClientException e) {
                return false; // a conflict with the controller's own status write
            }
        });
        editSpec("backlog", spec -> spec.setPaused(false));
        Await.waitFor("a TooManyMissedTimes warning", WAIT, () -> events("backlog").stream()
                .anyMatch(e -> CronDecision.TOO_MANY_MISSED.equals(e.getReason()) && "Warning".equals(e.getType())));
        assertEquals(List.of(), jobsOf(created));
    }

    @Test
    void aManagerRestartMidRunKeepsTheScheduleWithoutOverlappingOrRepeatedRuns() throws Exception {
        InvariantChecker checker = new InvariantChecker().withJobInvariants();
        Set<String> beforeRestart = new HashSet<>();
        Set<String> afterRestart = new HashSet<>();
        AdvancedCronJob created;
        Job first;
        try (AutoCloseable watch = checker.watch(product.client(), product.namespace(), List.of(),
                InvariantChecker.JOB_OBJECTS)) {
            created = jobCron("restart", "@every 2s", "code=0,after=1500ms", s -> s.setConcurrencyPolicy("Forbid"));
            first = Await.waitFor("the first run of restart", WAIT, () -> jobsOf(created), l -> !l.isEmpty()).get(0);
            Await.waitFor("a run of restart active", WAIT, () -> jobsOf(created).stream().anyMatch(j -> j.getStatus() != null
                    && j.getStatus().getActive() != null && j.getStatus().getActive() > 0));
            jobsOf(created).forEach(j -> beforeRestart.add(j.getMetadata().getName()));
            product.restartManager();
            // The new manager reads the active run back from the cluster: Forbid holds across the restart, no
            // scheduled time runs twice (the checker sees every Job event), and the schedule goes on.
            Await.waitFor("two runs of restart started by the new manager", WAIT, () -> {
                jobsOf(created).stream().map(j -> j.getMetadata().getName()).filter(n -> !beforeRestart.contains(n))
                        .forEach(afterRestart::add);
                return afterRestart.size() >= 2;
            });
        }
        assertEquals(List.of(), checker.violations());
        assertTrue(afterRestart.stream().allMatch(n -> n.matches("restart-\\d{10}")), afterRestart.toString());
        AdvancedCronJob live = Await.waitFor("restart's status after the restart", WAIT, () -> acj("restart").get(),
                a -> a.getStatus() != null && a.getStatus().getLastScheduleTime() != null
                        && Pods.parseTime(a.getStatus().getLastScheduleTime()).isAfter(Pods.parseTime(
                        first.getMetadata().getAnnotations().get(WellKnown.SCHEDULED_AT_ANNOTATION))));
        assertEquals("Job", live.getStatus().getType());
    }

    @Test
    void deletingTheOwnerMidRunTakesItsJobsAndStopsTheSchedule() throws Exception {
        AdvancedCronJob created = jobCron("doomed", "@every 2s", null, s -> { });
        Await.waitFor("a run of doomed", WAIT, () -> !jobsOf(created).isEmpty());
        acj("doomed").delete();
        Await.waitFor("doomed's Jobs collected", WAIT, () -> jobsOf(created).isEmpty());
        Thread.sleep(4_000);
        assertEquals(List.of(), jobsOf(created));
        assertFalse(product.client().batch().v1().jobs().inNamespace(product.namespace()).list().getItems().stream()
                .anyMatch(j -> j.getMetadata().getName().startsWith("doomed-")));
    }
}
