package dev.kruisevertx.webhook.workloadspread;

import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.workloadspread.AdmissionOperation;
import dev.kruisevertx.workloadspread.MatchedWorkloadSpread;
import dev.kruisevertx.workloadspread.SubsetInjection;
import dev.kruisevertx.workloadspread.WorkloadSpreads;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Optional;

/**
 * What the pod webhooks do for WorkloadSpread (OpenKruise v1.9's {@code HandlePodCreation} and
 * {@code HandlePodDeletion}): the cheap filters run on the calling thread against the shared cache, so a pod with no
 * WorkloadSpread in its namespace costs no thread hop; the owner look-ups and the status write run on a worker.
 */
public final class WorkloadSpreadPodAdmission {
    private static final Logger LOG = LoggerFactory.getLogger(WorkloadSpreadPodAdmission.class);

    private final Vertx vertx;
    private final WorkloadSpreadLookup lookup;
    private final WorkloadSpreadPodRecorder recorder;

    public WorkloadSpreadPodAdmission(Vertx vertx, WorkloadSpreadLookup lookup, WorkloadSpreadPodRecorder recorder) {
        this.vertx = vertx;
        this.lookup = lookup;
        this.recorder = recorder;
    }

    /**
     * The pod as the matching WorkloadSpread places it (subset injected and annotated), empty when no
     * WorkloadSpread of the namespace targets the pod's workload or none has room. Fails when the status cannot be
     * written or the pod's owner chain cannot be read, as in OpenKruise.
     */
    public Future<Optional<Pod>> onCreate(Pod pod) {
        if (!Pods.isActive(pod)) {
            return Future.succeededFuture(Optional.empty());
        }
        Optional<OwnerReference> ref = Pods.controllerOf(pod);
        if (ref.isEmpty() || !WorkloadKinds.known(ref.get(), recorder::customWorkloads)) {
            return Future.succeededFuture(Optional.empty());
        }
        String namespace = pod.getMetadata().getNamespace();
        List<WorkloadSpread> candidates = lookup.inNamespace(namespace).stream()
                .filter(ws -> ws.getSpec() != null && ws.getSpec().getTargetRef() != null
                        && ws.getSpec().getTargetRef().getKind() != null
                        && ws.getSpec().getTargetRef().getName() != null
                        && ws.getMetadata().getDeletionTimestamp() == null)
                .toList();
        if (candidates.isEmpty()) {
            return Future.succeededFuture(Optional.empty());
        }
        return vertx.executeBlocking(() -> place(candidates, ref.get(), pod), false);
    }

    private Optional<Pod> place(List<WorkloadSpread> candidates, OwnerReference ref, Pod pod) {
        String namespace = pod.getMetadata().getNamespace();
        for (WorkloadSpread ws : candidates) {
            boolean sameWorkload;
            try {
                sameWorkload = recorder.referenceEqual(ws.getSpec().getTargetRef(), ref, namespace);
            } catch (KubernetesClientException e) {
                if (e.getCode() == 404) {
                    // OpenKruise refuses the pod when an owner in its chain is gone.
                    throw new IllegalStateException("owner of pod " + namespace + "/" + podName(pod)
                            + " not found: " + e.getMessage(), e);
                }
                LOG.info("WorkloadSpread {}/{} skipped for pod {}: owner not readable ({})", namespace,
                        ws.getMetadata().getName(), podName(pod), e.getCode());
                continue;
            }
            boolean selected;
            try {
                selected = WorkloadSpreads.isPodSelected(ws.getSpec().getTargetFilter(), Pods.labels(pod));
            } catch (IllegalArgumentException e) {
                LOG.info("WorkloadSpread {}/{} skipped: unreadable targetFilter selector", namespace,
                        ws.getMetadata().getName());
                continue;
            }
            if (sameWorkload && selected) {
                // A pod has at most one WorkloadSpread.
                return recorder.recordCreation(ws, pod)
                        .map(p -> SubsetInjection.apply(p.ws(), pod, p.subset(), p.generatedUid()));
            }
        }
        return Optional.empty();
    }

    /**
     * Records the deletion or eviction of a pod admitted into a subset (its annotation names the WorkloadSpread);
     * nothing for other pods, inactive ones, ones without a controller, or when the WorkloadSpread is gone.
     */
    public Future<Void> onDeletion(Pod pod, AdmissionOperation operation) {
        Optional<MatchedWorkloadSpread> injected = MatchedWorkloadSpread.of(pod);
        if (injected.isEmpty() || !Pods.isActive(pod) || Pods.controllerOf(pod).isEmpty()) {
            return Future.succeededFuture();
        }
        String namespace = pod.getMetadata().getNamespace();
        return vertx.executeBlocking(() -> {
            Optional<WorkloadSpread> ws = recorder.store().cached(namespace, injected.get().name());
            if (ws.isEmpty()) {
                ws = recorder.store().latest(namespace, injected.get().name());
            }
            if (ws.isEmpty() || ws.get().getSpec() == null) {
                return null;
            }
            recorder.recordDeletion(ws.get(), pod, injected.get(), operation);
            return null;
        }, false);
    }

    private static String podName(Pod pod) {
        String name = pod.getMetadata().getName();
        return name == null || name.isEmpty() ? pod.getMetadata().getGenerateName() : name;
    }
}
