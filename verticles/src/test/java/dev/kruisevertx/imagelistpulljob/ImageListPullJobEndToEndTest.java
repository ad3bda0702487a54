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
}
