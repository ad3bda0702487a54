package dev.kruisevertx.sidecarterminator;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sidecar termination table, one case per row, after OpenKruise v1.9.0's sidecarterminator behaviour. */
class SidecarTerminatorDecisionTest {
    static final String EXIT = "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT";
    static final String WITH_IMAGE = "KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE";
    static final String IGNORE = "KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE";

    /** A container: {@code name[:env=value...]}, and its state: running, exit code, or null for no status. */
    record C(String name, Map<String, String> env, Integer exitCode, boolean running) {
        static C main(Integer exit) {
            return new C("main", Map.of(), exit, exit == null);
        }

        static C sidecar(String name, Map<String, String> env, Integer exit) {
            return new C(name, env, exit, exit == null);
        }
    }

    static Pod pod(String policy, String phase, C... containers) {
        PodBuilder b = new PodBuilder().withNewMetadata().withName("job-pod").withNamespace("ns").withUid("pod-uid")
                .endMetadata().withNewSpec().withRestartPolicy(policy).withNodeName("node-a").endSpec()
                .withNewStatus().withPhase(phase).endStatus();
        List<ContainerStatus> statuses = new ArrayList<>();
        for (C c : containers) {
            ContainerBuilder cb = new ContainerBuilder().withName(c.name()).withImage("img/" + c.name() + ":1");
            c.env().forEach((k, v) -> cb.addToEnv(new EnvVar(k, v, null)));
            b.editSpec().addToContainers(cb.build()).endSpec();
            ContainerStateBuilder state = new ContainerStateBuilder();
            if (c.exitCode() != null) {
                state.withNewTerminated().withExitCode(c.exitCode()).endTerminated();
            } else {
                state.withNewRunning().endRunning();
            }
            statuses.add(new ContainerStatusBuilder().withName(c.name()).withState(state.build()).build());
        }
        return b.editStatus().withContainerStatuses(statuses).endStatus().build();
    }

    static SidecarTerminatorPlan decide(Pod pod) {
        return SidecarTerminatorDecision.decide(pod, false);
    }

    @Test
    void neverPodMainDoneSidecarRunningIsStoppedByCrr() {
        SidecarTerminatorPlan p = decide(pod("Never", "Running", C.main(0), C.sidecar("proxy", Map.of(EXIT, "true"), null)));
        assertEquals(List.of("proxy"), p.stop());
        assertNull(p.markPhase());
        assertEquals(Map.of(), p.swapImages());
    }

    @Test
    void neverPodMainFailedStillStopsTheSidecar() {
        assertEquals(List.of("proxy"), decide(pod("Never", "Running", C.main(2),
                C.sidecar("proxy", Map.of(EXIT, "true"), null))).stop());
    }

    @Test
    void onFailurePodWaitsForMainToSucceed() {
        assertTrue(decide(pod("OnFailure", "Running", C.main(2), C.sidecar("proxy", Map.of(EXIT, "true"), null))).nothing());
        assertEquals(List.of("proxy"), decide(pod("OnFailure", "Running", C.main(0),
                C.sidecar("proxy", Map.of(EXIT, "true"), null))).stop());
    }

    @Test
    void alwaysPodsAreNeverTouched() {
        assertTrue(decide(pod("Always", "Running", C.main(0), C.sidecar("proxy", Map.of(EXIT, "true"), null))).nothing());
    }

    @Test
    void mainStillRunningWaits() {
        assertTrue(decide(pod("Never", "Running", C.main(null), C.sidecar("proxy", Map.of(EXIT, "true"), null))).nothing());
    }

    @Test
    void pendingOrDeletedPodsAreSkipped() {
        assertTrue(decide(pod("Never", "Pending", C.main(0), C.sidecar("proxy", Map.of(EXIT, "true"), null))).nothing());
        Pod deleted = pod("Never", "Running", C.main(0), C.sidecar("proxy", Map.of(EXIT, "true"), null));
        deleted.getMetadata().setDeletionTimestamp("2026-11-24T12:00:00Z");
        assertTrue(decide(deleted).nothing());
    }

    @Test
    void podWithoutSidecarsOrWithEndedSidecarsIsSkipped() {
        assertTrue(decide(pod("Never", "Running", C.main(0), C.sidecar("log", Map.of(), null))).nothing());
        assertTrue(decide(pod("Never", "Running", C.main(0), C.sidecar("proxy", Map.of(EXIT, "true"), 0))).nothing());
    }

    @Test
    void theEnvValueIsCaseInsensitiveTrueOnly() {
        assertEquals(List.of("proxy"), decide(pod("Never", "Running", C.main(0),
                C.sidecar("proxy", Map.of(EXIT, "TRUE"), null))).stop());
        assertTrue(decide(pod("Never", "Running", C.main(0), C.sidecar("proxy", Map.of(EXIT, "yes"), null))).nothing());
    }

    @Test
    void missingContainerStatusesMeanNotCompleted() {
        Pod p = pod("Never", "Running", C.main(0), C.sidecar("proxy", Map.of(EXIT, "true"), null));
        p.getStatus().setContainerStatuses(List.of(p.getStatus().getContainerStatuses().get(1)));
        assertTrue(decide(p).nothing());
    }

    @Test
    void onlyUnfinishedSidecarsGoIntoTheCrr() {
        SidecarTerminatorPlan p = decide(pod("Never", "Running", C.main(0), C.sidecar("a", Map.of(EXIT, "true"), 0),
                C.sidecar("b", Map.of(EXIT, "true"), null), C.sidecar("c", Map.of(EXIT, "true"), null)));
        assertEquals(List.of("b", "c"), p.stop());
    }

