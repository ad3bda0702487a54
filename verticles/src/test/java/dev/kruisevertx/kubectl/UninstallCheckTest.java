package dev.kruisevertx.kubectl;

import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chart's pre-delete hook command, on its own API server so other tests' objects do not count. */
@EnableKubernetesMockClient(crud = true)
class UninstallCheckTest {
    static KubernetesClient client;

    private KubectlKruiseTest.Result kruise(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = KubectlKruise.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), p -> KubeClients.forTest(client.getConfiguration()));
        return new KubectlKruiseTest.Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private void create(String version, String plural, String kind, String ns, String name) {
        String yaml = "apiVersion: apps.kruise.io/" + version + "\nkind: " + kind + "\nmetadata: {name: " + name
                + ", namespace: " + ns + "}\nspec: {}\n";
        client.genericKubernetesResources(new ResourceDefinitionContext.Builder().withGroup("apps.kruise.io")
                        .withVersion(version).withPlural(plural).withKind(kind).withNamespaced(true).build())
                .inNamespace(ns).resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
    }

    @Test
    void refusesWhileWorkloadsExist() {
        KubectlKruiseTest.Result empty = kruise("uninstall-check");
        assertEquals(0, empty.code(), empty.err());
        assertTrue(empty.out().contains("kruise can be uninstalled"), empty.out());

        create("v1alpha1", "clonesets", "CloneSet", "uc1", "web");
        create("v1alpha1", "clonesets", "CloneSet", "uc2", "api");
        create("v1alpha1", "daemonsets", "DaemonSet", "uc1", "agent");
        KubectlKruiseTest.Result blocked = kruise("uninstall-check");
        assertEquals(1, blocked.code());
        assertTrue(blocked.err().contains("2 CloneSets (uc1/web, uc2/api)") || blocked.err().contains("2 CloneSets (uc2/api, uc1/web)"),
                blocked.err());
        assertTrue(blocked.err().contains("1 Advanced DaemonSet (uc1/agent)"), blocked.err());
        assertFalse(blocked.err().contains("StatefulSet"), blocked.err());

        create("v1beta1", "statefulsets", "StatefulSet", "uc3", "db");
        KubectlKruiseTest.Result withSts = kruise("uninstall-check");
        assertEquals(1, withSts.code());
        assertTrue(withSts.err().contains("1 Advanced StatefulSet (uc3/db)"), withSts.err());
    }
}
