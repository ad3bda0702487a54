package dev.kruisevertx.imagelistpulljob;

import dev.kruisevertx.api.apps.v1beta1.CompletionPolicy;
import dev.kruisevertx.api.apps.v1beta1.ImageListPullJob;
import dev.kruisevertx.api.apps.v1beta1.ImageListPullJobSpec;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.nodes.ContainerFailure;
import dev.kruisevertx.sim.nodes.ImageRule;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
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

/** ImageListPullJob against the embedded cluster: one owned ImagePullJob per image, the summed status, list edits. */
class ImageListPullJobEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(2))
            .flags("--feature-gates=ImagePullJobGate=true", "--nodeimage-creation-delay=1s")
            .build();

    @BeforeAll
    static void rules() {
        product.cluster().nodes().addImageRule(new ImageRule("*:missing", Duration.ZERO, ContainerFailure.IMAGE_PULL_ERROR));
        // Slow pulls keep a list running long enough to restart the manager, delete the list or edit a job mid-run.
        product.cluster().nodes().addImageRule(new ImageRule("*:slow", Duration.ofSeconds(4), ContainerFailure.NONE));
        Await.waitFor("a NodeImage per node", WAIT, () -> product.cluster().nodes().nodeNames().stream().allMatch(n ->
                product.client().resources(NodeImage.class).withName(n).get() != null));
    }

    static ImageListPullJob create(String name, List<String> images, Consumer<ImageListPullJobSpec> edit) {
        ImageListPullJobSpec spec = new ImageListPullJobSpec();
        spec.setImages(images);
        spec.setCompletionPolicy(new CompletionPolicy());
        spec.setParallelism(new IntOrString(2));
        edit.accept(spec);
        ImageListPullJob job = new ImageListPullJob();
        job.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(product.namespace()).build());
        job.setSpec(spec);
        return product.client().resource(job).create();
    }

    static Resource<ImageListPullJob> list(String name) {
        return product.client().resources(ImageListPullJob.class).inNamespace(product.namespace()).withName(name);
    }

    static List<ImagePullJob> owned(ImageListPullJob list) {
        return product.client().resources(ImagePullJob.class).inNamespace(product.namespace()).list().getItems()
                .stream().filter(j -> j.getMetadata().getDeletionTimestamp() == null
                        && j.getMetadata().getOwnerReferences().stream()
                        .anyMatch(r -> list.getMetadata().getUid().equals(r.getUid()))).toList();
    }

    /** The controller writes the list job's label and status meanwhile: a 409 is retried on the fresh object. */
    static void editRetrying(String name, Consumer<ImageListPullJob> change) {
        Await.waitFor(name + " edited", WAIT, () -> {
            try {
                list(name).edit(j -> {
                    change.accept(j);
                    return j;
                });
                return true;
            } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
                if (e.getCode() == 409) {
                    return false;
                }
                throw e;
            }
        });
    }

    @Test
    void oneImagePullJobPerImageAndTheSummedStatus() {
        ImageListPullJob created = create("two-images", List.of("registry.local/list:1", "registry.local/list:missing"),
                s -> { });
        ImageListPullJob done = Await.waitFor("two-images completed", WAIT, () -> list("two-images").get(),
                j -> j.getStatus() != null && j.getStatus().getCompletionTime() != null);
        assertEquals(2, done.getStatus().getDesired());
        assertEquals(2, done.getStatus().getCompleted());
        assertEquals(1, done.getStatus().getSucceeded());
        assertEquals(0, done.getStatus().getActive());
        assertEquals(1, done.getStatus().getFailedImageStatuses().size());
        assertEquals("registry.local/list:missing", done.getStatus().getFailedImageStatuses().get(0).getName());
        List<ImagePullJob> jobs = owned(created);
        assertEquals(2, jobs.size(), "one ImagePullJob per image");
        String hash = done.getMetadata().getLabels().get(WellKnown.CONTROLLER_REVISION_HASH_LABEL);
        assertTrue(hash != null && !hash.isEmpty());
        for (ImagePullJob j : jobs) {
            assertTrue(j.getMetadata().getName().startsWith("two-images-"), j.getMetadata().getName());
            assertEquals(hash, j.getMetadata().getLabels().get(WellKnown.CONTROLLER_REVISION_HASH_LABEL));
            assertEquals(Boolean.TRUE, j.getMetadata().getOwnerReferences().get(0).getController());
            assertEquals(new IntOrString(2), j.getSpec().getParallelism(), "the template is carried over");
        }
        String failedJob = done.getStatus().getFailedImageStatuses().get(0).getImagePullJob();
        assertEquals("Please check for details which nodes failed by 'kubectl get ImagePullJob " + failedJob + "'.",
                done.getStatus().getFailedImageStatuses().get(0).getMessage());
    }

    @Test
    void listEditsReplaceAndRemoveJobs() {
        ImageListPullJob created = create("edited", List.of("registry.local/edit:1", "registry.local/edit:2"),
                s -> s.getCompletionPolicy().setType("Never"));
        Await.waitFor("two jobs", WAIT, () -> owned(created).size() == 2);
        String first = owned(created).stream().filter(j -> j.getSpec().getImage().endsWith(":1")).findFirst()
                .orElseThrow().getMetadata().getName();
        editRetrying("edited", j -> j.getSpec().setImages(List.of("registry.local/edit:2", "registry.local/edit:3")));
        Await.waitFor(":1's job deleted, :3's created", WAIT, () -> {
            List<String> images = owned(created).stream().map(j -> j.getSpec().getImage()).sorted().toList();
            return images.equals(List.of("registry.local/edit:2", "registry.local/edit:3"));
        });
        assertTrue(owned(created).stream().noneMatch(j -> j.getMetadata().getName().equals(first)));
        // A template change replaces every job (new hash).
        List<String> before = owned(created).stream().map(j -> j.getMetadata().getName()).sorted().toList();
        editRetrying("edited", j -> j.getSpec().setParallelism(new IntOrString(1)));
        Await.waitFor("both jobs replaced with the new template", WAIT, () -> {
            List<ImagePullJob> now = owned(created);
            return now.size() == 2 && now.stream().noneMatch(j -> before.contains(j.getMetadata().getName()))
                    && now.stream().allMatch(j -> new IntOrString(1).equals(j.getSpec().getParallelism()));
        });
    }

    @Test
    void aFinishedListIsDeletedAfterItsTtl() {
        create("ttl", List.of("registry.local/ttl:1"), s -> s.getCompletionPolicy().setTtlSecondsAfterFinished(1));
        Await.waitFor("ttl deleted after it finished", WAIT, () -> list("ttl").get() == null);
    }

    @Test
    void anAdvancedCronJobsImageListPullJobTemplateStartsListJobsOnSchedule() {
        dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobSpec spec = new dev.kruisevertx.api.apps.v1beta1.AdvancedCronJobSpec();
        spec.setSchedule("@every 2s");
        spec.setConcurrencyPolicy("Forbid");
        dev.kruisevertx.api.apps.v1beta1.CronJobTemplate t = new dev.kruisevertx.api.apps.v1beta1.CronJobTemplate();
        t.setImageListPullJobTemplate(dev.kruisevertx.api.common.ApiJson.serialization().convertValue(Map.of(
                "metadata", Map.of("labels", Map.of("kind-of-run", "pull")),
                "spec", Map.of("images", List.of("registry.local/cron:1"), "parallelism", 2)),
                com.fasterxml.jackson.databind.JsonNode.class));
        spec.setTemplate(t);
        dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob acj = new dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob();
        acj.setMetadata(new ObjectMetaBuilder().withName("pull-cron").withNamespace(product.namespace()).build());
        acj.setSpec(spec);
        acj = product.client().resource(acj).create();
        String uid = acj.getMetadata().getUid();
        ImageListPullJob child = Await.waitFor("an ImageListPullJob of pull-cron", WAIT, () -> product.client()
                .resources(ImageListPullJob.class).inNamespace(product.namespace()).list().getItems().stream()
                .filter(l -> l.getMetadata().getOwnerReferences().stream().anyMatch(r -> uid.equals(r.getUid())))
                .toList(), l -> !l.isEmpty()).get(0);
        assertTrue(child.getMetadata().getName().matches("pull-cron-[0-9]+"), child.getMetadata().getName());
        assertEquals("pull", child.getMetadata().getLabels().get("kind-of-run"));
        assertEquals(List.of("registry.local/cron:1"), child.getSpec().getImages());
        Await.waitFor("the scheduled list job completes", WAIT, () -> list(child.getMetadata().getName()).get(),
                j -> j == null || (j.getStatus() != null && j.getStatus().getCompletionTime() != null));
        Await.waitFor("pull-cron's status type", WAIT, () -> product.client()
                        .resources(dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob.class)
                        .inNamespace(product.namespace()).withName("pull-cron").get(),
                a -> a.getStatus() != null && "ImageListPullJob".equals(a.getStatus().getType()));
        product.client().resources(dev.kruisevertx.api.apps.v1beta1.AdvancedCronJob.class)
                .inNamespace(product.namespace()).withName("pull-cron").delete();
    }

    static List<ImagePullJob> jobsInNamespace() {
        return product.client().resources(ImagePullJob.class).inNamespace(product.namespace()).list().getItems();
    }

    static boolean running(ImageListPullJob j) {
        return j != null && j.getStatus() != null && j.getStatus().getCompletionTime() == null;
    }

    static ImageListPullJob completed(String name) {
        return Await.waitFor(name + " completed", WAIT, () -> list(name).get(),
                j -> j != null && j.getStatus() != null && j.getStatus().getCompletionTime() != null);
    }

    /** Reads a while and fails as soon as {@code bad} holds: "nothing happens" checked for a bounded time. */
    static void staysFalse(String what, Duration during, java.util.function.BooleanSupplier bad)
            throws InterruptedException {
        long end = System.nanoTime() + during.toNanos();
        while (System.nanoTime() < end) {
            assertTrue(!bad.getAsBoolean(), what);
            Thread.sleep(500);
        }
    }

    @Test
    void aManagerRestartMidRunCreatesNoSecondJobPerImageAndTheListCompletes() throws Exception {
        List<String> images = List.of("registry.local/restart-a:slow", "registry.local/restart-b:slow",
                "registry.local/restart-c:slow");
        ImageListPullJob created = create("restarted", images, s -> s.setParallelism(new IntOrString(1)));
        Await.waitFor("a job per image, still running", WAIT, () -> owned(created).size() == 3
                && running(list("restarted").get()));
        List<String> before = owned(created).stream().map(j -> j.getMetadata().getName()).sorted().toList();

        product.restartManager();

        ImageListPullJob done = completed("restarted");
        assertEquals(3, done.getStatus().getDesired());
        assertEquals(3, done.getStatus().getSucceeded());
        assertNull(done.getStatus().getFailedImageStatuses());
        // The new manager adopted the jobs it found: same names, one per image, none created twice.
        assertEquals(before, owned(created).stream().map(j -> j.getMetadata().getName()).sorted().toList());
        assertEquals(3, jobsInNamespace().size(), "no second ImagePullJob for any image");
        assertEquals(images, jobsInNamespace().stream().map(j -> j.getSpec().getImage()).sorted().toList());
    }

    @Test
    void theListDeletedMidRunTakesItsJobsAndTheirTagsAndNothingIsCreatedAgain() throws Exception {
        ImageListPullJob created = create("deleted", List.of("registry.local/gone-a:slow", "registry.local/gone-b:slow"),
                s -> s.setParallelism(new IntOrString(1)));
        Await.waitFor("a job per image, still running", WAIT, () -> owned(created).size() == 2
                && running(list("deleted").get()));

        list("deleted").delete();

        Await.waitFor("the list and its ImagePullJobs gone", WAIT, () -> list("deleted").get() == null
                && jobsInNamespace().isEmpty());
        // The jobs' tags leave the NodeImages with their owners (the nodeimage controller's owner check).
        Await.waitFor("no NodeImage keeps the deleted jobs' tags", WAIT, () -> product.client()
                .resources(NodeImage.class).list().getItems().stream().noneMatch(ni -> ni.getSpec() != null
                        && (ni.getSpec().images().containsKey("registry.local/gone-a")
                        || ni.getSpec().images().containsKey("registry.local/gone-b"))));
        staysFalse("an ImagePullJob was created again after the list was deleted", Duration.ofSeconds(6),
                () -> !jobsInNamespace().isEmpty());
    }

    @Test
    void hostileListsAreRefusedWithWhatIsWrongAndCreateNothing() throws Exception {
        List<String> tenThousand = new java.util.ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            tenThousand.add("registry.local/many-" + i + ":1");
        }
        Map<String, Consumer<ImageListPullJobSpec>> refusedSpecs = new java.util.LinkedHashMap<>();
        refusedSpecs.put("the maximum number of images cannot > 255", s -> s.setImages(tenThousand));
        refusedSpecs.put("invalid image : repository name must have at least one component", s -> s.setImages(List.of("")));
        refusedSpecs.put("image can not be empty", s -> s.setImages(List.of()));
        refusedSpecs.put("images cannot have duplicate values", s -> s.setImages(List.of("nginx:1", "nginx:1")));
        refusedSpecs.put("parallelism must be non-negative", s -> s.setParallelism(new IntOrString(-1)));
        refusedSpecs.put("parallelism must be a valid integer: strconv.ParseInt: parsing \"99999999999\": value out "
                + "of range", s -> s.setParallelism(new IntOrString("99999999999")));
        refusedSpecs.put("completionPolicy.activeDeadlineSeconds must be greater than pullPolicy.timeoutSeconds"
                + "(default 600)", s -> s.getCompletionPolicy().setActiveDeadlineSeconds(-5L));
        int n = 0;
        for (Map.Entry<String, Consumer<ImageListPullJobSpec>> e : refusedSpecs.entrySet()) {
            String name = "hostile-" + n++;
            io.fabric8.kubernetes.client.KubernetesClientException refused = assertThrows(
                    io.fabric8.kubernetes.client.KubernetesClientException.class,
                    () -> create(name, List.of("nginx:1"), e.getValue()), e.getKey());
            assertTrue(refused.getMessage().contains(e.getKey()), refused.getMessage());
            assertTrue(refused.getMessage().length() < 2_000, "the refusal names the problem, not the object");
            assertNull(list(name).get());
        }
        // Wrong types never reach the controller: the API server's schema or the webhook's decoding refuses them.
        for (String body : List.of("{\"images\": \"nginx:1\"}", "{\"images\": [\"nginx:1\"], \"parallelism\": {\"x\": 1}}",
                "{\"images\": [\"nginx:1\"], \"completionPolicy\": {\"type\": \"Always\", \"activeDeadlineSeconds\": \"soon\"}}")) {
            String name = "hostile-" + n++;
            io.fabric8.kubernetes.api.model.GenericKubernetesResource raw = new io.fabric8.kubernetes.api.model
                    .GenericKubernetesResource();
            raw.setApiVersion(ImageListPullJob.API_VERSION);
            raw.setKind(ImageListPullJob.KIND);
            raw.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(product.namespace()).build());
            raw.setAdditionalProperty("spec", dev.kruisevertx.api.common.ApiJson.serialization().unmarshal(body,
                    Map.class));
            io.fabric8.kubernetes.client.KubernetesClientException refused = assertThrows(
                    io.fabric8.kubernetes.client.KubernetesClientException.class,
                    () -> product.client().resource(raw).create(), body);
            assertTrue(refused.getCode() >= 400 && refused.getCode() < 500, refused.getCode() + " " + refused.getMessage());
            assertTrue(!refused.getMessage().contains("java.") && !refused.getMessage().contains("Exception"),
                    refused.getMessage());
            assertNull(list(name).get());
        }
        staysFalse("a refused list created an ImagePullJob", Duration.ofSeconds(2), () -> !jobsInNamespace().isEmpty());
    }

    @Test
    void anotherWriterOnAChildJobIsReconciledAndTheListStillCompletes() {
        ImageListPullJob created = create("contested", List.of("registry.local/contested-a:slow",
                "registry.local/contested-b:slow"), s -> s.setParallelism(new IntOrString(1)));
        Await.waitFor("a job per image, still running", WAIT, () -> owned(created).size() == 2
                && running(list("contested").get()));
        ImagePullJob a = owned(created).stream().filter(j -> j.getSpec().getImage().contains("contested-a"))
                .findFirst().orElseThrow();
        ImagePullJob b = owned(created).stream().filter(j -> j.getSpec().getImage().contains("contested-b"))
                .findFirst().orElseThrow();
        // Another client takes the template hash off job a: the list no longer recognises it as its template's and
        // replaces it. Another client raises job b's parallelism and labels it: b is the list's still, and kept.
        dev.kruisevertx.sim.testing.ConflictRetry.run(() -> product.client().resources(ImagePullJob.class)
                .inNamespace(product.namespace()).withName(a.getMetadata().getName()).edit(j -> {
                    j.getMetadata().getLabels().remove(WellKnown.CONTROLLER_REVISION_HASH_LABEL);
                    return j;
                }));
        dev.kruisevertx.sim.testing.ConflictRetry.run(() -> product.client().resources(ImagePullJob.class)
                .inNamespace(product.namespace()).withName(b.getMetadata().getName()).edit(j -> {
                    j.getSpec().setParallelism(new IntOrString(2));
                    j.getMetadata().getLabels().put("team", "other-writer");
                    return j;
                }));

        ImageListPullJob done = completed("contested");
        assertEquals(2, done.getStatus().getSucceeded());
        String hash = done.getMetadata().getLabels().get(WellKnown.CONTROLLER_REVISION_HASH_LABEL);
        Await.waitFor("a replaced, b kept", WAIT, () -> {
            List<ImagePullJob> now = jobsInNamespace();
            return now.size() == 2 && now.stream().noneMatch(j -> j.getMetadata().getName()
                    .equals(a.getMetadata().getName())) && now.stream().anyMatch(j -> j.getMetadata().getName()
                    .equals(b.getMetadata().getName()));
        });
        for (ImagePullJob j : owned(created)) {
            assertEquals(hash, j.getMetadata().getLabels().get(WellKnown.CONTROLLER_REVISION_HASH_LABEL),
                    j.getMetadata().getName());
        }
        ImagePullJob keptB = product.client().resources(ImagePullJob.class).inNamespace(product.namespace())
                .withName(b.getMetadata().getName()).get();
        assertEquals(new IntOrString(2), keptB.getSpec().getParallelism(), "the other writer's edit stays");
        assertEquals("other-writer", keptB.getMetadata().getLabels().get("team"));
    }
}
