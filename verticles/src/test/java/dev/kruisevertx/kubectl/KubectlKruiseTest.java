package dev.kruisevertx.kubectl;

import dev.kruisevertx.kube.KubeClients;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@EnableKubernetesMockClient(crud = true)
@org.junit.jupiter.api.Timeout(value = 3, unit = TimeUnit.MINUTES)
class KubectlKruiseTest {
    static KubernetesClient mockClient;

    private KubernetesClient client;

    @BeforeEach
    void setUp() {
        client = KubeClients.forTest(mockClient.getConfiguration());
    }

    @AfterEach
    void tearDown() {
        client.close();
    }

    /** Output of one run. */
    record Result(int code, String out, String err) {
    }

    private Result kruise(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        // Each run closes its client, like the real CLI; give it its own.
        int code = KubectlKruise.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), p -> KubeClients.forTest(mockClient.getConfiguration()));
        return new Result(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private GenericKubernetesResource cloneSet(String ns, String name, String yamlStatus) {
        String yaml = """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata:
                  name: %s
                  namespace: %s
                spec:
                  replicas: 3
                  selector:
                    matchLabels: {app: %s}
                  template:
                    metadata:
                      labels: {app: %s}
                    spec:
                      initContainers:
                      - name: init
                        image: busybox:1.36
                      containers:
                      - name: main
                        image: nginx:1.25
                      - name: sidecar
                        image: envoy:1.0
                  updateStrategy:
                    type: InPlaceIfPossible
                status:
                %s
                """.formatted(name, ns, name, name, ("observedGeneration: 100\n" + yamlStatus).indent(2));
        GenericKubernetesResource r = Serialization.unmarshal(yaml, GenericKubernetesResource.class);
        return client.genericKubernetesResources(ReplicatedWorkloadKind.cloneSet().context()).inNamespace(ns).resource(r).create();
    }

    private GenericKubernetesResource getCloneSet(String ns, String name) {
        return client.genericKubernetesResources(ReplicatedWorkloadKind.cloneSet().context()).inNamespace(ns).withName(name).get();
    }

    private void revision(GenericKubernetesResource owner, long number, String image, String cause) {
        Map<String, Object> template = Map.of("metadata", Map.of("labels", Map.of("app", owner.getMetadata().getName())),
                "spec", Map.of("containers", List.of(Map.of("name", "main", "image", image))), "$patch", "replace");
        ControllerRevisionBuilder b = new ControllerRevisionBuilder().withNewMetadata()
                .withName(owner.getMetadata().getName() + "-rev" + number).withNamespace(owner.getMetadata().getNamespace())
                .addNewOwnerReference().withApiVersion("apps.kruise.io/v1alpha1").withKind("CloneSet")
                .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid()).withController(true).endOwnerReference()
                .endMetadata()
                .withRevision(number)
                .withData(new GenericKubernetesResource() {
                    {
                        setAdditionalProperty("spec", Map.of("template", template));
                    }
                });
        if (cause != null) {
            b.editMetadata().addToAnnotations(RolloutOperations.CHANGE_CAUSE, cause).endMetadata();
        }
        ControllerRevision r = b.build();
        client.apps().controllerRevisions().inNamespace(owner.getMetadata().getNamespace()).resource(r).create();
    }

    @Test
    void statusReportsCompleteRollout() {
        cloneSet("st1", "web", "replicas: 3\nupdatedReplicas: 3\nupdatedReadyReplicas: 3\nreadyReplicas: 3");
        Result r = kruise("-n", "st1", "rollout", "status", "cloneset/web");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("cloneset \"web\" successfully rolled out"), r.out());
    }

    @Test
    void statusWithoutWatchReportsProgressOnce() {
        cloneSet("st2", "web", "replicas: 3\nupdatedReplicas: 1\nupdatedReadyReplicas: 0");
        Result r = kruise("-n", "st2", "rollout", "status", "clone", "web", "--watch=false");
        assertEquals(0, r.code(), r.err());
        assertEquals("Waiting for rollout to finish: 1 out of 3 new replicas have been updated...", r.out().strip());
    }

    @Test
    void statusWatchWaitsUntilTheRolloutCompletes() throws Exception {
        cloneSet("st3", "web", "replicas: 3\nupdatedReplicas: 3\nupdatedReadyReplicas: 2");
        CompletableFuture<Result> running = CompletableFuture.supplyAsync(
                () -> kruise("-n", "st3", "rollout", "status", "cloneset.apps.kruise.io/web", "--timeout=2m"));
        GenericKubernetesResource cs = getCloneSet("st3", "web");
        @SuppressWarnings("unchecked")
        Map<String, Object> status = (Map<String, Object>) cs.getAdditionalProperties().get("status");
        status.put("updatedReadyReplicas", 3);
        client.genericKubernetesResources(ReplicatedWorkloadKind.cloneSet().context()).inNamespace("st3").resource(cs).update();
        Result r = running.get(60, TimeUnit.SECONDS);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().endsWith("cloneset \"web\" successfully rolled out\n"), r.out());
    }

    @Test
    void statusTimesOut() {
        cloneSet("st4", "web", "replicas: 3\nupdatedReplicas: 0");
        Result r = kruise("-n", "st4", "rollout", "status", "cloneset/web", "--timeout=1s");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("timed out after 1s waiting for the rollout of cloneset.apps.kruise.io/web"), r.err());
    }

    @Test
    void historyListsOwnedRevisionsInOrder() {
        GenericKubernetesResource cs = cloneSet("hi1", "web", "replicas: 3");
        revision(cs, 2, "nginx:1.25", "kubectl-kruise set image");
        revision(cs, 1, "nginx:1.24", null);
        GenericKubernetesResource other = cloneSet("hi1", "other", "replicas: 3");
        revision(other, 7, "redis:7", null);

        Result r = kruise("-n", "hi1", "rollout", "history", "cloneset/web");
        assertEquals(0, r.code(), r.err());
        assertEquals(List.of("cloneset.apps.kruise.io/web", "REVISION  CHANGE-CAUSE", "1         <none>",
                "2         kubectl-kruise set image"), r.out().strip().lines().toList());

        Result one = kruise("-n", "hi1", "rollout", "history", "cloneset/web", "--revision=1");
        assertEquals(0, one.code(), one.err());
        assertTrue(one.out().contains("with revision #1"), one.out());
        assertTrue(one.out().contains("image: \"nginx:1.24\"") || one.out().contains("image: nginx:1.24"), one.out());
        assertFalse(one.out().contains("$patch"), one.out());

        Result missing = kruise("-n", "hi1", "rollout", "history", "cloneset/web", "--revision=5");
        assertEquals(1, missing.code());
        assertTrue(missing.err().contains("unable to find revision 5 of cloneset.apps.kruise.io/web (revisions: [1, 2])"), missing.err());
    }

    @Test
    void undoPutsBackThePreviousTemplate() {
        GenericKubernetesResource cs = cloneSet("un1", "web", "replicas: 3");
        revision(cs, 1, "nginx:1.24", null);
        revision(cs, 2, "nginx:1.25", null);
        Result r = kruise("-n", "un1", "rollout", "undo", "cloneset/web");
        assertEquals(0, r.code(), r.err());
        assertEquals("cloneset.apps.kruise.io/web rolled back", r.out().strip());
        Map<String, Object> template = templateOf(getCloneSet("un1", "web"));
        assertEquals("{metadata={labels={app=web}}, spec={containers=[{image=nginx:1.24, name=main}]}}",
                new java.util.TreeMap<>(template).toString().replace("{name=main, image=nginx:1.24}", "{image=nginx:1.24, name=main}"));

        Result again = kruise("-n", "un1", "rollout", "undo", "cloneset/web", "--to-revision=1");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().contains("skipped rollback (current template already matches revision 1)"), again.out());
    }

    @Test
    void undoWithoutHistoryIsAnError() {
        GenericKubernetesResource cs = cloneSet("un2", "web", "replicas: 3");
        revision(cs, 1, "nginx:1.25", null);
        Result r = kruise("-n", "un2", "rollout", "undo", "cloneset/web");
        assertEquals(1, r.code());
        assertTrue(r.err().contains("no previous revision"), r.err());
    }

    @Test
    void pauseAndResumeFlipTheUpdateStrategyFlag() {
        cloneSet("pr1", "web", "replicas: 3");
        Result p = kruise("-n", "pr1", "rollout", "pause", "cloneset/web");
        assertEquals(0, p.code(), p.err());
        assertEquals("cloneset.apps.kruise.io/web paused", p.out().strip());
        assertEquals(Boolean.TRUE, updateStrategy(getCloneSet("pr1", "web")).get("paused"));
        assertEquals("InPlaceIfPossible", updateStrategy(getCloneSet("pr1", "web")).get("type"));

        Result twice = kruise("-n", "pr1", "rollout", "pause", "cloneset/web");
        assertEquals(1, twice.code());
        assertTrue(twice.err().contains("cloneset.apps.kruise.io/web is already paused"), twice.err());

        Result status = kruise("-n", "pr1", "rollout", "status", "cloneset/web", "--watch=false");
        assertTrue(status.out().contains("the rollout is paused"), status.out());

        Result resume = kruise("-n", "pr1", "rollout", "resume", "cloneset/web");
        assertEquals(0, resume.code(), resume.err());
        assertEquals(Boolean.FALSE, updateStrategy(getCloneSet("pr1", "web")).get("paused"));
    }

    @Test
    void setImageChangesNamedContainers() {
        cloneSet("si1", "web", "replicas: 3");
        Result r = kruise("-n", "si1", "set", "image", "cloneset/web", "main=nginx:1.26", "init=busybox:1.37");
        assertEquals(0, r.code(), r.err());
        assertEquals("cloneset.apps.kruise.io/web image updated", r.out().strip());
        assertEquals(List.of("nginx:1.26", "envoy:1.0"), images(getCloneSet("si1", "web"), "containers"));
        assertEquals(List.of("busybox:1.37"), images(getCloneSet("si1", "web"), "initContainers"));

        Result all = kruise("-n", "si1", "set", "image", "cloneset", "web", "*=registry/x:2");
        assertEquals(0, all.code(), all.err());
        assertEquals(List.of("registry/x:2", "registry/x:2"), images(getCloneSet("si1", "web"), "containers"));

        Result same = kruise("-n", "si1", "set", "image", "cloneset/web", "main=registry/x:2");
        assertEquals("cloneset.apps.kruise.io/web image unchanged", same.out().strip());

        Result unknown = kruise("-n", "si1", "set", "image", "cloneset/web", "nope=x:1");
        assertEquals(1, unknown.code());
        assertTrue(unknown.err().contains("unable to find container named \"nope\" in cloneset.apps.kruise.io/web"), unknown.err());
        assertEquals(List.of("registry/x:2", "registry/x:2"), images(getCloneSet("si1", "web"), "containers"));

        Result bad = kruise("-n", "si1", "set", "image", "cloneset/web", "main=");
        assertEquals(1, bad.code());
        assertTrue(bad.err().contains("expected CONTAINER=IMAGE"), bad.err());
    }

    @Test
    void unknownKindsAndObjectsGiveClearErrors() {
        Result kind = kruise("rollout", "status", "widget/x");
        assertEquals(1, kind.code());
        assertTrue(kind.err().contains("unknown workload type \"widget\"; kubectl-kruise handles: cloneset (CloneSet), asts (StatefulSet), ads (DaemonSet)"), kind.err());

        Result upstream = kruise("rollout", "pause", "deployment/x");
        assertEquals(1, upstream.code());
        assertTrue(upstream.err().contains("use 'kubectl rollout' for it"), upstream.err());

        Result missing = kruise("-n", "nowhere", "rollout", "status", "cloneset/ghost");
        assertEquals(1, missing.code());
        assertTrue(missing.err().contains("clonesets.apps.kruise.io \"ghost\" not found in namespace \"nowhere\""), missing.err());

        Result noTarget = kruise("rollout", "status");
        assertEquals(2, noTarget.code());
        assertTrue(noTarget.err().startsWith("error: Missing required parameter"), noTarget.err());

        Result badTarget = kruise("rollout", "status", "cloneset/a/b");
        assertEquals(1, badTarget.code());
        assertTrue(badTarget.err().contains("expected TYPE/NAME"), badTarget.err());

        Result badTimeout = kruise("rollout", "status", "cloneset/a", "--timeout=soon");
        assertEquals(1, badTimeout.code());
        assertTrue(badTimeout.err().contains("--timeout"), badTimeout.err());
    }

    @Test
    void advancedStatefulSetPausesUnderRollingUpdate() {
        String yaml = """
                apiVersion: apps.kruise.io/v1beta1
                kind: StatefulSet
                metadata: {name: db, namespace: as1}
                spec:
                  replicas: 2
                  updateStrategy:
                    type: RollingUpdate
                    rollingUpdate: {partition: 1}
                status: {observedGeneration: 100, replicas: 2, updatedReplicas: 1, updatedReadyReplicas: 1}
                """;
        client.genericKubernetesResources(ReplicatedWorkloadKind.advancedStatefulSet().context()).inNamespace("as1")
                .resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
        Result status = kruise("-n", "as1", "rollout", "status", "asts/db");
        assertEquals(0, status.code(), status.err());
        assertTrue(status.out().contains("partitioned roll out complete: 1 new replicas have been updated (partition 1)"), status.out());

        Result pause = kruise("-n", "as1", "rollout", "pause", "statefulset.apps.kruise.io/db");
        assertEquals(0, pause.code(), pause.err());
        GenericKubernetesResource sts = client.genericKubernetesResources(ReplicatedWorkloadKind.advancedStatefulSet().context())
                .inNamespace("as1").withName("db").get();
        Map<String, Object> rolling = (Map<String, Object>) updateStrategy(sts).get("rollingUpdate");
        assertEquals(Boolean.TRUE, rolling.get("paused"));
        assertEquals(1, ((Number) rolling.get("partition")).intValue());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> updateStrategy(GenericKubernetesResource r) {
        return (Map<String, Object>) ((Map<String, Object>) r.getAdditionalProperties().get("spec")).get("updateStrategy");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> templateOf(GenericKubernetesResource r) {
        return (Map<String, Object>) ((Map<String, Object>) r.getAdditionalProperties().get("spec")).get("template");
    }

    @SuppressWarnings("unchecked")
    private static List<String> images(GenericKubernetesResource r, String list) {
        Map<String, Object> spec = (Map<String, Object>) templateOf(r).get("spec");
        return ((List<Map<String, Object>>) spec.get(list)).stream().map(c -> (String) c.get("image")).toList();
    }
}
