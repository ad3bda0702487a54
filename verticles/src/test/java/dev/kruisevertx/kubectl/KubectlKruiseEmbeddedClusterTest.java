package dev.kruisevertx.kubectl;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.sim.testing.EmbeddedClusterExtension;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The plugin against the embedded API server with the project's CRDs (schema validation, generations, patches). */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KubectlKruiseEmbeddedClusterTest {
    @RegisterExtension
    static EmbeddedClusterExtension cluster = new EmbeddedClusterExtension();

    static final String NS = "plugin";

    @BeforeAll
    static void namespace() {
        cluster.client().namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build())
                .create();
    }

    private KubectlKruiseTest.Result kruise(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = KubectlKruise.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), p -> KubeClients.forTest(cluster.client().getConfiguration()));
        return new KubectlKruiseTest.Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private GenericKubernetesResource createCloneSet(String name) {
        String yaml = """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: %s, namespace: %s}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: %s}}
                  template:
                    metadata: {labels: {app: %s}}
                    spec:
                      containers:
                      - {name: main, image: "nginx:1.25"}
                """.formatted(name, NS, name, name);
        return cluster.client().genericKubernetesResources(ReplicatedWorkloadKind.cloneSet().context()).inNamespace(NS)
                .resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
    }

    @SuppressWarnings("unchecked")
    private Map<String, Object> spec(String name) {
        GenericKubernetesResource cs = cluster.client().genericKubernetesResources(ReplicatedWorkloadKind.cloneSet().context())
                .inNamespace(NS).withName(name).get();
        return (Map<String, Object>) cs.getAdditionalProperties().get("spec");
    }

    @SuppressWarnings("unchecked")
    private String image(String name) {
        Map<String, Object> template = (Map<String, Object>) spec(name).get("template");
        List<Map<String, Object>> containers = (List<Map<String, Object>>) ((Map<String, Object>) template.get("spec")).get("containers");
        return (String) containers.get(0).get("image");
    }

    @Test
    void setImagePauseResumeAndUndo() {
        GenericKubernetesResource cs = createCloneSet("web");
        KubectlKruiseTest.Result set = kruise("-n", NS, "set", "image", "cloneset/web", "main=nginx:1.26");
        assertEquals(0, set.code(), set.err());
        assertEquals("nginx:1.26", image("web"));

        KubectlKruiseTest.Result pause = kruise("-n", NS, "rollout", "pause", "cloneset/web");
        assertEquals(0, pause.code(), pause.err());
        assertEquals(Boolean.TRUE, ((Map<?, ?>) spec("web").get("updateStrategy")).get("paused"));
        KubectlKruiseTest.Result resume = kruise("-n", NS, "rollout", "resume", "cloneset/web");
        assertEquals(0, resume.code(), resume.err());
        assertEquals(Boolean.FALSE, ((Map<?, ?>) spec("web").get("updateStrategy")).get("paused"));

        // No controller runs here: the status is not observed yet, which status reports without waiting.
        KubectlKruiseTest.Result status = kruise("-n", NS, "rollout", "status", "cloneset/web", "--watch=false");
        assertEquals(0, status.code(), status.err());
        assertEquals("Waiting for CloneSet spec update to be observed...", status.out().strip());

        for (long rev = 1; rev <= 2; rev++) {
            String image = rev == 1 ? "nginx:1.25" : "nginx:1.26";
            Map<String, Object> template = Map.of("metadata", Map.of("labels", Map.of("app", "web")),
                    "spec", Map.of("containers", List.of(Map.of("name", "main", "image", image))), "$patch", "replace");
            GenericKubernetesResource data = new GenericKubernetesResource();
            data.setAdditionalProperty("spec", Map.of("template", template));
            cluster.client().apps().controllerRevisions().inNamespace(NS).resource(new ControllerRevisionBuilder()
                    .withNewMetadata().withName("web-r" + rev).withNamespace(NS)
                    .addNewOwnerReference().withApiVersion("apps.kruise.io/v1alpha1").withKind("CloneSet").withName("web")
                    .withUid(cs.getMetadata().getUid()).withController(true).endOwnerReference().endMetadata()
                    .withRevision(rev).withData(data).build()).create();
        }
        KubectlKruiseTest.Result history = kruise("-n", NS, "rollout", "history", "cloneset/web");
        assertEquals(0, history.code(), history.err());
        assertEquals(List.of("cloneset.apps.kruise.io/web", "REVISION  CHANGE-CAUSE", "1         <none>", "2         <none>"),
                history.out().strip().lines().toList());
        KubectlKruiseTest.Result undo = kruise("-n", NS, "rollout", "undo", "cloneset/web");
        assertEquals(0, undo.code(), undo.err());
        assertEquals("nginx:1.25", image("web"));
    }

    @Test
    void uninstallCheckSeesCloneSets() {
        createCloneSet("blocker");
        KubectlKruiseTest.Result r = kruise("uninstall-check");
        assertEquals(1, r.code());
        assertTrue(r.err().contains(NS + "/blocker"), r.err());
        assertTrue(r.err().contains("Delete them first"), r.err());
    }

    @Test
    void missingObjectIsAClearError() {
        KubectlKruiseTest.Result r = kruise("-n", NS, "rollout", "history", "clone/absent");
        assertEquals(1, r.code());
        assertEquals("error: clonesets.apps.kruise.io \"absent\" not found in namespace \"plugin\"", r.err().strip());
    }
}
