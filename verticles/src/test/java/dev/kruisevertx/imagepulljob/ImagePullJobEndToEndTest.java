package dev.kruisevertx.imagepulljob;

import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.nodes.ContainerFailure;
import dev.kruisevertx.sim.nodes.ImageRule;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ImagePullJob and NodeImage in the manager against the embedded cluster: NodeImages appear for the simulated nodes,
 * a job's tag reaches them within its parallelism, the simulated puller pulls, and the job's status follows.
 */
class ImagePullJobEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3))
            .flags("--feature-gates=ImagePullJobGate=true", "--nodeimage-creation-delay=1s")
            .build();

    @BeforeAll
    static void rules() {
        product.cluster().nodes().addImageRule(new ImageRule("*:missing", Duration.ZERO, ContainerFailure.IMAGE_PULL_ERROR));
        product.cluster().nodes().addImageRule(new ImageRule("*:slow", Duration.ofSeconds(3), ContainerFailure.NONE));
    }

    static List<String> nodes() {
        return product.cluster().nodes().nodeNames();
    }

    static void nodeImagesExist() {
        Await.waitFor("a NodeImage per node", WAIT, () -> nodes().stream().allMatch(n ->
                product.client().resources(NodeImage.class).withName(n).get() != null));
    }

    static ImagePullJob create(String apiVersion, String name, String image, Consumer<ImagePullJobSpec> edit) {
        ImagePullJobSpec spec = new ImagePullJobSpec();
        spec.setImage(image);
        spec.setCompletionPolicy(new CompletionPolicy());
        edit.accept(spec);
        ImagePullJob job = new ImagePullJob();
        job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(product.namespace()).build());
        job.setSpec(spec);
        if (apiVersion.endsWith("v1alpha1")) {
            dev.kruisevertx.api.apps.v1alpha1.ImagePullJob alpha = new dev.kruisevertx.api.apps.v1alpha1.ImagePullJob();
            alpha.setMetadata(job.getMetadata());
            alpha.setSpec(spec);
            product.client().resource(alpha).create();
            return job(name).get();
        }
        return product.client().resource(job).create();
    }

    static Resource<ImagePullJob> job(String name) {
        return product.client().resources(ImagePullJob.class).inNamespace(product.namespace()).withName(name);
    }

    static ImagePullJob completed(String name) {
        return Await.waitFor(name + " completed", WAIT, () -> job(name).get(),
                j -> j != null && j.getStatus() != null && j.getStatus().getCompletionTime() != null);
    }

    static ImageTagStatus tagStatus(String node, String image, String tag) {
        NodeImage ni = product.client().resources(NodeImage.class).withName(node).get();
        if (ni == null || ni.getStatus() == null || ni.getStatus().imageStatuses().get(image) == null) {
            return null;
        }
        return ni.getStatus().imageStatuses().get(image).tags().stream().filter(t -> tag.equals(t.getTag()))
                .findFirst().orElse(null);
    }

    @Test
    void aJobPullsOnEveryNodeWithinItsParallelismAndCompletes() {
        nodeImagesExist();
        create("v1beta1", "all-nodes", "registry.local/app:2", s -> s.setParallelism(new IntOrString(2)));
        ImagePullJob running = Await.waitFor("all-nodes counts its nodes", WAIT, () -> job("all-nodes").get(),
                j -> j.getStatus() != null && j.getStatus().getDesired() == 3);
        assertTrue(running.getStatus().getActive() <= 2, "parallelism 2: " + running.getStatus().getActive());
        ImagePullJob done = completed("all-nodes");
        assertEquals(3, done.getStatus().getSucceeded());
        assertEquals(0, done.getStatus().getFailed());
        assertEquals("job has completed", done.getStatus().getMessage());
        for (String node : nodes()) {
            assertTrue(product.cluster().nodes().images(node).contains("registry.local/app:2"), node);
            ImageTagStatus t = tagStatus(node, "registry.local/app", "2");
            assertEquals("Succeeded", t.getPhase());
            assertTrue(t.getImageID() != null && !t.getImageID().isEmpty());
        }
        // The defaults the webhook wrote; the finalizer the controller added while it ran goes once it finished.
        assertEquals("IfNotPresent", done.getSpec().getImagePullPolicy());
        assertEquals(600, done.getSpec().getPullPolicy().getTimeoutSeconds());
        Await.waitFor("the finished job loses the finalizer", WAIT, () -> job("all-nodes").get(),
                j -> j.getMetadata().getFinalizers() == null || j.getMetadata().getFinalizers().isEmpty());
    }

    @Test
    void aMissingImageFailsWithTheRuntimesMessage() {
        nodeImagesExist();
        String node = nodes().get(0);
        create("v1beta1", "missing", "registry.local/app:missing", s -> {
            s.setSelector(new dev.kruisevertx.api.apps.v1beta1.ImagePullJobNodeSelector());
            s.getSelector().setNames(List.of(node));
        });
        ImagePullJob done = completed("missing");
        assertEquals(1, done.getStatus().getDesired());
        assertEquals(1, done.getStatus().getFailed());
        assertEquals(List.of(node), done.getStatus().getFailedNodes());
        ImageTagStatus t = tagStatus(node, "registry.local/app", "missing");
        assertEquals("Failed", t.getPhase());
        assertEquals("rpc error: code = NotFound desc = failed to pull and unpack image "
                + "\"registry.local/app:missing\": not found", t.getMessage());
    }

    @Test
    void anAlphaJobDeletedMidPullLosesItsFinalizerAndItsTags() {
        nodeImagesExist();
        create("apps.kruise.io/v1alpha1", "deleted", "registry.local/app:slow",
                s -> s.setParallelism(new IntOrString(3)));
        assertEquals(List.of(ImagePullJobDecision.FINALIZER), job("deleted").get().getMetadata().getFinalizers());
        Await.waitFor("deleted pulling", WAIT, () -> job("deleted").get(),
                j -> j.getStatus() != null && j.getStatus().getActive() > 0);
        job("deleted").delete();
        Await.waitFor("deleted gone (finalizer removed)", WAIT, () -> job("deleted").get() == null);
        Await.waitFor("its tags removed from every NodeImage", WAIT, () -> nodes().stream().allMatch(n -> {
            NodeImage ni = product.client().resources(NodeImage.class).withName(n).get();
            return ni.getSpec() == null || ni.getSpec().images().get("registry.local/app") == null
                    || ni.getSpec().images().get("registry.local/app").tags().stream()
                    .noneMatch(t -> "slow".equals(t.getTag()));
        }));
    }

    @Test
    void aManagerRestartMidPullFinishesTheJob() throws Exception {
        nodeImagesExist();
        create("v1beta1", "restart", "registry.local/other:slow", s -> s.setParallelism(new IntOrString(1)));
        Await.waitFor("restart pulling", WAIT, () -> job("restart").get(),
                j -> j.getStatus() != null && j.getStatus().getActive() == 1);
        product.restartManager();
        ImagePullJob done = completed("restart");
        assertEquals(3, done.getStatus().getSucceeded());
    }

    @Test
    void hostileSpecsAreRefusedWithOpenKruisesMessages() {
        KubernetesClientException negative = assertThrows(KubernetesClientException.class, () ->
                create("v1beta1", "negative", "nginx:1", s -> s.setParallelism(new IntOrString(-1))));
        assertTrue(negative.getMessage().contains("parallelism must be non-negative"), negative.getMessage());
        KubernetesClientException percent = assertThrows(KubernetesClientException.class, () ->
                create("v1beta1", "percent", "nginx:1", s -> s.setParallelism(new IntOrString("50%"))));
        assertTrue(percent.getMessage().contains("parallelism does not support percentage value"), percent.getMessage());
        KubernetesClientException image = assertThrows(KubernetesClientException.class, () ->
                create("v1beta1", "bad-image", "Upper/Case:1", s -> { }));
        assertTrue(image.getMessage().contains("invalid image Upper/Case:1"), image.getMessage());
        KubernetesClientException deadline = assertThrows(KubernetesClientException.class, () ->
                create("v1beta1", "deadline", "nginx:1", s -> s.getCompletionPolicy().setActiveDeadlineSeconds(10L)));
        assertTrue(deadline.getMessage().contains("activeDeadlineSeconds must be greater than"), deadline.getMessage());
        StringBuilder huge = new StringBuilder();
        for (int i = 0; i < 300; i++) {
            huge.append("n").append(i).append(',');
        }
        ImagePullJob manyNames = create("v1beta1", "many-names", "nginx:2", s -> {
            s.setSelector(new dev.kruisevertx.api.apps.v1beta1.ImagePullJobNodeSelector());
            s.getSelector().setNames(List.of(huge.toString().split(",")));
        });
        // Names of nodes that do not exist are no targets: the job completes with nothing to do.
        assertNull(manyNames.getStatus());
        assertEquals(0, completed("many-names").getStatus().getDesired());
    }

    static Secret copyOf(String source) {
        return product.client().secrets().inNamespace(PullSecretSync.DEFAULT_NAMESPACE).list().getItems().stream()
                .filter(c -> (product.namespace() + "/" + source).equals(
                        PullSecretSync.annotation(c, PullSecretSync.SOURCE_KEY)))
                .findFirst().orElse(null);
    }

    @Test
    void pullSecretsAreCopiedForTheDaemonKeptInSyncAndRemovedWithTheJob() {
        nodeImagesExist();
        if (product.client().namespaces().withName(PullSecretSync.DEFAULT_NAMESPACE).get() == null) {
            product.client().namespaces().resource(new NamespaceBuilder().withNewMetadata()
                    .withName(PullSecretSync.DEFAULT_NAMESPACE).endMetadata().build()).create();
        }
        product.client().secrets().inNamespace(product.namespace()).resource(new SecretBuilder().withNewMetadata()
                .withName("regcred").withNamespace(product.namespace()).endMetadata()
                .withType("kubernetes.io/dockerconfigjson")
                .withData(Map.of(".dockerconfigjson", "e30=")).build()).create();
        // Completion Never: the job keeps running, so its copy lives until the job is deleted.
        create("v1beta1", "with-secret", "registry.local/secret:1", s -> {
            s.setPullSecrets(List.of("regcred", "absent"));
            s.setParallelism(new IntOrString(3));
            s.getCompletionPolicy().setType("Never");
        });
        Secret copy = Await.waitFor("a copy of regcred in kruise-daemon-config", WAIT, () -> copyOf("regcred"),
                c -> c != null);
        assertTrue(copy.getMetadata().getName().matches("regcred-[0-9a-f]{6}"), copy.getMetadata().getName());
        assertEquals(product.namespace() + "/with-secret",
                copy.getMetadata().getAnnotations().get(PullSecretSync.REFERENCES));
        assertEquals("batch", copy.getMetadata().getAnnotations().get(PullSecretSync.MODE));
        assertEquals("kubernetes.io/dockerconfigjson", copy.getType());
        assertEquals(Map.of(".dockerconfigjson", "e30="), copy.getData());
        // The controller adds the deletion-protection finalizer itself to a running v1beta1 job.
        Await.waitFor("with-secret has the finalizer", WAIT, () -> job("with-secret").get(),
                j -> j.getMetadata().getFinalizers() != null
                        && j.getMetadata().getFinalizers().contains(ImagePullJobDecision.FINALIZER));
        String copyName = copy.getMetadata().getName();
        Await.waitFor("every NodeImage lists the copy for the image", WAIT, () -> nodes().stream().allMatch(n -> {
            NodeImage ni = product.client().resources(NodeImage.class).withName(n).get();
            return ni.getSpec() != null && ni.getSpec().images().get("registry.local/secret") != null
                    && ni.getSpec().images().get("registry.local/secret").pullSecrets().stream().anyMatch(r ->
                    copyName.equals(r.getName()) && PullSecretSync.DEFAULT_NAMESPACE.equals(r.getNamespace())
                            && "batch".equals(r.getMode()));
        }));
        // A changed source is copied again.
        product.client().secrets().inNamespace(product.namespace()).withName("regcred")
                .edit(sec -> { sec.setData(Map.of(".dockerconfigjson", "eyJhIjoxfQ==")); return sec; });
        Await.waitFor("the copy follows the source", WAIT, () -> copyOf("regcred"),
                c -> c != null && Map.of(".dockerconfigjson", "eyJhIjoxfQ==").equals(c.getData()));
        job("with-secret").delete();
        Await.waitFor("with-secret gone", WAIT, () -> job("with-secret").get() == null);
        Await.waitFor("the copy nobody references is deleted", WAIT, () -> copyOf("regcred") == null);
    }

    @Test
    void twoJobsShareOneCopyAndTheFirstToFinishOnlyDropsItsReference() {
        nodeImagesExist();
        if (product.client().namespaces().withName(PullSecretSync.DEFAULT_NAMESPACE).get() == null) {
            product.client().namespaces().resource(new NamespaceBuilder().withNewMetadata()
                    .withName(PullSecretSync.DEFAULT_NAMESPACE).endMetadata().build()).create();
        }
        product.client().secrets().inNamespace(product.namespace()).resource(new SecretBuilder().withNewMetadata()
                .withName("shared").withNamespace(product.namespace()).endMetadata()
                .withType("kubernetes.io/dockerconfigjson")
                .withData(Map.of(".dockerconfigjson", "e30=")).build()).create();
        create("v1beta1", "keeps-running", "registry.local/shared:1", s -> {
            s.setPullSecrets(List.of("shared"));
            s.getCompletionPolicy().setType("Never");
        });
        Secret first = Await.waitFor("keeps-running has its copy", WAIT, () -> copyOf("shared"), c -> c != null);
        // "finishes" pulls at once and may complete (and release the copy) before a poll sees both references, so
        // every version of the copy is recorded from a watch and the shared state is looked for in that history.
        java.util.Queue<String> seen = new java.util.concurrent.ConcurrentLinkedQueue<>();
        String copyName = first.getMetadata().getName();
        try (io.fabric8.kubernetes.client.Watch ignored = product.client().secrets()
                .inNamespace(PullSecretSync.DEFAULT_NAMESPACE).withName(copyName)
                .watch(new io.fabric8.kubernetes.client.Watcher<>() {
                    @Override
                    public void eventReceived(Action action, Secret secret) {
                        seen.add(String.valueOf(PullSecretSync.annotation(secret, PullSecretSync.REFERENCES)));
                    }

                    @Override
                    public void onClose(io.fabric8.kubernetes.client.WatcherException cause) {
                    }
                })) {
            create("v1beta1", "finishes", "registry.local/shared:2", s -> {
                s.setPullSecrets(List.of("shared"));
                s.setParallelism(new IntOrString(3));
            });
            String both = product.namespace() + "/finishes," + product.namespace() + "/keeps-running";
            Await.waitFor("one copy referenced by both", WAIT, () -> List.copyOf(seen), l -> l.contains(both));
        }
        completed("finishes");
        Secret left = Await.waitFor("finishes released the copy", WAIT, () -> copyOf("shared"), c -> c != null
                && (product.namespace() + "/keeps-running").equals(
                c.getMetadata().getAnnotations().get(PullSecretSync.REFERENCES)));
        assertEquals(1, product.client().secrets().inNamespace(PullSecretSync.DEFAULT_NAMESPACE).list().getItems()
                .stream().filter(c -> (product.namespace() + "/shared").equals(
                        PullSecretSync.annotation(c, PullSecretSync.SOURCE_KEY))).count(), "one copy per source");
        assertTrue(left.getMetadata().getName().startsWith("shared-"));
        job("keeps-running").delete();
        Await.waitFor("the last reference gone: copy deleted", WAIT, () -> copyOf("shared") == null);
    }

    /**
     * Issue 24: another client edits every NodeImage's spec (a bystander image's tag) and overwrites the job's status
     * counts while the job pulls; the controller's writes meet 409s and stale caches, yet the job completes with the
     * right counts and the bystander's tag survives the controller's NodeImage writes.
     */
    @Test
    void conflictingWritersOnNodeImagesAndTheJobStatusStillCompleteWithTheRightCounts() throws Exception {
        nodeImagesExist();
        create("v1beta1", "contended", "registry.local/contended:slow", s -> s.setParallelism(new IntOrString(1)));
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicInteger specWrites = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger statusWrites = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<String> lastSpecError = new java.util.concurrent.atomic.AtomicReference<>();
        Thread specWriter = new Thread(() -> {
            for (int i = 0; !stop.get() && i < 300; i++) {
                int timeout = 600 + i % 2;
                for (String node : nodes()) {
                    try {
                        product.client().resources(NodeImage.class).withName(node).edit(ni -> {
                            withBystanderTag(ni, timeout);
                            return ni;
                        });
                        specWrites.incrementAndGet();
                    } catch (KubernetesClientException e) {
                        // 409s are the point: the controller writes the same NodeImages meanwhile.
                        lastSpecError.set(e.getCode() + " " + e.getMessage());
                    }
                }
            }
        });
        Thread statusWriter = new Thread(() -> {
            for (int i = 0; !stop.get() && i < 300; i++) {
                try {
                    ImagePullJob j = job("contended").get();
                    if (j.getStatus() == null || j.getStatus().getCompletionTime() != null) {
                        Thread.sleep(50);
                        continue;
                    }
                    j.getStatus().setSucceeded(0);
                    j.getStatus().setActive(0);
                    j.getStatus().setMessage("overwritten by another client");
                    // Locked on the read resourceVersion: it only lands on a status the controller has not moved past.
                    product.client().resources(ImagePullJob.class).inNamespace(product.namespace()).resource(j)
                            .updateStatus();
                    statusWrites.incrementAndGet();
                    Thread.sleep(100);
                } catch (KubernetesClientException e) {
                    // 409: the controller wrote first.
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        });
        specWriter.start();
        statusWriter.start();
        ImagePullJob done;
        try {
            done = completed("contended");
        } finally {
            stop.set(true);
            specWriter.join(60_000);
            statusWriter.join(60_000);
        }
        assertTrue(specWrites.get() > 0, "the spec writer never wrote: " + lastSpecError.get());
        assertTrue(statusWrites.get() > 0, "the status writer never wrote");
        assertEquals(3, done.getStatus().getDesired());
        assertEquals(3, done.getStatus().getSucceeded());
        assertEquals(0, done.getStatus().getFailed());
        assertEquals(0, done.getStatus().getActive());
        assertEquals("job has completed", done.getStatus().getMessage());
        for (String node : nodes()) {
            assertEquals("Succeeded", tagStatus(node, "registry.local/contended", "slow").getPhase(), node);
            NodeImage ni = product.client().resources(NodeImage.class).withName(node).get();
            assertTrue(ni.getSpec().images().containsKey("registry.local/bystander"), node + ": " + ni.getSpec().images().keySet());
        }
    }

    /** Sets the bystander image's one tag with the given timeout, adding the image when it is not there yet. */
    static void withBystanderTag(NodeImage ni, int timeoutSeconds) {
        if (ni.getSpec() == null) {
            ni.setSpec(new dev.kruisevertx.api.apps.v1beta1.NodeImageSpec());
        }
        Map<String, dev.kruisevertx.api.apps.v1beta1.ImageSpec> images = new java.util.LinkedHashMap<>(ni.getSpec().images());
        dev.kruisevertx.api.apps.v1beta1.ImageTagSpec tag = new dev.kruisevertx.api.apps.v1beta1.ImageTagSpec();
        tag.setTag("1");
        tag.setCreatedAt("2026-11-24T00:00:00Z");
        dev.kruisevertx.api.apps.v1beta1.ImageTagPullPolicy policy = new dev.kruisevertx.api.apps.v1beta1.ImageTagPullPolicy();
        policy.setTimeoutSeconds(timeoutSeconds);
        policy.setBackoffLimit(3);
        policy.setTtlSecondsAfterFinished(3600);
        tag.setPullPolicy(policy);
        dev.kruisevertx.api.apps.v1beta1.ImageSpec image = new dev.kruisevertx.api.apps.v1beta1.ImageSpec();
        image.setTags(List.of(tag));
        images.put("registry.local/bystander", image);
        ni.getSpec().setImages(images);
    }
}
