package dev.kruisevertx.manager;

import dev.kruisevertx.cloneset.CloneSetController;
import dev.kruisevertx.controller.ControllerDefinition;
import dev.kruisevertx.crr.ContainerRecreateRequestController;
import dev.kruisevertx.podreadiness.PodReadinessController;

import java.util.List;

/** Every controller this manager can run, in the order they are prepared. Each workload issue adds its own. */
public final class ControllerRegistry {
    private ControllerRegistry() {
    }

    public static List<ControllerDefinition> all() {
        return List.of(
                new PodReadinessController(),
                new CloneSetController(),
                new ContainerRecreateRequestController(),
                new dev.kruisevertx.statefulset.StatefulSetController(),
                new dev.kruisevertx.daemonset.DaemonSetController(),
                new dev.kruisevertx.advancedcronjob.AdvancedCronJobController(),
                new dev.kruisevertx.broadcastjob.BroadcastJobController(),
                new dev.kruisevertx.uniteddeployment.UnitedDeploymentController(),
                new dev.kruisevertx.sidecarset.SidecarSetController(),
                new dev.kruisevertx.podunavailablebudget.PodUnavailableBudgetController(),
                new dev.kruisevertx.workloadspread.WorkloadSpreadController(),
                new dev.kruisevertx.ephemeraljob.EphemeralJobController(),
                new dev.kruisevertx.sidecarterminator.SidecarTerminatorController(),
                new dev.kruisevertx.resourcedistribution.ResourceDistributionController(),
                new dev.kruisevertx.nodeimage.NodeImageController(),
                new dev.kruisevertx.imagepulljob.ImagePullJobController(),
                new dev.kruisevertx.podprobemarker.PodProbeMarkerController(),
                new dev.kruisevertx.nodepodprobe.NodePodProbeController(),
                new dev.kruisevertx.containerlaunchpriority.ContainerLaunchPriorityController(),
                new dev.kruisevertx.persistentpodstate.PersistentPodStateController(),
                new dev.kruisevertx.imagelistpulljob.ImageListPullJobController());
    }
}
