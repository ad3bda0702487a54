package dev.kruisevertx.sim.cri;

import dev.kruisevertx.cri.v1.ContainerFilter;
import dev.kruisevertx.cri.v1.ContainerMetadata;
import dev.kruisevertx.cri.v1.ContainerState;
import dev.kruisevertx.cri.v1.ContainerStatus;
import dev.kruisevertx.cri.v1.ContainerStatusRequest;
import dev.kruisevertx.cri.v1.ContainerStatusResponse;
import dev.kruisevertx.cri.v1.Container;
import dev.kruisevertx.cri.v1.ExecSyncRequest;
import dev.kruisevertx.cri.v1.ExecSyncResponse;
import dev.kruisevertx.cri.v1.FilesystemIdentifier;
import dev.kruisevertx.cri.v1.FilesystemUsage;
import dev.kruisevertx.cri.v1.Image;
import dev.kruisevertx.cri.v1.ImageFsInfoRequest;
import dev.kruisevertx.cri.v1.ImageFsInfoResponse;
import dev.kruisevertx.cri.v1.ImageServiceGrpcService;
import dev.kruisevertx.cri.v1.ImageServiceService;
import dev.kruisevertx.cri.v1.ImageSpec;
import dev.kruisevertx.cri.v1.ImageStatusRequest;
import dev.kruisevertx.cri.v1.ImageStatusResponse;
import dev.kruisevertx.cri.v1.ListContainersRequest;
import dev.kruisevertx.cri.v1.ListContainersResponse;
import dev.kruisevertx.cri.v1.ListImagesRequest;
import dev.kruisevertx.cri.v1.ListImagesResponse;
import dev.kruisevertx.cri.v1.PullImageRequest;
import dev.kruisevertx.cri.v1.PullImageResponse;
import dev.kruisevertx.cri.v1.RemoveImageRequest;
import dev.kruisevertx.cri.v1.RemoveImageResponse;
import dev.kruisevertx.cri.v1.RuntimeCondition;
import dev.kruisevertx.cri.v1.RuntimeServiceGrpcService;
import dev.kruisevertx.cri.v1.RuntimeServiceService;
import dev.kruisevertx.cri.v1.RuntimeStatus;
import dev.kruisevertx.cri.v1.StatusRequest;
import dev.kruisevertx.cri.v1.StatusResponse;
import dev.kruisevertx.cri.v1.StopContainerRequest;
import dev.kruisevertx.cri.v1.StopContainerResponse;
import dev.kruisevertx.cri.v1.UInt64Value;
import dev.kruisevertx.cri.v1.VersionRequest;
import dev.kruisevertx.cri.v1.VersionResponse;
import dev.kruisevertx.sim.nodes.Kubelet;
import dev.kruisevertx.sim.nodes.SimContainer;
import dev.kruisevertx.sim.nodes.SimNodes;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.StatusException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The container runtime of one simulated node, served as the CRI ({@code runtime.v1}) over Vert.x gRPC on a unix
 * socket: what containerd is to a real node. Backed by {@link SimNodes}' container table, so the node agent's CRI
 * client works against it unchanged: StopContainer makes the simulated kubelet start a new container (new id,
 * restart count + 1, pod status updated), ExecSync runs (and records) a command such as a preStop hook.
 *
 * <p>Served: RuntimeService Version, Status, ListContainers, ContainerStatus, ExecSync, StopContainer; ImageService
 * ListImages, ImageStatus, PullImage, RemoveImage, ImageFsInfo. Sandbox and container creation are the simulated
 * kubelet's own business (it creates containers from pods), so those methods answer UNIMPLEMENTED, as any gRPC
 * server does for a method it does not serve.
 */
public final class SimCriServer {
    private static final Logger LOG = LoggerFactory.getLogger(SimCriServer.class);
    /** Where containerd keeps image layers; reported by ImageFsInfo. */
    static final String IMAGE_FS = "/var/lib/containerd/io.containerd.snapshotter.v1.overlayfs";
    /** A nominal size per image, so ImageFsInfo and ListImages report something plausible. */
    static final long IMAGE_SIZE = 50L * 1024 * 1024;

    private final Vertx vertx;
    private final SimNodes nodes;
    private final String node;
    private final Path socket;
    private HttpServer http;

    public SimCriServer(Vertx vertx, SimNodes nodes, String node, Path socket) {
        this.vertx = vertx;
        this.nodes = nodes;
        this.node = node;
        this.socket = socket;
    }

    public String node() {
        return node;
    }

    /** The socket, as {@code unix:///path}: what a node agent takes as {@code --runtime-endpoint}. */
    public String endpoint() {
        return "unix://" + socket;
    }

    public Path socket() {
        return socket;
    }

