package dev.kruisevertx.takeover;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1beta1.StatefulSet;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The start-up takeover check against objects written as OpenKruise v1.9 writes them: a CloneSet and an Advanced
 * StatefulSet whose revisions hold Go's bytes and names ({@code <name>-<HashControllerRevision(data, 0)>}).
 */
@EnableKubernetesMockClient(crud = true)
class TakeoverCheckTest {
    static KubernetesClient client;

    /** OpenKruise's revision of the template {@code foo: bar / nginx:1.9.1}, hashed with collision count 0. */
    static final String DATA = "{\"spec\":{\"template\":{\"$patch\":\"replace\",\"metadata\":"
            + "{\"creationTimestamp\":null,\"labels\":{\"foo\":\"bar\"}},\"spec\":{\"containers\":[{\"image\":"
            + "\"nginx:1.9.1\",\"name\":\"nginx\",\"resources\":{}}]}}}}";
    static final String HASH = "7df87c59b";

    static CloneSet cloneSet(String ns, String name, String uid, String image, String updateRevision) {
        return ApiJson.serialization().unmarshal("{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"CloneSet\","
                + "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + ns + "\""
                + (uid == null ? "" : ",\"uid\":\"" + uid + "\"") + "},"
                + "\"spec\":{\"replicas\":2,\"selector\":{\"matchLabels\":{\"foo\":\"bar\"}},\"template\":"
                + "{\"metadata\":{\"labels\":{\"foo\":\"bar\"}},\"spec\":{\"containers\":[{\"name\":\"nginx\","
                + "\"image\":\"" + image + "\"}]}}},"
                + "\"status\":{\"replicas\":2,\"updateRevision\":\"" + updateRevision + "\",\"currentRevision\":\""
                + updateRevision + "\",\"collisionCount\":0}}", CloneSet.class);
    }

    static StatefulSet statefulSet(String ns, String name, String uid, String updateRevision) {
        return ApiJson.serialization().unmarshal("{\"apiVersion\":\"apps.kruise.io/v1beta1\",\"kind\":\"StatefulSet\","
                + "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + ns + "\",\"uid\":\"" + uid + "\"},"
                + "\"spec\":{\"replicas\":1,\"serviceName\":\"db\",\"selector\":{\"matchLabels\":{\"foo\":\"bar\"}},"
                + "\"template\":{\"metadata\":{\"labels\":{\"foo\":\"bar\"}},\"spec\":{\"containers\":"
                + "[{\"name\":\"nginx\",\"image\":\"nginx:1.9.1\"}]}}},"
                + "\"status\":{\"replicas\":1,\"updateRevision\":\"" + updateRevision + "\"}}", StatefulSet.class);
    }

    static ControllerRevision revision(String ns, String name, String ownerKind, String ownerUid, String data,
                                       long number) {
        return ApiJson.serialization().unmarshal("{\"apiVersion\":\"apps/v1\",\"kind\":\"ControllerRevision\","
                + "\"metadata\":{\"name\":\"" + name + "\",\"namespace\":\"" + ns + "\",\"labels\":{\"foo\":\"bar\","
                + "\"controller.kubernetes.io/hash\":\"" + name.substring(name.lastIndexOf('-') + 1) + "\"},"
                + "\"ownerReferences\":[{\"apiVersion\":\"apps.kruise.io/v1alpha1\",\"kind\":\"" + ownerKind + "\","
                + "\"name\":\"x\",\"uid\":\"" + ownerUid + "\",\"controller\":true,\"blockOwnerDeletion\":true}]},"
                + "\"data\":" + data + ",\"revision\":" + number + "}", ControllerRevision.class);
    }

    @Test
    void workloadsWhoseTemplateIsTheirUpdateRevisionAreAdoptedOthersAreNamedWithTheReason() {
        String other = DATA.replace("nginx:1.9.1", "nginx:1.9.0");
        List<TakeoverCheck.Workload> workloads = List.of(
                workload(cloneSet("a", "web", "u1", "nginx:1.9.1", "web-" + HASH)),
                workload(cloneSet("a", "api", "u2", "nginx:1.9.2", "api-" + HASH)),
                workload(statefulSet("b", "db", "u3", "db-old")),
                workload(cloneSet("a", "fresh", "u4", "nginx:1.9.1", "")));
        List<ControllerRevision> revisions = List.of(
                revision("a", "web-" + HASH, "CloneSet", "u1", DATA, 1),
                revision("a", "api-" + HASH, "CloneSet", "u2", DATA, 1),
                revision("b", "db-old", "StatefulSet", "u3", other, 1),
                revision("b", "db-" + HASH, "StatefulSet", "u3", DATA, 2));

        TakeoverCheck.Report report = TakeoverCheck.check(workloads, revisions);

        assertEquals(2, report.adopted());
        assertEquals(2, report.wouldRoll().size());
        assertEquals("CloneSet a/api (template matches none of its 1 ControllerRevisions; a new update revision "
                + "would replace api-" + HASH + ")", report.wouldRoll().get(0).describe());
        assertEquals("StatefulSet b/db (template matches revision db-" + HASH + ", not status.updateRevision db-old)",
                report.wouldRoll().get(1).describe());
        assertTrue(report.summary(1).startsWith("takeover check: 2 workloads adopted unchanged, 2 would roll: "
                + "CloneSet a/api"), report.summary(1));
        assertTrue(report.summary(1).endsWith("; and 1 more"), report.summary(1));
        assertEquals(2, ((List<?>) report.view().get("wouldRoll")).size());
        assertEquals(2, report.view().get("adoptedUnchanged"));
    }

    @Test
    void theStartUpCheckListsFromTheApiServer() throws Exception {
        // The API server gives each object its own uid: the revisions name the one it gave.
        String webUid = client.resource(cloneSet("live", "web", null, "nginx:1.9.1", "web-" + HASH)).create()
                .getMetadata().getUid();
        client.resource(revision("live", "web-" + HASH, "CloneSet", webUid, DATA, 1)).create();
        String apiUid = client.resource(cloneSet("live", "api", null, "nginx:2", "api-" + HASH)).create()
                .getMetadata().getUid();
        client.resource(revision("live", "api-" + HASH, "CloneSet", apiUid, DATA, 1)).create();
        Vertx vertx = Vertx.vertx();
        try {
            TakeoverCheck.Report report = TakeoverStartup.run(vertx, client, "live").toCompletionStage()
                    .toCompletableFuture().get(60, TimeUnit.SECONDS);
            assertEquals(1, report.adopted());
            assertEquals(List.of("api"), report.wouldRoll().stream().map(TakeoverCheck.Finding::name).toList());
        } finally {
            vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    static TakeoverCheck.Workload workload(CloneSet cs) {
        return new TakeoverCheck.Workload("CloneSet", cs, cs.getSpec().getTemplate(),
                cs.getStatus().getUpdateRevision());
    }

    static TakeoverCheck.Workload workload(StatefulSet s) {
        return new TakeoverCheck.Workload("StatefulSet", s, s.getSpec().getTemplate(),
                s.getStatus().getUpdateRevision());
    }

}
