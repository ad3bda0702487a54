package dev.kruisevertx.daemonset;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetScaleStrategy;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetSpec;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetStatus;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.api.common.Lifecycle;
import dev.kruisevertx.api.common.LifecycleHook;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.scheduling.DaemonPlacement;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decision tables of the Advanced DaemonSet planner: node eligibility, which pods are created and deleted per step,
 * rolling update within maxUnavailable, surge, partition, the update's node selector, pause, OnDelete, in-place,
 * progressive create, burst and the preDelete hook. Nodes are written {@code n1{pool=a}!key:Effect}, pods
 * {@code name@node:revision:state[:extra]} (revision old|new; state avail|ready|notready|failed|term|pending;
 * extra pd (PreparingDelete), hook (held by the preDelete hook), noip (cannot update in place)); pods are older the
 * earlier they are listed.
 */
class DaemonSetPlannerTest {
    static final Instant NOW = Instant.parse("2026-01-01T00:10:00Z");
    static final String NEW = "newrev";
    static final String OLD = "oldrev";

    static DaemonSet set(String config) {
        DaemonSet ds = new DaemonSet();
        ds.getMetadata().setName("ds");
        ds.getMetadata().setNamespace("default");
        ds.getMetadata().setUid("ds-uid");
        ds.getMetadata().setGeneration(2L);
        DaemonSetSpec spec = new DaemonSetSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "d").build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", "d").endMetadata()
                .withSpec(new PodSpec()).build());
        PodSpec ps = spec.getTemplate().getSpec();
        DaemonSetUpdateStrategy us = new DaemonSetUpdateStrategy();
        us.setType("RollingUpdate");
        RollingUpdateDaemonSet ru = new RollingUpdateDaemonSet();
        ru.setRollingUpdateType("Standard");
        ru.setMaxUnavailable(new IntOrString(1));
        ru.setMaxSurge(new IntOrString(0));
        us.setRollingUpdate(ru);
        spec.setUpdateStrategy(us);
        ds.setSpec(spec);
        DaemonSetStatus st = new DaemonSetStatus();
        ds.setStatus(st);
        for (String kv : config.isBlank() ? new String[0] : config.trim().split("\\s+")) {
            String k = kv.contains("=") ? kv.substring(0, kv.indexOf('=')) : kv;
            String v = kv.contains("=") ? kv.substring(kv.indexOf('=') + 1) : "";
            switch (k) {
                case "ondelete" -> {
                    us.setType("OnDelete");
                    us.setRollingUpdate(null);
                }
                case "mu" -> ru.setMaxUnavailable(intOrString(v));
                case "ms" -> ru.setMaxSurge(intOrString(v));
                case "partition" -> ru.setPartition(intOrString(v));
                case "paused" -> ru.setPaused(true);
                case "inplace" -> ru.setRollingUpdateType("InPlaceIfPossible");
                case "updsel" -> ru.setSelector(new LabelSelectorBuilder().addToMatchLabels(v.split(":")[0], v.split(":")[1]).build());
                case "progressive" -> {
                    DaemonSetScaleStrategy ss = new DaemonSetScaleStrategy();
                    ss.setPartitionedScaling(true);
                    spec.setScaleStrategy(ss);
                }
                case "predelete" -> {
                    Lifecycle l = new Lifecycle();
                    LifecycleHook h = new LifecycleHook();
                    h.setLabelsHandler(Map.of("hold", "true"));
                    l.setPreDelete(h);
                    spec.setLifecycle(l);
                }
                case "minready" -> spec.setMinReadySeconds(Integer.parseInt(v));
                case "burst" -> spec.setBurstReplicas(intOrString(v));
                case "nodesel" -> ps.setNodeSelector(Map.of(v.split(":")[0], v.split(":")[1]));
                case "nodename" -> ps.setNodeName(v);
                case "hostnet" -> ps.setHostNetwork(true);
                case "lastdesired" -> st.setDesiredNumberScheduled(Integer.parseInt(v));
                case "deleting" -> ds.getMetadata().setDeletionTimestamp("2026-01-01T00:00:00Z");
                case "emptysel" -> spec.setSelector(new LabelSelectorBuilder().build());
                default -> throw new IllegalArgumentException("unknown config " + k);
            }
        }
        return ds;
    }

    static IntOrString intOrString(String v) {
        return v.endsWith("%") ? new IntOrString(v) : new IntOrString(Integer.parseInt(v));
    }

    static List<Node> nodes(String spec) {
        List<Node> out = new ArrayList<>();
        for (String n : spec.isBlank() ? new String[0] : spec.split(",")) {
            String name = n;
            Map<String, String> labels = new HashMap<>();
            List<Taint> taints = new ArrayList<>();
            if (name.contains("!")) {
                String[] t = name.substring(name.indexOf('!') + 1).split(":");
                taints.add(new Taint(t[1], t[0], null, null));
                name = name.substring(0, name.indexOf('!'));
            }
            if (name.contains("{")) {
                for (String kv : name.substring(name.indexOf('{') + 1, name.indexOf('}')).split(";")) {
                    labels.put(kv.split("=")[0], kv.split("=")[1]);
                }
                name = name.substring(0, name.indexOf('{'));
            }
            out.add(new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                    .withNewSpec().withTaints(taints).endSpec().build());
        }
        return out;
    }

    static List<Pod> pods(String spec) {
        List<Pod> out = new ArrayList<>();
        int i = 0;
        for (String p : spec.isBlank() ? new String[0] : spec.split(",")) {
            String[] parts = p.split(":");
            String name = parts[0].substring(0, parts[0].indexOf('@'));
            String node = parts[0].substring(parts[0].indexOf('@') + 1);
            String rev = parts[1].equals("new") ? NEW : OLD;
            String state = parts[2];
            String extra = parts.length > 3 ? parts[3] : "";
            Instant created = NOW.minus(Duration.ofMinutes(9)).plusSeconds(i++);
            PodBuilder b = new PodBuilder().withNewMetadata().withName(name).withNamespace("default")
                    .withCreationTimestamp(Pods.formatTime(created))
                    .addToLabels("app", "d").addToLabels(WellKnown.CONTROLLER_REVISION_HASH_LABEL, rev).endMetadata();
            PodSpec ps = DaemonPlacement.forNode(new PodSpec(), node);
            if (!state.equals("pending")) {
                ps.setNodeName(node);
            }
            b.withSpec(ps);
            String phase = switch (state) {
                case "failed" -> "Failed";
                case "pending" -> "Pending";
                default -> "Running";
            };
            boolean ready = state.equals("avail") || state.equals("ready");
            // "ready" turned ready 5 s ago (not available with minReadySeconds >= 5), "avail" 5 minutes ago
            Instant since = state.equals("ready") ? NOW.minusSeconds(5) : NOW.minusSeconds(300);
            b.withNewStatus().withPhase(phase).addNewCondition().withType("Ready").withStatus(ready ? "True" : "False")
                    .withLastTransitionTime(Pods.formatTime(since)).endCondition().endStatus();
            Pod pod = b.build();
            if (state.equals("term")) {
                pod.getMetadata().setDeletionTimestamp(Pods.formatTime(NOW));
            }
            if (extra.contains("pd")) {
                pod.getMetadata().getLabels().put(WellKnown.LIFECYCLE_STATE_LABEL, WellKnown.LIFECYCLE_STATE_PREPARING_DELETE);
            }
            if (extra.contains("hook")) {
                pod.getMetadata().getLabels().put("hold", "true");
            }
            if (extra.contains("noip")) {
                pod.getMetadata().getLabels().put("noip", "true");
            }
            out.add(pod);
        }
        return out;
    }

    static DaemonSetPlan decide(String config, String nodes, String pods) {
        return DaemonSetPlanner.decide(new DaemonSetSnapshot(set(config), nodes(nodes), pods(pods), NEW,
                p -> !p.getMetadata().getLabels().containsKey("noip"), NOW));
    }

    static String sorted(List<String> items) {
        return String.join(",", new TreeSet<>(items));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "-", value = {
            // name | config | nodes | pods | phase | creates | deletes (pod:REASON) | inPlace | prepareDelete
            // --- node eligibility and the manage step
            "every node gets a pod|-|n1,n2,n3|-|MANAGE|n1,n2,n3|-|-|-",
            "node selector limits the nodes|nodesel=pool:a|n1{pool=a},n2{pool=b},n3|-|MANAGE|n1|-|-|-",
            "nodeName pins one node|nodename=n2|n1,n2|-|MANAGE|n2|-|-|-",
            "untolerated NoSchedule taint gets no new pod|-|n1!dedicated:NoSchedule,n2|-|MANAGE|n2|-|-|-",
            "untolerated NoSchedule taint keeps a running pod|-|n1!dedicated:NoSchedule|a@n1:new:avail|STEADY|-|-|-|-",
            "untolerated NoExecute taint removes the pod|-|n1!dedicated:NoExecute|a@n1:new:avail|MANAGE|-|a:NODE_NOT_ELIGIBLE|-|-",
            "cordoned node is tolerated|-|n1!node.kubernetes.io/unschedulable:NoSchedule|-|MANAGE|n1|-|-|-",
            "not-ready node is tolerated|-|n1!node.kubernetes.io/not-ready:NoExecute|-|MANAGE|n1|-|-|-",
            "network-unavailable only for host network|-|n1!node.kubernetes.io/network-unavailable:NoSchedule,n2|-|MANAGE|n2|-|-|-",
            "network-unavailable tolerated with host network|hostnet|n1!node.kubernetes.io/network-unavailable:NoSchedule|-|MANAGE|n1|-|-|-",
            "relabelled node loses its pod|nodesel=pool:a|n1{pool=b}|a@n1:new:avail|MANAGE|-|a:NODE_NOT_ELIGIBLE|-|-",
            "terminating pod on a node that no longer fits is left alone|nodesel=pool:a|n1{pool=b}|a@n1:new:term|STEADY|-|-|-|-",
            "every node has its pod|-|n1,n2|a@n1:new:avail,b@n2:new:avail|STEADY|-|-|-|-",
            "a terminating pod blocks the new one|-|n1|a@n1:new:term|STEADY|-|-|-|-",
            "failed pod is deleted|-|n1|a@n1:new:failed|MANAGE|-|a:FAILED|-|-",
            "excess pods: all but the oldest go|-|n1|a@n1:new:avail,b@n1:new:avail,c@n1:old:avail|MANAGE|-|b:EXCESS,c:EXCESS|-|-",
            "unscheduled pod for a deleted node is deleted|-|n1|a@n1:new:avail,b@gone:new:pending|MANAGE|-|b:NODE_GONE|-|-",
            "scheduled pod on a deleted node is left to pod GC|-|n1|a@n1:new:avail,b@gone:new:avail|STEADY|-|-|-|-",
            "a pending pod counts as placed|-|n1|a@n1:new:pending|STEADY|-|-|-|-",
            "new node gets its pod while others run|-|n1,n2,n3|a@n1:new:avail,b@n2:new:avail|MANAGE|n3|-|-|-",
            "burst caps creations|burst=2|n1,n2,n3,n4|-|MANAGE|n1,n2|-|-|-",
            "burst percentage of the last desired count|burst=50% lastdesired=4|n1,n2,n3,n4|-|MANAGE|n1,n2|-|-|-",
            "manage first: no update step while creating|-|n1,n2|a@n1:old:avail|MANAGE|n2|-|-|-",
            "PreparingDelete pod released by its hook is deleted|predelete|n1|a@n1:old:avail:pd|MANAGE|-|a:PREPARING_DELETE|-|-",
            "node removed from the selection with a hooked pod: marked, not deleted|predelete nodesel=pool:a|n1{pool=b}|a@n1:new:avail:hook|MANAGE|-|-|-|a",
            "hooked pod already PreparingDelete waits|predelete nodesel=pool:a|n1{pool=b}|a@n1:new:avail:hook;pd|STEADY|-|-|-|-",
            // --- progressive create (partitionedScaling)
            "progressive create stays within the partition|progressive partition=2 lastdesired=4|n1,n2,n3,n4|-|MANAGE|n1,n2|-|-|-",
            "progressive create counts new pods already there|progressive partition=2 lastdesired=4|n1,n2,n3,n4|a@n1:new:avail|MANAGE|n2|-|-|-",
            "progressive create done when new pods reach desired-partition|progressive partition=2 lastdesired=4|n1,n2,n3,n4|a@n1:new:avail,b@n2:new:avail|STEADY|-|-|-|-",
            "without progressive create the partition does not limit creation|partition=2 lastdesired=4|n1,n2,n3,n4|-|MANAGE|n1,n2,n3,n4|-|-|-",
            "progressive with partition 0 creates everywhere|progressive partition=0|n1,n2|-|MANAGE|n1,n2|-|-|-",
            // --- rolling update within maxUnavailable
            "maxUnavailable 1 replaces one old pod, last node name first|-|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail|ROLLING_UPDATE|-|c:ROLLING_UPDATE|-|-",
            "maxUnavailable 2|mu=2|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail|ROLLING_UPDATE|-|b:ROLLING_UPDATE,c:ROLLING_UPDATE|-|-",
            "maxUnavailable 50% rounds up|mu=50%|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail|ROLLING_UPDATE|-|b:ROLLING_UPDATE,c:ROLLING_UPDATE|-|-",
            "an unavailable new pod uses the budget|-|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:new:notready|STEADY|-|-|-|-",
            "an available new pod frees the budget|-|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:new:avail|ROLLING_UPDATE|-|b:ROLLING_UPDATE|-|-",
            "an unavailable old pod is replaced beyond the budget|-|n1,n2,n3|a@n1:old:notready,b@n2:old:avail,c@n3:old:avail|ROLLING_UPDATE|-|a:ROLLING_UPDATE,c:ROLLING_UPDATE|-|-",
            "minReadySeconds: a just-ready new pod still counts unavailable|minready=30|n1,n2|a@n1:old:avail,b@n2:new:ready|STEADY|-|-|-|-",
            "minReadySeconds passed: the next pod goes|minready=30|n1,n2|a@n1:old:avail,b@n2:new:avail|ROLLING_UPDATE|-|a:ROLLING_UPDATE|-|-",
            "all updated|-|n1,n2|a@n1:new:avail,b@n2:new:avail|STEADY|-|-|-|-",
            "paused: nothing is updated|paused|n1,n2|a@n1:old:avail,b@n2:old:avail|STEADY|-|-|-|-",
            "paused still places pods on new nodes|paused|n1,n2|a@n1:old:avail|MANAGE|n2|-|-|-",
            "OnDelete: nothing is updated|ondelete|n1,n2|a@n1:old:avail,b@n2:old:avail|STEADY|-|-|-|-",
            "OnDelete: a deleted old pod is replaced at the new revision|ondelete|n1,n2|a@n1:old:avail|MANAGE|n2|-|-|-",
            // --- partition and the update's node selector
            "partition 2 of 3 updates one node|partition=2 lastdesired=3 mu=3|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail|ROLLING_UPDATE|-|c:ROLLING_UPDATE|-|-",
            "partition reached|partition=2 lastdesired=3 mu=3|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:new:avail|STEADY|-|-|-|-",
            "partition at least all nodes: nothing|partition=5 lastdesired=3|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail|STEADY|-|-|-|-",
            "partition percentage of the last desired count|partition=50% lastdesired=4 mu=4|n1,n2,n3,n4|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail,d@n4:old:avail|ROLLING_UPDATE|-|c:ROLLING_UPDATE,d:ROLLING_UPDATE|-|-",
            "update selector: only matching nodes update|updsel=tier:x mu=3|n1{tier=x},n2,n3{tier=x}|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail|ROLLING_UPDATE|-|a:ROLLING_UPDATE,c:ROLLING_UPDATE|-|-",
            "update selector and partition|updsel=tier:x mu=3 partition=2 lastdesired=3|n1{tier=x},n2,n3{tier=x}|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail|ROLLING_UPDATE|-|c:ROLLING_UPDATE|-|-",
            "update selector matches nothing|updsel=tier:y|n1{tier=x}|a@n1:old:avail|STEADY|-|-|-|-",
            // --- in place
            "InPlaceIfPossible updates in place|inplace|n1,n2|a@n1:old:avail,b@n2:old:avail|ROLLING_UPDATE|-|-|b|-",
            "InPlaceIfPossible falls back to delete|inplace|n1,n2|a@n1:old:avail,b@n2:old:avail:noip|ROLLING_UPDATE|-|b:ROLLING_UPDATE|-|-",
            "InPlaceIfPossible with maxUnavailable 2 and partition|inplace mu=2 partition=1 lastdesired=3|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail|ROLLING_UPDATE|-|-|b,c|-",
            "in-place updating pod (not ready) holds the budget|inplace|n1,n2|a@n1:old:avail,b@n2:new:notready|STEADY|-|-|-|-",
            // --- preDelete hook in a rolling update
            "rolling update with a hooked pod marks it|predelete|n1,n2|a@n1:old:avail,b@n2:old:avail:hook|ROLLING_UPDATE|-|-|-|b",
            "a held PreparingDelete old pod counts unavailable|predelete|n1,n2|a@n1:old:avail,b@n2:old:avail:hook;pd|STEADY|-|-|-|-",
            "unhooked pods are deleted despite the hook config|predelete|n1,n2|a@n1:old:avail,b@n2:old:avail|ROLLING_UPDATE|-|b:ROLLING_UPDATE|-|-",
            // --- surge
            "surge: a new pod next to the old one first|ms=1 mu=0|n1,n2|a@n1:old:avail,b@n2:old:avail|ROLLING_UPDATE|n2|-|-|-",
            "surge 2|ms=2 mu=0|n1,n2,n3|a@n1:old:avail,b@n2:old:avail,c@n3:old:avail|ROLLING_UPDATE|n2,n3|-|-|-",
            "surge: old pod stays while the new one is not available|ms=1 mu=0|n1,n2|a@n1:old:avail,b@n2:old:avail,c@n2:new:notready|STEADY|-|-|-|-",
            "surge: old pod goes once the new one is available|ms=1 mu=0|n1,n2|a@n1:old:avail,b@n2:old:avail,c@n2:new:avail|MANAGE|-|b:SURGE_REPLACED|-|-",
            "surge: an old pod that is not ready goes at once|ms=1 mu=0|n1,n2|a@n1:old:avail,b@n2:old:notready,c@n2:new:notready|MANAGE|-|b:SURGE_REPLACED|-|-",
            "surge: a node with an unavailable old pod surges beyond the limit|ms=1 mu=0|n1,n2,n3|a@n1:old:notready,b@n2:old:avail,c@n3:old:avail|ROLLING_UPDATE|n1,n3|-|-|-",
            "surge: minReadySeconds holds the old pod and requeues|ms=1 mu=0 minready=30|n1|a@n1:old:avail,b@n1:new:ready|STEADY|-|-|-|-",
            "surge: a node without pods gets one|ms=1 mu=0|n1|-|MANAGE|n1|-|-|-",
            "surge: surplus new pods go|ms=1 mu=0|n1|a@n1:new:avail,b@n1:new:notready|MANAGE|-|b:EXCESS|-|-",
            "surge with partition|ms=1 mu=0 partition=1 lastdesired=2|n1,n2|a@n1:old:avail,b@n2:old:avail|ROLLING_UPDATE|n2|-|-|-",
            "surge paused|ms=1 mu=0 paused|n1|a@n1:old:avail|STEADY|-|-|-|-",
            // --- skipped
            "being deleted|deleting|n1|-|SKIPPED|-|-|-|-",
            "selecting everything|emptysel|n1|-|SKIPPED|-|-|-|-",
    })
    void decisionTable(String name, String config, String nodes, String pods, DaemonSetPlan.Phase phase, String creates,
                       String deletes, String inPlace, String prepare) {
        DaemonSetPlan plan = decide(config == null ? "" : config, nodes, pods == null ? "" : pods);
        assertEquals(phase, plan.phase(), name + ": " + plan.reason());
        assertEquals(creates == null ? "" : creates, sorted(plan.createOnNodes()), name + " creates");
        assertEquals(deletes == null ? "" : sorted(List.of(deletes.split(","))),
                sorted(plan.deletions().stream().map(d -> d.pod().getMetadata().getName() + ":" + d.reason()).toList()),
                name + " deletes");
        assertEquals(inPlace == null ? "" : inPlace, sorted(plan.inPlaceUpdates().stream().map(p -> p.getMetadata().getName()).toList()),
                name + " in place");
        assertEquals(prepare == null ? "" : prepare, sorted(plan.prepareDelete().stream().map(p -> p.getMetadata().getName()).toList()),
                name + " prepareDelete");
    }

    @Test
    void statusCountsAsUpstream() {
        DaemonSetPlan plan = decide("nodesel=pool:a minready=30", "n1{pool=a},n2{pool=a},n3{pool=a},n4{pool=b},n5{pool=a}",
                "a@n1:new:avail,b@n2:old:ready,c@n3:new:notready,d@n4:new:avail");
        DaemonSetStatus s = plan.status();
        assertEquals(4, s.getDesiredNumberScheduled());
        assertEquals(3, s.getCurrentNumberScheduled());
        assertEquals(1, s.getNumberMisscheduled());
        assertEquals(2, s.getNumberReady());
        assertEquals(1, s.getNumberAvailable());
        assertEquals(3, s.getNumberUnavailable());
        assertEquals(2, s.getUpdatedNumberScheduled());
        assertEquals(NEW, s.getUpdateRevision());
        assertEquals(0, s.getObservedGeneration(), "a manage step does not observe the generation");
        assertTrue(plan.requeueAfter().compareTo(Duration.ofSeconds(26)) >= 0 && plan.requeueAfter().compareTo(Duration.ofSeconds(27)) <= 0,
                "requeue when b turns available: " + plan.requeueAfter());
    }

    @Test
    void fullSyncObservesTheGeneration() {
        DaemonSetPlan plan = decide("", "n1", "a@n1:new:avail");
        assertEquals(2, plan.status().getObservedGeneration());
        assertTrue(plan.statusOnly());
        assertEquals(Duration.ZERO, plan.requeueAfter());
    }

    @Test
    void inPlaceUpdateInProgressIsNotAvailable() {
        List<Pod> ps = pods("a@n1:new:avail");
        ps.get(0).getSpec().setReadinessGates(List.of(new io.fabric8.kubernetes.api.model.PodReadinessGate(WellKnown.INPLACE_UPDATE_READY_CONDITION)));
        ps.get(0).getStatus().getConditions().add(new io.fabric8.kubernetes.api.model.PodConditionBuilder()
                .withType(WellKnown.INPLACE_UPDATE_READY_CONDITION).withStatus("False").build());
        DaemonSetPlan plan = DaemonSetPlanner.decide(new DaemonSetSnapshot(set(""), nodes("n1"), ps, NEW, p -> true, NOW));
        assertEquals(1, plan.status().getNumberReady());
        assertEquals(0, plan.status().getNumberAvailable());
    }

    @Test
    void surgeWaitRequeuesWhenTheNewPodTurnsAvailable() {
        DaemonSetPlan plan = decide("ms=1 mu=0 minready=30", "n1", "a@n1:old:avail,b@n1:new:ready");
        assertFalse(plan.requeueAfter().isZero());
        assertTrue(plan.requeueAfter().compareTo(Duration.ofSeconds(30)) <= 0, plan.requeueAfter().toString());
    }

    @Test
    void safetyNeverMoreThanMaxUnavailableNodesWithoutAnAvailablePod() {
        // Walk a 20-node rollout step by step, applying each plan as if every action completed and new pods became
        // available only on the step after their creation.
        int nodesCount = 20;
        StringBuilder nodeSpec = new StringBuilder();
        for (int i = 0; i < nodesCount; i++) {
            nodeSpec.append(i == 0 ? "" : ",").append("n").append(String.format("%02d", i));
        }
        Map<String, String> state = new java.util.TreeMap<>();
        for (int i = 0; i < nodesCount; i++) {
            state.put(String.format("n%02d", i), "old:avail");
        }
        for (int step = 0; step < 200; step++) {
            String podSpec = state.entrySet().stream().filter(e -> e.getValue() != null)
                    .map(e -> "p" + e.getKey() + "@" + e.getKey() + ":" + e.getValue()).collect(Collectors.joining(","));
            long unavailable = state.values().stream().filter(v -> v == null || !v.endsWith("avail")).count();
            assertTrue(unavailable <= 3, "step " + step + ": " + unavailable + " nodes without an available pod");
            DaemonSetPlan plan = decide("mu=3", nodeSpec.toString(), podSpec);
            state.replaceAll((k, v) -> v != null && v.equals("new:notready") ? "new:avail" : v);
            plan.deletions().forEach(d -> state.put(d.node(), null));
            plan.createOnNodes().forEach(n -> state.put(n, "new:notready"));
            if (state.values().stream().allMatch("new:avail"::equals)) {
                return;
            }
        }
        throw new AssertionError("the rollout did not finish: " + state);
    }

    @Test
    void aFailedPodInBackoffWaitsAndRequeues() {
        DaemonSetPlan plan = DaemonSetPlanner.decide(new DaemonSetSnapshot(set(""), nodes("n1,n2"),
                pods("a@n1:new:failed,b@n2:new:failed"), NEW, p -> true, NOW,
                node -> node.equals("n1") ? Duration.ofSeconds(30) : Duration.ZERO, false));
        assertEquals(List.of("b:FAILED"), plan.deletions().stream().map(d -> d.pod().getMetadata().getName() + ":" + d.reason()).toList());
        assertEquals(Duration.ofSeconds(30), plan.requeueAfter());
    }

    @Test
    void gateDaemonSetPruneIneligibleNodesLeavesIneligibleNodesOutOfTheUpdate() {
        // n1 no longer fits (NoSchedule: its pod stays) and its old pod is not ready
        String nodes = "n1!dedicated:NoSchedule,n2,n3";
        String pods = "a@n1:old:notready,b@n2:old:avail,c@n3:old:avail";
        for (boolean gate : new boolean[]{false, true}) {
            DaemonSetPlan plan = DaemonSetPlanner.decide(new DaemonSetSnapshot(set(""), nodes(nodes), pods(pods), NEW,
                    p -> true, NOW, node -> Duration.ZERO, gate));
            assertEquals(gate ? "c:ROLLING_UPDATE" : "a:ROLLING_UPDATE,c:ROLLING_UPDATE",
                    sorted(plan.deletions().stream().map(d -> d.pod().getMetadata().getName() + ":" + d.reason()).toList()),
                    "gate " + gate);
        }
    }

    @Test
    void failedPodBackoffDoublesUpToFifteenMinutes() {
        FailedPodBackoff b = new FailedPodBackoff();
        String key = FailedPodBackoff.key("uid", 1, "n1");
        assertEquals(Duration.ZERO, b.remaining(key, NOW));
        b.next(key, NOW);
        assertEquals(Duration.ofSeconds(1), b.remaining(key, NOW));
        b.next(key, NOW.plusSeconds(1));
        assertEquals(Duration.ofSeconds(2), b.remaining(key, NOW.plusSeconds(1)));
        Instant t = NOW.plusSeconds(1);
        for (int i = 0; i < 20; i++) {
            t = t.plusSeconds(60);
            b.next(key, t);
        }
        assertEquals(FailedPodBackoff.MAX, b.remaining(key, t));
        assertEquals(Duration.ZERO, b.remaining(FailedPodBackoff.key("uid", 2, "n1"), t), "a new generation starts over");
        assertEquals(Duration.ZERO, b.remaining(key, t.plus(FailedPodBackoff.MAX)));
    }

    @Test
    void debugSummaryHasNamesCountsAndReasonsOnly() {
        DaemonSetPlan plan = decide("mu=2", "n1,n2,n3", "a@n1:old:avail,b@n2:old:avail,c@n3:old:avail");
        var summary = plan.debugSummary();
        assertTrue(summary.summary().startsWith("ROLLING_UPDATE"), summary.summary());
        assertEquals(2L, summary.counts().get("maxUnavailable"));
        assertEquals(3L, summary.counts().get("desired"));
        assertTrue(summary.actions().contains("delete pod c on node n3 (ROLLING_UPDATE)"), summary.actions().toString());
    }

    /**
     * A pod just updated in place (InPlaceUpdateReady False) that the kubelet still shows Ready holds maxUnavailable:
     * without this the next reconcile took down another node before the kubelet turned the first one not Ready.
     */
    @org.junit.jupiter.api.Test
    void aPodInTheMiddleOfAnInPlaceUpdateHoldsTheBudget() {
        List<Pod> pods = pods("a@n1:old:avail,b@n2:old:avail,c@n3:new:avail");
        Pod updating = pods.get(2);
        updating.getSpec().setReadinessGates(List.of(new io.fabric8.kubernetes.api.model.PodReadinessGate(
                WellKnown.INPLACE_UPDATE_READY_CONDITION)));
        updating.getStatus().getConditions().add(new io.fabric8.kubernetes.api.model.PodConditionBuilder()
                .withType(WellKnown.INPLACE_UPDATE_READY_CONDITION).withStatus("False").build());
        DaemonSetPlan plan = DaemonSetPlanner.decide(new DaemonSetSnapshot(set("inplace"), nodes("n1,n2,n3"), pods, NEW,
                p -> true, NOW));
        assertEquals(DaemonSetPlan.Phase.STEADY, plan.phase(), plan.reason());
        assertTrue(plan.inPlaceUpdates().isEmpty() && plan.deletions().isEmpty());

        updating.getStatus().getConditions().get(1).setStatus("True");
        DaemonSetPlan next = DaemonSetPlanner.decide(new DaemonSetSnapshot(set("inplace"), nodes("n1,n2,n3"), pods, NEW,
                p -> true, NOW));
        assertEquals(List.of("b"), next.inPlaceUpdates().stream().map(p -> p.getMetadata().getName()).toList());
    }
}
