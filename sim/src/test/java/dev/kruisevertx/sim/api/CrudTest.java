package dev.kruisevertx.sim.api;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CrudTest {
    static ClusterFixture fixture;
    static KubernetesClient client;

    @BeforeAll
    static void start() {
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0));
        client = fixture.client();
    }

    @AfterAll
    static void stop() {
        fixture.close();
    }

    static Pod pod(String name) {
        return new PodBuilder().withNewMetadata().withName(name).addToLabels("app", "crud").endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage("nginx:1.25").endContainer().endSpec().build();
    }

    @Test
    void createSetsServerFieldsAndGetReturnsIt() {
        Pod created = client.pods().inNamespace("default").resource(pod("p1")).create();
        assertNotNull(created.getMetadata().getUid());
        assertNotNull(created.getMetadata().getCreationTimestamp());
        assertNotNull(created.getMetadata().getResourceVersion());
        assertEquals("Pending", created.getStatus().getPhase());
        Pod got = client.pods().inNamespace("default").withName("p1").get();
        assertEquals(created.getMetadata().getUid(), got.getMetadata().getUid());
        assertEquals("default-scheduler", got.getSpec().getSchedulerName());
    }

    @Test
    void generateNameGetsFiveCharacterSuffix() {
        Set<String> names = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            ConfigMap cm = client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
                    .withNewMetadata().withGenerateName("gen-").endMetadata().addToData("k", "v").build()).create();
            assertTrue(cm.getMetadata().getName().matches("gen-[bcdfghjklmnpqrstvwxz2456789]{5}"), cm.getMetadata().getName());
            names.add(cm.getMetadata().getName());
        }
        assertEquals(5, names.size());
    }

    @Test
    void duplicateCreateIsConflict() {
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("dup").endMetadata().build()).create();
        KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> client.configMaps().inNamespace("default")
                .resource(new ConfigMapBuilder().withNewMetadata().withName("dup").endMetadata().build()).create());
        assertEquals(409, e.getCode());
        assertEquals("AlreadyExists", e.getStatus().getReason());
    }

    @Test
    void staleResourceVersionIsConflictAndEveryWriteBumpsIt() {
        ConfigMap cm = client.configMaps().inNamespace("default").resource(new ConfigMapBuilder()
                .withNewMetadata().withName("rv").endMetadata().addToData("a", "1").build()).create();
        ConfigMap changed = new ConfigMapBuilder(cm).addToData("a", "2").build();
        ConfigMap updated = client.configMaps().inNamespace("default").resource(changed).update();
        assertNotEquals(cm.getMetadata().getResourceVersion(), updated.getMetadata().getResourceVersion());
        ConfigMap stale = new ConfigMapBuilder(cm).addToData("a", "3").build();
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> client.configMaps().inNamespace("default").resource(stale).update());
        assertEquals(409, e.getCode());
        assertEquals("2", client.configMaps().inNamespace("default").withName("rv").get().getData().get("a"));
    }

    @Test
    void missingObjectIs404WithStatus() {
        assertNull(client.pods().inNamespace("default").withName("nope").get());
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> client.configMaps().inNamespace("default").withName("nope").edit(c -> c));
        assertEquals(404, e.getCode());
    }

    @Test
    void createInMissingNamespaceIsRejected() {
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> client.configMaps().inNamespace("ghost").resource(new ConfigMapBuilder().withNewMetadata().withName("x").endMetadata().build()).create());
        assertEquals(404, e.getCode());
    }

    @Test
    void deleteRemovesUnscheduledPodAtOnce() {
        client.pods().inNamespace("default").resource(pod("gone")).create();
        client.pods().inNamespace("default").withName("gone").delete();
        assertNull(client.pods().inNamespace("default").withName("gone").get());
    }

    @Test
    void clusterScopedAndListAcrossNamespaces() {
        client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata().withName("other").endMetadata().build()).create();
        client.configMaps().inNamespace("other").resource(new ConfigMapBuilder().withNewMetadata().withName("x").endMetadata().build()).create();
        assertTrue(client.configMaps().inAnyNamespace().list().getItems().stream().anyMatch(c -> c.getMetadata().getNamespace().equals("other")));
        assertEquals(1, client.configMaps().inNamespace("other").list().getItems().size());
        assertEquals("Active", client.namespaces().withName("other").get().getStatus().getPhase());
    }

    @Test
    void podSpecIsImmutableExceptImages() {
        Pod created = client.pods().inNamespace("default").resource(pod("immutable")).create();
        KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> client.pods().inNamespace("default")
                .resource(new PodBuilder(created).editSpec().editFirstContainer().addToArgs("--x").endContainer().endSpec().build()).update());
        assertEquals(422, e.getCode());
        Pod latest = client.pods().inNamespace("default").withName("immutable").get();
        Pod imageChanged = client.pods().inNamespace("default").resource(new PodBuilder(latest).editSpec().editFirstContainer()
                .withImage("nginx:1.26").endContainer().endSpec().build()).update();
        assertEquals("nginx:1.26", imageChanged.getSpec().getContainers().get(0).getImage());
    }

    @Test
    void secretStringDataIsFoldedIntoData() {
        io.fabric8.kubernetes.api.model.Secret s = client.secrets().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.SecretBuilder()
                .withNewMetadata().withName("sd").endMetadata().addToStringData("user", "admin").build()).create();
        assertEquals("YWRtaW4=", s.getData().get("user"));
        assertTrue(s.getStringData() == null || s.getStringData().isEmpty());
    }

    @Test
    void servicesGetAClusterIpThatSurvivesUpdates() {
        io.fabric8.kubernetes.api.model.Service svc = client.services().inNamespace("default").resource(new io.fabric8.kubernetes.api.model.ServiceBuilder()
                .withNewMetadata().withName("svc").endMetadata().withNewSpec().addToSelector("app", "x").addNewPort().withPort(80).endPort().endSpec().build()).create();
        String ip = svc.getSpec().getClusterIP();
        assertTrue(ip.startsWith("10.96."), ip);
        svc.getSpec().setClusterIP(null);
        svc.getSpec().setClusterIPs(null);
        assertEquals(ip, client.services().inNamespace("default").resource(svc).update().getSpec().getClusterIP());
    }

    @Test
    void aListLargerThanTheInlineLimitIsEncodedWholeAndPagesStillWork() {
        int count = ApiHttpServer.LARGE_LIST_ITEMS + 150;
        client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName("biglist").endMetadata().build()).create();
        for (int i = 0; i < count; i++) {
            client.configMaps().inNamespace("biglist").resource(new ConfigMapBuilder().withNewMetadata()
                    .withName(String.format("cm-%04d", i)).endMetadata().addToData("k", "v" + i).build()).create();
        }
        var all = client.configMaps().inNamespace("biglist").list().getItems();
        assertEquals(count, all.size());
        assertEquals("cm-0000", all.get(0).getMetadata().getName());
        assertEquals("v" + (count - 1), all.get(count - 1).getData().get("k"));
        var firstPage = client.configMaps().inNamespace("biglist")
                .list(new io.fabric8.kubernetes.api.model.ListOptionsBuilder()
                        .withLimit((long) ApiHttpServer.LARGE_LIST_ITEMS + 100).build());
        assertEquals(ApiHttpServer.LARGE_LIST_ITEMS + 100, firstPage.getItems().size());
        assertEquals(50L, firstPage.getMetadata().getRemainingItemCount());
    }
}
