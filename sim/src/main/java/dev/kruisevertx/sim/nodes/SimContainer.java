package dev.kruisevertx.sim.nodes;

import java.time.Instant;
import java.util.Map;

/**
 * One container as the simulated node's runtime knows it, at one moment: what a CRI runtime would answer for
 * ListContainers or ContainerStatus.
 *
 * @param id           the runtime id (no {@code containerd://} prefix)
 * @param attempt      the kubelet's attempt number, which is the container's restart count
 * @param startedAt    null while the container is only created
 * @param finishedAt   null while it has not exited
 * @param env          the environment it started with (what {@code env} prints in it)
 */
public record SimContainer(String id, String node, String podUid, String podNamespace, String podName,
        String containerName, String image, int attempt, Instant createdAt, Instant startedAt, Instant finishedAt,
        int exitCode, State state, Map<String, String> env) {

    /** The CRI's container states. */
    public enum State { CREATED, RUNNING, EXITED }

    /** The kubelet's labels on every container it creates, which CRI clients filter on. */
    public static final String POD_NAME_LABEL = "io.kubernetes.pod.name";
    public static final String POD_NAMESPACE_LABEL = "io.kubernetes.pod.namespace";
    public static final String POD_UID_LABEL = "io.kubernetes.pod.uid";
    public static final String CONTAINER_NAME_LABEL = "io.kubernetes.container.name";

    /** Without the env values: a container may be logged, its environment never. */
    @Override
    public String toString() {
        return "SimContainer[id=" + id + ", node=" + node + ", pod=" + podNamespace + "/" + podName + ", container="
                + containerName + ", image=" + image + ", attempt=" + attempt + ", state=" + state + ", env="
                + (env == null ? 0 : env.size()) + " variables]";
    }
}