    /** Listens on the socket (replacing a stale socket file). Needs Vert.x's native transport. */
    public Future<SimCriServer> start() {
        if (!vertx.isNativeTransportEnabled()) {
            return Future.failedFuture(new IllegalStateException("the simulated CRI server for " + node
                    + " needs a unix socket, which Vert.x serves only with its native transport: create Vert.x with"
                    + " preferNativeTransport(true) (" + vertx.unavailableNativeTransportCause() + ")"));
        }
        GrpcServer grpc = GrpcServer.server(vertx);
        grpc.addService(RuntimeServiceGrpcService.builder(new Runtime())
                .bind(RuntimeServiceGrpcService.Version, RuntimeServiceGrpcService.Status,
                        RuntimeServiceGrpcService.ListContainers, RuntimeServiceGrpcService.ContainerStatus,
                        RuntimeServiceGrpcService.ExecSync, RuntimeServiceGrpcService.StopContainer)
                .build());
        grpc.addService(ImageServiceGrpcService.builder(new Images())
                .bind(ImageServiceGrpcService.ListImages, ImageServiceGrpcService.ImageStatus,
                        ImageServiceGrpcService.PullImage, ImageServiceGrpcService.RemoveImage,
                        ImageServiceGrpcService.ImageFsInfo)
                .build());
        return vertx.executeBlocking(() -> {
            Files.createDirectories(socket.getParent());
            Files.deleteIfExists(socket);
            return null;
        }).compose(v -> vertx.createHttpServer(new HttpServerOptions()).requestHandler(grpc)
                .listen(SocketAddress.domainSocketAddress(socket.toString())))
                .map(server -> {
                    http = server;
                    LOG.info("simulated container runtime of {} serving the CRI on {}", node, endpoint());
                    return this;
                });
    }

    public Future<Void> close() {
        Future<Void> closed = http == null ? Future.succeededFuture() : http.close();
        return closed.compose(v -> vertx.executeBlocking(() -> {
            Files.deleteIfExists(socket);
            return null;
        })).mapEmpty();
    }

    // ---------------------------------------------------------------- RuntimeService

    private final class Runtime extends RuntimeServiceService {
        @Override
        public Future<VersionResponse> version(VersionRequest request) {
            return Future.succeededFuture(VersionResponse.newBuilder()
                    .setVersion("0.1.0")
                    .setRuntimeName("containerd")
                    .setRuntimeVersion("1.7.0-sim")
                    .setRuntimeApiVersion("v1")
                    .build());
        }

        @Override
        public Future<StatusResponse> status(StatusRequest request) {
            return Future.succeededFuture(StatusResponse.newBuilder().setStatus(RuntimeStatus.newBuilder()
                    .addConditions(RuntimeCondition.newBuilder().setType("RuntimeReady").setStatus(true))
                    .addConditions(RuntimeCondition.newBuilder().setType("NetworkReady").setStatus(true)))
                    .build());
        }

        @Override
        public Future<ListContainersResponse> listContainers(ListContainersRequest request) {
            ContainerFilter filter = request.getFilter();
            ListContainersResponse.Builder out = ListContainersResponse.newBuilder();
            for (SimContainer c : nodes.containers(node)) {
                if (matches(filter, c)) {
                    out.addContainers(toContainer(c));
                }
            }
            return Future.succeededFuture(out.build());
        }

        @Override
        public Future<ContainerStatusResponse> containerStatus(ContainerStatusRequest request) {
            return find(request.getContainerId())
                    .map(c -> ContainerStatusResponse.newBuilder().setStatus(toStatus(c)).build());
        }

        @Override
        public Future<ExecSyncResponse> execSync(ExecSyncRequest request) {
            if (request.getCmdCount() == 0) {
                return Future.failedFuture(new StatusException(GrpcStatus.INVALID_ARGUMENT, "exec command is empty"));
            }
            Optional<SimContainer> found = nodes.exec(node, request.getContainerId(), request.getCmdList());
            if (found.isEmpty()) {
                return notFound(request.getContainerId());
            }
            SimContainer c = found.get();
            if (c.state() != SimContainer.State.RUNNING) {
                return Future.failedFuture(new StatusException(GrpcStatus.UNKNOWN, "failed to exec in container: container "
                        + c.id() + " is in " + state(c).name() + " state"));
            }
            int exitCode = nodes.execExitCode(List.copyOf(request.getCmdList()));
            ExecSyncResponse.Builder out = ExecSyncResponse.newBuilder().setExitCode(exitCode)
                    .setStderr(com.google.protobuf.ByteString.copyFromUtf8(exitCode == 0 ? ""
                            : "command exited with " + exitCode));
            if (exitCode == 0 && isEnv(request.getCmdList())) {
                out.setStdout(com.google.protobuf.ByteString.copyFromUtf8(renderEnv(c.env())));
            }
            return Future.succeededFuture(out.build());
        }

