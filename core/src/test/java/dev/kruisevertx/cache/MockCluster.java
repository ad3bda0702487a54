package dev.kruisevertx.cache;

import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.dsl.base.CustomResourceDefinitionContext;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.time.Duration;
import java.util.HashMap;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.fail;

/** A fabric8 mock API server plus a client under test built like production ones (JDK HTTP client). */
public final class MockCluster implements AutoCloseable {
    static final Duration WAIT = Duration.ofSeconds(30);

    public final KubernetesMockServer server;
    public final KubernetesClient client;

    private MockCluster(KubernetesMockServer server) {
        this.server = server;
        this.client = KubeClients.forTest(server.createClient().getConfiguration());
    }

    public static MockCluster crud() {
        return crud(new KubernetesCrudDispatcher());
    }

    /** CRUD mode through {@code dispatcher} (a subclass that also looks at what it served). */
    static MockCluster crud(KubernetesCrudDispatcher dispatcher) {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                dispatcher, false);
        server.init();
        return new MockCluster(server);
    }

    /** Expectations mode: only what the test scripts with {@code server.expect()} is answered. */
    public static MockCluster expectations() {
        KubernetesMockServer server = new KubernetesMockServer(false);
        server.init();
        return new MockCluster(server);
    }

    /** Installs the CRD of a custom resource kind: the CRUD mock then stores it and lists it in discovery. */
    void installCrd(Class<? extends HasMetadata> type) {
        String group = HasMetadata.getGroup(type);
        String plural = HasMetadata.getPlural(type);
        boolean namespaced = Namespaced.class.isAssignableFrom(type);
        server.expectCustomResource(new CustomResourceDefinitionContext.Builder()
                .withGroup(group).withVersion(HasMetadata.getVersion(type)).withKind(HasMetadata.getKind(type))
                .withPlural(plural).withScope(namespaced ? "Namespaced" : "Cluster").build());
        client.apiextensions().v1().customResourceDefinitions().resource(new CustomResourceDefinitionBuilder()
                .withNewMetadata().withName(plural + "." + group).endMetadata()
                .withNewSpec().withGroup(group).withScope(namespaced ? "Namespaced" : "Cluster")
                .withNewNames().withKind(HasMetadata.getKind(type)).withPlural(plural).endNames()
                .addNewVersion().withName(HasMetadata.getVersion(type)).withServed(true).withStorage(true).endVersion()
                .endSpec().build()).create();
    }

    static Pod pod(String namespace, String name, String nodeName, String... ownerUids) {
        PodBuilder b = new PodBuilder().withNewMetadata().withNamespace(namespace).withName(name)
                .addToLabels("app", name.replaceAll("-\\d+$", "")).endMetadata()
                .withNewSpec().withNodeName(nodeName).addNewContainer().withName("main").withImage("nginx:1").endContainer()
                .endSpec();
        for (String uid : ownerUids) {
            b.editMetadata().addToOwnerReferences(new OwnerReferenceBuilder().withApiVersion("apps.kruise.io/v1alpha1")
                    .withKind("CloneSet").withName("owner-" + uid).withUid(uid).withController(true).build()).endMetadata();
        }
        return b.build();
    }

    static void await(String what, BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out after " + WAIT + " waiting for " + what);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                fail("interrupted waiting for " + what);
            }
        }
    }

    /**
     * Waits until the mock has flushed every watch event it queued, by creating a marker pod and waiting
     * for the cache to show it. The mock deadlocks its event loop for a minute when a watch closes while
     * it is still sending (WatchEventsListener.onClosed waits for its sender on the event loop).
     */
    void settlePods(CachedResource<Pod> pods, String namespace) {
        String name = "settle-" + System.nanoTime();
        client.pods().inNamespace(namespace).resource(pod(namespace, name, null)).create();
        await("marker pod " + name + " in cache", () -> pods.get(namespace, name) != null);
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