    @Test
    void imageSidecarsOnANormalNodeAreMainContainersOfNoAction() {
        SidecarTerminatorPlan p = decide(pod("Never", "Running", C.main(0),
                C.sidecar("proxy", Map.of(WITH_IMAGE, "img/exit:1"), null)));
        assertTrue(p.nothing(), "the image path is for virtual kubelets only, as OpenKruise");
    }

    @Test
    void onAVirtualKubeletTheImageIsSwapped() {
        Pod pod = pod("Never", "Running", C.main(0), C.sidecar("proxy", Map.of(WITH_IMAGE, "img/exit:1"), null),
                C.sidecar("other", Map.of(EXIT, "true"), null));
        SidecarTerminatorPlan p = SidecarTerminatorDecision.decide(pod, true);
        assertEquals(Map.of("proxy", "img/exit:1"), p.swapImages());
        assertEquals(List.of(), p.stop(), "no CRRs on a virtual kubelet");
    }

    @Test
    void anAlreadySwappedImageIsNotSwappedAgain() {
        Pod pod = pod("Never", "Running", C.main(0), C.sidecar("proxy", Map.of(WITH_IMAGE, "img/proxy:1"), null));
        assertTrue(SidecarTerminatorDecision.decide(pod, true).nothing());
    }

    @Test
    void ignoreExitCodeSidecarsFinishThePodFirst() {
        SidecarTerminatorPlan p = decide(pod("Never", "Running", C.main(0),
                C.sidecar("proxy", Map.of(EXIT, "true", IGNORE, "true"), null)));
        assertEquals("Succeeded", p.markPhase());
        assertEquals(List.of("proxy"), p.stop());
    }

    @Test
    void ignoreExitCodeWithAFailedMainMarksFailed() {
        assertEquals("Failed", decide(pod("Never", "Running", C.main(1),
                C.sidecar("proxy", Map.of(EXIT, "true", IGNORE, "true"), null))).markPhase());
    }

    @Test
    void ignoreExitCodeWaitsForTheNormalSidecarsFirst() {
        SidecarTerminatorPlan p = decide(pod("Never", "Running", C.main(0), C.sidecar("a", Map.of(EXIT, "true"), null),
                C.sidecar("b", Map.of(EXIT, "true", IGNORE, "true"), null)));
        assertEquals(List.of("a"), p.stop());
        assertNull(p.markPhase());
        SidecarTerminatorPlan later = decide(pod("Never", "Running", C.main(0), C.sidecar("a", Map.of(EXIT, "true"), 137),
                C.sidecar("b", Map.of(EXIT, "true", IGNORE, "true"), null)));
        assertEquals(List.of("b"), later.stop());
        assertEquals("Succeeded", later.markPhase());
    }

    @Test
    void aTerminalPodIsNotMarkedAgainButItsSidecarsStillStop() {
        SidecarTerminatorPlan p = decide(pod("Never", "Succeeded", C.main(0),
                C.sidecar("proxy", Map.of(EXIT, "true", IGNORE, "true"), null)));
        assertNull(p.markPhase());
        assertEquals(List.of("proxy"), p.stop());
    }

    @Test
    void ignoreExitCodeWithoutTheExitEnvIsNoSidecar() {
        assertTrue(decide(pod("Never", "Running", C.main(0), C.sidecar("proxy", Map.of(IGNORE, "true"), null))).nothing());
    }

    @Test
    void theCrrIsNamedPerPodAndOwnedByIt() {
        Pod pod = pod("Never", "Running", C.main(0), C.sidecar("proxy", Map.of(EXIT, "true"), null));
        var crr = SidecarTerminatorController.crrFor(pod, List.of("proxy"));
        assertEquals("sidecar-termination-pod-uid", crr.getMetadata().getName());
        assertEquals("pod-uid", crr.getMetadata().getOwnerReferences().get(0).getUid());
        assertTrue(crr.getSpec().getStrategy().isForceRecreate());
        assertEquals("Ignore", crr.getSpec().getStrategy().getFailurePolicy());
        assertEquals("job-pod", crr.getSpec().getPodName());
    }

    @Test
    void virtualKubeletNodesAreKnownByTheirTypeLabel() {
        assertTrue(SidecarTerminatorDecision.onVirtualKubelet(new NodeBuilder().withNewMetadata().withName("vk")
                .addToLabels("type", "virtual-kubelet").endMetadata().build()));
        assertFalse(SidecarTerminatorDecision.onVirtualKubelet(new NodeBuilder().withNewMetadata().withName("n")
                .addToLabels("type", "other").endMetadata().build()));
        assertFalse(SidecarTerminatorDecision.onVirtualKubelet(null));
    }

    @Test
    void hostilePodsDecideWithoutFailing() {
        Pod noStatus = pod("Never", "Running", C.main(0), C.sidecar("proxy", Map.of(EXIT, "true"), null));
        noStatus.setStatus(null);
        assertTrue(decide(noStatus).nothing());
        Pod nullEnv = pod("Never", "Running", C.main(0), C.sidecar("proxy", Map.of(EXIT, "true"), null));
        nullEnv.getSpec().getContainers().get(0).setEnv(java.util.Arrays.asList((EnvVar) null));
        assertEquals(List.of("proxy"), decide(nullEnv).stop());
        Pod noPolicy = pod(null, "Running", C.main(0), C.sidecar("proxy", Map.of(EXIT, "true"), null));
        assertTrue(decide(noPolicy).nothing());
    }
}
