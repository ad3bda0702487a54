package dev.kruisevertx.predownload;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetUpdateStrategy;
import dev.kruisevertx.api.apps.v1beta1.ImagePullJob;
import dev.kruisevertx.api.apps.v1beta1.ImageTagStatus;
import dev.kruisevertx.api.apps.v1beta1.NodeImage;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.nodes.ContainerFailure;
import dev.kruisevertx.sim.nodes.ImageRule;
import dev.kruisevertx.sim.testing.Await;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
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
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Image pre-download before CloneSet in-place updates (gate PreDownloadImageForInPlaceUpdate) on the embedded
 * cluster: the whole manager, the simulated nodes' image puller. What OpenKruise guarantees is asserted: the
 * ImagePullJob of the new image exists, aimed at the CloneSet's old pods, before the first pod changes revision
 * (the update does not wait for the pull). Pulls of {@code *:2} take a few seconds, so the puller is seen pulling.
 */
class CloneSetPreDownloadEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(120);
    static final String IMAGE = "registry.local/web";

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3))
            .flags("--feature-gates=PreDownloadImageForInPlaceUpdate=true", "--nodeimage-creation-delay=1s")
            .build();

    @BeforeAll
    static void slowPulls() {
        product.cluster().nodes().addImageRule(new ImageRule(IMAGE + ":2", Duration.ofSeconds(2), ContainerFailure.NONE));
    }

    static CloneSet cloneSet(String name, int replicas, Consumer<CloneSet> edit) {
        CloneSet cs = new CloneSet();
        cs.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(product.namespace())
                .withAnnotations(new HashMap<>(Map.of(WellKnown.IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION, "3"))).build());
        CloneSetSpec spec = new CloneSetSpec();
        spec.setReplicas(replicas);
        spec.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", name).build());
        spec.setTemplate(new PodTemplateSpecBuilder().withNewMetadata().addToLabels("app", name).endMetadata()
                .withNewSpec().addNewContainer().withName("main").withImage(IMAGE + ":1").endContainer().endSpec().build());
        CloneSetUpdateStrategy us = new CloneSetUpdateStrategy();
        us.setType("InPlaceIfPossible");
        us.setMaxUnavailable(new IntOrString(1));
        spec.setUpdateStrategy(us);
        cs.setSpec(spec);
        edit.accept(cs);
        return cs;
    }

    static Resource<CloneSet> resource(String name) {
        return product.client().resources(CloneSet.class).inNamespace(product.namespace()).withName(name);
    }

    static List<ImagePullJob> jobs() {
        return product.client().resources(ImagePullJob.class).inNamespace(product.namespace()).list().getItems();
    }

    static void edit(String name, Consumer<CloneSet> change) {
        for (int attempt = 1; ; attempt++) {
            try {
                resource(name).edit(cs -> {
                    change.accept(cs);
                    return cs;
                });
                return;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt >= 20) {
                    throw e;
                }
            }
        }
    }

    static CloneSet ready(String name, int replicas) {
        return Await.waitFor(name + " ready", WAIT, () -> resource(name).get(), cs -> cs != null && cs.getStatus() != null
                && cs.getStatus().getObservedGeneration() == cs.getMetadata().getGeneration()
                && cs.getStatus().getReadyReplicas() == replicas && cs.getStatus().getUpdatedReadyReplicas() == replicas
                && cs.getStatus().getAvailableReplicas() == replicas);
    }

    static CloneSet newRevision(String name) {
        return Await.waitFor(name + " has a new update revision", WAIT, () -> resource(name).get(), cs -> cs != null
                && cs.getStatus() != null && cs.getStatus().getObservedGeneration() == cs.getMetadata().getGeneration()
                && !cs.getStatus().getUpdateRevision().equals(cs.getStatus().getCurrentRevision()));
    }

    static ControllerRevision revision(String name) {
        return product.client().apps().controllerRevisions().inNamespace(product.namespace()).withName(name).get();
    }

    static void nodeImagesExist() {
        Await.waitFor("a NodeImage per node", WAIT, () -> product.cluster().nodes().nodeNames().stream().allMatch(n ->
                product.client().resources(NodeImage.class).withName(n).get() != null));
    }

    static long rv(HasMetadata o) {
        return Long.parseLong(o.getMetadata().getResourceVersion());
    }

    /** Records, by resourceVersion, when the first job appeared and when the first pod reached a given revision. */
    static final class Order implements AutoCloseable {
        final AtomicLong firstJob = new AtomicLong(Long.MAX_VALUE);
        /** Every pod version seen: resourceVersion and revision label. */
        final java.util.Queue<Map.Entry<Long, String>> podVersions = new java.util.concurrent.ConcurrentLinkedQueue<>();
        final Set<String> pullingNodes = ConcurrentHashMap.newKeySet();
        private final Watch jobs;
        private final Watch pods;
        private final Watch nodeImages;

        Order(String app) {
            jobs = product.client().resources(ImagePullJob.class).inNamespace(product.namespace()).watch(watcher(j -> {
                firstJob.accumulateAndGet(rv(j), Math::min);
            }));
            pods = product.client().pods().inNamespace(product.namespace()).withLabel("app", app).watch(watcher(p -> {
                podVersions.add(Map.entry(rv(p), String.valueOf(Pods.revisionLabel(p))));
            }));
            nodeImages = product.client().resources(NodeImage.class).watch(watcher(ni -> {
                if (ni.getStatus() == null || ni.getStatus().imageStatuses().get(IMAGE) == null) {
                    return;
                }
                for (ImageTagStatus t : ni.getStatus().imageStatuses().get(IMAGE).tags()) {
                    if ("2".equals(t.getTag()) && "Pulling".equals(t.getPhase())) {
                        pullingNodes.add(ni.getMetadata().getName());
                    }
                }
            }));
        }

        long firstPodAt(String revision) {
            return podVersions.stream().filter(e -> revision.equals(e.getValue())).mapToLong(Map.Entry::getKey).min()
                    .orElse(Long.MAX_VALUE);
        }

        static <T> Watcher<T> watcher(Consumer<T> seen) {
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

        @Override
        public void close() {
            jobs.close();
            pods.close();
            nodeImages.close();
        }
    }

    @Test
    void theJobForTheNewImageExistsBeforeTheFirstPodIsUpdatedInPlace() {
        nodeImagesExist();
        String name = "web";
        resource(name).create(cloneSet(name, 4, cs -> {
            cs.getSpec().setMinReadySeconds(1);
            cs.getMetadata().getAnnotations().put(WellKnown.IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS_ANNOTATION, "120");
        }));
        ready(name, 4);
        Map<String, String> uids = new HashMap<>();
        for (Pod p : product.client().pods().inNamespace(product.namespace()).withLabel("app", name).list().getItems()) {
            uids.put(p.getMetadata().getName(), p.getMetadata().getUid());
        }
        try (Order order = new Order(name)) {
            edit(name, cs -> cs.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(IMAGE + ":2"));
            CloneSet updating = newRevision(name);
            String rev = updating.getStatus().getUpdateRevision();
            ImagePullJob job = Await.waitFor("the pre-download job", WAIT, () -> product.client()
                    .resources(ImagePullJob.class).inNamespace(product.namespace()).withName(rev + "-main").get(),
                    j -> j != null);
            // As OpenKruise shapes it.
            assertEquals(IMAGE + ":2", job.getSpec().getImage());
            assertEquals(updating.getMetadata().getUid(), job.getMetadata().getOwnerReferences().get(0).getUid());
            assertEquals(Boolean.TRUE, job.getMetadata().getOwnerReferences().get(0).getController());
            assertEquals(new IntOrString(3), job.getSpec().getParallelism());
            assertEquals(120, job.getSpec().getPullPolicy().getTimeoutSeconds());
            assertEquals(1, job.getSpec().getPullPolicy().getBackoffLimit());
            assertEquals("Always", job.getSpec().getCompletionPolicy().getType());
            assertEquals(600, job.getSpec().getCompletionPolicy().getTtlSecondsAfterFinished());
            assertEquals(Map.of("app", name), job.getSpec().getPodSelector().getMatchLabels());
            LabelSelectorRequirement notIn = job.getSpec().getPodSelector().getMatchExpressions().get(0);
            assertEquals("controller-revision-hash", notIn.getKey());
            assertEquals("NotIn", notIn.getOperator());
            assertEquals(rev, notIn.getValues().get(0));
            Await.waitFor("the revision is labelled", WAIT, () -> revision(rev).getMetadata().getLabels()
                    .get(PreDownloadJobs.CREATED_LABEL), "true"::equals);

            ImagePullJob done = Await.waitFor("the job completes", WAIT, () -> product.client()
                    .resources(ImagePullJob.class).inNamespace(product.namespace()).withName(rev + "-main").get(),
                    j -> j == null || j.getStatus() != null && j.getStatus().getCompletionTime() != null);
            if (done != null) {
                assertTrue(done.getStatus().getDesired() >= 1, "targets the nodes of old pods");
                assertEquals(done.getStatus().getDesired(), done.getStatus().getSucceeded());
            }
            // minReadySeconds: available only a second after ready, and the rollout waits for that.
            Await.waitFor("rolled out and available", WAIT, () -> resource(name).get(), cs -> cs.getStatus()
                    .getUpdatedReadyReplicas() == 4 && cs.getStatus().getAvailableReplicas() == 4
                    && rev.equals(cs.getStatus().getCurrentRevision()));

            long firstPod = order.firstPodAt(rev);
            assertTrue(firstPod < Long.MAX_VALUE, "pods seen at " + rev);
            assertTrue(order.firstJob.get() < firstPod, "the job (rv " + order.firstJob
                    + ") before the first pod at " + rev + " (rv " + firstPod + ")");
            assertFalse(order.pullingNodes.isEmpty(), "the simulated puller was seen pulling " + IMAGE + ":2");
            for (Pod p : product.client().pods().inNamespace(product.namespace()).withLabel("app", name).list()
                    .getItems()) {
                assertEquals(uids.get(p.getMetadata().getName()), p.getMetadata().getUid(), "updated in place");
            }
            // The pods run one revision again: the CloneSet's jobs go.
            Await.waitFor("the pre-download job deleted", WAIT, () -> jobs().stream().noneMatch(j ->
                    j.getMetadata().getName().startsWith(name + "-")));
        }
    }

    @Test
    void aCloneSetOfThreeReplicasOrOneThatRecreatesIsLabelledIgnored() {
        String small = "small";
        resource(small).create(cloneSet(small, 3, cs -> { }));
        String recreate = "recreate";
        resource(recreate).create(cloneSet(recreate, 4, cs -> cs.getSpec().getUpdateStrategy().setType("ReCreate")));
        ready(small, 3);
        ready(recreate, 4);
        for (String name : List.of(small, recreate)) {
            edit(name, cs -> cs.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(IMAGE + ":2"));
            String rev = newRevision(name).getStatus().getUpdateRevision();
            Await.waitFor(name + ": revision labelled ignored", WAIT, () -> revision(rev).getMetadata().getLabels()
                    .get(PreDownloadJobs.IGNORED_LABEL), "true"::equals);
            assertNull(revision(rev).getMetadata().getLabels().get(PreDownloadJobs.CREATED_LABEL));
        }
        assertEquals(List.of(), jobs().stream().map(j -> j.getMetadata().getName()).toList());
    }

    @Test
    void aManagerRestartMidPreDownloadCreatesNoSecondJob() throws Exception {
        nodeImagesExist();
        String name = "held";
        // partition 3 of 4: one pod updates, the rollout holds, the pre-download job stays.
        resource(name).create(cloneSet(name, 4, cs -> cs.getSpec().getUpdateStrategy().setPartition(new IntOrString(3))));
        ready(name, 4);
        edit(name, cs -> cs.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(IMAGE + ":2"));
        String rev = newRevision(name).getStatus().getUpdateRevision();
        ImagePullJob first = Await.waitFor("the pre-download job", WAIT, () -> product.client()
                .resources(ImagePullJob.class).inNamespace(product.namespace()).withName(rev + "-main").get(),
                j -> j != null);
        Await.waitFor("the revision is labelled", WAIT, () -> revision(rev).getMetadata().getLabels()
                .get(PreDownloadJobs.CREATED_LABEL), "true"::equals);

        product.restartManager();
        // Reconciles after the restart: a spec change the controller must observe.
        edit(name, cs -> cs.getSpec().setMinReadySeconds(1));
        Await.waitFor("the new manager observed the CloneSet", WAIT, () -> resource(name).get(), cs ->
                cs.getStatus().getObservedGeneration() == cs.getMetadata().getGeneration());
        List<ImagePullJob> after = jobs();
        assertEquals(1, after.size(), after.stream().map(j -> j.getMetadata().getName()).toList().toString());
        assertEquals(first.getMetadata().getUid(), after.get(0).getMetadata().getUid(), "the same job, not a new one");

        // The rest of the rollout, then the job goes with the old revision.
        edit(name, cs -> cs.getSpec().getUpdateStrategy().setPartition(new IntOrString(0)));
        Await.waitFor("rolled out", WAIT, () -> resource(name).get(), cs -> cs.getStatus()
                .getUpdatedReadyReplicas() == 4 && rev.equals(cs.getStatus().getCurrentRevision()));
        Await.waitFor("the job deleted", WAIT, () -> jobs().isEmpty());
    }

    @Test
    void theCloneSetDeletedMidPreDownloadTakesItsJobAlong() {
        nodeImagesExist();
        String name = "gone";
        resource(name).create(cloneSet(name, 4, cs -> cs.getSpec().getUpdateStrategy().setPartition(new IntOrString(3))));
        ready(name, 4);
        edit(name, cs -> cs.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(IMAGE + ":2"));
        String rev = newRevision(name).getStatus().getUpdateRevision();
        Await.waitFor("the pre-download job", WAIT, () -> product.client().resources(ImagePullJob.class)
                .inNamespace(product.namespace()).withName(rev + "-main").get(), j -> j != null);
        resource(name).delete();
        Await.waitFor("the job garbage-collected", WAIT, () -> jobs().isEmpty());
        Await.waitFor("the CloneSet gone", WAIT, () -> resource(name).get() == null);
        // Nothing recreates it: the controller has no CloneSet to act for.
        Await.waitFor("pods gone", WAIT, () -> product.client().pods().inNamespace(product.namespace())
                .withLabel("app", name).list().getItems().isEmpty());
        assertEquals(List.of(), jobs().stream().map(j -> j.getMetadata().getName()).toList());
    }

    @Test
    void minUpdatedReadyPodsHoldsThePreDownloadUntilThatManyPodsAreUpdatedAndReady() {
        nodeImagesExist();
        String name = "gated";
        resource(name).create(cloneSet(name, 4, cs -> {
            cs.getSpec().getUpdateStrategy().setPartition(new IntOrString(3));
            cs.getMetadata().getAnnotations().put(WellKnown.IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION, "2");
        }));
        ready(name, 4);
        edit(name, cs -> cs.getSpec().getTemplate().getSpec().getContainers().get(0).setImage(IMAGE + ":2"));
        String rev = newRevision(name).getStatus().getUpdateRevision();
        Await.waitFor("one pod updated and ready", WAIT, () -> resource(name).get(), cs -> cs.getStatus()
                .getUpdatedReadyReplicas() == 1);
        // One updated ready pod of the two asked for: no job yet, the revision not labelled.
        edit(name, cs -> cs.getSpec().setMinReadySeconds(1));
        Await.waitFor("observed", WAIT, () -> resource(name).get(), cs ->
                cs.getStatus().getObservedGeneration() == cs.getMetadata().getGeneration());
        assertEquals(List.of(), jobs().stream().map(j -> j.getMetadata().getName()).toList());
        assertNull(revision(rev).getMetadata().getLabels().get(PreDownloadJobs.CREATED_LABEL));
        String waiting = "ImagePreDownload: image pre-download waits for 2 updated ready pods "
                + "(apps.kruise.io/image-predownload-min-updated-ready-pods), 1 so far";
        String[] shown = new String[1];
        Await.waitFor("why shows the pre-download waiting", WAIT, () -> {
            shown[0] = why("cloneset/" + name);
            return shown[0].contains(waiting);
        });

        // A second pod updated and ready: the job comes for the two left.
        edit(name, cs -> cs.getSpec().getUpdateStrategy().setPartition(new IntOrString(2)));
        Await.waitFor("the pre-download job after two updated ready pods", WAIT, () -> product.client()
                .resources(ImagePullJob.class).inNamespace(product.namespace()).withName(rev + "-main").get(),
                j -> j != null);
        edit(name, cs -> cs.getSpec().getUpdateStrategy().setPartition(new IntOrString(0)));
        Await.waitFor("rolled out", WAIT, () -> resource(name).get(), cs -> cs.getStatus()
                .getUpdatedReadyReplicas() == 4 && rev.equals(cs.getStatus().getCurrentRevision()));
    }

    @Test
    void hostileAnnotationValuesAreRefusedWithAClearMessage() {
        for (String value : List.of("-5", "99999999999", "many", "50%")) {
            for (String key : List.of(WellKnown.IMAGE_PREDOWNLOAD_PARALLELISM_ANNOTATION,
                    WellKnown.IMAGE_PREDOWNLOAD_TIMEOUT_SECONDS_ANNOTATION,
                    WellKnown.IMAGE_PREDOWNLOAD_MIN_UPDATED_READY_PODS_ANNOTATION)) {
                KubernetesClientException e = org.junit.jupiter.api.Assertions.assertThrows(KubernetesClientException.class,
                        () -> resource("hostile").create(cloneSet("hostile", 4, cs ->
                                cs.getMetadata().getAnnotations().put(key, value))));
                assertTrue(e.getMessage().contains("metadata.annotations[" + key + "]")
                        && e.getMessage().contains("must be a non-negative integer"), key + "=" + value + ": "
                        + e.getMessage());
            }
        }
        assertNull(resource("hostile").get());
    }

    /** {@code kubectl kruise why TARGET} against the embedded cluster. */
    static String why(String target) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        int code = dev.kruisevertx.kubectl.KubectlKruise.run(new String[]{"-n", product.namespace(), "why", target},
                new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                new java.io.PrintStream(err, true, java.nio.charset.StandardCharsets.UTF_8),
                p -> dev.kruisevertx.kube.KubeClients.forTest(new io.fabric8.kubernetes.client.ConfigBuilder(
                        product.cluster().clientConfig()).withHttp2Disable(true).build()));
        return code + ": " + out.toString(java.nio.charset.StandardCharsets.UTF_8)
                + err.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
