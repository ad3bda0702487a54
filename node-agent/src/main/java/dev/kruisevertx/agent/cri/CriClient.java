package dev.kruisevertx.agent.cri;

import dev.kruisevertx.cri.v1.AuthConfig;
import dev.kruisevertx.cri.v1.Container;
import dev.kruisevertx.cri.v1.ContainerConfig;
import dev.kruisevertx.cri.v1.ContainerFilter;
import dev.kruisevertx.cri.v1.ContainerStatus;
import dev.kruisevertx.cri.v1.ExecSyncResponse;
import dev.kruisevertx.cri.v1.Image;
import dev.kruisevertx.cri.v1.ImageFilter;
import dev.kruisevertx.cri.v1.ImageFsInfoResponse;
import dev.kruisevertx.cri.v1.PodSandboxConfig;
import dev.kruisevertx.cri.v1.StatusResponse;
import dev.kruisevertx.cri.v1.VersionResponse;
import io.vertx.core.Future;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The container runtime as the node agent sees it: the CRI {@code runtime.v1} calls it makes. Every
 * failure arrives as a failed future carrying a {@link CriException}; nothing throws.
 *
 * <p>The real implementation is {@link GrpcCriClient}; the embedded cluster's simulated kubelet can serve
 * the same gRPC services so this interface is all the agent's jobs depend on.
 */
public interface CriClient {

    /** The CRI API version OpenKruise's daemon announces in its Version call. */
    String KUBE_RUNTIME_API_VERSION = "0.1.0";

    CriEndpoint endpoint();

    // ---- RuntimeService ----

    Future<VersionResponse> version();

    Future<StatusResponse> status();

    /** Containers matching the filter ({@code null} or the default instance: all). */
    Future<List<Container>> listContainers(ContainerFilter filter);

    /** The container's status; fails with NOT_FOUND for an unknown id. */
    Future<ContainerStatus> containerStatus(String containerId);

    /**
     * Runs a command in the container and waits for it. {@code timeout} bounds the command (zero: no
     * bound); the call's own deadline is that plus a margin, so a slow command ends as a non-zero exit
     * reported by the runtime rather than a client-side deadline.
     */
    Future<ExecSyncResponse> execSync(String containerId, List<String> command, Duration timeout);

    /**
     * Sends the stop signal and, after {@code gracePeriod}, kills. Idempotent for a stopped container;
     * NOT_FOUND for an unknown id.
     */
    Future<Void> stopContainer(String containerId, Duration gracePeriod);

    // ---- ImageService ----

    /** Pulls and returns the image reference the runtime reports (for containerd: the image id). */
    Future<String> pullImage(String image, AuthConfig auth, PodSandboxConfig sandboxConfig, Duration deadline);

    Future<List<Image>> listImages(ImageFilter filter);

    /** The image if the runtime has it, empty if not (the CRI answers "absent" without an error). */
    Future<Optional<Image>> imageStatus(String image);

    Future<ImageFsInfoResponse> imageFsInfo();

    // ---- Sandboxes and container creation: what a kubelet does; used by tests and the simulator ----

    Future<String> runPodSandbox(PodSandboxConfig config);

    Future<Void> stopPodSandbox(String podSandboxId);

    Future<Void> removePodSandbox(String podSandboxId);

    Future<String> createContainer(String podSandboxId, ContainerConfig config, PodSandboxConfig sandboxConfig);

    Future<Void> startContainer(String containerId);

    Future<Void> removeContainer(String containerId);

    /** Releases the connection; calls after this fail. */
    Future<Void> close();
}
