package dev.kruisevertx.revision;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pod-template revisions byte for byte as OpenKruise v1.9 writes them (CloneSet and Advanced StatefulSet
 * {@code getPatch}, Kubernetes' {@code HashControllerRevision} and {@code ControllerRevisionName}).
 *
 * <p>The expected bytes follow Go's rules (a typed encode of the template, decoded into a generic map and encoded
 * again); the expected hashes were computed outside this project with an independent FNV-1 implementation over
 * those bytes followed by the decimal collision count, then {@code rand.SafeEncodeString}.
 */
@EnableKubernetesMockClient(crud = true)
class OpenKruiseRevisionCompatibilityTest {
    static KubernetesClient client;
    static KubernetesMockServer server;

    /** OpenKruise's own CloneSet test template ({@code cloneset_controller_test.go}, revision1). */
    static final String SIMPLE = "{\"metadata\":{\"labels\":{\"foo\":\"bar\"}},"
            + "\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx:1.9.1\"}]}}";
    static final String SIMPLE_BYTES = "{\"spec\":{\"template\":{\"$patch\":\"replace\",\"metadata\":"
            + "{\"creationTimestamp\":null,\"labels\":{\"foo\":\"bar\"}},\"spec\":{\"containers\":[{\"image\":"
            + "\"nginx:1.9.1\",\"name\":\"nginx\",\"resources\":{}}]}}}}";

    /** A defaulted template with everything Go writes differently from the stored JSON. */
    static final String DEFAULTED = "{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{"
            + "\"activeDeadlineSeconds\":9007199254740993,\"hostNetwork\":false,"
            + "\"containers\":[{\"name\":\"main\",\"image\":\"nginx:1.9.1\","
            + "\"command\":[\"sh\",\"-c\",\"sleep 1 && echo <ok>\"],"
            + "\"env\":[{\"name\":\"CPU\",\"valueFrom\":{\"resourceFieldRef\":{\"resource\":\"limits.cpu\"}}}],"
            + "\"ports\":[{\"containerPort\":80,\"hostPort\":0,\"protocol\":\"TCP\"}],"
            + "\"readinessProbe\":{\"grpc\":{\"port\":9000},\"initialDelaySeconds\":0,\"periodSeconds\":10},"
            + "\"resources\":{\"requests\":{\"cpu\":\"0.5\",\"memory\":\"1024Mi\"}},"
            + "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\","
            + "\"imagePullPolicy\":\"IfNotPresent\",\"volumeMounts\":[{\"name\":\"data\",\"mountPath\":\"/data\","
            + "\"readOnly\":false}]}],"
            + "\"restartPolicy\":\"Always\",\"terminationGracePeriodSeconds\":30,\"dnsPolicy\":\"ClusterFirst\","
            + "\"securityContext\":{},\"schedulerName\":\"default-scheduler\","
            + "\"volumes\":[{\"name\":\"data\",\"emptyDir\":{}}]}}";
    static final String DEFAULTED_BYTES = "{\"spec\":{\"template\":{\"$patch\":\"replace\",\"metadata\":"
            + "{\"creationTimestamp\":null,\"labels\":{\"app\":\"web\"}},\"spec\":{"
            + "\"activeDeadlineSeconds\":9007199254740992,"
            + "\"containers\":[{\"command\":[\"sh\",\"-c\",\"sleep 1 \\u0026\\u0026 echo \\u003cok\\u003e\"],"
            + "\"env\":[{\"name\":\"CPU\",\"valueFrom\":{\"resourceFieldRef\":{\"divisor\":\"0\","
            + "\"resource\":\"limits.cpu\"}}}],"
            + "\"image\":\"nginx:1.9.1\",\"imagePullPolicy\":\"IfNotPresent\",\"name\":\"main\","
            + "\"ports\":[{\"containerPort\":80,\"protocol\":\"TCP\"}],"
            + "\"readinessProbe\":{\"grpc\":{\"port\":9000,\"service\":null},\"periodSeconds\":10},"
            + "\"resources\":{\"requests\":{\"cpu\":\"500m\",\"memory\":\"1Gi\"}},"
            + "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\","
            + "\"volumeMounts\":[{\"mountPath\":\"/data\",\"name\":\"data\"}]}],"
            + "\"dnsPolicy\":\"ClusterFirst\",\"restartPolicy\":\"Always\",\"schedulerName\":\"default-scheduler\","
            + "\"securityContext\":{},\"terminationGracePeriodSeconds\":30,"
            + "\"volumes\":[{\"emptyDir\":{},\"name\":\"data\"}]}}}}";

    static PodTemplateSpec template(String json) {
        return ApiJson.serialization().unmarshal(json, PodTemplateSpec.class);
    }

    static String goBytes(String templateJson) {
        return new String(GoRevisionData.bytes(GoRevisionData.of(template(templateJson))), StandardCharsets.UTF_8);
    }

