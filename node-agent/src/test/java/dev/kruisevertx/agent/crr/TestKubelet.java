package dev.kruisevertx.agent.crr;

import dev.kruisevertx.agent.cri.CriClient;
import dev.kruisevertx.cri.v1.ContainerConfig;
import dev.kruisevertx.cri.v1.ContainerMetadata;
import dev.kruisevertx.cri.v1.ContainerState;
import dev.kruisevertx.cri.v1.ContainerStatus;
import dev.kruisevertx.cri.v1.ImageSpec;
import dev.kruisevertx.cri.v1.LinuxContainerConfig;
import dev.kruisevertx.cri.v1.LinuxContainerSecurityContext;
import dev.kruisevertx.cri.v1.LinuxPodSandboxConfig;
import dev.kruisevertx.cri.v1.LinuxSandboxSecurityContext;
import dev.kruisevertx.cri.v1.Mount;
import dev.kruisevertx.cri.v1.NamespaceMode;
import dev.kruisevertx.cri.v1.NamespaceOption;
import dev.kruisevertx.cri.v1.PodSandboxConfig;
import dev.kruisevertx.cri.v1.PodSandboxMetadata;
import io.fabric8.kubernetes.api.model.ContainerStateBuilder;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Future;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Plays the kubelet for one host-network pod on the real containerd: runs the sandbox and the containers through
 * CRI, publishes their ids in the Pod's status on the API server, and, when {@link #sync()} finds a container
 * exited, starts a new one with the next attempt number and reports it (restart count + 1, ready), as the kubelet
 * does with restartPolicy Always. Records what it saw, in order, so tests can check the recreation order.
 */
final class TestKubelet {
    static final Duration WAIT = Duration.ofSeconds(90);
    /** Each container appends its own name here on SIGTERM-free exit paths; hooks write into the same dir. */
    static final String HOOK_DIR = "/hooks";

    private final CriClient cri;
    private final KubernetesClient kube;
    private final String image;
    private final Path hostDir;
    private final Path logs;
    private final String namespace;
    private final String podName;
    private final Map<String, String> scripts = new LinkedHashMap<>();
    private final Map<String, String> current = new LinkedHashMap<>();
    private final Map<String, Integer> restarts = new LinkedHashMap<>();
    final List<String> events = new ArrayList<>();
    private PodSandboxConfig sandbox;
    private String sandboxId;

    TestKubelet(CriClient cri, KubernetesClient kube, String image, Path hostDir, Path logs, String namespace,
            String podName) {
        this.cri = cri;
        this.kube = kube;
        this.image = image;
        this.hostDir = hostDir;
        this.logs = logs;
        this.namespace = namespace;
        this.podName = podName;
    }

    TestKubelet container(String name, String script) {
        scripts.put(name, script);
        return this;
    }

    /** Runs the sandbox and every container, then creates the Pod (spec from {@code pod}) with their status. */
    Pod run(Pod pod, String nodeName) {
        String uid = UUID.randomUUID().toString();
        NamespaceOption hostNetwork = NamespaceOption.newBuilder()
                .setNetwork(NamespaceMode.NODE).setPid(NamespaceMode.CONTAINER).setIpc(NamespaceMode.POD).build();
        sandbox = PodSandboxConfig.newBuilder()
                .setMetadata(PodSandboxMetadata.newBuilder().setName(podName).setNamespace(namespace).setUid(uid))
                .setLogDirectory(logs.resolve(uid).toString())
                .putLabels("io.kubernetes.pod.uid", uid)
                .setLinux(LinuxPodSandboxConfig.newBuilder().setSecurityContext(
                        LinuxSandboxSecurityContext.newBuilder().setNamespaceOptions(hostNetwork)))
                .build();
        sandboxId = await(cri.runPodSandbox(sandbox));
        for (String name : scripts.keySet()) {
            current.put(name, start(name, 0));
            restarts.put(name, 0);
        }
        Pod created = kube.pods().inNamespace(namespace).resource(new PodBuilder(pod)
                .editOrNewMetadata().withName(podName).withNamespace(namespace).endMetadata()
                .editOrNewSpec().withNodeName(nodeName).endSpec()
                .build()).create();
        return publishStatus(created);
    }

    private String start(String name, int attempt) {
        ContainerConfig config = ContainerConfig.newBuilder()
                .setMetadata(ContainerMetadata.newBuilder().setName(name).setAttempt(attempt))
                .setImage(ImageSpec.newBuilder().setImage(image))
                .addAllCommand(List.of("/bin/sh", "-c", scripts.get(name)))
                .setLogPath(name + "/" + attempt + ".log")
                .addMounts(Mount.newBuilder().setContainerPath(HOOK_DIR).setHostPath(hostDir.toString()))
                .putLabels("io.kubernetes.container.name", name)
                .putLabels("io.kubernetes.pod.uid", sandbox.getMetadata().getUid())
                .setLinux(LinuxContainerConfig.newBuilder().setSecurityContext(LinuxContainerSecurityContext.newBuilder()
                        .setNamespaceOptions(sandbox.getLinux().getSecurityContext().getNamespaceOptions())))
                .build();
        String id = await(cri.createContainer(sandboxId, config, sandbox));
        await(cri.startContainer(id));
        return id;
    }

    /** One kubelet pass: restarts every exited container and reports the pod's status. */
    synchronized void sync() {
        boolean changed = false;
        for (String name : scripts.keySet()) {
            ContainerStatus status = await(cri.containerStatus(current.get(name)));
            if (status.getState() == ContainerState.CONTAINER_EXITED) {
                events.add(name + " exited");
                int attempt = restarts.merge(name, 1, Integer::sum);
                current.put(name, start(name, attempt));
                events.add(name + " restarted");
                changed = true;
            }
        }
        if (changed) {
            publishStatus(kube.pods().inNamespace(namespace).withName(podName).get());
        }
    }

    private Pod publishStatus(Pod pod) {
        List<io.fabric8.kubernetes.api.model.ContainerStatus> statuses = new ArrayList<>();
        for (String name : scripts.keySet()) {
            ContainerStatus rt = await(cri.containerStatus(current.get(name)));
            statuses.add(new ContainerStatusBuilder().withName(name).withImage(image)
                    .withContainerID("containerd://" + current.get(name))
                    .withRestartCount(restarts.get(name)).withReady(true).withStarted(true)
                    .withState(new ContainerStateBuilder().withNewRunning()
                            .withStartedAt(Instant.ofEpochSecond(0, rt.getStartedAt()).toString()).endRunning().build())
                    .build());
        }
        Pod withStatus = new PodBuilder(pod).editOrNewStatus().withPhase("Running").withPodIP("127.0.0.1")
                .withContainerStatuses(statuses).endStatus().build();
        return kube.pods().inNamespace(namespace).resource(withStatus).updateStatus();
    }

    String containerId(String name) {
        return current.get(name);
    }

    ContainerStatus runtimeStatus(String runtimeId) {
        return await(cri.containerStatus(runtimeId));
    }

    /** Stops and removes the sandbox with everything in it. */
    void close() {
        if (sandboxId != null) {
            await(cri.stopPodSandbox(sandboxId));
            await(cri.removePodSandbox(sandboxId));
        }
    }

    static <T> T await(Future<T> future) {
        try {
            return future.toCompletionStage().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException re) {
                throw re;
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (TimeoutException e) {
            throw new AssertionError("no result within " + WAIT, e);
        }
    }
}
