package dev.kruisevertx.agent.imagepuller;

import dev.kruisevertx.agent.cri.FakeCriServer;
import dev.kruisevertx.cri.v1.Image;
import dev.kruisevertx.cri.v1.ImageServiceGrpcService;
import dev.kruisevertx.cri.v1.ImageStatusResponse;
import dev.kruisevertx.cri.v1.ListImagesResponse;
import dev.kruisevertx.cri.v1.PullImageRequest;
import dev.kruisevertx.cri.v1.PullImageResponse;
import dev.kruisevertx.cri.v1.RuntimeServiceGrpcService;
import dev.kruisevertx.cri.v1.VersionResponse;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.grpc.common.GrpcStatus;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A CRI image service on {@link FakeCriServer} whose answers depend on the image: a reference containing
 * {@code missing} is NOT_FOUND, {@code hang} never answers, {@code private} needs user {@code puller} / password
 * {@code pw} (else UNKNOWN "unauthorized"); everything else is pulled. Pulled images are present afterwards.
 */
final class FakeImageRuntime {
    static final String NOT_FOUND_TEXT = "failed to pull and unpack image: not found";

    final FakeCriServer server;
    final List<PullImageRequest> pulls = new CopyOnWriteArrayList<>();
    final Set<String> present = ConcurrentHashMap.newKeySet();
    final Map<String, Promise<PullImageResponse>> hung = new ConcurrentHashMap<>();

    FakeImageRuntime(Vertx vertx, Path socket) {
        server = new FakeCriServer(vertx, socket)
                .answer(RuntimeServiceGrpcService.Version, VersionResponse.newBuilder().setRuntimeName("fake")
                        .setRuntimeApiVersion("v1").build())
                .answer(ImageServiceGrpcService.ListImages, ListImagesResponse.getDefaultInstance())
                .handle(ImageServiceGrpcService.ImageStatus, req -> {
                    String ref = req.getImage().getImage();
                    ImageStatusResponse.Builder b = ImageStatusResponse.newBuilder();
                    if (present.contains(ref)) {
                        b.setImage(Image.newBuilder().setId(id(ref)).addRepoTags(ref));
                    }
                    return Future.succeededFuture(b.build());
                })
                .handle(ImageServiceGrpcService.PullImage, req -> {
                    pulls.add(req);
                    String ref = req.getImage().getImage();
                    if (ref.contains("missing")) {
                        return Future.failedFuture(new FakeCriServer.Failure(GrpcStatus.NOT_FOUND, NOT_FOUND_TEXT));
                    }
                    if (ref.contains("hang")) {
                        Promise<PullImageResponse> never = Promise.promise();
                        hung.put(ref + "#" + pulls.size(), never);
                        return never.future();
                    }
                    if (ref.contains("private") && !(req.getAuth().getUsername().equals("puller")
                            && req.getAuth().getPassword().equals("pw"))) {
                        return Future.failedFuture(new FakeCriServer.Failure(GrpcStatus.UNKNOWN,
                                "failed to resolve reference: unexpected status: 401 Unauthorized"));
                    }
                    present.add(ref);
                    return Future.succeededFuture(PullImageResponse.newBuilder().setImageRef(id(ref)).build());
                });
    }

    static String id(String ref) {
        return "sha256:" + Integer.toHexString(ref.hashCode());
    }

    long pullsOf(String ref) {
        return pulls.stream().filter(p -> p.getImage().getImage().equals(ref)).count();
    }
}
