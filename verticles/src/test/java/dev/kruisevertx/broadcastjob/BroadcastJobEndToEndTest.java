package dev.kruisevertx.broadcastjob;

import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobSpec;
import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.FailurePolicy;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.invariants.InvariantChecker;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** BroadcastJob in the manager against the embedded cluster: pods on every node, run to completion by the kubelet. */
class BroadcastJobEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3))
            .build();

    static BroadcastJob create(String name, String exit, Consumer<BroadcastJobSpec> edit) {
        BroadcastJobSpec spec = new BroadcastJobSpec();
        PodTemplateSpecBuilder t = new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().withRestartPolicy("Never").addNewContainer().withName("main").withImage("batch/agent:1")
                .endContainer().endSpec();
        if (exit != null) {
            t.editMetadata().addToAnnotations("sim.kruise-vertx.dev/exit", exit).endMetadata();
        }
        spec.setTemplate(t.build());
        edit.accept(spec);
        BroadcastJob job = new BroadcastJob();
        job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(product.namespace()).build());
        job.setSpec(spec);
        return product.client().resource(job).create();
    }

    static Resource<BroadcastJob> job(String name) {
        return product.client().resources(BroadcastJob.class).inNamespace(product.namespace()).withName(name);
    }

    static List<Pod> podsOf(BroadcastJob job) {
        return product.client().pods().inNamespace(product.namespace()).list().getItems().stream()
                .filter(p -> p.getMetadata().getOwnerReferences() != null && p.getMetadata().getOwnerReferences().stream()
                        .anyMatch(r -> r.getUid().equals(job.getMetadata().getUid())))
                .toList();
    }

    static BroadcastJob waitPhase(String name, String phase) {
        return Await.waitFor(name + " " + phase, WAIT, () -> job(name).get(),
                j -> j != null && j.getStatus() != null && phase.equals(j.getStatus().getPhase()));
    }

    static long unfinished(List<Pod> pods) {
        return pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null && (p.getStatus() == null
                || !Set.of("Succeeded", "Failed").contains(p.getStatus().getPhase()))).count();
    }

    /** The job finished with one succeeded pod on each of the 3 nodes and no pod more. */
    static void completedOncePerNode(BroadcastJob created) {
        BroadcastJob done = waitPhase(created.getMetadata().getName(), "completed");
        assertEquals(3, done.getStatus().getDesired());
        assertEquals(3, done.getStatus().getSucceeded());
        assertEquals(0, done.getStatus().getFailed());
        assertEquals(0, done.getStatus().getActive());
        List<Pod> pods = podsOf(created);
        assertEquals(3, pods.size(), "one pod per node, none run twice: " + pods.stream()
                .map(p -> p.getMetadata().getName() + "@" + p.getSpec().getNodeName()).toList());
        assertEquals(3, pods.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet()).size());
        assertTrue(pods.stream().allMatch(p -> "Succeeded".equals(p.getStatus().getPhase())));
    }

    @Test
    void aManagerRestartMidRunFinishesTheJobWithoutRunningANodeTwice() throws Exception {
        InvariantChecker checker = new InvariantChecker().withJobInvariants();
        BroadcastJob created;
        try (AutoCloseable watch = checker.watch(product.client(), product.namespace(), List.of(),
                InvariantChecker.JOB_OBJECTS)) {
            created = create("restart", "code=0,after=1500ms", s -> s.setParallelism(new IntOrString(1)));
            Await.waitFor("the first pod of restart running", WAIT, () -> unfinished(podsOf(created)) == 1);
            product.restartManager();
            // The new manager learns the running pod from the cluster: parallelism 1 and one pod per node hold
            // across the restart (the checker sees every pod event, not samples).
            waitPhase("restart", "completed");
        }
        assertEquals(List.of(), checker.violations());
        completedOncePerNode(created);
    }

    @Test
    void aConflictingWriterOnTheJobAndItsPodsDoesNotStopIt() throws Exception {
        BroadcastJob created = create("race", "code=0,after=1s", s -> s.setParallelism(new IntOrString(2)));
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger writes = new java.util.concurrent.atomic.AtomicInteger();
        Thread writer = new Thread(() -> {
            while (!stop.get()) {
                try {
                    job("race").edit(j -> {
                        j.getMetadata().setAnnotations(new java.util.HashMap<>(j.getMetadata().getAnnotations() == null
                                ? Map.of() : j.getMetadata().getAnnotations()));
                        j.getMetadata().getAnnotations().put("other-writer", String.valueOf(writes.incrementAndGet()));
                        return j;
                    });
                } catch (RuntimeException conflictOrGone) {
                    // the other writer loses races too; it just tries again
                }
                for (Pod p : podsOf(created)) {
                    try {
                        product.client().pods().inNamespace(product.namespace()).withName(p.getMetadata().getName())
                                .edit(x -> {
                                    x.getMetadata().getAnnotations().put("other-writer",
                                            String.valueOf(writes.incrementAndGet()));
                                    return x;
                                });
                    } catch (RuntimeException conflictOrGone) {
                        // as above
                    }
                }
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        InvariantChecker checker = new InvariantChecker().withJobInvariants();
        try (AutoCloseable watch = checker.watch(product.client(), product.namespace(), List.of(),
                InvariantChecker.JOB_OBJECTS)) {
            writer.start();
            waitPhase("race", "completed");
        } finally {
            stop.set(true);
            writer.join(10_000);
        }
        assertEquals(List.of(), checker.violations());
        assertTrue(writes.get() > 0);
        completedOncePerNode(created);
        assertTrue(job("race").get().getMetadata().getAnnotations().containsKey("other-writer"),
                "the other writer's change is kept");
    }

    @Test
    void runsOnEveryNodeAndCompletes() {
        BroadcastJob created = create("everywhere", "code=0,after=500ms", s -> { });
        assertEquals("Always", created.getSpec().getCompletionPolicy().getType());
        assertEquals("FailFast", created.getSpec().getFailurePolicy().getType());
        assertEquals(Integer.MAX_VALUE, created.getSpec().getParallelism().getIntVal());
        BroadcastJob done = waitPhase("everywhere", "completed");
        assertEquals(3, done.getStatus().getDesired());
        assertEquals(3, done.getStatus().getSucceeded());
        assertEquals(0, done.getStatus().getActive());
        assertEquals(0, done.getStatus().getFailed());
        assertEquals("Complete", done.getStatus().getConditions().get(0).getType());
        assertEquals("True", done.getStatus().getConditions().get(0).getStatus());
        assertTrue(done.getStatus().getCompletionTime() != null && done.getStatus().getStartTime() != null);
        List<Pod> pods = podsOf(created);
        Set<String> nodes = pods.stream().map(p -> p.getSpec().getNodeName()).collect(Collectors.toSet());
        assertEquals(3, pods.size());
        assertEquals(3, nodes.size(), "one pod per node: " + nodes);
        for (Pod p : pods) {
            assertEquals("everywhere", p.getMetadata().getLabels().get(BroadcastJobDecision.JOB_NAME_LABEL));
            assertEquals("Succeeded", p.getStatus().getPhase());
        }
    }

    @Test
    void failFastStopsAtTheFirstFailure() {
        BroadcastJob created = create("fragile", "code=1,after=300ms", s -> s.setParallelism(new IntOrString(1)));
        BroadcastJob failed = waitPhase("fragile", "failed");
        assertEquals("Failed", failed.getStatus().getConditions().get(0).getType());
        assertEquals("failure policy is FailurePolicyTypeFailFast and failed pod is found",
                failed.getStatus().getConditions().get(0).getMessage());
        assertEquals(1, podsOf(created).size(), "no pod after the first failure");
        assertEquals(1, failed.getStatus().getFailed());
    }

    @Test
    void ttlRemovesAFinishedJob() {
        BroadcastJob created = create("short-lived", "code=0,after=300ms", s -> {
            CompletionPolicy cp = new CompletionPolicy();
            cp.setTtlSecondsAfterFinished(2);
            s.setCompletionPolicy(cp);
        });
        Await.waitFor("short-lived deleted after its TTL", WAIT, () -> job("short-lived").get() == null);
        Await.waitFor("its pods collected", WAIT, () -> podsOf(created).isEmpty());
    }

    @Test
    void aNodeAddedWhileRunningGetsAPod() {
        BroadcastJob created = create("watcher", null, s -> {
            CompletionPolicy cp = new CompletionPolicy();
            cp.setType("Never");
            s.setCompletionPolicy(cp);
        });
        Await.waitFor("a pod on each of 3 nodes", WAIT, () -> podsOf(created).size() == 3);
        product.cluster().nodes().addNode("late-node", Map.of());
        try {
            Pod late = Await.waitFor("a pod on late-node", WAIT, () -> podsOf(created).stream()
                    .filter(p -> "late-node".equals(p.getSpec().getNodeName())).findFirst().orElse(null), p -> p != null);
            assertEquals("watcher", late.getMetadata().getLabels().get(BroadcastJobDecision.JOB_NAME_LABEL));
            Await.waitFor("desired 4", WAIT, () -> job("watcher").get(),
                    j -> j.getStatus() != null && j.getStatus().getDesired() == 4 && "running".equals(j.getStatus().getPhase()));
        } finally {
            product.cluster().nodes().removeNode("late-node");
        }
    }

    @Test
    void failurePolicyPausePausesTheJob() {
        create("careful", "code=1,after=300ms", s -> {
            s.setParallelism(new IntOrString(1));
            FailurePolicy fp = new FailurePolicy();
            fp.setType("Pause");
            s.setFailurePolicy(fp);
        });
        waitPhase("careful", "paused");
        Await.waitFor("spec.paused set", WAIT, () -> job("careful").get(), j -> Boolean.TRUE.equals(j.getSpec().getPaused()));
    }

    @Test
    void hostileSpecsAreRefusedWithTheReason() {
        KubernetesClientException always = assertThrows(KubernetesClientException.class,
                () -> create("always", null, s -> s.getTemplate().getSpec().setRestartPolicy("Always")));
        assertTrue(always.getMessage().contains("pod restartPolicy can only be Never or OnFailure"), always.getMessage());
        KubernetesClientException parallelism = assertThrows(KubernetesClientException.class,
                () -> create("bad-parallelism", null, s -> s.setParallelism(new IntOrString("lots"))));
        assertTrue(parallelism.getMessage().contains("spec.parallelism"), parallelism.getMessage());
        KubernetesClientException ttl = assertThrows(KubernetesClientException.class, () -> create("never-ttl", null, s -> {
            CompletionPolicy cp = new CompletionPolicy();
            cp.setType("Never");
            cp.setTtlSecondsAfterFinished(5);
            s.setCompletionPolicy(cp);
        }));
        assertTrue(ttl.getMessage().contains("ttlSecondsAfterFinished can just work with Always"), ttl.getMessage());
        KubernetesClientException labels = assertThrows(KubernetesClientException.class, () -> create("preset", null,
                s -> s.getTemplate().getMetadata().getLabels().put(BroadcastJobDecision.JOB_NAME_LABEL, "x")));
        assertTrue(labels.getMessage().contains("are not allowed to preset in pod labels"), labels.getMessage());
    }

    @Test
    void deletingTheJobMidRunTakesItsPodsAndCreatesNoMore() throws Exception {
        BroadcastJob created = create("doomed", null, s -> s.setParallelism(new IntOrString(1)));
        Await.waitFor("a pod of doomed", WAIT, () -> !podsOf(created).isEmpty());
        job("doomed").delete();
        Await.waitFor("doomed's pods collected", WAIT, () -> podsOf(created).isEmpty());
        Thread.sleep(3_000);
        assertEquals(List.of(), podsOf(created));
    }
}
