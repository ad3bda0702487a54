package dev.kruisevertx.uniteddeployment;

/**
 * What the planner reads of one existing subset workload: names, numbers and labels only.
 *
 * @param name                  the workload's name
 * @param kind                  the kind it is
 * @param subsetName            its {@code apps.kruise.io/subset-name} label
 * @param revision              its {@code controller-revision-hash} label
 * @param patch                 its {@code apps.kruise.io/subset-patch} annotation
 * @param specReplicas          its spec.replicas
 * @param partition             its partition (0 when it has none)
 * @param replicas              its status.replicas
 * @param readyReplicas         its status.readyReplicas
 * @param updatedReplicas       its status.updatedReplicas
 * @param updatedReadyReplicas  its status.updatedReadyReplicas
 */
public record SubsetWorkload(String name, SubsetWorkloads.Kind kind, String subsetName, String revision, String patch,
                             int specReplicas, int partition, int replicas, int readyReplicas, int updatedReplicas,
                             int updatedReadyReplicas) {
}
