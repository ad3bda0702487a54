package dev.kruisevertx.podunavailablebudget;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.api.apps.v1alpha1.CloneSetSpec;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudget;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetSpec;
import dev.kruisevertx.api.policy.v1alpha1.PodUnavailableBudgetStatus;
import dev.kruisevertx.api.policy.v1alpha1.TargetReference;
import dev.kruisevertx.cloneset.CloneSetController;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;


/** The podunavailablebudget controller on the embedded cluster: status from a CloneSet's pods, records expiring. */
class PodUnavailableBudgetEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final PatchContext MERGE = PatchContext.of(PatchType.JSON_MERGE);
    static final String KRUISE_NS = "pub-e2e-kruise";

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .cluster(() -> new EmbeddedClusterOptions().setNodes(2))
            .controllers(() -> List.of(new dev.kruisevertx.podreadiness.PodReadinessController(), new CloneSetController(),
                    new PodUnavailableBudgetController(java.time.Clock.systemUTC(), PodUnavailableBudgetEndToEndTest.KRUISE_NS)))
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

    /** Waits until the CloneSet's pods run and are Ready, as the budget counts them. */
    static void awaitReadyPods(String app, int n) {
        Await.waitFor(n + " ready pods of " + app, WAIT, () -> pods(app).stream()
                .map(p -> Pods.phase(p) + "/" + Pods.isReady(p)).toList(),
                states -> states.size() == n && states.stream().allMatch("Running/true"::equals));
    }

    static List<Pod> pods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems();
    }

    @Test
    void targetRefBudgetFollowsTheCloneSetAndExpiresRecords() {
        product.client().resource(cloneSet("web", 3)).create();
        createPub("web-pub", s -> {
            s.setTargetRef(new TargetReference("apps.kruise.io/v1alpha1", "CloneSet", "web"));
            s.setMaxUnavailable(new IntOrString(1));
        });
        awaitReadyPods("web", 3);
        awaitStatus("web-pub", 2, 3, 1, 3);

        // Merge patches carry no resourceVersion: the controllers' status writes cannot make them conflict.
        product.client().resources(CloneSet.class).inNamespace(product.namespace()).withName("web")
                .patch(MERGE, "{\"spec\":{\"replicas\":5}}");
        awaitStatus("web-pub", 4, 5, 1, 5);

        // A record left by the webhook makes its pod count as unavailable until it expires (20 s for a disruption).
        String victim = pods("web").get(0).getMetadata().getName();
        pub("web-pub").subresource("status").patch(MERGE, "{\"status\":{\"unavailableAllowed\":0,"
                + "\"disruptedPods\":{\"" + victim + "\":\"" + Pods.formatTime(Instant.now()) + "\"}}}");
        awaitStatus("web-pub", 4, 4, 0, 5);
        Await.waitFor("the disruption record expires", WAIT,
                () -> pub("web-pub").get().status().getDisruptedPods() == null);
        awaitStatus("web-pub", 4, 5, 1, 5);
        // The pod was recorded as disrupted but never deleted: OpenKruise's NotDeleted Warning on the pod.
        Await.waitFor("NotDeleted on " + victim, WAIT, () -> events("NotDeleted", victim), n -> n >= 1);
    }

    static long events(String reason, String object) {
        return product.client().v1().events().inNamespace(product.namespace()).list().getItems().stream()
                .filter(e -> reason.equals(e.getReason()) && object.equals(e.getInvolvedObject().getName())).count();
    }

    @Test
    void aBudgetWithoutPodsSaysSo() {
        createPub("lonely-pub", s -> {
            s.setTargetRef(new TargetReference("apps.kruise.io/v1alpha1", "CloneSet", "absent"));
            s.setMaxUnavailable(new IntOrString(1));
        });
        awaitStatus("lonely-pub", 0, 0, 0, 0);
        Await.waitFor("NoPods on lonely-pub", WAIT, () -> events("NoPods", "lonely-pub"), n -> n >= 1);
    }

    @Test
    void selectorBudgetCountsTheOwningWorkloadsAndTheAnnotatedTotal() {
        product.client().resource(cloneSet("api", 2)).create();
        createPub("api-pub", s -> {
            s.setSelector(new LabelSelectorBuilder().addToMatchLabels("app", "api").build());
            s.setMinAvailable(new IntOrString("50%"));
        });
        awaitReadyPods("api", 2);
        awaitStatus("api-pub", 1, 2, 1, 2);
        pub("api-pub").patch(MERGE, "{\"metadata\":{\"annotations\":{\"pub.kruise.io/protect-total-replicas\":\"6\"}}}");
        awaitStatus("api-pub", 3, 2, 0, 6);
    }

    @Test
    void deploymentTargetReachesItsPodsThroughReplicaSets() {
        // Deployment pods are not placed at creation (their controller is a ReplicaSet): the controller names the
        // budget on them afterwards, under both keys.
        product.client().apps().deployments().inNamespace(product.namespace()).resource(
                new io.fabric8.kubernetes.api.model.apps.DeploymentBuilder().withNewMetadata().withName("dep")
                        .endMetadata().withNewSpec().withReplicas(2).withNewSelector().addToMatchLabels("app", "dep")
                        .endSelector().withNewTemplate().withNewMetadata().addToLabels("app", "dep").endMetadata()
                        .withNewSpec().addNewContainer().withName("main").withImage("dep:1").endContainer().endSpec()
                        .endTemplate().endSpec().build()).create();
        createPub("dep-pub", s -> {
            s.setTargetRef(new TargetReference("apps/v1", "Deployment", "dep"));
            s.setMaxUnavailable(new IntOrString("50%"));
        });
        awaitReadyPods("dep", 2);
        awaitStatus("dep-pub", 1, 2, 1, 2);
        Await.waitFor("both related-pub keys on the Deployment's pods", WAIT, () -> pods("dep").stream()
                .filter(p -> "dep-pub".equals(Pods.annotations(p).get("kruise.io/related-pub"))
                        && "dep-pub".equals(Pods.annotations(p).get("pub.kruise.io/related-pub"))).count(), n -> n == 2);
    }

    @Test
    void aCustomWorkloadCountsOnlyOnceKruiseConfigurationWhitelistsIt() {
        String ns = product.namespace();
        var client = product.client();
        ManifestApplier.apply(client, """
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: games.pub.example.com}
                spec:
                  group: pub.example.com
                  scope: Namespaced
                  names: {plural: games, singular: game, kind: Game, listKind: GameList}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
                """);
        GenericKubernetesResource game = new GenericKubernetesResourceBuilder().withApiVersion("pub.example.com/v1")
                .withKind("Game").withNewMetadata().withName("arena").withNamespace(ns).endMetadata()
                .addToAdditionalProperties("spec", Map.of("replicas", 3)).build();
        GenericKubernetesResource created = Await.waitFor("games served", WAIT, () -> {
            try {
                return client.genericKubernetesResources("pub.example.com/v1", "Game").inNamespace(ns)
                        .resource(game).create();
            } catch (KubernetesClientException e) {
                return null;
            }
        }, java.util.Objects::nonNull);
        for (int i = 0; i < 3; i++) {
            client.pods().inNamespace(ns).resource(new PodBuilder().withNewMetadata().withName("arena-" + i)
                    .addToLabels("app", "arena").addNewOwnerReference().withApiVersion("pub.example.com/v1")
                    .withKind("Game").withName("arena").withUid(created.getMetadata().getUid()).withController(true)
                    .endOwnerReference().endMetadata().withNewSpec().addNewContainer().withName("main")
                    .withImage("arena:1").endContainer().endSpec().build()).create();
        }
        awaitReadyPods("arena", 3);
        createPub("arena-pub", s -> {
            s.setTargetRef(new TargetReference("pub.example.com/v1", "Game", "arena"));
            s.setMaxUnavailable(new IntOrString(1));
        });
        // Not whitelisted: OpenKruise's controller finder does not resolve the kind, so the budget has no pods.
        awaitStatus("arena-pub", 0, 0, 0, 0);
        Await.waitFor("NoPods on arena-pub", WAIT, () -> events("NoPods", "arena-pub"), n -> n >= 1);

        client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(KRUISE_NS).endMetadata()
                .build()).createOr(NonDeletingOperation::update);
        client.configMaps().inNamespace(KRUISE_NS).resource(new ConfigMapBuilder().withNewMetadata()
                .withName("kruise-configuration").endMetadata().addToData("PPS_Watch_Custom_Workload_WhiteList",
                        "{\"workloads\":[{\"Group\":\"pub.example.com\",\"Version\":\"v1\",\"Kind\":\"Game\"}]}")
                .build()).createOr(NonDeletingOperation::update);
        // The ConfigMap is read per reconcile, not watched: touch the budget to have it looked at again.
        pub("arena-pub").patch(MERGE, "{\"metadata\":{\"labels\":{\"touched\":\"1\"}}}");
        awaitStatus("arena-pub", 2, 3, 1, 3);
        Await.waitFor("the related-pub key on the Game's pods", WAIT, () -> pods("arena").stream()
                .filter(p -> "arena-pub".equals(Pods.annotations(p).get("kruise.io/related-pub"))).count(),
                n -> n == 3);

        // spec.replicas of the custom workload is the total the budget protects.
        client.genericKubernetesResources("pub.example.com/v1", "Game").inNamespace(ns).withName("arena")
                .patch(MERGE, "{\"spec\":{\"replicas\":4}}");
        pub("arena-pub").patch(MERGE, "{\"metadata\":{\"labels\":{\"touched\":\"2\"}}}");
        awaitStatus("arena-pub", 3, 3, 0, 4);
    }
}