    @Test
    void theCollisionCountIsHashedAsDecimalTextAsKubernetesHashControllerRevisionDoes() {
        // FNV-1 32 of "0" (Kubernetes writes strconv.FormatInt(probe, 10)), not four little-endian bytes.
        assertEquals("d8bfb7bc", RevisionHash.of(new byte[0], 0));
        // A nil probe adds nothing: FNV-1 32 of "a" is 0x050c5d7e = 84696446.
        assertEquals(RevisionHash.safeEncode("84696446"), RevisionHash.of("a".getBytes(StandardCharsets.UTF_8), null));
        assertEquals("d8bfb88b", RevisionHash.of("a".getBytes(StandardCharsets.UTF_8), null));
        byte[] simple = SIMPLE_BYTES.getBytes(StandardCharsets.UTF_8);
        assertEquals("7df87c59b", RevisionHash.of(simple, 0));
        assertEquals("7df87c59c", RevisionHash.of(simple, 1));
        assertEquals("56884b6744", RevisionHash.of(simple, null));
    }

    @Test
    void revisionDataIsTheBytesOpenKruiseGetPatchWrites() {
        assertEquals(SIMPLE_BYTES, goBytes(SIMPLE));
        assertEquals(DEFAULTED_BYTES, goBytes(DEFAULTED));
        assertEquals("5ccccd4988", TemplateRevisions.hash(GoRevisionData.of(template(DEFAULTED)), 0));
        assertEquals("5ccccd4989", TemplateRevisions.hash(GoRevisionData.of(template(DEFAULTED)), 1));
    }

    @Test
    void goNumbersAreFloat64() {
        assertEquals("30", GoRevisionData.float64(new java.math.BigDecimal("30")));
        assertEquals("9007199254740992", GoRevisionData.float64(new java.math.BigDecimal("9007199254740993")));
        assertEquals("9223372036854775807".length(),
                GoRevisionData.float64(new java.math.BigDecimal("9223372036854775807")).length());
        assertEquals("1e+21", GoRevisionData.float64(new java.math.BigDecimal("1000000000000000000000")));
        assertEquals("-2147483648", GoRevisionData.float64(new java.math.BigDecimal("-2147483648")));
    }

    @Test
    void revisionNamesCutTheOwnerTo223Characters() {
        String longName = "a".repeat(240);
        assertEquals("a".repeat(223) + "-h", TemplateRevisions.name(longName, "h"));
        assertEquals("web-h", TemplateRevisions.name("web", "h"));
    }

    @Test
    void aRevisionThisManagerWritesIsSentAsOpenKruisesBytes() throws Exception {
        JsonNode data = GoRevisionData.of(template(DEFAULTED));
        ControllerRevision r = TemplateRevisions.build("web", "compat", null, new OwnerReferenceBuilder()
                        .withApiVersion("apps.kruise.io/v1beta1").withKind("StatefulSet").withName("web")
                        .withUid("uid-1").withController(true).build(), data, TemplateRevisions.hash(data, 0),
                "web-" + TemplateRevisions.hash(data, 0), 1);
        assertEquals("web-5ccccd4988", r.getMetadata().getName());
        java.util.concurrent.atomic.AtomicReference<String> wire = new java.util.concurrent.atomic.AtomicReference<>();
        server.expect().post().withPath("/apis/apps/v1/namespaces/compat/controllerrevisions")
                .andReply(201, req -> {
                    wire.set(req.getUtf8Body());
                    return r;
                }).once();
        client.apps().controllerRevisions().inNamespace("compat").resource(r).create();
        String body = wire.get();
        // OpenKruise's history.EqualRevision compares data bytes: the request must carry them unchanged.
        assertTrue(body.contains("\"data\":" + DEFAULTED_BYTES), body);
        // In memory the data still reads as a template (the planner reads it before the API returns it).
        assertEquals("nginx:1.9.1", RevisionHistory.templateOf(r).getSpec().getContainers().get(0).getImage());
    }

    @Test
    void anOpenKruiseRevisionIsReusedWhateverFormTheTemplateIsStoredIn() throws Exception {
        // What OpenKruise wrote: its bytes, its name.
        Map<?, ?> okData = RevisionData.SORTED.readValue(DEFAULTED_BYTES, Map.class);
        ControllerRevision openKruise = new ControllerRevisionBuilder().withNewMetadata().withName("web-5ccccd4988")
                .addToLabels("controller.kubernetes.io/hash", "5ccccd4988").endMetadata().withRevision(3L)
                .withData(okData).build();
        JsonNode ours = TemplateRevisions.dataOf(template(DEFAULTED));
        TemplateRevisions.Resolution r = TemplateRevisions.resolve(ours, List.of(openKruise), 0,
                (d, c, n) -> {
                    throw new AssertionError("no new revision expected");
                });
        assertSame(openKruise, r.update());
        assertNull(r.toCreate());
        assertNull(r.renumber());
        // A revision this project wrote before its data matched OpenKruise's (Jackson form, no defaults Go adds)
        // is still the same template.
        ControllerRevision older = new ControllerRevisionBuilder().withNewMetadata().withName("web-old").endMetadata()
                .withRevision(1L).withData(RevisionData.SORTED.readValue("{\"spec\":{\"template\":"
                        + "{\"$patch\":\"replace\"," + DEFAULTED.substring(1) + "}}", Map.class)).build();
        assertTrue(GoRevisionData.sameTemplate(older, ours));
        // Another image is another template.
        assertFalse(GoRevisionData.sameTemplate(openKruise,
                TemplateRevisions.dataOf(template(DEFAULTED.replace("nginx:1.9.1", "nginx:1.9.2")))));
    }
}