        @Override
        public Future<StopContainerResponse> stopContainer(StopContainerRequest request) {
            if (request.getTimeout() < 0) {
                return Future.failedFuture(new StatusException(GrpcStatus.INVALID_ARGUMENT, "timeout must be >= 0"));
            }
            Optional<SimContainer> stopped;
            try {
                stopped = nodes.stopContainer(node, request.getContainerId());
            } catch (IllegalStateException e) {
                return Future.failedFuture(new StatusException(GrpcStatus.UNKNOWN, e.getMessage()));
            }
            if (stopped.isEmpty()) {
                return notFound(request.getContainerId());
            }
            return Future.succeededFuture(StopContainerResponse.getDefaultInstance());
        }
    }

    /** {@code env} (or {@code /usr/bin/env}) alone: prints the environment the container started with. */
    static boolean isEnv(List<String> command) {
        return command.size() == 1 && (command.get(0).equals("env") || command.get(0).endsWith("/env"));
    }

    /** {@code env}'s output: one {@code NAME=value} line per variable. */
    static String renderEnv(Map<String, String> env) {
        StringBuilder out = new StringBuilder();
        if (env != null) {
            env.forEach((k, v) -> out.append(k).append('=').append(v).append('\n'));
        }
        return out.toString();
    }

    private Future<SimContainer> find(String id) {
        Optional<SimContainer> c = nodes.container(node, id);
        return c.isPresent() ? Future.succeededFuture(c.get()) : notFound(id);
    }

    private static <T> Future<T> notFound(String id) {
        // The wording containerd uses, so logs read the same against either runtime.
        return Future.failedFuture(new StatusException(GrpcStatus.NOT_FOUND,
                "an error occurred when try to find container \"" + id + "\": not found"));
    }

