package dev.kruisevertx.ephemeraljob;

import dev.kruisevertx.api.apps.v1alpha1.EphemeralContainerTemplateSpec;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJob;
import dev.kruisevertx.api.apps.v1alpha1.EphemeralJobSpec;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.EphemeralContainer;
import io.fabric8.kubernetes.api.model.EphemeralContainerBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * EphemeralJob in the manager against the embedded cluster: containers added through {@code pods/ephemeralcontainers},
 * run (and ended, by the pods' {@code sim.kruise-vertx.dev/exit.debugger} annotation) by the simulated kubelet.
 */
class EphemeralJobEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(2))
            .build();

    /** {@code count} running pods labelled app=APP, whose debugger ephemeral container ends as {@code exit} says. */
    static void pods(String app, int count, String exit) {
        for (int i = 0; i < count; i++) {
            PodBuilder b = new PodBuilder().withNewMetadata().withName(app + "-" + i).withNamespace(product.namespace())
                    .addToLabels("app", app).endMetadata()
                    .withNewSpec().addNewContainer().withName("main").withImage("web/app:1").endContainer().endSpec();
            if (exit != null) {
                b.editMetadata().addToAnnotations("sim.kruise-vertx.dev/exit.debugger", exit).endMetadata();
            }
            product.client().pods().inNamespace(product.namespace()).resource(b.build()).create();
        }
        Await.waitFor(app + " pods running", WAIT, () -> product.client().pods().inNamespace(product.namespace())
                .withLabel("app", app).list().getItems().stream()
                .filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase())).count() == count);
    }

    static EphemeralJob create(String name, String app, Consumer<EphemeralJobSpec> edit) {
        EphemeralJobSpec spec = new EphemeralJobSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", app).build());
        EphemeralContainerTemplateSpec t = new EphemeralContainerTemplateSpec();
        t.setEphemeralContainers(List.of(new EphemeralContainerBuilder().withName("debugger").withImage("busybox:1")
                .withImagePullPolicy("IfNotPresent").withTerminationMessagePolicy("File").build()));
        spec.setTemplate(t);
        edit.accept(spec);
        EphemeralJob job = new EphemeralJob();
        job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(product.namespace()).build());
        job.setSpec(spec);
        return product.client().resource(job).create();
    }

    static Resource<EphemeralJob> job(String name) {
        return product.client().resources(EphemeralJob.class).inNamespace(product.namespace()).withName(name);
    }

    static EphemeralJob waitPhase(String name, String phase) {
        return Await.waitFor(name + " " + phase, WAIT, () -> job(name).get(),
                j -> j != null && j.getStatus() != null && phase.equals(j.getStatus().getPhase()));
    }

    static List<Pod> podsOf(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems();
    }

    static List<EphemeralContainer> debuggers(Pod p) {
        return p.getSpec().getEphemeralContainers() == null ? List.of() : p.getSpec().getEphemeralContainers().stream()
                .filter(c -> c.getName().equals("debugger")).toList();
    }

    static String jobId(EphemeralContainer c) {
        return c.getEnv().stream().filter(e -> e.getName().equals(EphemeralJob.JOB_ID_ENV)).findFirst()
                .map(e -> e.getValue()).orElse(null);
    }

    @Test
    void addsContainersToEveryMatchedPodRunsThemToSuccessAndReleasesItsFinalizerOnDelete() {
        pods("web", 3, "code=0,after=1s");
        pods("db", 1, "code=0,after=1s");
        EphemeralJob created = create("debug", "web", s -> s.setParallelism(2));
        EphemeralJob done = waitPhase("debug", "Succeeded");
        assertEquals(3, done.getStatus().getMatch());
        assertEquals(3, done.getStatus().getSucceeded());
        assertEquals(0, done.getStatus().getFailed() + done.getStatus().getRunning() + done.getStatus().getWaiting());
        assertTrue(done.getStatus().getCompletionTime() != null && done.getStatus().getStartTime() != null);
        assertTrue(done.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("JobSucceeded")));
        assertTrue(done.getMetadata().getFinalizers().contains("apps.kruise.io/ephemeralcontainers-cleanup"));
        for (Pod p : podsOf("web")) {
            List<EphemeralContainer> added = debuggers(p);
            assertEquals(1, added.size(), p.getMetadata().getName());
            assertEquals(created.getMetadata().getUid(), jobId(added.get(0)));
            ContainerStatus s = p.getStatus().getEphemeralContainerStatuses().get(0);
            assertEquals(0, s.getState().getTerminated().getExitCode());
        }
        assertEquals(List.of(), debuggers(podsOf("db").get(0)), "a pod the selector does not match is left alone");
        job("debug").delete();
        Await.waitFor("debug gone", WAIT, () -> job("debug").get() == null);
    }

    @Test
    void failingContainersFailTheJob() {
        pods("crash", 2, "code=3,after=500ms");
        create("crashing", "crash", s -> s.setParallelism(5));
        EphemeralJob failed = waitPhase("crashing", "Failed");
        assertEquals(2, failed.getStatus().getFailed());
        assertTrue(failed.getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals("JobFailed") && c.getReason().equals("CreateFailed")));
    }

    @Test
    void pausedAddsNothingUntilResumedAndReplicasBoundsTheTargets() {
        pods("paused", 3, "code=0,after=500ms");
        create("held", "paused", s -> {
            s.setPaused(true);
            s.setReplicas(2);
            s.setParallelism(3);
        });
        EphemeralJob held = waitPhase("held", "Paused");
        assertEquals(2, held.getStatus().getMatch());
        assertTrue(podsOf("paused").stream().allMatch(p -> debuggers(p).isEmpty()));
        ConflictRetry.run(() -> job("held").edit(j -> {
            j.getSpec().setPaused(false);
            return j;
        }));
        EphemeralJob done = waitPhase("held", "Succeeded");
        assertEquals(2, done.getStatus().getSucceeded());
        assertEquals(2, podsOf("paused").stream().filter(p -> !debuggers(p).isEmpty()).count(),
                "replicas 2: the two oldest pods only");
    }

    @Test
    void theDeadlineFailsALongJobAndTtlZeroDeletesAFinishedOne() {
        pods("slow", 1, "code=0,after=10m");
        create("late", "slow", s -> s.setActiveDeadlineSeconds(2L));
        EphemeralJob late = waitPhase("late", "Failed");
        assertTrue(late.getStatus().getConditions().stream()
                .anyMatch(c -> c.getType().equals("JobFailed") && c.getReason().equals("DeadlineExceeded")));
        pods("quick", 1, "code=0,after=200ms");
        create("short-lived", "quick", s -> s.setTtlSecondsAfterFinished(0));
        Await.waitFor("short-lived deleted after it succeeded", WAIT, () -> job("short-lived").get() == null);
        assertEquals(1, debuggers(podsOf("quick").get(0)).size());
    }

    @Test
    void aManagerRestartMidRunFinishesTheJobAddingEachContainerOnce() throws Exception {
        pods("restart", 3, "code=0,after=2s");
        create("across", "restart", s -> s.setParallelism(1));
        Await.waitFor("the first container added", WAIT,
                () -> podsOf("restart").stream().anyMatch(p -> !debuggers(p).isEmpty()));
        product.restartManager();
        EphemeralJob done = waitPhase("across", "Succeeded");
        assertEquals(3, done.getStatus().getSucceeded());
        assertTrue(podsOf("restart").stream().allMatch(p -> debuggers(p).size() == 1));
    }

    @Test
    void deletingTheJobOrATargetPodMidRunIsHandled() {
        pods("gone", 2, "code=0,after=10m");
        create("midway", "gone", s -> s.setParallelism(2));
        Await.waitFor("both containers running", WAIT, () -> job("midway").get(),
                j -> j.getStatus() != null && j.getStatus().getRunning() == 2);
        product.client().pods().inNamespace(product.namespace()).withName("gone-0").withGracePeriod(0).delete();
        Await.waitFor("one pod left", WAIT, () -> job("midway").get(),
                j -> j.getStatus() != null && j.getStatus().getMatch() == 1 && j.getStatus().getRunning() == 1);
        job("midway").delete();
        Await.waitFor("midway gone: its finalizer released", WAIT, () -> job("midway").get() == null);
        // Kubernetes cannot remove ephemeral containers: the running one stays, as with OpenKruise.
        assertEquals(1, debuggers(product.client().pods().inNamespace(product.namespace()).withName("gone-1").get()).size());
    }

    @Test
    void aConflictingWriterOnTheJobDoesNotStopIt() throws Exception {
        pods("race", 3, "code=0,after=1s");
        create("racing", "race", s -> s.setParallelism(1));
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger writes = new AtomicInteger();
        Thread writer = new Thread(() -> {
            while (!stop.get()) {
                try {
                    job("racing").edit(j -> {
                        Map<String, String> a = new HashMap<>(j.getMetadata().getAnnotations() == null ? Map.of()
                                : j.getMetadata().getAnnotations());
                        a.put("other-writer", String.valueOf(writes.incrementAndGet()));
                        j.getMetadata().setAnnotations(a);
                        return j;
                    });
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                } catch (RuntimeException conflictOrGone) {
                    // the other writer loses races too; it just tries again
                }
            }
        });
        writer.start();
        try {
            assertEquals(3, waitPhase("racing", "Succeeded").getStatus().getSucceeded());
        } finally {
            stop.set(true);
            writer.join();
        }
        assertTrue(writes.get() > 0);
    }

    @Test
    void hostileSpecsAreRefusedOrHarmless() {
        KubernetesClientException refused = assertThrows(KubernetesClientException.class, () -> create("ports", "x",
                s -> s.getTemplate().setEphemeralContainers(List.of(new EphemeralContainerBuilder().withName("d")
                        .withImage("busybox").withImagePullPolicy("Always").withTerminationMessagePolicy("File")
                        .addNewPort().withContainerPort(80).endPort().build()))));
        assertEquals(422, refused.getCode());
        assertTrue(refused.getMessage().contains("ephemeralContainers[0].ports: Forbidden: cannot be set for an "
                + "Ephemeral Container"), refused.getMessage());
        pods("hostile", 1, "code=0,after=200ms");
        create("negative", "hostile", s -> {
            s.setReplicas(-1);
            s.setParallelism(Integer.MAX_VALUE);
            s.setTtlSecondsAfterFinished(Integer.MAX_VALUE);
        });
        EphemeralJob negative = waitPhase("negative", "Waiting");
        assertEquals(0, negative.getStatus().getMatch());
        assertNull(negative.getStatus().getCompletionTime());
        assertTrue(debuggers(podsOf("hostile").get(0)).isEmpty());
    }
}
