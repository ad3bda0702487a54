package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Coordination;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static dev.kruisevertx.sim.api.ProtoMessages.envelope;
import static dev.kruisevertx.sim.api.ProtoMessages.intVal;
import static dev.kruisevertx.sim.api.ProtoMessages.strVal;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Protobuf bodies decode to exactly the JSON fabric8 writes for the same object. */
class KubeProtobufTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final KubernetesSerialization FABRIC8 = new KubernetesSerialization();

    /** fabric8's JSON for an object written as JSON text, read into its model class and written back. */
    private static JsonNode fabric8(String json, Class<?> type) throws Exception {
        return MAPPER.readTree(FABRIC8.asJson(FABRIC8.unmarshal(json, type)));
    }

    private static final String POD_SPEC = """
            {"containers": [{"name": "main", "image": "nginx:1.25",
                "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
                "env": [{"name": "FROM_CM", "valueFrom": {"configMapKeyRef": {"key": "a", "name": "cfg"}}}],
                "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}, "requests": {"cpu": "100m"}},
                "readinessProbe": {"periodSeconds": 5, "httpGet": {"path": "/ready", "port": "http"}},
                "livenessProbe": {"initialDelaySeconds": 3, "tcpSocket": {"port": 8080}},
                "volumeMounts": [{"name": "cfg", "mountPath": "/etc/cfg"}]}],
             "volumes": [{"name": "cfg", "configMap": {"name": "cfg"}},
                         {"name": "scratch", "emptyDir": {"sizeLimit": "1Gi"}}],
             "terminationGracePeriodSeconds": 0,
             "automountServiceAccountToken": false}
            """;

    @Test
    void namespaceConfigMapPodDeploymentJobAndBudgetMatchFabric8Json() throws Exception {
        assertEquals(fabric8("""
                {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "ns1", "labels": {"team": "proto"}}}
                """, Namespace.class), KubeProtobuf.decode(envelope("v1", "Namespace", ProtoMessages.namespace("ns1"))));
        assertEquals(fabric8("""
                {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cm1", "annotations": {"note": "from protobuf"}},
                 "data": {"a": "b", "empty": ""}, "binaryData": {"bin": "AAEC/w=="}, "immutable": false}
                """, ConfigMap.class), KubeProtobuf.decode(envelope("v1", "ConfigMap", ProtoMessages.configMap("cm1"))));
        assertEquals(fabric8("""
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p1", "labels": {"app": "proto"}}, "spec": %s}
                """.formatted(POD_SPEC), Pod.class), KubeProtobuf.decode(envelope("v1", "Pod", ProtoMessages.pod("p1"))));
        assertEquals(fabric8("""
                {"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "web", "labels": {"app": "web"}},
                 "spec": {"replicas": 0, "selector": {"matchLabels": {"app": "web"}},
                   "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%%", "maxUnavailable": 0}},
                   "template": {"metadata": {"labels": {"app": "web"}}, "spec": %s}}}
                """.formatted(POD_SPEC), Deployment.class),
                KubeProtobuf.decode(envelope("apps/v1", "Deployment", ProtoMessages.deployment("web"))));
        assertEquals(fabric8("""
                {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "j1"},
                 "spec": {"backoffLimit": 0, "completions": 1, "parallelism": 1, "ttlSecondsAfterFinished": 600,
                   "template": {"spec": {"restartPolicy": "Never",
                     "containers": [{"name": "job", "image": "busybox:1.36", "command": ["sh", "-c", "exit 0"]}]}}}}
                """, Job.class), KubeProtobuf.decode(envelope("batch/v1", "Job", ProtoMessages.job("j1"))));
        assertEquals(fabric8("""
                {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "b1"},
                 "spec": {"selector": {"matchLabels": {"app": "proto"}}, "minAvailable": 1}}
                """, PodDisruptionBudget.class),
                KubeProtobuf.decode(envelope("policy/v1", "PodDisruptionBudget", ProtoMessages.pdb("b1", intVal(1)))));
        assertEquals(fabric8("""
                {"apiVersion": "policy/v1", "kind": "PodDisruptionBudget", "metadata": {"name": "b2"},
                 "spec": {"selector": {"matchLabels": {"app": "proto"}}, "minAvailable": "50%"}}
                """, PodDisruptionBudget.class),
                KubeProtobuf.decode(envelope("policy/v1", "PodDisruptionBudget", ProtoMessages.pdb("b2", strVal("50%")))));
    }

    /**
     * Go's generated marshalling writes every non-pointer field, zero or not (kubectl's bodies are full of "" and 0);
     * Go reads those back as unset, so the JSON leaves them out, while a pointer's zero (replicas: 0) was meant.
     */
    @Test
    void zeroValuesOfPlainFieldsAreUnsetAndPointerZerosStay() throws Exception {
        V1.Pod goStyle = V1.Pod.newBuilder()
                .setMetadata(Meta.ObjectMeta.newBuilder().setName("go").setGenerateName("").setNamespace("")
                        .setCreationTimestamp(Meta.Time.newBuilder().setSeconds(ProtoJson.GO_ZERO_TIME_SECONDS)))
                .setSpec(V1.PodSpec.newBuilder().setRestartPolicy("").setDnsPolicy("").setHostNetwork(false)
                        .setTerminationGracePeriodSeconds(0).setEnableServiceLinks(false)
                        .addContainers(V1.Container.newBuilder().setName("c").setImage("nginx").setImagePullPolicy("")
                                .setStdin(false).setTty(false)
                                .setResources(V1.ResourceRequirements.newBuilder())
                                .setLivenessProbe(V1.Probe.newBuilder().setTimeoutSeconds(0).setPeriodSeconds(0)
                                        .setHandler(V1.ProbeHandler.newBuilder().setTcpSocket(V1.TCPSocketAction
                                                .newBuilder().setHost("").setPort(intVal(80)))))))
                .setStatus(V1.PodStatus.newBuilder().setPhase(""))
                .build();
        JsonNode decoded = KubeProtobuf.decode(envelope("v1", "Pod", goStyle));
        assertEquals(MAPPER.readTree("""
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "go"},
                 "spec": {"terminationGracePeriodSeconds": 0, "enableServiceLinks": false,
                   "containers": [{"name": "c", "image": "nginx", "resources": {},
                     "livenessProbe": {"tcpSocket": {"port": 80}}}]},
                 "status": {}}
                """), decoded);
    }

    @Test
    void timesAndEmbeddedObjects() throws Exception {
        V1Coordination.Lease lease = V1Coordination.Lease.newBuilder().setMetadata(ProtoMessages.meta("l1"))
                .setSpec(V1Coordination.LeaseSpec.newBuilder().setHolderIdentity("me").setLeaseDurationSeconds(15)
                        .setRenewTime(Meta.MicroTime.newBuilder().setSeconds(1_700_000_000L).setNanos(123_456_789))
                        .setAcquireTime(Meta.MicroTime.newBuilder().setSeconds(1_700_000_000L)))
                .build();
        assertEquals(fabric8("""
                {"apiVersion": "coordination.k8s.io/v1", "kind": "Lease", "metadata": {"name": "l1"},
                 "spec": {"holderIdentity": "me", "leaseDurationSeconds": 15,
                   "renewTime": "2023-11-14T22:13:20.123456Z", "acquireTime": "2023-11-14T22:13:20.000000Z"}}
                """, Lease.class), KubeProtobuf.decode(envelope("coordination.k8s.io/v1", "Lease", lease)));

        V1.Pod withConditions = V1.Pod.newBuilder().setMetadata(ProtoMessages.meta("t1")
                        .setDeletionTimestamp(Meta.Time.newBuilder().setSeconds(1_700_000_001L).setNanos(999)))
                .setStatus(V1.PodStatus.newBuilder().addConditions(V1.PodCondition.newBuilder().setType("Ready")
                        .setStatus("True").setLastTransitionTime(Meta.Time.newBuilder().setSeconds(1_700_000_000L))))
                .build();
        assertEquals(fabric8("""
                {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "t1", "deletionTimestamp": "2023-11-14T22:13:21Z"},
                 "status": {"conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2023-11-14T22:13:20Z"}]}}
                """, Pod.class), KubeProtobuf.decode(envelope("v1", "Pod", withConditions)));

        V1Apps.ControllerRevision revision = V1Apps.ControllerRevision.newBuilder().setMetadata(ProtoMessages.meta("r1"))
                .setRevision(3).setData(io.kubernetes.client.proto.Runtime.RawExtension.newBuilder()
                        .setRaw(ByteString.copyFrom("{\"spec\":{\"template\":{\"x\":1}}}", StandardCharsets.UTF_8)))
                .build();
        assertEquals(fabric8("""
                {"apiVersion": "apps/v1", "kind": "ControllerRevision", "metadata": {"name": "r1"}, "revision": 3,
                 "data": {"spec": {"template": {"x": 1}}}}
                """, ControllerRevision.class),
                KubeProtobuf.decode(envelope("apps/v1", "ControllerRevision", revision)));
    }

    @Test
    void deleteOptionsUnderAGroupVersionAreMetaOptions() throws Exception {
        Meta.DeleteOptions options = Meta.DeleteOptions.newBuilder().setGracePeriodSeconds(0)
                .setPropagationPolicy("Foreground").addDryRun("All").build();
        assertEquals(MAPPER.readTree("""
                {"apiVersion": "apps/v1", "kind": "DeleteOptions", "gracePeriodSeconds": 0,
                 "propagationPolicy": "Foreground", "dryRun": ["All"]}
                """), KubeProtobuf.decode(envelope("apps/v1", "DeleteOptions", options)));
    }

    @Test
    void brokenOrUnknownBodiesAreRefusedWithWhatIsWrong() {
        ApiException noMagic = assertThrows(ApiException.class, () -> KubeProtobuf.decode("{}".getBytes(StandardCharsets.UTF_8)));
        assertEquals(400, noMagic.code());
        assertTrue(noMagic.getMessage().contains("magic"), noMagic.getMessage());

        ApiException truncated = assertThrows(ApiException.class, () -> KubeProtobuf.decode(new byte[]{'k', '8', 's', 0, 0x0a, 0x7f}));
        assertEquals(400, truncated.code());
        assertTrue(truncated.getMessage().contains("runtime.Unknown"), truncated.getMessage());

        ApiException custom = assertThrows(ApiException.class, () -> KubeProtobuf.decode(
                envelope("apps.kruise.io/v1alpha1", "CloneSet", ProtoMessages.namespace("x"))));
        assertEquals(415, custom.code());
        assertTrue(custom.getMessage().contains("CloneSet (apps.kruise.io/v1alpha1)"), custom.getMessage());

        ApiException nested = assertThrows(ApiException.class, () -> KubeProtobuf.decode(envelope("apps/v1",
                "ControllerRevision", V1Apps.ControllerRevision.newBuilder().setMetadata(ProtoMessages.meta("n"))
                        .setData(io.kubernetes.client.proto.Runtime.RawExtension.newBuilder().setRaw(ByteString.copyFrom(
                                envelope("v1", "Namespace", ProtoMessages.namespace("inner"))))).build())));
        assertEquals(400, nested.code());
        assertTrue(nested.getMessage().contains("not JSON"), nested.getMessage());

        ApiException crd = assertThrows(ApiException.class, () -> KubeProtobuf.decode(envelope(
                "apiextensions.k8s.io/v1", "CustomResourceDefinition", ProtoMessages.namespace("x"))));
        assertEquals(415, crd.code(), "CRDs travel as JSON; their schema's JSON names are not in the field table");
    }

    @Test
    void durationsReadAsGoWritesThem() {
        assertEquals("0s", GoDuration.format(0));
        assertEquals("1h0m0s", GoDuration.format(3_600_000_000_000L));
        assertEquals("1h2m3.5s", GoDuration.format(3_723_500_000_000L));
        assertEquals("2m0s", GoDuration.format(120_000_000_000L));
        assertEquals("150ms", GoDuration.format(150_000_000L));
        assertEquals("1.5µs", GoDuration.format(1_500L));
        assertEquals("999ns", GoDuration.format(999L));
        assertEquals("-30s", GoDuration.format(-30_000_000_000L));
    }
}
