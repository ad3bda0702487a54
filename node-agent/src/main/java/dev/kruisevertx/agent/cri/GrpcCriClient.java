package dev.kruisevertx.agent.cri;

import dev.kruisevertx.cri.v1.AuthConfig;
import dev.kruisevertx.cri.v1.Container;
import dev.kruisevertx.cri.v1.ContainerConfig;
import dev.kruisevertx.cri.v1.ContainerFilter;
import dev.kruisevertx.cri.v1.ContainerStatus;
import dev.kruisevertx.cri.v1.ContainerStatusRequest;
import dev.kruisevertx.cri.v1.CreateContainerRequest;
import dev.kruisevertx.cri.v1.ExecSyncRequest;
import dev.kruisevertx.cri.v1.ExecSyncResponse;
import dev.kruisevertx.cri.v1.Image;
import dev.kruisevertx.cri.v1.ImageFilter;
import dev.kruisevertx.cri.v1.ImageFsInfoRequest;
import dev.kruisevertx.cri.v1.ImageFsInfoResponse;
import dev.kruisevertx.cri.v1.ImageServiceGrpcClient;
import dev.kruisevertx.cri.v1.ImageSpec;
import dev.kruisevertx.cri.v1.ImageStatusRequest;
import dev.kruisevertx.cri.v1.ListContainersRequest;
import dev.kruisevertx.cri.v1.ListImagesRequest;
import dev.kruisevertx.cri.v1.PodSandboxConfig;
import dev.kruisevertx.cri.v1.PullImageRequest;
import dev.kruisevertx.cri.v1.RemoveContainerRequest;
import dev.kruisevertx.cri.v1.RemovePodSandboxRequest;
import dev.kruisevertx.cri.v1.RunPodSandboxRequest;
import dev.kruisevertx.cri.v1.RuntimeServiceGrpcClient;
import dev.kruisevertx.cri.v1.StartContainerRequest;
import dev.kruisevertx.cri.v1.StatusRequest;
import dev.kruisevertx.cri.v1.StatusResponse;
import dev.kruisevertx.cri.v1.StopContainerRequest;
import dev.kruisevertx.cri.v1.StopPodSandboxRequest;
import dev.kruisevertx.cri.v1.VersionRequest;
import dev.kruisevertx.cri.v1.VersionResponse;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientOptions;
import io.vertx.grpc.client.GrpcClientResponse;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * {@link CriClient} over Vert.x gRPC on the runtime's unix socket. Each call carries a deadline (sent to
 * the runtime as {@code grpc-timeout} and enforced locally), and every failure becomes a
 * {@link CriException}. When a registry is given, each call is timed as {@code kruise.agent.cri.requests}
 * tagged with the method and the gRPC status.
 */
public final class GrpcCriClient implements CriClient {
    /** kubelet's default --runtime-request-timeout. */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofMinutes(2);
    /** Head-room on top of a runtime-side timeout (exec, stop) before the client gives up itself. */
    private static final Duration MARGIN = Duration.ofSeconds(10);
    /** Same cap as kubelet's CRI client: a node's container or image list can exceed gRPC's 4 MiB default. */
    private static final long MAX_MESSAGE_SIZE = 16L * 1024 * 1024;

    private final Vertx vertx;
    private final CriEndpoint endpoint;
    private final SocketAddress address;
    private final Duration callTimeout;
    private final MeterRegistry registry;
    private final GrpcClient grpc;

