package dev.kruisevertx.sim.nodes;

import java.time.Instant;

/**
 * One container as the simulated node's runtime knows it, at one moment: what a CRI runtime would answer for
 * ListContainers or ContainerStatus.
 *
 * @param id           the runtime id (no {@code containerd://} prefix)
 * @param attempt      the kubelet's attempt number, which is the container's restart count
 * @param startedAt    null while the container is only created
 * @param finishedAt   null while it has not exited
 */
public record SimContainer(String id, String node, String podUid, String podNamespace, String podName,
        String containerName, String image, int attempt, Instant createdAt, Instant startedAt, Instant finishedAt,
        int exitCode, State state) {

    /** The CRI's container states. */
    public enum State { CREATED, RUNNING, EXITED }

    /** The kubelet's labels on every container it creates, which CRI clients filter on. */
    public static final String POD_NAME_LABEL = "io.kubernetes.pod.name";
    public static final String POD_NAMESPACE_LABEL = "io.kubernetes.pod.namespace";
    public static final String POD_UID_LABEL = "io.kubernetes.pod.uid";
    public static final String CONTAINER_NAME_LABEL = "io.kubernetes.container.name";
}
