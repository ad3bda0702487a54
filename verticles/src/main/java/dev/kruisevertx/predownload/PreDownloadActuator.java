package dev.kruisevertx.predownload;

import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.expectations.ResourceVersionExpectations;
import dev.kruisevertx.kube.ApiErrors;
import dev.kruisevertx.kube.KubeExecutor;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.BiConsumer;

/**
 * Carries out a {@link PreDownloadPlan}: creates the jobs (one that exists already is an outcome, not an error),
 * then labels the update revision so the revision is never handled again; or labels it ignored; or deletes the
 * workload's jobs. As in OpenKruise a failure is logged and reported as an Event and never fails the workload's
 * reconcile: its update goes on without the pre-download.
 */
public final class PreDownloadActuator {
    private static final Logger LOG = LoggerFactory.getLogger(PreDownloadActuator.class);

    private final KubernetesClient client;
    private final KubeExecutor kube;
    private final ResourceVersionExpectations versions;

    public PreDownloadActuator(KubernetesClient client, KubeExecutor kube, ResourceVersionExpectations versions) {
        this.client = client;
        this.kube = kube;
        this.versions = versions;
    }

    /**
     * @param events Normal Events on the workload: (reason, message)
     */
    public Future<Void> execute(HasMetadata owner, ControllerRevision update, PreDownloadPlan plan,
                                BiConsumer<String, String> events) {
        if (!plan.writes()) {
            return Future.succeededFuture();
        }
        String who = owner.getKind() + " " + owner.getMetadata().getNamespace() + "/" + owner.getMetadata().getName();
        Future<Void> chain = Future.succeededFuture();
        for (ImagePullJob job : plan.create()) {
            String name = job.getMetadata().getName();
            chain = chain.compose(v -> kube.write(() -> {
                try {
                    client.resource(job).create();
                    return true;
                } catch (KubernetesClientException e) {
                    if (ApiErrors.isAlreadyExists(e)) {
                        return false;
                    }
                    throw e;
                }
            }).transform(ar -> {
                if (ar.succeeded()) {
                    if (ar.result()) {
                        LOG.info("{}: created ImagePullJob {}", who, name);
                        events.accept("CreatedImagePullJob", "created ImagePullJob " + name + " for image: "
                                + job.getSpec().getImage());
                    }
                } else if (!(ar.cause() instanceof KubeExecutor.NotLeaderException)) {
                    LOG.warn("{}: failed to create ImagePullJob {}: {}", who, name, message(ar.cause()));
                    events.accept("FailedCreateImagePullJob", "failed to create ImagePullJob " + name + ": "
                            + message(ar.cause()));
                }
                return Future.succeededFuture();
            }));
        }
        for (String name : plan.delete()) {
            chain = chain.compose(v -> kube.write(() -> client.resources(ImagePullJob.class)
                    .inNamespace(owner.getMetadata().getNamespace()).withName(name).delete()).transform(ar -> {
                        if (ar.succeeded()) {
                            LOG.info("{}: deleted ImagePullJob {} (the pods run one revision)", who, name);
                        } else {
                            LOG.warn("{}: failed to delete ImagePullJob {}: {}", who, name, message(ar.cause()));
                        }
                        return Future.<Void>succeededFuture();
                    }));
        }
        if (plan.label() != null) {
            String label = plan.label();
            String body = "{\"metadata\":{\"labels\":{\"" + label + "\":\"true\"}}}";
            chain = chain.compose(v -> kube.write(() -> client.apps().controllerRevisions()
                    .inNamespace(update.getMetadata().getNamespace()).withName(update.getMetadata().getName())
                    .patch(PatchContext.of(PatchType.JSON_MERGE), body)).transform(ar -> {
                        if (ar.succeeded()) {
                            if (ar.result() != null && ar.result().getMetadata().getUid() != null) {
                                versions.expect(ar.result());
                            }
                        } else {
                            LOG.warn("{}: failed to label revision {} {}: {}", who, update.getMetadata().getName(),
                                    label, message(ar.cause()));
                        }
                        return Future.<Void>succeededFuture();
                    }));
        }
        return chain;
    }

    private static String message(Throwable t) {
        if (t instanceof KubernetesClientException e && e.getStatus() != null && e.getStatus().getMessage() != null) {
            return e.getStatus().getMessage();
        }
        return t.getClass().getSimpleName();
    }
}
