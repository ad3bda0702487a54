package dev.kruisevertx.resourcedistribution;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistribution;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionCondition;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionSpec;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionTargetNamespaces;
import dev.kruisevertx.api.apps.v1alpha1.ResourceDistributionTargets;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ResourceDistribution in the manager against the embedded cluster (admission through the chart's webhook
 * configuration): copies appear in the target namespaces, copies edited or deleted by hand come back, namespaces that
 * stop matching lose theirs, same-named objects of others are reported and left alone, and the copies go with the
 * distribution. Also a manager restart mid-operation, a conflicting writer on a copy, the owner deleted while copies
 * are being written, and hostile specs refused by the webhook.
 */
class ResourceDistributionEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .flags("--feature-gates=ResourceDistributionGate=true")
            .build();

    static void namespace(String name, Map<String, String> labels) {
        product.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name)
                .withLabels(labels).endMetadata().build()).create();
    }

    static JsonNode json(String s) {
        try {
            return JSON.readTree(s);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static ResourceDistribution rd(String name, JsonNode resource, List<String> included, List<String> excluded,
                                   Map<String, String> selector) {
        ResourceDistribution rd = new ResourceDistribution();
        rd.setMetadata(new ObjectMetaBuilder().withName(name).build());
        ResourceDistributionSpec spec = new ResourceDistributionSpec();
        spec.setResource(resource);
        ResourceDistributionTargets t = new ResourceDistributionTargets();
        if (included != null) {
            t.setIncludedNamespaces(ResourceDistributionTargetNamespaces.of(included.toArray(String[]::new)));
        }
        if (excluded != null) {
            t.setExcludedNamespaces(ResourceDistributionTargetNamespaces.of(excluded.toArray(String[]::new)));
        }
        if (selector != null) {
            t.setNamespaceLabelSelector(new LabelSelectorBuilder().withMatchLabels(selector).build());
        }
        spec.setTargets(t);
        rd.setSpec(spec);
        return rd;
    }

    static Resource<ResourceDistribution> distribution(String name) {
        return product.client().resources(ResourceDistribution.class).withName(name);
    }

    static JsonNode configMap(String name, String value) {
        return json("{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"metadata\":{\"name\":\"" + name
                + "\",\"labels\":{\"from\":\"rd\"}},\"data\":{\"key\":\"" + value + "\"}}");
    }

    static ConfigMap cm(String ns, String name) {
        return product.client().configMaps().inNamespace(ns).withName(name).get();
    }

    static ResourceDistribution waitStatus(String name, int desired, int succeeded) {
        return Await.waitFor(name + " status desired=" + desired + " succeeded=" + succeeded, WAIT,
                () -> distribution(name).get(), r -> r != null && r.getStatus() != null
                        && Integer.valueOf(desired).equals(r.getStatus().getDesired())
                        && Integer.valueOf(succeeded).equals(r.getStatus().getSucceeded())
                        && r.getMetadata().getGeneration().equals(r.getStatus().getObservedGeneration()));
    }

    static ResourceDistributionCondition condition(ResourceDistribution rd, String type) {
        return rd.getStatus().getConditions().stream().filter(c -> type.equals(c.getType())).findFirst().orElseThrow();
    }

    static void waitValue(String ns, String name, String value) {
        Await.waitFor(ns + "/" + name + " key=" + value, WAIT, () -> cm(ns, name),
                c -> c != null && c.getData() != null && value.equals(c.getData().get("key")));
    }

    @Test
    void copiesFollowTargetsAndComeBackWhenEditedOrDeleted() {
        namespace("rd1-a", Map.of());
        namespace("rd1-b", Map.of("rd1", "yes"));
        namespace("rd1-c", Map.of("rd1", "yes"));
        namespace("rd1-d", Map.of());
        product.client().resource(rd("rd1", configMap("shared", "v1"), List.of("rd1-a", "rd1-ghost"),
                List.of("rd1-c"), Map.of("rd1", "yes"))).create();
        // Targets: rd1-a (listed), rd1-b (label), rd1-ghost (listed, missing); rd1-c excluded, rd1-d not selected.
        ResourceDistribution rd = waitStatus("rd1", 3, 2);
        assertEquals(1, rd.getStatus().getFailed());
        assertEquals(List.of("GetResourceFailed", "CreateResourceFailed", "UpdateResourceFailed",
                "DeleteResourceFailed", "ConflictOccurred", "NamespaceNotExists"),
                rd.getStatus().getConditions().stream().map(ResourceDistributionCondition::getType).toList());
        assertEquals("True", condition(rd, "NamespaceNotExists").getStatus());
        assertEquals(List.of("rd1-ghost"), condition(rd, "NamespaceNotExists").getFailedNamespaces());
        assertEquals("False", condition(rd, "ConflictOccurred").getStatus());
        assertEquals("Succeeded", condition(rd, "ConflictOccurred").getReason());
        ConfigMap copy = cm("rd1-a", "shared");
        assertEquals("v1", copy.getData().get("key"));
        assertEquals("rd", copy.getMetadata().getLabels().get("from"));
        assertEquals("rd1", copy.getMetadata().getAnnotations().get(ResourceDistribution.FROM_ANNOTATION));
        assertEquals(64, copy.getMetadata().getAnnotations().get(ResourceDistribution.HASH_ANNOTATION).length());
        assertEquals(rd.getMetadata().getUid(), copy.getMetadata().getOwnerReferences().get(0).getUid());
        assertEquals("v1", cm("rd1-b", "shared").getData().get("key"));
        assertNull(cm("rd1-c", "shared"));
        assertNull(cm("rd1-d", "shared"));

        // Edited by hand: restored; an extra label someone added is kept (OpenKruise's metadata merge).
        ConflictRetry.run(() -> product.client().configMaps().inNamespace("rd1-a").withName("shared").edit(c -> {
            c.getData().put("key", "hacked");
            c.getMetadata().getLabels().put("added", "by-hand");
            return c;
        }));
        waitValue("rd1-a", "shared", "v1");
        // Deleted by hand: created again.
        product.client().configMaps().inNamespace("rd1-b").withName("shared").delete();
        Await.waitFor("rd1-b/shared back", WAIT, () -> cm("rd1-b", "shared") != null
                && cm("rd1-b", "shared").getMetadata().getDeletionTimestamp() == null);

        // The namespace appears: NamespaceNotExists clears.
        namespace("rd1-ghost", Map.of());
        rd = waitStatus("rd1", 3, 3);
        assertEquals("False", condition(rd, "NamespaceNotExists").getStatus());
        assertNotNullCopy("rd1-ghost");

        // A namespace stops matching: its copy is removed; one starts matching: it gets one.
        ConflictRetry.run(() -> product.client().namespaces().withName("rd1-b").edit(n -> {
            n.getMetadata().getLabels().remove("rd1");
            return n;
        }));
        ConflictRetry.run(() -> product.client().namespaces().withName("rd1-d").edit(n -> {
            n.getMetadata().getLabels().put("rd1", "yes");
            return n;
        }));
        Await.waitFor("rd1-b/shared removed", WAIT, () -> cm("rd1-b", "shared") == null);
        waitValue("rd1-d", "shared", "v1");

        // The source changes: every copy follows, with the new hash.
        String oldHash = cm("rd1-a", "shared").getMetadata().getAnnotations().get(ResourceDistribution.HASH_ANNOTATION);
        ConflictRetry.run(() -> distribution("rd1").edit(r -> {
            r.getSpec().setResource(configMap("shared", "v2"));
            return r;
        }));
        for (String ns : List.of("rd1-a", "rd1-d", "rd1-ghost")) {
            waitValue(ns, "shared", "v2");
        }
        assertTrue(!oldHash.equals(cm("rd1-a", "shared").getMetadata().getAnnotations()
                .get(ResourceDistribution.HASH_ANNOTATION)));
        waitStatus("rd1", 3, 3);

        // The distribution goes: so do its copies (garbage collection through the owner reference).
        distribution("rd1").delete();
        for (String ns : List.of("rd1-a", "rd1-d", "rd1-ghost")) {
            Await.waitFor(ns + "/shared collected", WAIT, () -> cm(ns, "shared") == null);
        }
    }

    static void assertNotNullCopy(String ns) {
        Await.waitFor(ns + "/shared present", WAIT, () -> cm(ns, "shared") != null);
    }

    @Test
    void aSameNamedObjectOfSomeoneElseIsReportedAndLeftAlone() {
        namespace("rd2-a", Map.of());
        namespace("rd2-b", Map.of());
        product.client().configMaps().inNamespace("rd2-b").resource(new ConfigMapBuilder().withNewMetadata()
                .withName("theirs").endMetadata().addToData("key", "mine").build()).create();
        product.client().resource(rd("rd2", configMap("theirs", "distributed"), List.of("rd2-a", "rd2-b"), null,
                null)).create();
        ResourceDistribution rd = waitStatus("rd2", 2, 1);
        ResourceDistributionCondition conflict = condition(rd, "ConflictOccurred");
        assertEquals("True", conflict.getStatus());
        assertEquals(List.of("rd2-b"), conflict.getFailedNamespaces());
        assertTrue(conflict.getReason().startsWith("conflict with existing resources"), conflict.getReason());
        assertEquals("mine", cm("rd2-b", "theirs").getData().get("key"));
        assertEquals("distributed", cm("rd2-a", "theirs").getData().get("key"));
        // The other owner removes theirs: the distribution takes the namespace over and the conflict clears.
        product.client().configMaps().inNamespace("rd2-b").withName("theirs").delete();
        waitValue("rd2-b", "theirs", "distributed");
        assertEquals("False", condition(waitStatus("rd2", 2, 2), "ConflictOccurred").getStatus());
    }

    @Test
    void secretsWithStringDataAreDistributedAndSettle() throws Exception {
        namespace("rd3-a", Map.of("rd3", "on"));
        product.client().resource(rd("rd3", json("{\"apiVersion\":\"v1\",\"kind\":\"Secret\",\"metadata\":{\"name\":"
                + "\"creds\"},\"type\":\"Opaque\",\"stringData\":{\"password\":\"s3cret\"}}"), null, null,
                Map.of("rd3", "on"))).create();
        waitStatus("rd3", 1, 1);
        Secret s = Await.waitFor("rd3-a/creds", WAIT, () -> product.client().secrets().inNamespace("rd3-a")
                .withName("creds").get(), x -> x != null);
        String value = s.getData() != null && s.getData().containsKey("password")
                ? new String(Base64.getDecoder().decode(s.getData().get("password")))
                : s.getStringData().get("password");
        assertEquals("s3cret", value);
        // Settled: the copy is not rewritten over and over (the plan for it is in sync).
        String version = s.getMetadata().getResourceVersion();
        Thread.sleep(2000);
        assertEquals(version, product.client().secrets().inNamespace("rd3-a").withName("creds").get()
                .getMetadata().getResourceVersion());
    }

    @Test
    void aManagerRestartMidOperationLosesNothing() throws Exception {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            names.add("rd4-" + i);
            namespace("rd4-" + i, Map.of("rd4", "on"));
        }
        product.client().resource(rd("rd4", configMap("cfg", "v1"), null, null, Map.of("rd4", "on"))).create();
        Await.waitFor("a first copy", WAIT, () -> names.stream().anyMatch(n -> cm(n, "cfg") != null));
        product.restartManager();
        namespace("rd4-late", Map.of("rd4", "on"));
        names.add("rd4-late");
        waitStatus("rd4", 13, 13);
        for (String n : names) {
            assertEquals("v1", cm(n, "cfg").getData().get("key"), n);
        }
    }

    @Test
    void aConflictingWriterOnACopyLosesInTheEnd() throws Exception {
        namespace("rd5-a", Map.of());
        product.client().resource(rd("rd5", configMap("cfg", "v1"), List.of("rd5-a"), null, null)).create();
        waitValue("rd5-a", "cfg", "v1");
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger writes = new AtomicInteger();
        Thread writer = new Thread(() -> {
            while (!stop.get()) {
                try {
                    product.client().configMaps().inNamespace("rd5-a").withName("cfg").edit(c -> {
                        c.setData(new HashMap<>(Map.of("key", "writer-" + writes.incrementAndGet())));
                        return c;
                    });
                } catch (RuntimeException conflictOrGone) {
                    // loses races with the controller too; tries again
                }
                try {
                    Thread.sleep(30);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        writer.start();
        Thread.sleep(3000);
        stop.set(true);
        writer.join();
        assertTrue(writes.get() > 5, "the writer wrote " + writes.get() + " times");
        waitValue("rd5-a", "cfg", "v1");
        waitStatus("rd5", 1, 1);
    }

    @Test
    void deletingTheDistributionWhileItWritesLeavesNoCopies() {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < 15; i++) {
            names.add("rd6-" + i);
            namespace("rd6-" + i, Map.of("rd6", "on"));
        }
        product.client().resource(rd("rd6", configMap("cfg", "v1"), null, null, Map.of("rd6", "on"))).create();
        Await.waitFor("a first copy", WAIT, () -> names.stream().anyMatch(n -> cm(n, "cfg") != null));
        distribution("rd6").delete();
        Await.waitFor("rd6 gone", WAIT, () -> distribution("rd6").get() == null);
        for (String n : names) {
            Await.waitFor(n + "/cfg collected", WAIT, () -> cm(n, "cfg") == null);
        }
    }

    @Test
    void hostileSpecsAreRefusedWithAMessage() {
        // Unsupported kind.
        KubernetesClientException e = assertThrows(KubernetesClientException.class, () -> product.client().resource(
                rd("bad1", json("{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"metadata\":{\"name\":\"d\"}}"),
                        List.of("x"), null, null)).create());
        assertTrue(e.getMessage().contains("unknown or unsupported resource GroupKind"), e.getMessage());
        // A namespace both included and excluded.
        e = assertThrows(KubernetesClientException.class, () -> product.client().resource(
                rd("bad2", configMap("c", "v"), List.of("n1", "n2"), List.of("n2"), null)).create());
        assertTrue(e.getMessage().contains("ambiguous targets because namespace [n2]"), e.getMessage());
        // Empty resource; a resource that is a number; invalid namespace names.
        e = assertThrows(KubernetesClientException.class, () -> product.client().resource(
                rd("bad3", json("{}"), List.of("n1"), null, null)).create());
        assertTrue(e.getMessage().contains("empty resource is not allowed"), e.getMessage());
        e = assertThrows(KubernetesClientException.class, () -> product.client().resource(
                rd("bad4", json("-1"), List.of("n1"), null, null)).create());
        assertTrue(e.getMessage().contains("spec.resource"), e.getMessage());
        e = assertThrows(KubernetesClientException.class, () -> product.client().resource(
                rd("bad5", configMap("c", "v"), List.of("Not_A_Namespace", "x".repeat(300)), null, null)).create());
        assertTrue(e.getMessage().contains("spec.targets.includedNamespaces"), e.getMessage());
        // Wrong types: allNamespaces as a string.
        GenericKubernetesResource wrong = new GenericKubernetesResource();
        wrong.setApiVersion(ResourceDistribution.API_VERSION);
        wrong.setKind(ResourceDistribution.KIND);
        wrong.setMetadata(new ObjectMetaBuilder().withName("bad6").build());
        wrong.setAdditionalProperty("spec", Map.of("resource", Map.of("apiVersion", "v1", "kind", "ConfigMap",
                "metadata", Map.of("name", "c")), "targets", Map.of("allNamespaces", "yes-please")));
        io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext context =
                new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
                        .withGroup(ResourceDistribution.GROUP).withVersion(ResourceDistribution.VERSION)
                        .withKind(ResourceDistribution.KIND).withPlural(ResourceDistribution.PLURAL)
                        .withNamespaced(false).build();
        e = assertThrows(KubernetesClientException.class, () -> product.client().genericKubernetesResources(context)
                .resource(wrong).create());
        assertTrue(e.getMessage().contains("allNamespaces"), e.getMessage());
        // Renaming the resource of an existing distribution.
        product.client().resource(rd("rd7", configMap("fixed", "v"), List.of("rd7-none"), null, null)).create();
        e = assertThrows(KubernetesClientException.class, () -> {
            for (int attempt = 0; ; attempt++) {
                try {
                    distribution("rd7").edit(r -> {
                        r.getSpec().setResource(configMap("renamed", "v"));
                        return r;
                    });
                    return;
                } catch (KubernetesClientException conflict) {
                    // the controller's status write raced the edit: read again and retry
                    if (conflict.getCode() != 409 || attempt > 20) {
                        throw conflict;
                    }
                }
            }
        });
        assertTrue(e.getMessage().contains("immutable"), e.getMessage());
        // A huge target list is fine (valid names), and reported namespace by namespace.
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            many.add("rd8-missing-" + i);
        }
        product.client().resource(rd("rd8", configMap("c", "v"), many, null, null)).create();
        ResourceDistribution rd8 = waitStatus("rd8", 300, 0);
        assertEquals(300, condition(rd8, "NamespaceNotExists").getFailedNamespaces().size());
        for (String bad : List.of("bad1", "bad2", "bad3", "bad4", "bad5", "bad6")) {
            assertNull(distribution(bad).get(), bad);
        }
    }
}
