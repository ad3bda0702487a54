package dev.kruisevertx.sidecarterminator;

import dev.kruisevertx.api.apps.v1alpha1.ContainerRecreateRequest;
import dev.kruisevertx.demo.DemoOptions;
import dev.kruisevertx.demo.DemoRunner;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SidecarTerminator end to end on the embedded cluster as {@code demo} runs it (gate on): the manager creates the
 * ContainerRecreateRequest, the node agent on the pod's simulated node stops the sidecar over the CRI, and the
 * simulated kubelet leaves it exited (restartPolicy Never), so the Job's pod, and the Job, finish.
 */
class SidecarTerminatorEndToEndTest {
    static final Duration TIMEOUT = Duration.ofSeconds(90);
    static final String NS = "default";
    static DemoRunner product;
    static KubernetesClient client;

    @BeforeAll
    static void start() throws Exception {
        Path dir = Files.createTempDirectory("sidecarterminator-e2e");
        product = new DemoRunner(new DemoOptions(2, dir.resolve("kubeconfig"), 0, "127.0.0.1:0", "127.0.0.1:0", "0",
                "SidecarTerminator=true", null, true, Duration.ofSeconds(60)),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        product.start();
        client = product.cluster().client();
    }

    @AfterAll
    static void stop() throws Exception {
        if (product != null) {
            product.close();
        }
    }

    static ContainerStatus status(Pod pod, String name) {
        return pod.getStatus().getContainerStatuses().stream().filter(s -> s.getName().equals(name)).findFirst()
                .orElseThrow();
    }

    @Test
    void aJobPodWithASidecarFinishes() {
        Job job = new JobBuilder().withNewMetadata().withName("with-sidecar").withNamespace(NS).endMetadata()
                .withNewSpec().withBackoffLimit(0).withNewTemplate().withNewMetadata()
                .addToAnnotations("sim.kruise-vertx.dev/exit.main", "code=0,after=1s").endMetadata()
                .withNewSpec().withRestartPolicy("Never")
                .addNewContainer().withName("main").withImage("batch/work:1").endContainer()
                .addNewContainer().withName("proxy").withImage("mesh/proxy:1")
                .addNewEnv().withName("KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT").withValue("true").endEnv().endContainer()
                .endSpec().endTemplate().endSpec().build();
        client.batch().v1().jobs().inNamespace(NS).resource(job).create();
        Pod done = Await.waitFor("the job's pod Succeeded", TIMEOUT, () -> client.pods().inNamespace(NS)
                        .withLabel("job-name", "with-sidecar").list().getItems(),
                pods -> pods.size() == 1 && "Succeeded".equals(pods.get(0).getStatus().getPhase())).get(0);
        assertEquals(0, status(done, "main").getState().getTerminated().getExitCode());
        assertNotNull(status(done, "proxy").getState().getTerminated(), "the sidecar was stopped");
        ContainerRecreateRequest crr = client.resources(ContainerRecreateRequest.class).inNamespace(NS)
                .withName("sidecar-termination-" + done.getMetadata().getUid()).get();
        assertNotNull(crr, "stopped through the CRR OpenKruise names");
        assertEquals(List.of("proxy"), crr.getSpec().getContainers().stream().map(c -> c.getName()).toList());
        assertEquals(done.getMetadata().getUid(), crr.getMetadata().getOwnerReferences().get(0).getUid());
        Await.waitFor("the Job complete", TIMEOUT, () -> client.batch().v1().jobs().inNamespace(NS)
                .withName("with-sidecar").get(), j -> j.getStatus() != null && j.getStatus().getSucceeded() != null
                && j.getStatus().getSucceeded() == 1);
    }

    @Test
    void ignoreExitCodeSidecarsLetAFailedMainFailThePodAtOnce() {
        Pod pod = new PodBuilder().withNewMetadata().withName("ignore-exit").withNamespace(NS)
                .addToAnnotations("sim.kruise-vertx.dev/exit.main", "code=4,after=500ms").endMetadata()
                .withNewSpec().withRestartPolicy("Never")
                .addNewContainer().withName("main").withImage("batch/work:1").endContainer()
                .addNewContainer().withName("proxy").withImage("mesh/proxy:1")
                .addNewEnv().withName("KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT").withValue("true").endEnv()
                .addNewEnv().withName("KRUISE_TERMINATE_SIDECAR_IGNORE_EXIT_CODE").withValue("true").endEnv()
                .endContainer().endSpec().build();
        client.pods().inNamespace(NS).resource(pod).create();
        Pod failed = Await.waitFor("ignore-exit Failed", TIMEOUT, () -> client.pods().inNamespace(NS)
                .withName("ignore-exit").get(), p -> p.getStatus() != null && "Failed".equals(p.getStatus().getPhase()));
        assertTrue(failed.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("SidecarTerminated")
                && c.getStatus().equals("True")), "the phase was set by the terminator, from main's exit code");
    }

