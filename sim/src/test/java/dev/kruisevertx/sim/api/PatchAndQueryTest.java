package dev.kruisevertx.sim.api;

import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.ClusterFixture;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class PatchAndQueryTest {
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

    @Test
    void mergePatchNullDeletes() {
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("mp").endMetadata()
                .addToData("keep", "1").addToData("drop", "2").build()).create();
        ConfigMap patched = client.configMaps().inNamespace("default").withName("mp")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"drop\":null,\"new\":\"3\"}}");
        assertEquals(java.util.Map.of("keep", "1", "new", "3"), patched.getData());
    }

    @Test
    void jsonPatch() {
        client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("jp").endMetadata()
                .addToData("a", "1").build()).create();
        ConfigMap patched = client.configMaps().inNamespace("default").withName("jp")
                .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"replace\",\"path\":\"/data/a\",\"value\":\"2\"},{\"op\":\"add\",\"path\":\"/data/b\",\"value\":\"x\"}]");
        assertEquals(java.util.Map.of("a", "2", "b", "x"), patched.getData());
        KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> client.configMaps().inNamespace("default").withName("jp")
                .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"test\",\"path\":\"/data/a\",\"value\":\"nope\"}]"));
        assertEquals(422, e.getCode());
    }

    @Test
    void strategicMergePatchMergesContainersByName() {
        Pod pod = new PodBuilder().withNewMetadata().withName("smp").addToLabels("a", "1").endMetadata()
                .withNewSpec().addNewContainer().withName("app").withImage("app:v1").endContainer()
                .addNewContainer().withName("sidecar").withImage("side:v1").endContainer()
                .addNewReadinessGate().withConditionType("example.com/ready").endReadinessGate().endSpec().build();
        client.pods().inNamespace("default").resource(pod).create();
        Pod patched = client.pods().inNamespace("default").withName("smp").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                "{\"metadata\":{\"labels\":{\"a\":null,\"b\":\"2\"}},\"spec\":{\"containers\":[{\"name\":\"app\",\"image\":\"app:v2\"}]}}");
        assertEquals(List.of("app:v2", "side:v1"), patched.getSpec().getContainers().stream().map(c -> c.getImage()).collect(Collectors.toList()));
        assertEquals(java.util.Map.of("b", "2"), patched.getMetadata().getLabels());

        Pod status = client.pods().inNamespace("default").withName("smp").subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                "{\"status\":{\"conditions\":[{\"type\":\"example.com/ready\",\"status\":\"True\"}]}}");
        Pod status2 = client.pods().inNamespace("default").withName("smp").subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                "{\"status\":{\"conditions\":[{\"type\":\"Other\",\"status\":\"False\"}]}}");
        assertEquals(1, status.getStatus().getConditions().size());
        assertEquals(List.of("example.com/ready", "Other"), status2.getStatus().getConditions().stream().map(c -> c.getType()).toList(),
                "conditions merge by type");
        Pod removed = client.pods().inNamespace("default").withName("smp").subresource("status").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
                "{\"status\":{\"conditions\":[{\"type\":\"Other\",\"$patch\":\"delete\"}]}}");
        assertEquals(List.of("example.com/ready"), removed.getStatus().getConditions().stream().map(c -> c.getType()).toList());
        KubernetesClientException forbidden = assertThrows(KubernetesClientException.class, () -> client.pods().inNamespace("default").withName("smp")
                .patch(PatchContext.of(PatchType.STRATEGIC_MERGE), "{\"spec\":{\"containers\":[{\"name\":\"sidecar\",\"$patch\":\"delete\"}]}}"));
        assertEquals(422, forbidden.getCode(), "a pod's container list is immutable");
    }

    @Test
    void strategicMergePatchOnCustomResourceIsUnsupportedMediaType() {
        // Tested through the pure function: CRs do not accept strategic merge (kube-apiserver answers 415).
        ApiException e = assertThrows(ApiException.class, () -> Patches.apply(Patches.STRATEGIC_MERGE_PATCH,
                new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode(),
                new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode(), false));
        assertEquals(415, e.code());
    }

    @Test
    void stalePatchResourceVersionIsConflict() {
        ConfigMap cm = client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("prv").endMetadata().build()).create();
        client.configMaps().inNamespace("default").withName("prv").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"x\":\"1\"}}");
        KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> client.configMaps().inNamespace("default").withName("prv")
                .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"metadata\":{\"resourceVersion\":\"" + cm.getMetadata().getResourceVersion() + "\"},\"data\":{\"x\":\"2\"}}"));
        assertEquals(409, e.getCode());
    }

    @Test
    void setBasedAndEqualityLabelSelectors() {
        for (String[] spec : new String[][]{{"s1", "web", "prod"}, {"s2", "web", "dev"}, {"s3", "db", "prod"}, {"s4", "cache", null}}) {
            ConfigMapBuilder b = new ConfigMapBuilder().withNewMetadata().withName(spec[0]).addToLabels("sel", "yes").addToLabels("tier", spec[1]).endMetadata();
            if (spec[2] != null) {
                b.editMetadata().addToLabels("env", spec[2]).endMetadata();
            }
            client.configMaps().inNamespace("default").resource(b.build()).create();
        }
        assertEquals(List.of("s1", "s3"), names("sel=yes,tier in (web,db),env==prod"));
        assertEquals(List.of("s3", "s4"), names("sel=yes,tier notin (web)"));
        assertEquals(List.of("s4"), names("sel=yes,!env"));
        assertEquals(List.of("s1", "s2", "s3"), names("sel=yes,env"));
        assertEquals(List.of("s2", "s4"), names("sel=yes,env!=prod"));
        assertEquals(List.of("s2"), names("sel=yes,env!=prod,tier!=cache"));
    }

    private List<String> names(String selector) {
        ConfigMapList list = client.configMaps().inNamespace("default").list(new ListOptionsBuilder().withLabelSelector(selector).build());
        return list.getItems().stream().map(c -> c.getMetadata().getName()).filter(n -> n.matches("s\\d")).sorted().toList();
    }

    @Test
    void fieldSelectorsOnPods() {
        for (String[] p : new String[][]{{"fs1", "node-a"}, {"fs2", "node-b"}, {"fs3", null}}) {
            PodBuilder b = new PodBuilder().withNewMetadata().withName(p[0]).addToLabels("fs", "1").endMetadata()
                    .withNewSpec().addNewContainer().withName("c").withImage("i").endContainer().endSpec();
            if (p[1] != null) {
                b.editSpec().withNodeName(p[1]).endSpec();
            }
            client.pods().inNamespace("default").resource(b.build()).create();
        }
        assertEquals(List.of("fs1"), client.pods().inNamespace("default").withField("spec.nodeName", "node-a").list().getItems()
                .stream().map(x -> x.getMetadata().getName()).toList());
        assertEquals(List.of("fs3"), client.pods().inNamespace("default").withLabel("fs").withField("spec.nodeName", "").list().getItems()
                .stream().map(x -> x.getMetadata().getName()).toList());
        assertEquals(List.of("fs1", "fs3"), client.pods().inNamespace("default").withLabel("fs").withoutField("spec.nodeName", "node-b").list().getItems()
                .stream().map(x -> x.getMetadata().getName()).sorted().toList());
        assertEquals(3, client.pods().inNamespace("default").withLabel("fs").withField("status.phase", "Pending").list().getItems().size());
        assertEquals(1, client.pods().inAnyNamespace().withField("metadata.name", "fs2").list().getItems().size());
    }

    @Test
    void paginationWithLimitAndContinue() {
        for (int i = 0; i < 7; i++) {
            client.configMaps().inNamespace("default").resource(new ConfigMapBuilder().withNewMetadata().withName("page-" + i).addToLabels("page", "y").endMetadata().build()).create();
        }
        List<String> all = new ArrayList<>();
        String cont = null;
        int pages = 0;
        do {
            ConfigMapList page = client.configMaps().inNamespace("default").withLabel("page", "y")
                    .list(new ListOptionsBuilder().withLimit(3L).withContinue(cont).build());
            assertTrue(page.getItems().size() <= 3);
            page.getItems().forEach(c -> all.add(c.getMetadata().getName()));
            cont = page.getMetadata().getContinue();
            pages++;
        } while (cont != null && !cont.isEmpty());
        assertEquals(3, pages);
        assertEquals(List.of("page-0", "page-1", "page-2", "page-3", "page-4", "page-5", "page-6"), all);
        assertFalse(all.isEmpty());
    }

    @Test
    void unfilteredPagesCountWhatIsLeftAndEndExactlyAtTheLastObject() {
        client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
                .withName("paged").endMetadata().build()).create();
        for (int i = 0; i < 7; i++) {
            client.configMaps().inNamespace("paged").resource(new ConfigMapBuilder().withNewMetadata()
                    .withName("unfiltered-" + i).endMetadata().build()).create();
        }
        List<String> all = new ArrayList<>();
        List<Long> remaining = new ArrayList<>();
        String cont = null;
        do {
            ConfigMapList page = client.configMaps().inNamespace("paged")
                    .list(new ListOptionsBuilder().withLimit(3L).withContinue(cont).build());
            page.getItems().forEach(c -> all.add(c.getMetadata().getName()));
            cont = page.getMetadata().getContinue();
            remaining.add(page.getMetadata().getRemainingItemCount());
        } while (cont != null && !cont.isEmpty());
        assertEquals(List.of("unfiltered-0", "unfiltered-1", "unfiltered-2", "unfiltered-3", "unfiltered-4",
                "unfiltered-5", "unfiltered-6"), all);
        assertEquals(java.util.Arrays.asList(4L, 1L, null), remaining);
        // A limit equal to the collection: one page, no continue token.
        ConfigMapList whole = client.configMaps().inNamespace("paged").list(new ListOptionsBuilder().withLimit(7L).build());
        assertEquals(7, whole.getItems().size());
        assertTrue(whole.getMetadata().getContinue() == null || whole.getMetadata().getContinue().isEmpty());
    }

    @Test
    void badSelectorIs400() {
        KubernetesClientException e = assertThrows(KubernetesClientException.class,
                () -> client.configMaps().inNamespace("default").list(new ListOptionsBuilder().withLabelSelector("tier in (web").build()));
        assertEquals(400, e.getCode());
    }
}