    private static boolean matches(ContainerFilter filter, SimContainer c) {
        if (filter == null) {
            return true;
        }
        if (!filter.getId().isEmpty() && !c.id().startsWith(filter.getId())) {
            return false;
        }
        if (filter.hasState() && filter.getState().getState() != state(c)) {
            return false;
        }
        if (!filter.getPodSandboxId().isEmpty() && !filter.getPodSandboxId().equals(sandboxId(c.podUid()))) {
            return false;
        }
        Map<String, String> labels = labels(c);
        for (Map.Entry<String, String> want : filter.getLabelSelectorMap().entrySet()) {
            if (!want.getValue().equals(labels.get(want.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static Container toContainer(SimContainer c) {
        return Container.newBuilder()
                .setId(c.id())
                .setPodSandboxId(sandboxId(c.podUid()))
                .setMetadata(ContainerMetadata.newBuilder().setName(c.containerName()).setAttempt(c.attempt()))
                .setImage(ImageSpec.newBuilder().setImage(c.image()))
                .setImageRef(Kubelet.imageId(c.image()))
                .setImageId(Kubelet.imageId(c.image()))
                .setState(state(c))
                .setCreatedAt(nanos(c.createdAt()))
                .putAllLabels(labels(c))
                .build();
    }

    private static ContainerStatus toStatus(SimContainer c) {
        ContainerStatus.Builder b = ContainerStatus.newBuilder()
                .setId(c.id())
                .setMetadata(ContainerMetadata.newBuilder().setName(c.containerName()).setAttempt(c.attempt()))
                .setState(state(c))
                .setCreatedAt(nanos(c.createdAt()))
                .setStartedAt(nanos(c.startedAt()))
                .setFinishedAt(nanos(c.finishedAt()))
                .setImage(ImageSpec.newBuilder().setImage(c.image()))
                .setImageRef(Kubelet.imageId(c.image()))
                .setImageId(Kubelet.imageId(c.image()))
                .putAllLabels(labels(c));
        if (c.state() == SimContainer.State.EXITED) {
            b.setExitCode(c.exitCode()).setReason(c.exitCode() == 0 ? "Completed" : "Error");
        }
        return b.build();
    }

    private static ContainerState state(SimContainer c) {
        return switch (c.state()) {
            case CREATED -> ContainerState.CONTAINER_CREATED;
            case RUNNING -> ContainerState.CONTAINER_RUNNING;
            case EXITED -> ContainerState.CONTAINER_EXITED;
        };
    }

    private static Map<String, String> labels(SimContainer c) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(SimContainer.POD_NAME_LABEL, c.podName());
        labels.put(SimContainer.POD_NAMESPACE_LABEL, c.podNamespace());
        labels.put(SimContainer.POD_UID_LABEL, c.podUid());
        labels.put(SimContainer.CONTAINER_NAME_LABEL, c.containerName());
        return labels;
    }

    private static long nanos(Instant t) {
        return t == null ? 0 : t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** A stable 64-hex sandbox id per pod, shaped like containerd's. */
    static String sandboxId(String podUid) {
        return sha256(podUid);
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    // ---------------------------------------------------------------- ImageService

    private final class Images extends ImageServiceService {
        @Override
        public Future<ListImagesResponse> listImages(ListImagesRequest request) {
            String wanted = request.hasFilter() ? request.getFilter().getImage().getImage() : "";
            ListImagesResponse.Builder out = ListImagesResponse.newBuilder();
            for (String image : nodes.images(node)) {
                if (wanted.isEmpty() || sameImage(wanted, image)) {
                    out.addImages(toImage(image));
                }
            }
            return Future.succeededFuture(out.build());
        }

        @Override
        public Future<ImageStatusResponse> imageStatus(ImageStatusRequest request) {
            return named(request.getImage(), wanted -> {
                ImageStatusResponse.Builder out = ImageStatusResponse.newBuilder();
                nodes.images(node).stream().filter(i -> sameImage(wanted, i)).findFirst()
                        .ifPresent(i -> out.setImage(toImage(i)));
                return Future.succeededFuture(out.build());
            });
        }

        @Override
        public Future<PullImageResponse> pullImage(PullImageRequest request) {
            return named(request.getImage(), image -> {
                Optional<String> ref = nodes.pullImage(node, image);
                if (ref.isEmpty()) {
                    return Future.failedFuture(new StatusException(GrpcStatus.NOT_FOUND, "failed to pull and unpack image \""
                            + image + "\": failed to resolve reference \"" + image + "\": not found"));
                }
                return Future.succeededFuture(PullImageResponse.newBuilder().setImageRef(ref.get()).build());
            });
        }

        /** {@code call} with the image {@code spec} names; a spec without an image is refused (INVALID_ARGUMENT). */
        private <T> Future<T> named(ImageSpec spec, Function<String, Future<T>> call) {
            String image = spec.getImage();
            if (image.isEmpty()) {
                return Future.failedFuture(new StatusException(GrpcStatus.INVALID_ARGUMENT, "image spec is empty"));
            }
            return call.apply(image);
        }

        @Override
        public Future<RemoveImageResponse> removeImage(RemoveImageRequest request) {
            nodes.removeImage(node, request.getImage().getImage());
            return Future.succeededFuture(RemoveImageResponse.getDefaultInstance());
        }

        @Override
        public Future<ImageFsInfoResponse> imageFsInfo(ImageFsInfoRequest request) {
            long used = IMAGE_SIZE * nodes.images(node).size();
            FilesystemUsage usage = FilesystemUsage.newBuilder()
                    .setTimestamp(nanos(Instant.now()))
                    .setFsId(FilesystemIdentifier.newBuilder().setMountpoint(IMAGE_FS))
                    .setUsedBytes(UInt64Value.newBuilder().setValue(used))
                    .setInodesUsed(UInt64Value.newBuilder().setValue(nodes.images(node).size() * 100L))
                    .build();
            return Future.succeededFuture(ImageFsInfoResponse.newBuilder().addImageFilesystems(usage).build());
        }
    }

    private static Image toImage(String image) {
        String ref = Kubelet.imageId(image);
        return Image.newBuilder()
                .setId("sha256:" + ref.substring(ref.indexOf("sha256:") + 7))
                .addRepoTags(normalize(image))
                .addRepoDigests(ref)
                .setSize(IMAGE_SIZE)
                .setSpec(ImageSpec.newBuilder().setImage(image))
                .build();
    }

    private static boolean sameImage(String a, String b) {
        return a.equals(b) || normalize(a).equals(normalize(b));
    }

    /** {@code nginx:1.25} as a runtime names it: {@code docker.io/library/nginx:1.25}; no tag means latest. */
    static String normalize(String image) {
        String name = image;
        int at = name.indexOf('@');
        String digest = at >= 0 ? name.substring(at) : "";
        if (at >= 0) {
            name = name.substring(0, at);
        }
        int slash = name.indexOf('/');
        if (slash < 0) {
            name = "docker.io/library/" + name;
        } else if (!name.substring(0, slash).contains(".") && !name.substring(0, slash).contains(":")
                && !name.startsWith("localhost/")) {
            name = "docker.io/" + name;
        }
        if (digest.isEmpty() && name.lastIndexOf(':') <= name.lastIndexOf('/')) {
            name = name + ":latest";
        }
        return name + digest;
    }

    /** For logs and tests: the node and socket. */
    @Override
    public String toString() {
        return "SimCriServer[" + node + " at " + endpoint() + "]";
    }

    /** The containers of this node, for callers that hold the server rather than the nodes. */
    public List<SimContainer> containers() {
        return nodes.containers(node);
    }
}