    @Test
    void podsWithoutTheEnvOrWithRestartPolicyAlwaysAreLeftAlone() {
        Pod pod = new PodBuilder().withNewMetadata().withName("plain").withNamespace(NS)
                .addToAnnotations("sim.kruise-vertx.dev/exit.main", "code=0,after=200ms").endMetadata()
                .withNewSpec().withRestartPolicy("Never")
                .addNewContainer().withName("main").withImage("batch/work:1").endContainer()
                .addNewContainer().withName("log").withImage("log/agent:1").endContainer().endSpec().build();
        client.pods().inNamespace(NS).resource(pod).create();
        Await.waitFor("plain's main exited", TIMEOUT, () -> client.pods().inNamespace(NS).withName("plain").get(),
                p -> p.getStatus() != null && p.getStatus().getContainerStatuses() != null
                        && p.getStatus().getContainerStatuses().stream().anyMatch(s -> s.getName().equals("main")
                        && s.getState().getTerminated() != null));
        Pod after = client.pods().inNamespace(NS).withName("plain").get();
        assertEquals("Running", after.getStatus().getPhase(), "no sidecar env: nothing stops the log agent");
        assertEquals(null, client.resources(ContainerRecreateRequest.class).inNamespace(NS)
                .withName("sidecar-termination-" + after.getMetadata().getUid()).get());
    }

    @Test
    void onAVirtualKubeletTheSidecarImageIsSwappedAndThePodFinishes() {
        product.cluster().nodes().addNode("vk-node", java.util.Map.of("type", "virtual-kubelet"));
        product.cluster().nodes().addExitRule(new dev.kruisevertx.sim.nodes.ExitRule("exit/now:*",
                new dev.kruisevertx.sim.nodes.ContainerExit(0, Duration.ZERO)));
        Await.waitFor("vk-node registered", TIMEOUT, () -> client.nodes().withName("vk-node").get() != null);
        Pod pod = new PodBuilder().withNewMetadata().withName("on-vk").withNamespace(NS)
                .addToAnnotations("sim.kruise-vertx.dev/exit.main", "code=0,after=500ms").endMetadata()
                .withNewSpec().withRestartPolicy("Never").withNodeName("vk-node")
                .addNewContainer().withName("main").withImage("batch/work:1").endContainer()
                .addNewContainer().withName("proxy").withImage("mesh/proxy:1")
                .addNewEnv().withName("KRUISE_TERMINATE_SIDECAR_WHEN_JOB_EXIT_WITH_IMAGE").withValue("exit/now:1").endEnv()
                .endContainer().endSpec().build();
        client.pods().inNamespace(NS).resource(pod).create();
        Pod done = Await.waitFor("on-vk Succeeded", TIMEOUT, () -> client.pods().inNamespace(NS).withName("on-vk").get(),
                p -> p.getStatus() != null && "Succeeded".equals(p.getStatus().getPhase()));
        assertEquals("exit/now:1", done.getSpec().getContainers().get(1).getImage(), "swapped in place");
        assertEquals(null, client.resources(ContainerRecreateRequest.class).inNamespace(NS)
                .withName("sidecar-termination-" + done.getMetadata().getUid()).get(), "no CRR on a virtual kubelet");
    }
}
