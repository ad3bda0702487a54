package dev.kruisevertx.takeover;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The takeover check at start-up, before any controller acts: lists the CloneSets, Advanced StatefulSets and
 * ControllerRevisions (once, on a worker thread), runs {@link TakeoverCheck} and logs its summary. With
 * {@code --takeover-dry-run} the manager stops there: it serves its endpoints (and {@code /debug/controllers} shows
 * the report) but starts no controller.
 */
public final class TakeoverStartup {
    /** Manager flag (in {@code ManagerSettings.extra}): run the check and start no controller. */
    public static final String DRY_RUN_FLAG = "takeover-dry-run";
    /** Names listed on the log line; {@code /debug/controllers} lists them all. */
    static final int LOGGED_NAMES = 20;

    private static final Logger LOG = LoggerFactory.getLogger(TakeoverStartup.class);

    private TakeoverStartup() {
    }

    /** The report, or null when the workloads could not be listed (logged once; controllers start as usual). */
    public static Future<TakeoverCheck.Report> run(Vertx vertx, KubernetesClient client, String namespace) {
        return vertx.executeBlocking(() -> {
            try {
                TakeoverCheck.Report report = TakeoverCheck.check(workloads(client, namespace),
                        revisions(client, namespace));
                LOG.info(report.summary(LOGGED_NAMES));
                return report;
            } catch (KubernetesClientException e) {
                LOG.warn("takeover check skipped: cannot list workloads ({} {})", e.getCode(),
                        e.getStatus() == null ? e.getClass().getSimpleName() : e.getStatus().getReason());
                return null;
            }
        }, false);
    }

    private static List<TakeoverCheck.Workload> workloads(KubernetesClient client, String namespace) {
        List<TakeoverCheck.Workload> out = new ArrayList<>();
        for (CloneSet cs : listOrEmpty(client, CloneSet.class, namespace)) {
            out.add(new TakeoverCheck.Workload(CloneSet.KIND, cs, cs.getSpec() == null ? null
                    : cs.getSpec().getTemplate(), cs.getStatus() == null ? null : cs.getStatus().getUpdateRevision()));
        }
        for (StatefulSet s : listOrEmpty(client, StatefulSet.class, namespace)) {
            out.add(new TakeoverCheck.Workload("StatefulSet", s, s.getSpec() == null ? null
                    : s.getSpec().getTemplate(), s.getStatus() == null ? null : s.getStatus().getUpdateRevision()));
        }
        return out;
    }

    private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> List<T> listOrEmpty(
            KubernetesClient client, Class<T> type, String namespace) {
        try {
            return namespace == null ? client.resources(type).inAnyNamespace().list().getItems()
                    : client.resources(type).inNamespace(namespace).list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404) {
                // CRD not installed: nothing of this kind to take over.
                return List.of();
            }
            throw e;
        }
    }

    private static List<ControllerRevision> revisions(KubernetesClient client, String namespace) {
        return namespace == null ? client.apps().controllerRevisions().inAnyNamespace().list().getItems()
                : client.apps().controllerRevisions().inNamespace(namespace).list().getItems();
    }
}
