package dev.kruisevertx.sim.controllers;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.nodes.ContainerExit;
import dev.kruisevertx.sim.nodes.ContainerFailure;
import dev.kruisevertx.sim.nodes.ImageRule;
import dev.kruisevertx.sim.nodes.SimNodesOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSetBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kube-controller-manager's workload controllers on the embedded cluster, end to end through the API. */
class BuiltinControllersTest {
    static final Duration TIMEOUT = Duration.ofSeconds(90);
    static final String NS = "default";
    static ClusterFixture fixture;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        SimNodesOptions nodes = new SimNodesOptions()
                .addImageRule(new ImageRule("slow/*", Duration.ofMillis(400), ContainerFailure.NONE));
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(3).setNodeOptions(nodes)
                .setControllerOptions(new BuiltinControllersOptions().setJobBackoff(Duration.ofMillis(200))));
        client = fixture.client();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    static PodTemplateSpec template(String app, String image) {
        return new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", app).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage(image).endContainer().endSpec().build();
    }

    static boolean ready(Pod p) {
        return p.getStatus() != null && p.getStatus().getConditions() != null
                && p.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    }

    /** Follows the pods with label app={@code app} through a watch, calling {@code check} with the state after each event. */
    static Watch follow(String app, Map<String, Pod> state, Consumer<Map<String, Pod>> check) {
        return client.pods().inNamespace(NS).withLabel("app", app).watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                synchronized (state) {
                    if (action == Action.DELETED) {
                        state.remove(pod.getMetadata().getName());
                    } else {
                        state.put(pod.getMetadata().getName(), pod);
                    }
                    check.accept(state);
                }
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        });
    }

    static List<Pod> live(Map<String, Pod> state) {
        return state.values().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
    }

    @Test
    void deploymentRollsWithinMaxSurgeAndMaxUnavailable() {
        Deployment d = new DeploymentBuilder().withNewMetadata().withName("web").endMetadata().withNewSpec().withReplicas(4)
                .withNewSelector().addToMatchLabels("app", "web").endSelector().withTemplate(template("web", "nginx:1"))
                .withNewStrategy().withType("RollingUpdate").withNewRollingUpdate().withMaxSurge(new IntOrString(1))
                .withMaxUnavailable(new IntOrString("25%")).endRollingUpdate().endStrategy().endSpec().build();
        client.apps().deployments().inNamespace(NS).resource(d).create();
        Deployment first = Await.waitFor("web available", TIMEOUT, () -> client.apps().deployments().inNamespace(NS).withName("web").get(),
                x -> x.getStatus() != null && Objects.equals(x.getStatus().getAvailableReplicas(), 4));
        assertEquals("1", first.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));

        Map<String, Pod> state = new ConcurrentHashMap<>();
        AtomicInteger maxLive = new AtomicInteger();
        AtomicInteger minReady = new AtomicInteger(Integer.MAX_VALUE);
        try (Watch w = follow("web", state, s -> {
            List<Pod> live = live(s);
            maxLive.accumulateAndGet(live.size(), Math::max);
            if (s.size() >= 4) {
                minReady.accumulateAndGet((int) live.stream().filter(BuiltinControllersTest::ready).count(), Math::min);
            }
        })) {
            Await.waitFor("watch has the 4 pods", TIMEOUT, () -> live(state).stream().filter(BuiltinControllersTest::ready).count() == 4);
            ConflictRetry.run(() -> client.apps().deployments().inNamespace(NS).withName("web").edit(x -> new DeploymentBuilder(x).editSpec().editTemplate()
                    .editSpec().editFirstContainer().withImage("nginx:2").endContainer().endSpec().endTemplate().endSpec().build()));
            Deployment done = Await.waitFor("web rolled to nginx:2", TIMEOUT,
                    () -> client.apps().deployments().inNamespace(NS).withName("web").get(),
                    x -> x.getStatus() != null && x.getStatus().getObservedGeneration() == 2 && Objects.equals(x.getStatus().getUpdatedReplicas(), 4)
                            && Objects.equals(x.getStatus().getAvailableReplicas(), 4) && Objects.equals(x.getStatus().getReplicas(), 4));
            Await.waitFor("old pods gone", TIMEOUT, () -> client.pods().inNamespace(NS).withLabel("app", "web").list().getItems().stream()
                    .allMatch(p -> p.getSpec().getContainers().get(0).getImage().equals("nginx:2")));
            assertEquals("2", done.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision"));
            assertTrue(done.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Available") && c.getStatus().equals("True")));
            Await.waitFor("Progressing NewReplicaSetAvailable", TIMEOUT, () -> client.apps().deployments().inNamespace(NS).withName("web").get()
                    .getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Progressing") && "NewReplicaSetAvailable".equals(c.getReason())));
        }
        assertTrue(maxLive.get() <= 5, "never more than replicas + maxSurge pods, saw " + maxLive.get());
        assertTrue(minReady.get() >= 3, "never fewer than replicas - maxUnavailable ready pods, saw " + minReady.get());
        List<ReplicaSet> sets = client.apps().replicaSets().inNamespace(NS).withLabel("app", "web").list().getItems();
        assertEquals(2, sets.size());
        for (ReplicaSet rs : sets) {
            String hash = rs.getMetadata().getLabels().get("pod-template-hash");
            assertTrue(hash.matches("[bcdfghjklmnpqrstvwxz2456789]{1,10}"), hash);
            assertEquals("web-" + hash, rs.getMetadata().getName());
            assertEquals(hash, rs.getSpec().getSelector().getMatchLabels().get("pod-template-hash"));
            assertTrue(rs.getMetadata().getOwnerReferences().get(0).getController());
        }
        ReplicaSet old = sets.stream().filter(rs -> rs.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision").equals("1")).findFirst().orElseThrow();
        assertEquals(0, old.getSpec().getReplicas());
    }

    @Test
    void recreateDeploymentEndsOldPodsBeforeStartingNewOnes() {
        Deployment d = new DeploymentBuilder().withNewMetadata().withName("batchy").endMetadata().withNewSpec().withReplicas(2)
                .withNewSelector().addToMatchLabels("app", "batchy").endSelector().withTemplate(template("batchy", "app:1"))
                .withNewStrategy().withType("Recreate").endStrategy().endSpec().build();
        client.apps().deployments().inNamespace(NS).resource(d).create();
        Await.waitFor("batchy available", TIMEOUT, () -> client.apps().deployments().inNamespace(NS).withName("batchy").get(),
                x -> x.getStatus() != null && Objects.equals(x.getStatus().getAvailableReplicas(), 2));
        Map<String, Pod> state = new ConcurrentHashMap<>();
        List<String> violations = Collections.synchronizedList(new ArrayList<>());
        try (Watch w = follow("batchy", state, s -> {
            boolean oldLeft = s.values().stream().anyMatch(p -> p.getSpec().getContainers().get(0).getImage().equals("app:1"));
            boolean newOnes = s.values().stream().anyMatch(p -> p.getSpec().getContainers().get(0).getImage().equals("app:2"));
            if (oldLeft && newOnes) {
                violations.add(String.join(",", s.keySet()));
            }
        })) {
            Await.waitFor("watch has the pods", TIMEOUT, () -> live(state).size() == 2);
            ConflictRetry.run(() -> client.apps().deployments().inNamespace(NS).withName("batchy").edit(x -> new DeploymentBuilder(x).editSpec().editTemplate()
                    .editSpec().editFirstContainer().withImage("app:2").endContainer().endSpec().endTemplate().endSpec().build()));
            Await.waitFor("batchy recreated", TIMEOUT, () -> client.apps().deployments().inNamespace(NS).withName("batchy").get(),
                    x -> x.getStatus().getObservedGeneration() == 2 && Objects.equals(x.getStatus().getUpdatedReplicas(), 2)
                            && Objects.equals(x.getStatus().getAvailableReplicas(), 2));
        }
        assertEquals(List.of(), violations, "old and new pods never coexist under Recreate");
    }

    @Test
    void replicaSetReplacesADeletedPodAndAdoptsOrphans() {
        ReplicaSet rs = new ReplicaSetBuilder().withNewMetadata().withName("frontend").endMetadata().withNewSpec().withReplicas(2)
                .withNewSelector().addToMatchLabels("app", "frontend").endSelector().withTemplate(template("frontend", "nginx:1")).endSpec().build();
        client.apps().replicaSets().inNamespace(NS).resource(rs).create();
        ReplicaSet ready = Await.waitFor("frontend ready", TIMEOUT, () -> client.apps().replicaSets().inNamespace(NS).withName("frontend").get(),
                x -> x.getStatus() != null && Objects.equals(x.getStatus().getReadyReplicas(), 2) && Objects.equals(x.getStatus().getAvailableReplicas(), 2));
        assertEquals(2, ready.getStatus().getFullyLabeledReplicas());
        List<Pod> pods = client.pods().inNamespace(NS).withLabel("app", "frontend").list().getItems();
        assertEquals(2, pods.size());
        Pod victim = pods.get(0);
        assertTrue(victim.getMetadata().getOwnerReferences().get(0).getBlockOwnerDeletion());
        assertTrue(victim.getMetadata().getName().startsWith("frontend-"));
        client.pods().inNamespace(NS).withName(victim.getMetadata().getName()).delete();
        Await.waitFor("a replacement pod", TIMEOUT, () -> client.pods().inNamespace(NS).withLabel("app", "frontend").list().getItems().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && !p.getMetadata().getName().equals(victim.getMetadata().getName())
                        && ready(p)).count() == 2);

        client.pods().inNamespace(NS).resource(new PodBuilder().withNewMetadata().withName("stray").addToLabels("app", "frontend").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1").endContainer().endSpec().build()).create();
        Await.waitFor("orphan adopted and the surplus removed", TIMEOUT, () -> {
            List<Pod> live = client.pods().inNamespace(NS).withLabel("app", "frontend").list().getItems().stream()
                    .filter(p -> p.getMetadata().getDeletionTimestamp() == null).toList();
            Pod stray = client.pods().inNamespace(NS).withName("stray").get();
            boolean adopted = stray == null || (stray.getMetadata().getOwnerReferences() != null
                    && stray.getMetadata().getOwnerReferences().stream().anyMatch(r -> r.getName().equals("frontend")));
            return adopted && live.size() == 2;
        });
    }

    static Job job(String name, int completions, int parallelism, String exit) {
        return new JobBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec().withCompletions(completions)
                .withParallelism(parallelism).withNewTemplate().withNewMetadata().addToLabels("app", name)
                .addToAnnotations(ContainerExit.ANNOTATION, exit).endMetadata().withNewSpec().withRestartPolicy("Never")
                .addNewContainer().withName("work").withImage("worker:1").endContainer().endSpec().endTemplate().endSpec().build();
    }

    static Job getJob(String name) {
        return client.batch().v1().jobs().inNamespace(NS).withName(name).get();
    }

    static JobCondition condition(Job j, String type) {
        if (j == null || j.getStatus() == null || j.getStatus().getConditions() == null) {
            return null;
        }
        return j.getStatus().getConditions().stream().filter(c -> c.getType().equals(type) && c.getStatus().equals("True")).findFirst().orElse(null);
    }

    @Test
    void jobRunsItsCompletionsWithinParallelism() {
        Map<String, Pod> state = new ConcurrentHashMap<>();
        AtomicInteger maxActive = new AtomicInteger();
        try (Watch w = follow("count", state, s -> maxActive.accumulateAndGet((int) s.values().stream()
                .filter(p -> p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null
                        && !"Succeeded".equals(p.getStatus().getPhase()) && !"Failed".equals(p.getStatus().getPhase())).count(), Math::max))) {
            client.batch().v1().jobs().inNamespace(NS).resource(job("count", 3, 2, "code=0,after=700ms")).create();
            Job done = Await.waitFor("count Complete", TIMEOUT, () -> getJob("count"), j -> condition(j, "Complete") != null);
            assertEquals(3, done.getStatus().getSucceeded());
            assertNotNull(done.getStatus().getStartTime());
            assertNotNull(done.getStatus().getCompletionTime());
            assertEquals(0, done.getStatus().getActive());
        }
        assertTrue(maxActive.get() <= 2 && maxActive.get() >= 1, "at most parallelism pods at once, saw " + maxActive.get());
        List<Pod> pods = client.pods().inNamespace(NS).withLabel("job-name", "count").list().getItems();
        assertEquals(3, pods.size());
        Job j = getJob("count");
        for (Pod p : pods) {
            assertEquals("Succeeded", p.getStatus().getPhase());
            assertEquals("count", p.getMetadata().getLabels().get("batch.kubernetes.io/job-name"));
            assertEquals(j.getMetadata().getUid(), p.getMetadata().getLabels().get("batch.kubernetes.io/controller-uid"));
            assertEquals(j.getMetadata().getUid(), p.getMetadata().getLabels().get("controller-uid"));
        }
        assertEquals(j.getMetadata().getUid(), j.getSpec().getSelector().getMatchLabels().get("batch.kubernetes.io/controller-uid"));
    }

    @Test
    void indexedJobRunsEachIndexOnce() {
        Job spec = job("indexed", 3, 3, "code=0,after=300ms");
        spec.getSpec().setCompletionMode("Indexed");
        client.batch().v1().jobs().inNamespace(NS).resource(spec).create();
        Job done = Await.waitFor("indexed Complete", TIMEOUT, () -> getJob("indexed"), j -> condition(j, "Complete") != null);
        assertEquals("0-2", done.getStatus().getCompletedIndexes());
        List<String> indexes = client.pods().inNamespace(NS).withLabel("job-name", "indexed").list().getItems().stream()
                .map(p -> p.getMetadata().getAnnotations().get("batch.kubernetes.io/job-completion-index")).sorted().toList();
        assertEquals(List.of("0", "1", "2"), indexes);
    }

    @Test
    void failingJobStopsAtItsBackoffLimit() {
        Job spec = job("flaky", 1, 1, "code=3,after=100ms");
        spec.getSpec().setBackoffLimit(1);
        client.batch().v1().jobs().inNamespace(NS).resource(spec).create();
        Job failed = Await.waitFor("flaky Failed", TIMEOUT, () -> getJob("flaky"), j -> condition(j, "Failed") != null);
        assertEquals("BackoffLimitExceeded", condition(failed, "Failed").getReason());
        assertEquals(2, failed.getStatus().getFailed());
        assertEquals(2, client.pods().inNamespace(NS).withLabel("job-name", "flaky").list().getItems().stream()
                .filter(p -> "Failed".equals(p.getStatus().getPhase())).count());
    }

    @Test
    void activeDeadlineFailsAJob() {
        Job spec = job("slowjob", 1, 1, "code=0,after=10m");
        spec.getSpec().setActiveDeadlineSeconds(2L);
        client.batch().v1().jobs().inNamespace(NS).resource(spec).create();
        Job failed = Await.waitFor("slowjob Failed", TIMEOUT, () -> getJob("slowjob"), j -> condition(j, "Failed") != null);
        assertEquals("DeadlineExceeded", condition(failed, "Failed").getReason());
        Await.waitFor("its pod deleted", TIMEOUT, () -> client.pods().inNamespace(NS).withLabel("job-name", "slowjob").list().getItems().stream()
                .allMatch(p -> p.getMetadata().getDeletionTimestamp() != null));
    }

    @Test
    void ttlAfterFinishedDeletesTheJobAndItsPods() {
        Job spec = job("shortlived", 1, 1, "code=0,after=200ms");
        spec.getSpec().setTtlSecondsAfterFinished(1);
        client.batch().v1().jobs().inNamespace(NS).resource(spec).create();
        Await.waitFor("shortlived Complete (or already gone)", TIMEOUT, () -> getJob("shortlived"),
                j -> j == null || condition(j, "Complete") != null);
        Await.waitFor("shortlived deleted", TIMEOUT, () -> getJob("shortlived") == null);
        Await.waitFor("its pods deleted", TIMEOUT, () -> client.pods().inNamespace(NS).withLabel("job-name", "shortlived").list().getItems().isEmpty());
    }

    @Test
    void statefulSetCreatesInOrderAndRollsWithPartition() {
        Map<String, Pod> state = new ConcurrentHashMap<>();
        List<String> created = Collections.synchronizedList(new ArrayList<>());
        List<String> outOfOrder = Collections.synchronizedList(new ArrayList<>());
        List<String> deleted = Collections.synchronizedList(new ArrayList<>());
        try (Watch w = follow("db", state, s -> {
            for (Pod p : s.values()) {
                String name = p.getMetadata().getName();
                if (!created.contains(name) && p.getMetadata().getDeletionTimestamp() == null) {
                    created.add(name);
                    int ord = Integer.parseInt(name.substring(name.lastIndexOf('-') + 1));
                    for (int lower = 0; lower < ord; lower++) {
                        Pod before = s.get("db-" + lower);
                        if (before == null || !ready(before)) {
                            outOfOrder.add(name + " before db-" + lower + " was ready");
                        }
                    }
                }
                if (p.getMetadata().getDeletionTimestamp() != null && !deleted.contains(name)) {
                    deleted.add(name);
                }
            }
        })) {
            StatefulSet set = new StatefulSetBuilder().withNewMetadata().withName("db").endMetadata().withNewSpec().withReplicas(3)
                    .withServiceName("db").withNewSelector().addToMatchLabels("app", "db").endSelector()
                    .withTemplate(template("db", "slow/db:1"))
                    .addNewVolumeClaimTemplate().withNewMetadata().withName("data").endMetadata().withNewSpec()
                    .withAccessModes("ReadWriteOnce").withNewResources().addToRequests("storage", new Quantity("1Gi")).endResources()
                    .endSpec().endVolumeClaimTemplate().endSpec().build();
            client.apps().statefulSets().inNamespace(NS).resource(set).create();
            StatefulSet up = Await.waitFor("db ready", TIMEOUT, () -> client.apps().statefulSets().inNamespace(NS).withName("db").get(),
                    x -> x.getStatus() != null && Objects.equals(x.getStatus().getReadyReplicas(), 3));
            assertEquals(List.of("db-0", "db-1", "db-2"), List.copyOf(created));
            assertEquals(List.of(), outOfOrder);
            String rev1 = up.getStatus().getUpdateRevision();
            assertEquals(rev1, up.getStatus().getCurrentRevision());
            Pod db1 = client.pods().inNamespace(NS).withName("db-1").get();
            assertEquals("db-1", db1.getMetadata().getLabels().get("statefulset.kubernetes.io/pod-name"));
            assertEquals("1", db1.getMetadata().getLabels().get("apps.kubernetes.io/pod-index"));
            assertEquals(rev1, db1.getMetadata().getLabels().get("controller-revision-hash"));
            assertEquals("db-1", db1.getSpec().getHostname());
            assertEquals("db", db1.getSpec().getSubdomain());
            assertEquals("data-db-1", db1.getSpec().getVolumes().stream().filter(v -> v.getName().equals("data")).findFirst().orElseThrow()
                    .getPersistentVolumeClaim().getClaimName());
            assertNotNull(client.persistentVolumeClaims().inNamespace(NS).withName("data-db-1").get());
            assertNotNull(client.apps().controllerRevisions().inNamespace(NS).withName(rev1).get());

            ConflictRetry.run(() -> client.apps().statefulSets().inNamespace(NS).withName("db").edit(x -> new StatefulSetBuilder(x).editSpec()
                    .editUpdateStrategy().withType("RollingUpdate").withNewRollingUpdate().withPartition(1).endRollingUpdate().endUpdateStrategy()
                    .editTemplate().editSpec().editFirstContainer().withImage("slow/db:2").endContainer().endSpec().endTemplate().endSpec().build()));
            StatefulSet rolled = Await.waitFor("db-2 and db-1 updated", TIMEOUT, () -> client.apps().statefulSets().inNamespace(NS).withName("db").get(),
                    x -> x.getStatus() != null && !rev1.equals(x.getStatus().getUpdateRevision()) && Objects.equals(x.getStatus().getUpdatedReplicas(), 2)
                            && Objects.equals(x.getStatus().getReadyReplicas(), 3));
            String rev2 = rolled.getStatus().getUpdateRevision();
            assertEquals(rev1, rolled.getStatus().getCurrentRevision());
            assertEquals(1, rolled.getStatus().getCurrentReplicas());
            assertEquals(rev1, client.pods().inNamespace(NS).withName("db-0").get().getMetadata().getLabels().get("controller-revision-hash"));
            assertEquals(rev2, client.pods().inNamespace(NS).withName("db-1").get().getMetadata().getLabels().get("controller-revision-hash"));
            assertEquals(rev2, client.pods().inNamespace(NS).withName("db-2").get().getMetadata().getLabels().get("controller-revision-hash"));
            assertEquals(List.of("db-2", "db-1"), List.copyOf(deleted), "rolled from the highest ordinal down to the partition");
            assertNotEquals(rev1, rev2);
        }
    }
}
