package dev.kruisevertx.podunavailablebudget;

import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetSpec;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.function.Consumer;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import dev.kruisevertx.api.policy.v1alpha1.PubOperation;
import dev.kruisevertx.api.policy.v1alpha1.TargetReference;
import dev.kruisevertx.cloneset.CloneSetController;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.kube.KubeExecutor;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.pub.PubGuard;
import dev.kruisevertx.pub.PubStatusStore;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ConflictRetry;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.EvictionBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.micrometer.core.instrument.Gauge;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.kruisevertx.podunavailablebudget.PodUnavailableBudgetEndToEndTest.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The PodUnavailableBudget admission end to end: the pod webhook of the running manager refuses deletions and
 * evictions of a CloneSet's pods beyond the budget with OpenKruise's message, several writers of one budget's status
 * (as several webhook replicas would be) never admit more than it allows, a budget deleted stops protecting, and a
 * restarted manager still protects.
 */
class PubAdmissionEndToEndTest {
    static final String NONE_ALLOWED = "is forbidden: pub unavailable allowed is negative";

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(2))
            .controllers(() -> List.of(new dev.kruisevertx.podreadiness.PodReadinessController(),
                    new CloneSetController(), new PodUnavailableBudgetController()))
            .flags("--feature-gates=PodUnavailableBudgetUpdateGate=true")
            .build();

    static CloneSet cloneSet(String name, int replicas) {
        return PubFixtures.cloneSet(product, name, replicas);
    }

    static PodUnavailableBudget createPub(String name, Consumer<PodUnavailableBudgetSpec> edit) {
        return PubFixtures.createPub(product, name, edit);
    }

    static Resource<PodUnavailableBudget> pub(String name) {
        return PubFixtures.pub(product, name);
    }

    static void awaitStatus(String name, int desired, int current, int allowed, int total) {
        PubFixtures.awaitStatus(product, WAIT, name, desired, current, allowed, total);
    }

    private static List<Pod> protectedPods(String app, String pub, int n) {
        Await.waitFor(n + " ready pods of " + app + " naming " + pub, WAIT, () -> pods(app).stream()
                        .filter(p -> Pods.isRunningAndReady(p)
                                && pub.equals(Pods.annotations(p).get(WellKnown.PUB_RELATED_ANNOTATION_OLD))
                                && pub.equals(Pods.annotations(p).get(WellKnown.PUB_RELATED_ANNOTATION)))
                        .count(), c -> c == n);
        return pods(app);
    }

    private static List<Pod> pods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems()
                .stream().filter(Pods::isActive).toList();
    }

    private static void setUp(String app, int replicas, int maxUnavailable) {
        // The budget first: the pods get related-pub from /mutate-pod at creation.
        createPub(app + "-pub", s -> {
            s.setTargetRef(new TargetReference("apps.kruise.io/v1alpha1", "CloneSet", app));
            s.setMaxUnavailable(new IntOrString(maxUnavailable));
        });
        product.client().resource(cloneSet(app, replicas)).create();
        protectedPods(app, app + "-pub", replicas);
        awaitStatus(app + "-pub", replicas - maxUnavailable, replicas,
                maxUnavailable, replicas);
    }

    private static KubernetesClientException refusedDelete(String pod) {
        return assertThrows(KubernetesClientException.class,
                () -> product.client().pods().inNamespace(product.namespace()).withName(pod).delete());
    }

    @Test
    void deletesAndEvictionsBeyondTheBudgetAreRefused() {
        setUp("web", 3, 1);
        List<Pod> pods = pods("web");
        String first = pods.get(0).getMetadata().getName();
        String second = pods.get(1).getMetadata().getName();
        String third = pods.get(2).getMetadata().getName();

        // No replacement while the refusals below are checked (scaleStrategy.maxUnavailable 0 holds scale-up): a
        // ready replacement would rightly make one more disruption allowed, and the checks would race it.
        cloneSets().withName("web").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"scaleStrategy\":{\"maxUnavailable\":0}}}");
        product.client().pods().inNamespace(product.namespace()).withName(first).delete();
        PodUnavailableBudgetStatus after = pub("web-pub").get().status();
        assertEquals(0, after.getUnavailableAllowed());
        assertTrue(after.getDisruptedPods().containsKey(first), after.getDisruptedPods().toString());

        KubernetesClientException refused = refusedDelete(second);
        assertEquals(403, refused.getCode());
        assertTrue(refused.getMessage().contains("podunavailablebudget.policy.kruise.io \"web-pub\" " + NONE_ALLOWED),
                refused.getMessage());
        assertNotNull(product.client().pods().inNamespace(product.namespace()).withName(second).get());

        // An eviction is refused the same way (the API server answers the webhook's 403).
        KubernetesClientException evictionRefused = assertThrows(KubernetesClientException.class, () -> {
            if (!product.client().pods().inNamespace(product.namespace()).withName(third).evict(
                    new EvictionBuilder().withNewMetadata().withName(third).withNamespace(product.namespace()).endMetadata().build())) {
                throw new KubernetesClientException("eviction answered 429");
            }
        });
        assertTrue(evictionRefused.getMessage().contains(NONE_ALLOWED), evictionRefused.getMessage());
        // A dry run of a refused delete is refused too, and writes nothing.
        assertTrue(refusedDeleteDryRun(second).getMessage().contains(NONE_ALLOWED));

        // Refusals are counted by workload and user, and each leaves an Event on its pod.
        Gauge refusals = product.app().registry().find(PubGuard.METRIC)
                .tag("kind_namespace_name", "CloneSet_" + product.namespace() + "_web").gauge();
        assertNotNull(refusals);
        assertTrue(refusals.value() >= 3, "refusals counted: " + refusals.value());
        Await.waitFor("PubPreventPodDeletion on " + second, WAIT, () -> product.client().v1().events()
                .inNamespace(product.namespace()).list().getItems().stream()
                .filter(e -> "PubPreventPodDeletion".equals(e.getReason())
                        && second.equals(e.getInvolvedObject().getName())).count(), c -> c >= 1);

        // Once the replacement is ready and the record has expired (20 s), one more disruption is allowed.
        cloneSets().withName("web").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"scaleStrategy\":{\"maxUnavailable\":null}}}");
        awaitStatus("web-pub", 2, 3, 1, 3);
        // The webhook decides from its cache of the budget, which may still trail the status just read.
        Await.waitFor("delete of " + second + " admitted", WAIT, () -> {
            try {
                product.client().pods().inNamespace(product.namespace()).withName(second).delete();
                return true;
            } catch (KubernetesClientException e) {
                if (e.getCode() != 403) {
                    throw e;
                }
                return false;
            }
        });
    }

    private static io.fabric8.kubernetes.client.dsl.NonNamespaceOperation<
            io.fabric8.kubernetes.api.model.GenericKubernetesResource,
            io.fabric8.kubernetes.api.model.GenericKubernetesResourceList,
            io.fabric8.kubernetes.client.dsl.Resource<io.fabric8.kubernetes.api.model.GenericKubernetesResource>>
            cloneSets() {
        return product.client().genericKubernetesResources("apps.kruise.io/v1alpha1", "CloneSet")
                .inNamespace(product.namespace());
    }

    private static KubernetesClientException refusedDeleteDryRun(String pod) {
        return assertThrows(KubernetesClientException.class, () -> product.client().pods()
                .inNamespace(product.namespace()).withName(pod).dryRun().delete());
    }

    @Test
    void podsWithoutTheAnnotationOrMarkedNoProtectAreNotChecked() {
        setUp("free", 2, 1);
        List<Pod> pods = pods("free");
        product.client().pods().inNamespace(product.namespace()).withName(pods.get(0).getMetadata().getName())
                .delete();
        String other = pods.get(1).getMetadata().getName();
        assertTrue(refusedDelete(other).getMessage().contains(NONE_ALLOWED));
        ConflictRetry.run(() -> product.client().pods().inNamespace(product.namespace()).withName(other).edit(p -> {
            p.getMetadata().getAnnotations().put(WellKnown.PUB_NO_PROTECT_ANNOTATION, "true");
            return p;
        }));
        product.client().pods().inNamespace(product.namespace()).withName(other).delete();
    }

    /**
     * v1beta1 {@code spec.ignoredPodSelector}: a pod it selects bypasses the budget (deleted with nothing allowed, and
     * not recorded), while the pods it does not select stay protected.
     */
    @Test
    @SuppressWarnings("unchecked")
    void podsTheIgnoredPodSelectorSelectsAreNotChecked() {
        setUp("spare", 3, 1);
        // Set through v1beta1 (stored in the v1alpha1 annotation the conversion keeps it in).
        ConflictRetry.run(() -> product.client().genericKubernetesResources("policy.kruise.io/v1beta1",
                "PodUnavailableBudget").inNamespace(product.namespace()).withName("spare-pub").edit(r -> {
                    ((Map<String, Object>) r.getAdditionalProperties().get("spec")).put("ignoredPodSelector",
                            Map.of("matchLabels", Map.of("maintenance", "true")));
                    return r;
                }));
        Await.waitFor("the webhook's cache has the selector", WAIT, () -> product.app().cache()
                .resource(PodUnavailableBudget.class).get(product.namespace(), "spare-pub"),
                b -> b != null && b.ignoredPodSelector().isPresent());
        // No replacement pod while the refusals are checked (a ready replacement rightly allows one more).
        cloneSets().withName("spare").patch(PatchContext.of(PatchType.JSON_MERGE),
                "{\"spec\":{\"scaleStrategy\":{\"maxUnavailable\":0}}}");
        List<Pod> pods = pods("spare");
        String first = pods.get(0).getMetadata().getName();
        String selected = pods.get(1).getMetadata().getName();
        String kept = pods.get(2).getMetadata().getName();
        product.client().pods().inNamespace(product.namespace()).withName(first).delete();
        assertEquals(0, pub("spare-pub").get().status().getUnavailableAllowed());
        assertTrue(refusedDelete(selected).getMessage().contains(NONE_ALLOWED), "not selected yet: protected");

        ConflictRetry.run(() -> product.client().pods().inNamespace(product.namespace()).withName(selected).edit(p -> {
            p.getMetadata().getLabels().put("maintenance", "true");
            return p;
        }));
        product.client().pods().inNamespace(product.namespace()).withName(selected).delete();
        PodUnavailableBudgetStatus after = pub("spare-pub").get().status();
        assertFalse(after.getDisruptedPods() != null && after.getDisruptedPods().containsKey(selected),
                "an ignored pod is not recorded: " + after.getDisruptedPods());
        KubernetesClientException refused = refusedDelete(kept);
        assertEquals(403, refused.getCode());
        assertTrue(refused.getMessage().contains(NONE_ALLOWED), refused.getMessage());
    }

    @Test
    void aDeletedBudgetStopsProtecting() {
        setUp("gone", 2, 1);
        List<Pod> pods = pods("gone");
        product.client().pods().inNamespace(product.namespace()).withName(pods.get(0).getMetadata().getName())
                .delete();
        String other = pods.get(1).getMetadata().getName();
        assertTrue(refusedDelete(other).getMessage().contains(NONE_ALLOWED));
        pub("gone-pub").delete();
        Await.waitFor("the webhook's cache drops the budget", WAIT, () -> product.app().cache()
                .resource(PodUnavailableBudget.class).get(product.namespace(), "gone-pub") == null, b -> b);
        product.client().pods().inNamespace(product.namespace()).withName(other).delete();
    }

    /**
     * Three guards, as three webhook replicas with their own caches, race to admit deletions of six pods under a
     * budget allowing three: their status writes conflict (409) and are decided again, and exactly three are admitted
     * and recorded, whatever the interleaving.
     */
    @Test
    void conflictingWritersNeverAdmitMoreThanTheBudgetAllows() throws Exception {
        setUp("race", 6, 3);
        List<Pod> pods = pods("race");
        Vertx vertx = product.app().vertx();
        KubeExecutor kube = new KubeExecutor(vertx, "test-pub-writers", 6);
        try {
            // Each guard decides first from the budget as it was before the race: every write after the first
            // conflicts and must be decided again on a fresh read.
            PodUnavailableBudget stale = pub("race-pub").get();
            List<PubGuard> guards = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                guards.add(new PubGuard(vertx, PubStatusStore.of(product.client(), kube::call), (ns, n) -> stale,
                        pod -> true, false, Clock.systemUTC(), null, null));
            }
            List<Future<PubGuard.Outcome>> answers = new ArrayList<>();
            for (int i = 0; i < pods.size(); i++) {
                PubGuard guard = guards.get(i % guards.size());
                Pod pod = pods.get(i);
                answers.add(vertx.getOrCreateContext().<Future<PubGuard.Outcome>>executeBlocking(() ->
                        null, false).compose(ignored -> guard.admit(pod, PubOperation.DELETE, "tester", false)));
            }
            List<PubGuard.Outcome> outcomes = new ArrayList<>();
            for (Future<PubGuard.Outcome> f : answers) {
                outcomes.add(f.toCompletionStage().toCompletableFuture().get(120, TimeUnit.SECONDS));
            }
            long admitted = outcomes.stream().filter(PubGuard.Outcome::allowed).count();
            assertEquals(3, admitted, outcomes.toString());
            for (PubGuard.Outcome o : outcomes) {
                if (!o.allowed()) {
                    assertTrue(o.message().contains(NONE_ALLOWED)
                            || o.message().equals("Timeout: couldn't update PodUnavailableBudget race-pub due to conflicts"),
                            o.message());
                }
            }
            Map<String, String> recorded = pub("race-pub").get().status()
                    .getDisruptedPods();
            assertEquals(3, recorded == null ? 0 : recorded.size(), String.valueOf(recorded));
        } finally {
            kube.close();
        }
    }

    @Test
    void aRestartedManagerStillProtects() throws Exception {
        setUp("again", 2, 1);
        List<Pod> pods = pods("again");
        product.client().pods().inNamespace(product.namespace()).withName(pods.get(0).getMetadata().getName())
                .delete();
        product.restartManager();
        String other = pods.get(1).getMetadata().getName();
        KubernetesClientException refused = refusedDelete(other);
        assertTrue(refused.getMessage().contains(NONE_ALLOWED), refused.getMessage());
        assertFalse(product.client().pods().inNamespace(product.namespace()).withName(other).get() == null);
    }

    @Test
    void hostileBudgetsAreRefusedByTheValidationWebhook() {
        KubernetesClientException negative = assertThrows(KubernetesClientException.class, () ->
                createPub("neg", s -> {
                    s.setTargetRef(new TargetReference("apps.kruise.io/v1alpha1", "CloneSet", "x"));
                    s.setMaxUnavailable(new IntOrString(-1));
                }));
        assertTrue(negative.getMessage().contains("maxUnavailable"), negative.getMessage());
        KubernetesClientException both = assertThrows(KubernetesClientException.class, () ->
                createPub("both", s -> {
                    s.setTargetRef(new TargetReference("apps.kruise.io/v1alpha1", "CloneSet", "x"));
                    s.setMaxUnavailable(new IntOrString(1));
                    s.setMinAvailable(new IntOrString(1));
                }));
        assertEquals(422, both.getCode(), both.getMessage());
        KubernetesClientException huge = assertThrows(KubernetesClientException.class, () ->
                createPub("huge", s -> {
                    s.setTargetRef(new TargetReference("apps.kruise.io/v1alpha1", "CloneSet", "x"));
                    s.setMaxUnavailable(new IntOrString("1000%"));
                }));
        assertTrue(huge.getMessage().contains("maxUnavailable"), huge.getMessage());
    }
}
