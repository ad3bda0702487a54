package dev.kruisevertx.predownload;

import dev.kruisevertx.api.apps.v1beta1.DaemonSet;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetSpec;
import dev.kruisevertx.api.apps.v1beta1.DaemonSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.apps.v1beta1.RollingUpdateDaemonSet;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.nodes.ContainerFailure;
import dev.kruisevertx.sim.nodes.ImageRule;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.Resource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Image pre-download before Advanced DaemonSet updates (gate PreDownloadImageForDaemonSetUpdate) on the embedded
 * cluster with three simulated nodes: the job of the new image exists before the first pod runs the new revision,
 * goes once every pod is updated, and goes with the DaemonSet.
 */
class DaemonSetPreDownloadEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(120);
    static final String IMAGE = "registry.local/agent";

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3))
            .flags("--feature-gates=PreDownloadImageForDaemonSetUpdate=true", "--nodeimage-creation-delay=1s")
            .build();

    @BeforeAll
    static void slowPulls() {
        product.cluster().nodes().addImageRule(new ImageRule(IMAGE + ":2", Duration.ofSeconds(2), ContainerFailure.NONE));
    }

    static DaemonSet daemonSet(String name, Consumer<DaemonSetSpec> change) {
        DaemonSet ds = new DaemonSet();
        ds.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(product.namespace())
                .withAnnotations(new HashMap<>(Map.of(WellKnown.IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION, "3"))).build());
        DaemonSetSpec spec = new DaemonSetSpec();
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().withTerminationGracePeriodSeconds(0L)
                .addNewContainer().withName("main").withImage(IMAGE + ":1").endContainer().endSpec().build());
        DaemonSetUpdateStrategy us = new DaemonSetUpdateStrategy();
        us.setType("RollingUpdate");
        RollingUpdateDaemonSet ru = new RollingUpdateDaemonSet();
        ru.setRollingUpdateType("Standard");
        ru.setMaxUnavailable(new IntOrString(1));
        us.setRollingUpdate(ru);
        spec.setUpdateStrategy(us);
        spec.setMinReadySeconds(1);
        ds.setSpec(spec);
        change.accept(spec);
        return ds;
    }

    static Resource<DaemonSet> resource(String name) {
        return product.client().resources(DaemonSet.class).inNamespace(product.namespace()).withName(name);
    }

    static List<ImagePullJob> jobs() {
        return product.client().resources(ImagePullJob.class).inNamespace(product.namespace()).list().getItems();
    }

    static void edit(String name, Consumer<DaemonSetSpec> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                resource(name).edit(ds -> {
                    change.accept(ds.getSpec());
                    return ds;
                });
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 20) {
                    throw e;
                }
            }
        }
    }

    static DaemonSet settled(String name) {
        int n = product.cluster().nodes().nodeNames().size();
        return Await.waitFor(name + " settled", WAIT, () -> resource(name).get(), s -> s != null && s.getStatus() != null
                && s.getStatus().getObservedGeneration() == s.getMetadata().getGeneration()
                && s.getStatus().getDesiredNumberScheduled() == n && s.getStatus().getUpdatedNumberScheduled() == n
                && s.getStatus().getNumberAvailable() == n);
    }

    static void nodeImagesExist() {
        Await.waitFor("a NodeImage per node", WAIT, () -> product.cluster().nodes().nodeNames().stream().allMatch(n ->
                product.client().resources(NodeImage.class).withName(n).get() != null));
    }

    static long rv(HasMetadata o) {
        return Long.parseLong(o.getMetadata().getResourceVersion());
    }

    static ImagePullJob jobOf(DaemonSet ds) {
        return Await.waitFor("the pre-download job of " + ds.getMetadata().getName(), WAIT, () -> jobs().stream()
                .filter(j -> ds.getMetadata().getUid().equals(j.getMetadata().getOwnerReferences().get(0).getUid()))
                .findFirst().orElse(null), j -> j != null);
    }

    @Test
    void theJobForTheNewImageExistsBeforeTheFirstPodRunsTheNewRevision() {
        nodeImagesExist();
        String name = "agent";
        resource(name).create(daemonSet(name, s -> { }));
        DaemonSet before = settled(name);
        String oldHash = before.getStatus().getUpdateRevision();
        AtomicLong firstJob = new AtomicLong(Long.MAX_VALUE);
        AtomicLong firstNewPod = new AtomicLong(Long.MAX_VALUE);
        AtomicReference<String> oldRevision = new AtomicReference<>(oldHash);
        try (Watch jw = product.client().resources(ImagePullJob.class).inNamespace(product.namespace())
                .watch(seen(j -> firstJob.accumulateAndGet(rv(j), Math::min)));
             Watch pw = product.client().pods().inNamespace(product.namespace()).withLabel("app", name).watch(seen(p -> {
                 String hash = p.getMetadata().getLabels().get("controller-revision-hash");
                 if (hash != null && !hash.equals(oldRevision.get())) {
                     firstNewPod.accumulateAndGet(rv(p), Math::min);
                 }
             }))) {
            edit(name, s -> s.getTemplate().getSpec().getContainers().get(0).setImage(IMAGE + ":2"));
            ImagePullJob job = jobOf(before);
            assertEquals(IMAGE + ":2", job.getSpec().getImage());
            assertEquals("DaemonSet", job.getMetadata().getOwnerReferences().get(0).getKind());
            assertEquals(new IntOrString(3), job.getSpec().getParallelism());
            assertEquals(300, job.getSpec().getPullPolicy().getTimeoutSeconds());
            DaemonSet after = settled(name);
            String hash = after.getStatus().getUpdateRevision();
            assertEquals(name + "-" + hash + "-main", job.getMetadata().getName());
            assertEquals("true", product.client().apps().controllerRevisions().inNamespace(product.namespace())
                    .withName(name + "-" + hash).get().getMetadata().getLabels().get(PreDownloadJobs.CREATED_LABEL));
            assertTrue(firstJob.get() < firstNewPod.get(), "the job (rv " + firstJob + ") before the first pod at "
                    + hash + " (rv " + firstNewPod + ")");
            for (Pod p : product.client().pods().inNamespace(product.namespace()).withLabel("app", name).list().getItems()) {
                assertEquals(IMAGE + ":2", p.getSpec().getContainers().get(0).getImage());
            }
            Await.waitFor("every pod updated: the job deleted", WAIT, () -> jobs().isEmpty());
        }
    }

    @Test
    void theDaemonSetDeletedMidPreDownloadTakesItsJobAlong() {
        nodeImagesExist();
        String name = "held";
        resource(name).create(daemonSet(name, s -> s.getUpdateStrategy().getRollingUpdate().setPartition(new IntOrString(2))));
        DaemonSet before = settled(name);
        edit(name, s -> s.getTemplate().getSpec().getContainers().get(0).setImage(IMAGE + ":2"));
        jobOf(before);
        resource(name).delete();
        Await.waitFor("the job garbage-collected", WAIT, () -> jobs().isEmpty());
        Await.waitFor("the DaemonSet gone", WAIT, () -> resource(name).get() == null);
        assertEquals(List.of(), jobs().stream().map(j -> j.getMetadata().getName()).toList());
    }

    static <T> Watcher<T> seen(Consumer<T> seen) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, T resource) {
                if (action == Action.ADDED || action == Action.MODIFIED) {
                    seen.accept(resource);
                }
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        };
    }
}
