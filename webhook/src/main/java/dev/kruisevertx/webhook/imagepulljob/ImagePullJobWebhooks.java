package dev.kruisevertx.webhook.imagepulljob;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.ImageListPullJob;
import dev.kruisevertx.api.apps.v1beta1.ImageListPullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.NodeImageSpec;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRegistry;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.FieldIdenticalVersions;
import dev.kruisevertx.webhook.admission.Json;
import dev.kruisevertx.webhook.admission.ObjectMutation;
import io.vertx.core.Future;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The mutating and validating webhooks of ImagePullJob, ImageListPullJob and NodeImage, for v1alpha1 and v1beta1
 * (field-identical, both decoded into the v1beta1 model), with OpenKruise v1.9.0's defaults, checks and texts.
 * Validation refuses everything (403) while KruiseDaemon is off, and the two job kinds also while ImagePullJobGate is
 * off, as nothing would pull. Only a v1alpha1 ImagePullJob gets the deletion-protection finalizer on creation.
 */
public final class ImagePullJobWebhooks {
    public static final String IPJ_MUTATE_PATH = "/mutate-apps-kruise-io-imagepulljob";
    public static final String IPJ_VALIDATE_PATH = "/validate-apps-kruise-io-imagepulljob";
    public static final String ILPJ_MUTATE_PATH = "/mutate-apps-kruise-io-imagelistpulljob";
    public static final String ILPJ_VALIDATE_PATH = "/validate-apps-kruise-io-imagelistpulljob";
    public static final String NODE_IMAGE_MUTATE_PATH = "/mutate-apps-kruise-io-nodeimage";
    public static final String NODE_IMAGE_VALIDATE_PATH = "/validate-apps-kruise-io-nodeimage";
    static final List<String> SERVED = List.of("v1alpha1", "v1beta1");
    static final FieldIdenticalVersions IPJ = new FieldIdenticalVersions(ImagePullJob.KIND, SERVED, false);
    static final FieldIdenticalVersions ILPJ = new FieldIdenticalVersions(ImageListPullJob.KIND, SERVED, false);
    static final FieldIdenticalVersions NODE_IMAGE = new FieldIdenticalVersions(NodeImage.KIND, SERVED, false);

    /** @param kruiseDaemon gate KruiseDaemon; @param imagePullJobGate gate ImagePullJobGate */
    public record Gates(boolean kruiseDaemon, boolean imagePullJobGate) {
    }

    private ImagePullJobWebhooks() {
    }

    public static void register(AdmissionRegistry registry, Gates gates, Clock clock) {
        registry.register(IPJ_MUTATE_PATH, mutatingImagePullJob());
        registry.register(IPJ_VALIDATE_PATH, validatingImagePullJob(gates));
        registry.register(ILPJ_MUTATE_PATH, mutatingImageListPullJob());
        registry.register(ILPJ_VALIDATE_PATH, validatingImageListPullJob(gates));
        registry.register(NODE_IMAGE_MUTATE_PATH, mutatingNodeImage(clock));
        registry.register(NODE_IMAGE_VALIDATE_PATH, validatingNodeImage(gates));
    }

    public static AdmissionHandler mutatingImagePullJob() {
        return IPJ.handler(ImagePullJob.class, (request, decoded) -> {
            ImagePullJob job = decoded.object();
            if (job.getSpec() == null) {
                job.setSpec(new ImagePullJobSpec());
            }
            ObjectNode before = Json.toTree(job);
            ImagePullJobDefaults.apply(job.getSpec(), true);
            if (request.isCreate() && "v1alpha1".equals(request.version())) {
                if (job.getMetadata() == null) {
                    // The API server always sends metadata; a hand-made review without it still gets its finalizer.
                    job.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMeta());
                }
                List<String> finalizers = job.getMetadata().getFinalizers() == null ? new ArrayList<>()
                        : new ArrayList<>(job.getMetadata().getFinalizers());
                if (!finalizers.contains(ImagePullJobDefaults.PROTECTION_FINALIZER)) {
                    finalizers.add(ImagePullJobDefaults.PROTECTION_FINALIZER);
                }
                job.getMetadata().setFinalizers(finalizers);
            }
            return AdmissionResponse.patched(ObjectMutation.patch(before, Json.toTree(job)));
        });
    }

    public static AdmissionHandler mutatingImageListPullJob() {
        return ILPJ.handler(ImageListPullJob.class, (request, decoded) -> {
            ImageListPullJob job = decoded.object();
            if (job.getSpec() == null) {
                job.setSpec(new ImageListPullJobSpec());
            }
            ObjectNode before = Json.toTree(job);
            ImagePullJobDefaults.apply(job.getSpec(), false);
            return AdmissionResponse.patched(ObjectMutation.patch(before, Json.toTree(job)));
        });
    }

    public static AdmissionHandler mutatingNodeImage(Clock clock) {
        return NODE_IMAGE.handler(NodeImage.class, (request, decoded) -> {
            NodeImage image = decoded.object();
            if (image.getSpec() == null) {
                return AdmissionResponse.allow();
            }
            ObjectNode before = Json.toTree(image);
            ImagePullJobDefaults.apply(image.getSpec(),
                    Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString());
            return AdmissionResponse.patched(ObjectMutation.patch(before, Json.toTree(image)));
        });
    }

    public static AdmissionHandler validatingImagePullJob(Gates gates) {
        AdmissionHandler judge = IPJ.handler(ImagePullJob.class, (request, decoded) -> {
            ImagePullJob job = decoded.object();
            if (decoded.old() != null && !Objects.equals(decoded.old().spec().getPullSecrets(),
                    job.spec().getPullSecrets())) {
                return AdmissionResponse.denied(403, "spec.pullSecrets is immutable");
            }
            return answer(ImagePullJobValidation.validate(job.spec()));
        });
        return gated(judge, gates, true);
    }

    public static AdmissionHandler validatingImageListPullJob(Gates gates) {
        AdmissionHandler judge = ILPJ.handler(ImageListPullJob.class,
                (request, decoded) -> answer(ImagePullJobValidation.validate(decoded.object().spec())));
        return gated(judge, gates, true);
    }

    public static AdmissionHandler validatingNodeImage(Gates gates) {
        AdmissionHandler judge = NODE_IMAGE.handler(NodeImage.class, (request, decoded) -> {
            NodeImageSpec spec = decoded.object().getSpec() == null ? new NodeImageSpec() : decoded.object().getSpec();
            return answer(ImagePullJobValidation.validate(spec));
        });
        return gated(judge, gates, false);
    }

    private static AdmissionResponse answer(Optional<String> problem) {
        return problem.map(p -> AdmissionResponse.errored(400, p)).orElseGet(AdmissionResponse::allow);
    }

    private static AdmissionHandler gated(AdmissionHandler judge, Gates gates, boolean needsJobGate) {
        return request -> {
            if (request.isDelete()) {
                return Future.succeededFuture(AdmissionResponse.allow());
            }
            if (!gates.kruiseDaemon()) {
                return Future.succeededFuture(AdmissionResponse.errored(403, "feature-gate KruiseDaemon is not enabled"));
            }
            if (needsJobGate && !gates.imagePullJobGate()) {
                return Future.succeededFuture(AdmissionResponse.errored(403,
                        "feature-gate ImagePullJobGate is not enabled"));
            }
            return judge.handle(request);
        };
    }
}
