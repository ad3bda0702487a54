package dev.kruisevertx.broadcastjob;

import dev.kruisevertx.api.apps.v1beta1.BroadcastJob;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobSpec;
import dev.kruisevertx.api.apps.v1beta1.BroadcastJobStatus;
import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.FailurePolicy;
import dev.kruisevertx.api.apps.v1beta1.JobCondition;
import dev.kruisevertx.scheduling.DaemonPlacement;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link BroadcastJobDecision} as a table: pods to create and delete per sync, and the phase/condition result. */
class BroadcastJobDecisionTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");
    static final String STARTED = "2026-01-01T00:00:00Z";

    static BroadcastJob job(Consumer<BroadcastJobSpec> edit, Consumer<BroadcastJobStatus> status) {
        BroadcastJob j = new BroadcastJob();
        j.setMetadata(new ObjectMetaBuilder().withName("bj").withNamespace("ns").withUid("u-1").build());
        BroadcastJobSpec s = new BroadcastJobSpec();
        s.setTemplate(new PodTemplateSpecBuilder().withNewSpec().withRestartPolicy("Never").addNewContainer()
                .withName("c").withImage("i").endContainer().endSpec().build());
        CompletionPolicy cp = new CompletionPolicy();
        cp.setType("Always");
        s.setCompletionPolicy(cp);
        FailurePolicy fp = new FailurePolicy();
        fp.setType("FailFast");
        s.setFailurePolicy(fp);
        edit.accept(s);
        j.setSpec(s);
        BroadcastJobStatus st = new BroadcastJobStatus();
        st.setStartTime(STARTED);
        st.setPhase("running");
        status.accept(st);
        j.setStatus(st);
        return j;
    }

    static BroadcastJob job(Consumer<BroadcastJobSpec> edit) {
        return job(edit, s -> { });
    }

    static Node node(String name) {
        return new NodeBuilder().withNewMetadata().withName(name).addToLabels("kubernetes.io/hostname", name)
                .endMetadata().withNewSpec().endSpec().build();
    }

    static Node node(String name, Consumer<Node> edit) {
        Node n = node(name);
        edit.accept(n);
        return n;
    }

    static List<Node> nodes(int n) {
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(node("n" + i));
        }
        return out;
    }

    static Pod pod(String node, String phase) {
        Pod p = new PodBuilder().withNewMetadata().withName("bj-" + node).withNamespace("ns").endMetadata()
                .withNewSpec().withRestartPolicy("Never").addNewContainer().withName("c").withImage("i").endContainer()
                .endSpec().withNewStatus().withPhase(phase).endStatus().build();
        DaemonPlacement.pinToNode(p.getSpec(), node);
        return p;
    }

    static Pod restarting(String node, int restarts) {
        Pod p = pod(node, "Running");
        p.getSpec().setRestartPolicy("OnFailure");
        p.getStatus().setContainerStatuses(List.of(new io.fabric8.kubernetes.api.model.ContainerStatusBuilder()
                .withName("c").withRestartCount(restarts).build()));
        return p;
    }

    static Pod deleting(String node) {
        Pod p = pod(node, "Running");
        p.getMetadata().setDeletionTimestamp(STARTED);
        return p;
    }

    record Case(String name, BroadcastJob job, List<Pod> pods, List<Node> nodes, List<String> create, int deletes,
                String phase, String condition, String counts, boolean deleteJob, boolean pause, Duration requeue) {
    }

    static Case c(String name, BroadcastJob job, List<Pod> pods, List<Node> nodes, List<String> create, int deletes,
                  String phase, String condition, String counts) {
        return new Case(name, job, pods, nodes, create, deletes, phase, condition, counts, false, false, null);
    }

    static List<Case> cases() {
        List<Case> t = new ArrayList<>();
        // Creating: one pod per fitting node, parallelism.
        t.add(c("fresh job: a pod on every node", job(s -> { }), List.of(), nodes(3), List.of("n0", "n1", "n2"), 0,
                "running", null, "desired=3 active=3 succeeded=0 failed=0"));
        t.add(c("no nodes: nothing to do, not complete", job(s -> { }), List.of(), List.of(), List.of(), 0,
                "running", null, "desired=0 active=0 succeeded=0 failed=0"));
        t.add(c("parallelism 2 of 5", job(s -> s.setParallelism(new IntOrString(2))), List.of(), nodes(5),
                List.of("n0", "n1"), 0, "running", null, "desired=5 active=2 succeeded=0 failed=0"));
        t.add(c("parallelism 40% of 5 rounds up to 2", job(s -> s.setParallelism(new IntOrString("40%"))), List.of(),
                nodes(5), List.of("n0", "n1"), 0, "running", null, "desired=5 active=2 succeeded=0 failed=0"));
        t.add(c("parallelism 1 with one active: wait", job(s -> s.setParallelism(new IntOrString(1))),
                List.of(pod("n0", "Running")), nodes(3), List.of(), 0, "running", null,
                "desired=3 active=1 succeeded=0 failed=0"));
        t.add(c("parallelism 1, the first finished: the next node", job(s -> s.setParallelism(new IntOrString(1))),
                List.of(pod("n0", "Succeeded")), nodes(3), List.of("n1"), 0, "running", null,
                "desired=3 active=1 succeeded=1 failed=0"));
        t.add(c("parallelism 0 creates nothing", job(s -> s.setParallelism(new IntOrString(0))), List.of(), nodes(2),
                List.of(), 0, "running", null, "desired=2 active=0 succeeded=0 failed=0"));
        t.add(c("more active than parallelism: nothing created", job(s -> s.setParallelism(new IntOrString(1))),
                List.of(pod("n0", "Running"), pod("n1", "Running")), nodes(3), List.of(), 0, "running", null,
                "desired=3 active=2 succeeded=0 failed=0"));
        t.add(c("a node added while running gets a pod", job(s -> { }), List.of(pod("n0", "Running"),
                pod("n1", "Succeeded")), nodes(3), List.of("n2"), 0, "running", null,
                "desired=3 active=2 succeeded=1 failed=0"));
        // Node fit.
        t.add(c("nodeSelector picks nodes", job(s -> s.getTemplate().getSpec().setNodeSelector(
                java.util.Map.of("pool", "gpu"))), List.of(), List.of(node("a", n -> n.getMetadata().getLabels()
                .put("pool", "gpu")), node("b")), List.of("a"), 0, "running", null,
                "desired=1 active=1 succeeded=0 failed=0"));
        t.add(c("an untolerated NoSchedule taint keeps a node out", job(s -> { }), List.of(), List.of(node("a"),
                node("b", n -> n.getSpec().setTaints(List.of(new Taint("NoSchedule", "dedicated", null, "x"))))),
                List.of("a"), 0, "running", null, "desired=1 active=1 succeeded=0 failed=0"));
        t.add(c("a PreferNoSchedule taint does not", job(s -> { }), List.of(), List.of(node("a",
                n -> n.getSpec().setTaints(List.of(new Taint("PreferNoSchedule", "soft", null, null))))),
                List.of("a"), 0, "running", null, "desired=1 active=1 succeeded=0 failed=0"));
        t.add(c("a tolerated taint lets the node in", job(s -> s.getTemplate().getSpec().setTolerations(List.of(
                new TolerationBuilder().withKey("dedicated").withOperator("Exists").build()))), List.of(),
                List.of(node("b", n -> n.getSpec().setTaints(List.of(new Taint("NoExecute", "dedicated", null, "x"))))),
                List.of("b"), 0, "running", null, "desired=1 active=1 succeeded=0 failed=0"));
        t.add(c("an unschedulable node is out", job(s -> { }), List.of(), List.of(node("a"),
                node("b", n -> n.getSpec().setUnschedulable(true))), List.of("a"), 0, "running", null,
                "desired=1 active=1 succeeded=0 failed=0"));
        t.add(c("requests beyond allocatable keep a node out", job(s -> s.getTemplate().getSpec().getContainers().get(0)
                .setResources(new io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder()
                        .addToRequests("cpu", new Quantity("4")).build())), List.of(), List.of(
                node("big", n -> n.setStatus(new io.fabric8.kubernetes.api.model.NodeStatusBuilder()
                        .addToAllocatable("cpu", new Quantity("8")).build())),
                node("small", n -> n.setStatus(new io.fabric8.kubernetes.api.model.NodeStatusBuilder()
                        .addToAllocatable("cpu", new Quantity("2")).build()))), List.of("big"), 0, "running", null,
                "desired=1 active=1 succeeded=0 failed=0"));
        t.add(c("a pod whose node got an untolerated NoExecute taint is deleted (counted failed)", job(s -> s
                        .getFailurePolicy().setType("Continue")), List.of(pod("a", "Running")),
                List.of(node("a", n -> n.getSpec().setTaints(List.of(new Taint("NoExecute", "maintenance", null, null))))),
                List.of(), 1, "running", null, "desired=0 active=0 succeeded=0 failed=1"));
        t.add(c("a pod on a node that is gone is neither desired nor deleted", job(s -> { }),
                List.of(pod("gone", "Running")), nodes(1), List.of("n0"), 0, "running", null,
                "desired=1 active=2 succeeded=0 failed=0"));
        // Completion.
        t.add(c("every node succeeded: completed", job(s -> { }), List.of(pod("n0", "Succeeded"),
                pod("n1", "Succeeded")), nodes(2), List.of(), 0, "completed", "Complete",
                "desired=2 active=0 succeeded=2 failed=0"));
        t.add(c("Continue: succeeded and failed both end it", job(s -> s.getFailurePolicy().setType("Continue")),
                List.of(pod("n0", "Succeeded"), pod("n1", "Failed")), nodes(2), List.of(), 0, "completed", "Complete",
                "desired=2 active=0 succeeded=1 failed=1"));
        t.add(c("one still running: not complete", job(s -> { }), List.of(pod("n0", "Succeeded"),
                pod("n1", "Running")), nodes(2), List.of(), 0, "running", null,
                "desired=2 active=1 succeeded=1 failed=0"));
        t.add(c("completionPolicy Never never completes", job(s -> s.getCompletionPolicy().setType("Never")),
                List.of(pod("n0", "Succeeded")), nodes(1), List.of(), 0, "running", null,
                "desired=1 active=0 succeeded=1 failed=0"));
        t.add(new Case("completion with a TTL: look again after ttl+1s", job(s -> s.getCompletionPolicy()
                .setTtlSecondsAfterFinished(30)), List.of(pod("n0", "Succeeded")), nodes(1), List.of(), 0,
                "completed", "Complete", "desired=1 active=0 succeeded=1 failed=0", false, false,
                Duration.ofSeconds(31)));
        // Failure policies.
        t.add(c("FailFast: a failed pod fails the job and deletes the active ones", job(s -> { }),
                List.of(pod("n0", "Failed"), pod("n1", "Running")), nodes(3), List.of(), 1, "failed", "Failed",
                "desired=3 active=0 succeeded=0 failed=2"));
        t.add(new Case("Pause: a failed pod pauses the job", job(s -> s.getFailurePolicy().setType("Pause")),
                List.of(pod("n0", "Failed")), nodes(2), List.of(), 0, "paused", null,
                "desired=2 active=0 succeeded=0 failed=1", false, true, null));
        t.add(c("Continue: a failed pod changes nothing", job(s -> s.getFailurePolicy().setType("Continue")),
                List.of(pod("n0", "Failed")), nodes(2), List.of("n1"), 0, "running", null,
                "desired=2 active=1 succeeded=0 failed=1"));
        t.add(c("restartLimit: an OnFailure pod restarted more often has failed", job(s -> s.getFailurePolicy()
                .setRestartLimit(2)), List.of(restarting("n0", 3)), nodes(1), List.of(), 0, "failed", "Failed",
                "desired=1 active=0 succeeded=0 failed=1"));
        t.add(c("restartLimit: within the limit it is active", job(s -> s.getFailurePolicy().setRestartLimit(3)),
                List.of(restarting("n0", 3)), nodes(1), List.of(), 0, "running", null,
                "desired=1 active=1 succeeded=0 failed=0"));
        t.add(c("a deleting pod is not counted, and its node is done (as OpenKruise)", job(s -> { }),
                List.of(deleting("n0")), nodes(1), List.of(), 0, "completed", "Complete",
                "desired=1 active=0 succeeded=0 failed=0"));
        // Deadline, pause, finished.
        t.add(c("past the active deadline: failed, active pods deleted", job(s -> s.getCompletionPolicy()
                        .setActiveDeadlineSeconds(60L)), List.of(pod("n0", "Running")), nodes(1), List.of(), 1, "failed",
                "Failed", "desired=1 active=0 succeeded=0 failed=1"));
        t.add(c("Never ignores the active deadline", job(s -> {
            s.getCompletionPolicy().setType("Never");
            s.getCompletionPolicy().setActiveDeadlineSeconds(60L);
        }), List.of(pod("n0", "Running")), nodes(1), List.of(), 0, "running", null,
                "desired=1 active=1 succeeded=0 failed=0"));
        t.add(new Case("first sync records the start and looks again at the deadline", job(s -> s.getCompletionPolicy()
                .setActiveDeadlineSeconds(120L), st -> {
                    st.setStartTime(null);
                    st.setPhase("");
                }), List.of(), nodes(1), List.of("n0"), 0, "running", null,
                "desired=1 active=1 succeeded=0 failed=0", false, false, Duration.ofSeconds(120)));
        t.add(c("paused: nothing created, phase paused", job(s -> s.setPaused(true)), List.of(), nodes(2), List.of(),
                0, "paused", null, "desired=2 active=0 succeeded=0 failed=0"));
        t.add(c("resumed: running again and creating", job(s -> { }, st -> st.setPhase("paused")), List.of(),
                nodes(1), List.of("n0"), 0, "running", null, "desired=1 active=1 succeeded=0 failed=0"));
        t.add(c("a failed job stays failed", job(s -> { }, st -> st.setPhase("failed")), List.of(), nodes(2),
                List.of(), 0, "failed", null, "desired=2 active=0 succeeded=0 failed=0"));
        t.add(new Case("finished, TTL passed: delete the job", job(s -> s.getCompletionPolicy()
                .setTtlSecondsAfterFinished(60), st -> finishedAt(st, "2026-01-01T00:08:00Z")), List.of(), nodes(1),
                List.of(), 0, null, null, null, true, false, null));
        t.add(new Case("finished, TTL not passed: wait", job(s -> s.getCompletionPolicy()
                .setTtlSecondsAfterFinished(600), st -> finishedAt(st, "2026-01-01T00:08:00Z")), List.of(), nodes(1),
                List.of(), 0, null, null, null, false, false, Duration.ofSeconds(480)));
        return t;
    }

    static void finishedAt(BroadcastJobStatus st, String time) {
        st.setPhase("completed");
        st.setCompletionTime(time);
        st.setConditions(List.of(new JobCondition("Complete", "True", time, "Complete", "done")));
    }

    @Test
    void table() {
        List<Case> cases = cases();
        assertTrue(cases.size() >= 30, "at least 30 cases, has " + cases.size());
        List<String> failures = new ArrayList<>();
        for (Case k : cases) {
            BroadcastJobPlan p = BroadcastJobDecision.decide(k.job(), k.pods(), k.nodes(), NOW);
            BroadcastJobStatus s = p.status();
            String condition = s == null || s.getConditions() == null || s.getConditions().isEmpty() ? null
                    : s.getConditions().get(s.getConditions().size() - 1).getType();
            String got = "create=" + p.createOn() + " deletes=" + p.deletes().size() + " phase="
                    + (s == null ? null : s.getPhase()) + " condition=" + condition + " counts="
                    + (s == null ? null : "desired=" + s.getDesired() + " active=" + s.getActive() + " succeeded="
                    + s.getSucceeded() + " failed=" + s.getFailed()) + " deleteJob=" + p.deleteJob() + " pause="
                    + p.pauseSpec() + (k.requeue() == null ? "" : " requeue=" + p.requeueAfter());
            String want = "create=" + k.create() + " deletes=" + k.deletes() + " phase=" + k.phase() + " condition="
                    + k.condition() + " counts=" + k.counts() + " deleteJob=" + k.deleteJob() + " pause=" + k.pause()
                    + (k.requeue() == null ? "" : " requeue=" + k.requeue());
            if (!got.equals(want)) {
                failures.add(k.name() + ":\n  want " + want + "\n  got  " + got + "\n  (" + p.reason() + ")");
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void conditionsAndEventsAsOpenKruiseWritesThem() {
        BroadcastJobPlan p = BroadcastJobDecision.decide(job(s -> { }), List.of(pod("n0", "Failed")), nodes(1), NOW);
        JobCondition c = p.status().getConditions().get(0);
        assertEquals("Failed", c.getType());
        assertEquals("True", c.getStatus());
        assertEquals("Failed", c.getReason());
        assertEquals("failure policy is FailurePolicyTypeFailFast and failed pod is found", c.getMessage());
        assertEquals(p.status().getCompletionTime(), c.getLastTransitionTime());
        assertTrue(p.events().stream().anyMatch(e -> e.reason().equals("failed pod is found")
                && e.message().endsWith("0 pods succeeded, 1 pods failed")), p.events().toString());
        BroadcastJobPlan done = BroadcastJobDecision.decide(job(s -> { }), List.of(pod("n0", "Succeeded")), nodes(1),
                NOW);
        assertEquals("Job completed, 1 pods succeeded, 0 pods failed", done.status().getConditions().get(0).getMessage());
        assertTrue(done.events().stream().anyMatch(e -> e.reason().equals("JobComplete")
                && e.message().equals("Job ns/bj is completed, 1 pods succeeded, 0 pods failed")));
        assertEquals(1L, done.debugSummary().counts().get("succeeded"));
    }

    static List<String> reasons(BroadcastJobPlan p) {
        return p.reasons().stream().map(dev.kruisevertx.controller.reason.BlockReason::text).toList();
    }

    @Test
    void reasonsNameWhatHoldsTheJobBack() {
        BroadcastJobPlan par = BroadcastJobDecision.decide(job(s -> s.setParallelism(new IntOrString(1))),
                List.of(pod("n0", "Running")), nodes(3), NOW);
        assertEquals(List.of("Parallelism: spec.parallelism 1 reached: 1 active (bj-n0); 2 nodes wait for a pod (n1, n2)"),
                reasons(par));
        assertEquals(List.of(), reasons(BroadcastJobDecision.decide(job(s -> { }), List.of(), nodes(3), NOW)),
                "nothing held when every node gets its pod");
        BroadcastJobPlan paused = BroadcastJobDecision.decide(job(s -> s.setPaused(true)), List.of(), nodes(2), NOW);
        assertEquals(List.of("Paused: spec.paused is true: 2 nodes wait for a pod"), reasons(paused));
        assertTrue(paused.reasons().get(0).code().intended());
        BroadcastJobPlan nowhere = BroadcastJobDecision.decide(job(s -> s.getTemplate().getSpec()
                        .setNodeSelector(java.util.Map.of("disk", "ssd"))),
                List.of(), List.of(node("n0"), node("n1"), node("n2", n -> n.getSpec().setUnschedulable(true))), NOW);
        assertEquals(List.of("NoNodeFits: 0/3 nodes fit the pod template: 3 node(s) didn't match Pod's node "
                + "affinity/selector"), reasons(nowhere));
        BroadcastJobPlan failFast = BroadcastJobDecision.decide(job(s -> { }),
                List.of(pod("n0", "Failed"), pod("n1", "Running")), nodes(2), NOW);
        assertEquals(List.of("FailurePolicy: failurePolicy FailFast: 1 failed pod (bj-n0); the job failed and creates "
                + "no more pods"), reasons(failFast));
        BroadcastJob failed = job(s -> { }, st -> {
            st.setPhase("failed");
            st.setFailed(1);
            st.setConditions(failFast.status().getConditions());
        });
        assertEquals(reasons(failFast), reasons(BroadcastJobDecision.decide(failed, List.of(pod("n0", "Failed")),
                nodes(2), NOW)), "still told once the job is finished");
        BroadcastJobPlan pause = BroadcastJobDecision.decide(job(s -> s.getFailurePolicy().setType("Pause")),
                List.of(pod("n0", "Failed")), nodes(3), NOW);
        assertEquals(List.of("FailurePolicy: failurePolicy Pause: 1 failed pod (bj-n0); spec.paused is set: 2 node(s) "
                + "wait for a pod"), reasons(pause));
        assertEquals(reasons(par), par.debugSummary().reasons().stream()
                .map(dev.kruisevertx.controller.reason.BlockReason::text).toList(), "the debug plan carries them");
    }
}
