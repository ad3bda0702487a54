package dev.kruisevertx.sim.api;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.kubernetes.client.proto.IntStr;
import io.kubernetes.client.proto.Meta;
import io.kubernetes.client.proto.Resource;
import io.kubernetes.client.proto.Runtime;
import io.kubernetes.client.proto.V1;
import io.kubernetes.client.proto.V1Apps;
import io.kubernetes.client.proto.V1Batch;
import io.kubernetes.client.proto.V1Policy;

import java.io.ByteArrayOutputStream;

/**
 * Test objects built with Kubernetes' generated protobuf messages, as kubectl would send them, and the envelope
 * ({@code k8s\0} + runtime.Unknown) around them.
 */
final class ProtoMessages {
    private ProtoMessages() {
    }

    static byte[] envelope(String apiVersion, String kind, Message message) {
        Runtime.Unknown unknown = Runtime.Unknown.newBuilder()
                .setTypeMeta(Runtime.TypeMeta.newBuilder().setApiVersion(apiVersion).setKind(kind))
                .setRaw(message.toByteString()).build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(new byte[]{'k', '8', 's', 0});
        out.writeBytes(unknown.toByteArray());
        return out.toByteArray();
    }

    static IntStr.IntOrString intVal(int i) {
        return IntStr.IntOrString.newBuilder().setType(0).setIntVal(i).build();
    }

    static IntStr.IntOrString strVal(String s) {
        return IntStr.IntOrString.newBuilder().setType(1).setStrVal(s).build();
    }

    static Resource.Quantity quantity(String s) {
        return Resource.Quantity.newBuilder().setString(s).build();
    }

    static Meta.ObjectMeta.Builder meta(String name) {
        return Meta.ObjectMeta.newBuilder().setName(name);
    }

    static V1.Namespace namespace(String name) {
        return V1.Namespace.newBuilder().setMetadata(meta(name).putLabels("team", "proto")).build();
    }

    static V1.ConfigMap configMap(String name) {
        return V1.ConfigMap.newBuilder().setMetadata(meta(name).putAnnotations("note", "from protobuf"))
                .putData("a", "b").putData("empty", "")
                .putBinaryData("bin", ByteString.copyFrom(new byte[]{0, 1, 2, (byte) 0xff}))
                .setImmutable(false).build();
    }

    /** A pod spec with the inlined parts (ProbeHandler, VolumeSource, LocalObjectReference) and every special type. */
    static V1.PodSpec podSpec() {
        return V1.PodSpec.newBuilder()
                .addContainers(V1.Container.newBuilder().setName("main").setImage("nginx:1.25")
                        .addPorts(V1.ContainerPort.newBuilder().setName("http").setContainerPort(8080).setProtocol("TCP"))
                        .addEnv(V1.EnvVar.newBuilder().setName("FROM_CM").setValueFrom(V1.EnvVarSource.newBuilder()
                                .setConfigMapKeyRef(V1.ConfigMapKeySelector.newBuilder().setKey("a")
                                        .setLocalObjectReference(V1.LocalObjectReference.newBuilder().setName("cfg")))))
                        .setResources(V1.ResourceRequirements.newBuilder()
                                .putLimits("cpu", quantity("500m")).putLimits("memory", quantity("128Mi"))
                                .putRequests("cpu", quantity("100m")))
                        .setReadinessProbe(V1.Probe.newBuilder().setPeriodSeconds(5)
                                .setHandler(V1.ProbeHandler.newBuilder().setHttpGet(V1.HTTPGetAction.newBuilder()
                                        .setPath("/ready").setPort(strVal("http")))))
                        .setLivenessProbe(V1.Probe.newBuilder().setInitialDelaySeconds(3)
                                .setHandler(V1.ProbeHandler.newBuilder().setTcpSocket(V1.TCPSocketAction.newBuilder()
                                        .setPort(intVal(8080)))))
                        .addVolumeMounts(V1.VolumeMount.newBuilder().setName("cfg").setMountPath("/etc/cfg")))
                .addVolumes(V1.Volume.newBuilder().setName("cfg").setVolumeSource(V1.VolumeSource.newBuilder()
                        .setConfigMap(V1.ConfigMapVolumeSource.newBuilder()
                                .setLocalObjectReference(V1.LocalObjectReference.newBuilder().setName("cfg")))))
                .addVolumes(V1.Volume.newBuilder().setName("scratch").setVolumeSource(V1.VolumeSource.newBuilder()
                        .setEmptyDir(V1.EmptyDirVolumeSource.newBuilder().setSizeLimit(quantity("1Gi")))))
                .setTerminationGracePeriodSeconds(0)
                .setAutomountServiceAccountToken(false)
                .build();
    }

    static V1.Pod pod(String name) {
        return V1.Pod.newBuilder().setMetadata(meta(name).putLabels("app", "proto")).setSpec(podSpec()).build();
    }

    static Meta.LabelSelector selector(String app) {
        return Meta.LabelSelector.newBuilder().putMatchLabels("app", app).build();
    }

    static V1Apps.Deployment deployment(String name) {
        return V1Apps.Deployment.newBuilder().setMetadata(meta(name).putLabels("app", name))
                .setSpec(V1Apps.DeploymentSpec.newBuilder().setReplicas(0).setSelector(selector(name))
                        .setStrategy(V1Apps.DeploymentStrategy.newBuilder().setType("RollingUpdate")
                                .setRollingUpdate(V1Apps.RollingUpdateDeployment.newBuilder()
                                        .setMaxSurge(strVal("25%")).setMaxUnavailable(intVal(0))))
                        .setTemplate(V1.PodTemplateSpec.newBuilder().setMetadata(Meta.ObjectMeta.newBuilder()
                                .putLabels("app", name)).setSpec(podSpec())))
                .build();
    }

    static V1Batch.Job job(String name) {
        return V1Batch.Job.newBuilder().setMetadata(meta(name))
                .setSpec(V1Batch.JobSpec.newBuilder().setBackoffLimit(0).setCompletions(1).setParallelism(1)
                        .setTtlSecondsAfterFinished(600)
                        .setTemplate(V1.PodTemplateSpec.newBuilder().setSpec(V1.PodSpec.newBuilder()
                                .setRestartPolicy("Never")
                                .addContainers(V1.Container.newBuilder().setName("job").setImage("busybox:1.36")
                                        .addCommand("sh").addCommand("-c").addCommand("exit 0")))))
                .build();
    }

    static V1Policy.PodDisruptionBudget pdb(String name, IntStr.IntOrString minAvailable) {
        return V1Policy.PodDisruptionBudget.newBuilder().setMetadata(meta(name))
                .setSpec(V1Policy.PodDisruptionBudgetSpec.newBuilder().setSelector(selector("proto"))
                        .setMinAvailable(minAvailable))
                .build();
    }
}