    public GrpcCriClient(Vertx vertx, CriEndpoint endpoint, Duration callTimeout, MeterRegistry registry) {
        this.vertx = vertx;
        this.endpoint = endpoint;
        this.address = endpoint.address();
        this.callTimeout = callTimeout;
        this.registry = registry;
        GrpcClientOptions grpcOptions = new GrpcClientOptions()
                .setScheduleDeadlineAutomatically(true)
                .setMaxMessageSize(MAX_MESSAGE_SIZE);
        HttpClientOptions http = new HttpClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_2)
                .setHttp2ClearTextUpgrade(false);
        this.grpc = GrpcClient.client(vertx, grpcOptions, http);
    }

    public static GrpcCriClient create(Vertx vertx, CriEndpoint endpoint) {
        return new GrpcCriClient(vertx, endpoint, DEFAULT_CALL_TIMEOUT, null);
    }

    @Override
    public CriEndpoint endpoint() {
        return endpoint;
    }

    // ---- RuntimeService ----

    @Override
    public Future<VersionResponse> version() {
        return call(RuntimeServiceGrpcClient.Version,
                VersionRequest.newBuilder().setVersion(KUBE_RUNTIME_API_VERSION).build(), callTimeout);
    }

    @Override
    public Future<StatusResponse> status() {
        return call(RuntimeServiceGrpcClient.Status, StatusRequest.getDefaultInstance(), callTimeout);
    }

    @Override
    public Future<List<Container>> listContainers(ContainerFilter filter) {
        ListContainersRequest.Builder request = ListContainersRequest.newBuilder();
        if (filter != null) {
            request.setFilter(filter);
        }
        return call(RuntimeServiceGrpcClient.ListContainers, request.build(), callTimeout)
                .map(r -> r.getContainersList());
    }

    @Override
    public Future<ContainerStatus> containerStatus(String containerId) {
        return call(RuntimeServiceGrpcClient.ContainerStatus,
                ContainerStatusRequest.newBuilder().setContainerId(containerId).build(), callTimeout)
                .map(r -> r.getStatus());
    }

    @Override
    public Future<ExecSyncResponse> execSync(String containerId, List<String> command, Duration timeout) {
        long seconds = seconds(timeout);
        ExecSyncRequest request = ExecSyncRequest.newBuilder()
                .setContainerId(containerId)
                .addAllCmd(command)
                .setTimeout(seconds)
                .build();
        return call(RuntimeServiceGrpcClient.ExecSync, request, seconds == 0 ? null : timeout.plus(MARGIN));
    }

    @Override
    public Future<Void> stopContainer(String containerId, Duration gracePeriod) {
        StopContainerRequest request = StopContainerRequest.newBuilder()
                .setContainerId(containerId)
                .setTimeout(seconds(gracePeriod))
                .build();
        return call(RuntimeServiceGrpcClient.StopContainer, request, gracePeriod.plus(callTimeout)).mapEmpty();
    }

    // ---- ImageService ----

    @Override
    public Future<String> pullImage(String image, AuthConfig auth, PodSandboxConfig sandboxConfig, Duration deadline) {
        PullImageRequest.Builder request = PullImageRequest.newBuilder()
                .setImage(ImageSpec.newBuilder().setImage(image));
        if (auth != null) {
            request.setAuth(auth);
        }
        if (sandboxConfig != null) {
            request.setSandboxConfig(sandboxConfig);
        }
        return call(ImageServiceGrpcClient.PullImage, request.build(), deadline).map(r -> r.getImageRef());
    }

    @Override
    public Future<List<Image>> listImages(ImageFilter filter) {
        ListImagesRequest.Builder request = ListImagesRequest.newBuilder();
        if (filter != null) {
            request.setFilter(filter);
        }
        return call(ImageServiceGrpcClient.ListImages, request.build(), callTimeout).map(r -> r.getImagesList());
    }

    @Override
    public Future<Optional<Image>> imageStatus(String image) {
        ImageStatusRequest request = ImageStatusRequest.newBuilder()
                .setImage(ImageSpec.newBuilder().setImage(image))
                .build();
        return call(ImageServiceGrpcClient.ImageStatus, request, callTimeout)
                .map(r -> r.hasImage() ? Optional.of(r.getImage()) : Optional.empty());
    }

    @Override
    public Future<ImageFsInfoResponse> imageFsInfo() {
        return call(ImageServiceGrpcClient.ImageFsInfo, ImageFsInfoRequest.getDefaultInstance(), callTimeout);
    }

    // ---- sandboxes and container creation ----

    @Override
    public Future<String> runPodSandbox(PodSandboxConfig config) {
        return call(RuntimeServiceGrpcClient.RunPodSandbox,
                RunPodSandboxRequest.newBuilder().setConfig(config).build(), callTimeout)
                .map(r -> r.getPodSandboxId());
    }

    @Override
    public Future<Void> stopPodSandbox(String podSandboxId) {
        return call(RuntimeServiceGrpcClient.StopPodSandbox,
                StopPodSandboxRequest.newBuilder().setPodSandboxId(podSandboxId).build(), callTimeout).mapEmpty();
    }

    @Override
    public Future<Void> removePodSandbox(String podSandboxId) {
        return call(RuntimeServiceGrpcClient.RemovePodSandbox,
                RemovePodSandboxRequest.newBuilder().setPodSandboxId(podSandboxId).build(), callTimeout).mapEmpty();
    }

    @Override
    public Future<String> createContainer(String podSandboxId, ContainerConfig config, PodSandboxConfig sandboxConfig) {
        CreateContainerRequest request = CreateContainerRequest.newBuilder()
                .setPodSandboxId(podSandboxId)
                .setConfig(config)
                .setSandboxConfig(sandboxConfig)
                .build();
        return call(RuntimeServiceGrpcClient.CreateContainer, request, callTimeout).map(r -> r.getContainerId());
    }

    @Override
    public Future<Void> startContainer(String containerId) {
        return call(RuntimeServiceGrpcClient.StartContainer,
                StartContainerRequest.newBuilder().setContainerId(containerId).build(), callTimeout).mapEmpty();
    }

    @Override
    public Future<Void> removeContainer(String containerId) {
        return call(RuntimeServiceGrpcClient.RemoveContainer,
                RemoveContainerRequest.newBuilder().setContainerId(containerId).build(), callTimeout).mapEmpty();
    }

    @Override
    public Future<Void> close() {
        return grpc.close();
    }

    // ---- the one place where a call is made and its failure explained ----

    private <Req, Resp> Future<Resp> call(ServiceMethod<Resp, Req> method, Req request, Duration deadline) {
        String name = method.serviceName().name() + "/" + method.methodName();
        if (!vertx.isNativeTransportEnabled()) {
            Throwable why = vertx.unavailableNativeTransportCause();
            return Future.failedFuture(new CriException(name, endpoint, GrpcStatus.UNAVAILABLE,
                    "unix sockets need Vert.x's native transport: create Vert.x with preferNativeTransport(true)"
                            + " and netty-transport-native-epoll on the class path"
                            + (why == null ? "" : " (" + why + ")"), why));
        }
        long started = System.nanoTime();
        boolean bounded = deadline != null && !deadline.isZero() && !deadline.isNegative();
        Future<Resp> attempt = grpc.request(address, method).compose(req -> {
            if (bounded) {
                req.timeout(deadline.toMillis(), TimeUnit.MILLISECONDS);
            }
            return req.send(request).compose(response -> lastMessage(name, response));
        }).recover(err -> Future.failedFuture(CriFailures.explain(name, endpoint, deadline,
                Duration.ofNanos(System.nanoTime() - started), err)));
        Future<Resp> result = attempt;
        if (bounded) {
            // grpc-timeout only starts once the HTTP/2 stream exists; a runtime that accepts the
            // connection but never speaks HTTP/2 would hold the call forever without this timer.
            Promise<Resp> bound = Promise.promise();
            long timer = vertx.setTimer(deadline.toMillis(), id -> bound.tryFail(new CriException(name, endpoint,
                    GrpcStatus.DEADLINE_EXCEEDED, "no answer within the " + deadline.toMillis() + " ms deadline", null)));
            attempt.onComplete(ar -> {
                vertx.cancelTimer(timer);
                if (ar.succeeded()) {
                    bound.tryComplete(ar.result());
                } else {
                    bound.tryFail(ar.cause());
                }
            });
            result = bound.future();
        }
        if (registry != null) {
            result.onComplete(ar -> Timer.builder("kruise.agent.cri.requests")
                    .description("CRI calls made by the node agent")
                    .tag("method", name)
                    .tag("code", ar.succeeded() ? GrpcStatus.OK.name()
                            : ar.cause() instanceof CriException e ? e.status().name() : GrpcStatus.UNKNOWN.name())
                    .register(registry)
                    .record(System.nanoTime() - started, TimeUnit.NANOSECONDS));
        }
        return result;
    }

    private <Req, Resp> Future<Resp> lastMessage(String name, GrpcClientResponse<Req, Resp> response) {
        return response.last().recover(err -> {
            GrpcStatus status = response.status();
            if (status != null && status != GrpcStatus.OK) {
                return Future.failedFuture(new CriException(name, endpoint, status, response.statusMessage(), null));
            }
            return Future.failedFuture(err);
        });
    }

    private static long seconds(Duration d) {
        if (d == null || d.isNegative()) {
            return 0;
        }
        // The CRI counts whole seconds; round up so a sub-second grace period is not "kill at once".
        return (d.toMillis() + 999) / 1000;
    }
}
