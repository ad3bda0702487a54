package dev.kruisevertx.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.controller.ControllerVerticle;
import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.kubectl.KubectlKruise;
import dev.kruisevertx.podutil.Pods;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ManifestApplier;
import dev.kruisevertx.testing.CapturedLog;
import dev.kruisevertx.webhook.certs.CertBundle;
import dev.kruisevertx.webhook.certs.CertIssuer;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.net.PemKeyCertOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code kubectl kruise why} against the whole product on the embedded cluster, through the API server's service
 * proxy as on a real cluster: for each rule that holds a CloneSet or an Advanced StatefulSet back, the exact text the
 * plugin prints. Plus the stuck-rollout Event and metric, {@code -o json}, {@code --manager-url} and the errors.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class WhyEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);
    static final String NOWHERE = "why-test/nowhere";
    static final String DENY_SERVICE = "kruise-system/why-deny";
    static final CertBundle CERTS = new CertIssuer().issueAll("why-deny.kruise-system.svc", Duration.ofDays(1),
            Duration.ofDays(1));
    static final String DENIAL = "pods labelled why-test=reject are refused by policy";
    static final String PUB_DENIAL = "podunavailablebudget.policy.kruise.io \"web-pub\" is forbidden: "
            + "pub unavailable allowed is negative";
    static final ResourceDefinitionContext CLONESETS = new ResourceDefinitionContext.Builder()
            .withGroup("apps.kruise.io").withVersion("v1alpha1").withPlural("clonesets").withNamespaced(true).build();
    static final ResourceDefinitionContext STATEFULSETS = new ResourceDefinitionContext.Builder()
            .withGroup("apps.kruise.io").withVersion("v1beta1").withPlural("statefulsets").withNamespaced(true).build();

    static Vertx denyVertx;
    static HttpServer denyServer;

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .before(WhyEndToEndTest::startDenyingWebhook)
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3)
                    .mapService(DENY_SERVICE, "127.0.0.1:" + denyServer.actualPort()))
            .after(WhyEndToEndTest::stopDenyingWebhook)
            .build();

    /** An admission webhook that refuses every pod it is asked about (the configuration selects by label). */
    static void startDenyingWebhook() throws Exception {
        denyVertx = Vertx.vertx();
        ObjectMapper json = new ObjectMapper();
        denyServer = denyVertx.createHttpServer(new HttpServerOptions().setSsl(true).setKeyCertOptions(
                        new PemKeyCertOptions().addKeyValue(Buffer.buffer(CERTS.keyPem()))
                                .addCertValue(Buffer.buffer(CERTS.certPem()))))
                .requestHandler(req -> req.body().onSuccess(body -> {
                    try {
                        JsonNode request = json.readTree(body.getBytes()).path("request");
                        String uid = request.path("uid").asText();
                        // Deletions get the words OpenKruise's PodUnavailableBudget webhook refuses them with.
                        String message = "DELETE".equals(request.path("operation").asText()) ? PUB_DENIAL : DENIAL;
                        ObjectNode review = json.createObjectNode().put("apiVersion", "admission.k8s.io/v1")
                                .put("kind", "AdmissionReview");
                        review.putObject("response").put("uid", uid).put("allowed", false).putObject("status")
                                .put("code", 403).put("reason", "Forbidden").put("message", message);
                        req.response().putHeader("Content-Type", "application/json")
                                .end(Buffer.buffer(json.writeValueAsBytes(review)));
                    } catch (Exception e) {
                        req.response().setStatusCode(400).end();
                    }
                }))
                .listen(0, "127.0.0.1").await(30, TimeUnit.SECONDS);
    }

    static void stopDenyingWebhook() throws Exception {
        if (denyVertx != null) {
            denyVertx.close().await(30, TimeUnit.SECONDS);
        }
    }

    record Run(int code, String out, String err) {
        String shown() {
            return code == 0 ? out : "exit " + code + ": " + err + out;
        }
    }

    static Run kruise(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = KubectlKruise.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), p -> KubeClients.forTest(
                        new ConfigBuilder(product.cluster().clientConfig()).withHttp2Disable(true).build()));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Runs {@code why} until it prints {@code expected} (computed again each time: it names live pods). */
    static void awaitWhy(String target, Supplier<String> expected) {
        String[] last = new String[2];
        try {
            Await.waitFor(target + " explained", WAIT, () -> {
                last[0] = expected.get();
                last[1] = kruise("-n", product.namespace(), "why", target).shown();
                return last[0].equals(last[1]);
            });
        } catch (AssertionError | RuntimeException e) {
            assertEquals(last[0], last[1], "kubectl kruise why " + target);
            throw e;
        }
    }

    /** As {@link #awaitWhy}, when the text may name one of several pods (the controller's pick). */
    static void awaitWhyAny(String target, Supplier<List<String>> expected) {
        List<?>[] last = new List<?>[1];
        String[] shown = new String[1];
        try {
            Await.waitFor(target + " explained", WAIT, () -> {
                last[0] = expected.get();
                shown[0] = kruise("-n", product.namespace(), "why", target).shown();
                return last[0].contains(shown[0]);
            });
        } catch (AssertionError | RuntimeException e) {
            assertEquals(String.valueOf(last[0]), shown[0], "kubectl kruise why " + target + " (one of these)");
            throw e;
        }
    }

    static String header(String displayName) {
        return displayName + " in namespace " + product.namespace() + "\n";
    }

    static void apply(String yaml) {
        ManifestApplier.apply(product.client(), yaml.replace("NS", product.namespace()));
    }

    static List<Pod> pods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems()
                .stream().filter(p -> !Pods.isTerminating(p)).sorted((a, b) -> a.getMetadata().getName()
                        .compareTo(b.getMetadata().getName())).toList();
    }

    static List<String> names(List<Pod> pods) {
        return pods.stream().map(p -> p.getMetadata().getName()).toList();
    }

    static List<Pod> unschedulable(String app) {
        return pods(app).stream().filter(p -> Pods.condition(p, "PodScheduled")
                .map(c -> "False".equals(c.getStatus())).orElse(false)).toList();
    }

    static String schedulerMessage(Pod p) {
        return Pods.condition(p, "PodScheduled").map(PodCondition::getMessage).orElse("");
    }

    static void awaitReady(String app, int count) {
        Await.waitFor(count + " ready pods of " + app, WAIT, () -> {
            List<Pod> ps = pods(app);
            return ps.size() == count && ps.stream().allMatch(Pods::isReady);
        });
    }

    static void patch(ResourceDefinitionContext kind, String name, String mergePatch) {
        product.client().genericKubernetesResources(kind).inNamespace(product.namespace()).withName(name)
                .patch(io.fabric8.kubernetes.client.dsl.base.PatchContext.of(
                        io.fabric8.kubernetes.client.dsl.base.PatchType.JSON_MERGE), mergePatch);
    }

    static String cloneSet(String name, int replicas, String extraSpec, String extraLabels) {
        return """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: %s, namespace: NS}
                spec:
                  replicas: %d
                  selector: {matchLabels: {app: %s}}
                %s
                  template:
                    metadata: {labels: {app: %s%s}}
                    spec:
                      containers:
                      - {name: main, image: "nginx:1"}
                """.formatted(name, replicas, name, extraSpec.indent(2).stripTrailing(), name, extraLabels);
    }

    static String statefulSet(String name, int replicas, String extraSpec, String templateSpec) {
        return statefulSet(name, replicas, extraSpec, templateSpec, "");
    }

    static String statefulSet(String name, int replicas, String extraSpec, String templateSpec, String extraLabels) {
        return """
                apiVersion: apps.kruise.io/v1beta1
                kind: StatefulSet
                metadata: {name: %s, namespace: NS}
                spec:
                  replicas: %d
                  serviceName: %s
                  selector: {matchLabels: {app: %s}}
                %s
                  template:
                    metadata: {labels: {app: %s%s}}
                    spec:
                %s
                      containers:
                      - {name: main, image: "nginx:1"}
                """.formatted(name, replicas, name, name, extraSpec.indent(2).stripTrailing(), name, extraLabels,
                templateSpec.indent(6).stripTrailing());
    }

    static final String NOWHERE_PATCH = "{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":{\"" + NOWHERE
            + "\":\"true\"}}}}}";

    // ---- CloneSet ----

    @Test
    void cloneSetPartitionKeepsOldPods() {
        apply(cloneSet("web", 3, "updateStrategy: {partition: 2}", ""));
        awaitReady("web", 3);
        patch(CLONESETS, "web", "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:2\"}]}}}}");
        awaitWhy("cloneset/web", () -> header("cloneset.apps.kruise.io/web")
                + "  rollout: partitioned roll out complete: 1 new replicas have been updated (partition 2)...\n"
                + "  held by Partition: updateStrategy.partition 2 keeps 2 pods at the current revision\n");
    }

    @Test
    void cloneSetPaused() {
        apply(cloneSet("web", 2, "", ""));
        awaitReady("web", 2);
        patch(CLONESETS, "web", "{\"spec\":{\"updateStrategy\":{\"paused\":true},\"template\":{\"spec\":"
                + "{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:2\"}]}}}}");
        awaitWhy("cloneset/web", () -> header("cloneset.apps.kruise.io/web")
                + "  rollout: Waiting for rollout to finish: 0 out of 2 new replicas have been updated... (the rollout "
                + "is paused; run 'kubectl-kruise rollout resume cloneset.apps.kruise.io/web')\n"
                + "  held by Paused: updateStrategy.paused is true: 2 pods wait for the update\n");
    }

    @Test
    void cloneSetMaxUnavailableHeldByAnUnschedulablePod() {
        apply(cloneSet("web", 3, "updateStrategy: {maxUnavailable: 1}", ""));
        awaitReady("web", 3);
        patch(CLONESETS, "web", NOWHERE_PATCH);
        awaitWhy("cloneset/web", () -> {
            List<Pod> stuck = unschedulable("web");
            String pod = stuck.isEmpty() ? "(none yet)" : stuck.get(0).getMetadata().getName();
            String message = stuck.isEmpty() ? "" : schedulerMessage(stuck.get(0));
            return header("cloneset.apps.kruise.io/web")
                    + "  rollout: Waiting for rollout to finish: 1 out of 3 new replicas have been updated...\n"
                    + "  held by MaxUnavailable: updateStrategy.maxUnavailable 1 reached: 1 unavailable now (" + pod
                    + "); 2 pods wait to be updated\n"
                    + "  held by Unschedulable: 1 pod cannot be scheduled (" + pod + "): " + message + "\n";
        });
        assertFalse(schedulerMessage(unschedulable("web").get(0)).isEmpty(), "the scheduler says why");
    }

    @Test
    void cloneSetMaxSurgeUsedByAnUnschedulablePod() {
        apply(cloneSet("web", 2, "updateStrategy: {maxUnavailable: 0, maxSurge: 1}", ""));
        awaitReady("web", 2);
        patch(CLONESETS, "web", NOWHERE_PATCH);
        awaitWhy("cloneset/web", () -> {
            List<Pod> stuck = unschedulable("web");
            String pod = stuck.isEmpty() ? "(none yet)" : stuck.get(0).getMetadata().getName();
            String message = stuck.isEmpty() ? "" : schedulerMessage(stuck.get(0));
            return header("cloneset.apps.kruise.io/web")
                    + "  rollout: Waiting for rollout to finish: 1 out of 2 new replicas have been updated...\n"
                    + "  held by MaxSurge: updateStrategy.maxSurge 1 used: 1 extra pod not available yet (" + pod
                    + "); 1 pod waits to be updated\n"
                    + "  held by Unschedulable: 1 pod cannot be scheduled (" + pod + "): " + message + "\n";
        });
    }

    @Test
    void cloneSetMinReadySeconds() {
        apply(cloneSet("web", 2, "minReadySeconds: 36000", ""));
        awaitReady("web", 2);
        awaitWhy("cloneset/web", () -> header("cloneset.apps.kruise.io/web")
                + "  rollout: cloneset \"web\" successfully rolled out\n"
                + "  held by MinReadySeconds: 2 ready pods not yet available (" + String.join(", ", names(pods("web")))
                + "): minReadySeconds 36000, the next in 10h\n");
    }

    @Test
    void cloneSetPreDeleteHookWaitsForItsLabel() {
        apply(cloneSet("web", 2, """
                lifecycle:
                  preDelete:
                    labelsHandler: {example.com/hold: "true"}""", ", example.com/hold: \"true\""));
        awaitReady("web", 2);
        patch(CLONESETS, "web", "{\"spec\":{\"replicas\":1}}");
        awaitWhy("cloneset/web", () -> {
            String held = pods("web").stream().filter(p -> "PreparingDelete".equals(Pods.lifecycleState(p)))
                    .map(p -> p.getMetadata().getName()).findFirst().orElse("(none yet)");
            return header("cloneset.apps.kruise.io/web")
                    + "  rollout: Waiting for rollout to finish: 1 old replicas are pending termination...\n"
                    + "  held by LifecycleHook: pod " + held + " waits in PreparingDelete for the preDelete hook to "
                    + "let go of label example.com/hold=true\n";
        });
    }

    @Test
    void cloneSetPodRefusedByAWebhook() {
        installDenyingWebhook();
        try (CapturedLog log = CapturedLog.of(ControllerVerticle.class)) {
            apply(cloneSet("web", 1, "", ", why-test: reject"));
            awaitWhy("cloneset/web", () -> header("cloneset.apps.kruise.io/web")
                    + "  rollout: Waiting for rollout to finish: 0 out of 1 new replicas have been updated...\n"
                    + "  held by WebhookRejection: create pods refused: admission webhook \"deny.why.test\" denied the request: "
                    + DENIAL + "\n");
            // The manager keeps retrying (backing off): each refusal is one warning line, no stack trace.
            String key = "reconcile of " + product.namespace() + "/web ";
            List<CapturedLog.Line> refused = Await.waitFor("the refusal logged", WAIT, () -> log.containing(key),
                    lines -> !lines.isEmpty());
            for (CapturedLog.Line line : refused) {
                assertEquals(org.apache.logging.log4j.Level.WARN, line.level(), line.toString());
                assertNull(line.thrown(), "a webhook's denial is one line: " + line);
                assertTrue(line.message().matches(".* will back off \\(retry #\\d+\\): write of pods in "
                        + product.namespace() + " denied \\(403\\): admission webhook \"deny.why.test\" denied the "
                        + "request: " + DENIAL), line.message());
            }
        }
    }

    @Test
    void cloneSetWaitsForItsCacheToShowItsOwnCreates() throws Exception {
        // The pods watch lags behind this namespace (as a slow watch does): the manager's creates go through, its
        // cache does not show them, and its expectations hold the next decision.
        product.cluster().holdWatchEvents("pods", product.namespace()).toCompletionStage().toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        try {
            apply(cloneSet("web", 2, "", ""));
            awaitWhy("cloneset/web", () -> header("cloneset.apps.kruise.io/web")
                    + "  rollout: Waiting for rollout to finish: 0 out of 2 new replicas have been updated...\n"
                    + "  held by Expectations: waiting for the cache to show this controller's create of 2 pods ("
                    + String.join(", ", names(pods("web"))) + ")\n");
        } finally {
            product.cluster().releaseWatchEvents("pods", product.namespace()).toCompletionStage()
                    .toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
        awaitReady("web", 2);
        awaitWhy("cloneset/web", () -> header("cloneset.apps.kruise.io/web")
                + "  rollout: cloneset \"web\" successfully rolled out\n"
                + "  nothing holds it back\n");
    }

    @Test
    void cloneSetScaleDownRefusedByAPodUnavailableBudget() {
        apply(cloneSet("web", 2, "", ", why-test: pub"));
        awaitReady("web", 2);
        ManifestApplier.apply(product.client(), denyingWebhook("why-pub", "pub.why.test", "why-test: pub", "DELETE"));
        try {
            patch(CLONESETS, "web", "{\"spec\":{\"replicas\":1}}");
            awaitWhyAny("cloneset/web", () -> names(pods("web")).stream().map(pod -> header("cloneset.apps.kruise.io/web")
                    + "  rollout: Waiting for rollout to finish: 1 old replicas are pending termination...\n"
                    + "  held by PodUnavailableBudget: delete pod " + pod + " refused: admission webhook "
                    + "\"pub.why.test\" denied the request: " + PUB_DENIAL + "\n").toList());
        } finally {
            // Let the namespace go at the end (its pods are deleted through the same webhook).
            product.client().admissionRegistration().v1().validatingWebhookConfigurations().withName("why-pub").delete();
        }
    }

    static void installDenyingWebhook() {
        if (product.client().admissionRegistration().v1().validatingWebhookConfigurations().withName("why-deny").get() != null) {
            return;
        }
        ManifestApplier.apply(product.client(), denyingWebhook("why-deny", "deny.why.test", "why-test: reject", "CREATE"));
    }

    /** A configuration sending {@code operation}s on pods labelled {@code label} to the denying webhook. */
    static String denyingWebhook(String name, String webhook, String label, String operation) {
        return """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: %s}
                webhooks:
                - name: %s
                  admissionReviewVersions: [v1]
                  sideEffects: None
                  failurePolicy: Fail
                  objectSelector: {matchLabels: {%s}}
                  clientConfig:
                    caBundle: %s
                    service: {namespace: kruise-system, name: why-deny, path: /deny, port: 443}
                  rules:
                  - {apiGroups: [""], apiVersions: [v1], operations: [%s], resources: [pods]}
                """.formatted(name, webhook, label, Base64.getEncoder().encodeToString(CERTS.caBundle()), operation);
    }

    // ---- Advanced StatefulSet ----

    @Test
    void statefulSetPartitionKeepsOldPods() {
        apply(statefulSet("db", 3, """
                podManagementPolicy: Parallel
                updateStrategy:
                  rollingUpdate: {partition: 2}""", ""));
        awaitReady("db", 3);
        patch(STATEFULSETS, "db", "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:2\"}]}}}}");
        awaitWhy("asts/db", () -> header("statefulset.apps.kruise.io/db")
                + "  rollout: partitioned roll out complete: 1 new replicas have been updated (partition 2)...\n"
                + "  held by Partition: updateStrategy.rollingUpdate.partition 2 keeps 2 pods at the current revision\n");
    }

    @Test
    void statefulSetPaused() {
        apply(statefulSet("db", 2, """
                podManagementPolicy: Parallel
                updateStrategy:
                  rollingUpdate: {paused: true}""", ""));
        awaitReady("db", 2);
        patch(STATEFULSETS, "db", "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:2\"}]}}}}");
        awaitWhy("asts/db", () -> header("statefulset.apps.kruise.io/db")
                + "  rollout: Waiting for rollout to finish: 0 out of 2 new replicas have been updated... (the rollout "
                + "is paused; run 'kubectl-kruise rollout resume statefulset.apps.kruise.io/db')\n"
                + "  held by Paused: updateStrategy.rollingUpdate.paused is true: 2 pods wait for the update\n");
    }

    @Test
    void statefulSetOrderedReadyWaitsForAnUnschedulablePod() {
        apply(statefulSet("db", 2, "", "nodeSelector: {" + NOWHERE + ": \"true\"}"));
        awaitWhy("asts/db", () -> {
            List<Pod> stuck = unschedulable("db");
            String message = stuck.isEmpty() ? "" : schedulerMessage(stuck.get(0));
            return header("statefulset.apps.kruise.io/db")
                    + "  rollout: Waiting for rollout to finish: 1 out of 2 new replicas have been updated...\n"
                    + "  held by Unschedulable: 1 pod cannot be scheduled (db-0): " + message + "\n";
        });
    }

    @Test
    void statefulSetMaxUnavailableHeldByAnUnschedulablePod() {
        apply(statefulSet("db", 3, """
                podManagementPolicy: Parallel
                updateStrategy:
                  rollingUpdate: {maxUnavailable: 1}""", ""));
        awaitReady("db", 3);
        patch(STATEFULSETS, "db", NOWHERE_PATCH);
        awaitWhy("asts/db", () -> {
            List<Pod> stuck = unschedulable("db");
            String message = stuck.isEmpty() ? "" : schedulerMessage(stuck.get(0));
            return header("statefulset.apps.kruise.io/db")
                    + "  rollout: Waiting for rollout to finish: 1 out of 3 new replicas have been updated...\n"
                    + "  held by MaxUnavailable: updateStrategy.rollingUpdate.maxUnavailable 1 reached: 1 unavailable "
                    + "now (db-2); 2 pods wait to be updated\n"
                    + "  held by Unschedulable: 1 pod cannot be scheduled (db-2): " + message + "\n";
        });
    }

    @Test
    void statefulSetMinReadySeconds() {
        // The webhook caps minReadySeconds at 300: the time left reads in minutes, computed here as the plugin rounds.
        apply(statefulSet("db", 2, """
                podManagementPolicy: Parallel
                updateStrategy:
                  rollingUpdate: {minReadySeconds: 290}""", ""));
        awaitReady("db", 2);
        awaitWhy("asts/db", () -> {
            java.time.Instant first = pods("db").stream().map(Pods::readySince).filter(java.util.Objects::nonNull)
                    .min(java.util.Comparator.naturalOrder()).orElse(java.time.Instant.now());
            long left = 290 - Duration.between(first, java.time.Instant.now()).toSeconds();
            String in = left < 120 ? left + "s" : ((left + 59) / 60) + "m";
            return header("statefulset.apps.kruise.io/db")
                    + "  rollout: statefulset \"db\" successfully rolled out\n"
                    + "  held by MinReadySeconds: 2 ready pods not yet available (db-0, db-1): minReadySeconds 290, "
                    + "the next in " + in + "\n";
        });
    }

    @Test
    void statefulSetPreDeleteHookWaitsForItsLabel() {
        apply(statefulSet("db", 2, """
                podManagementPolicy: Parallel
                lifecycle:
                  preDelete:
                    labelsHandler: {example.com/hold: "true"}""", "", ", example.com/hold: \"true\""));
        awaitReady("db", 2);
        patch(STATEFULSETS, "db", "{\"spec\":{\"replicas\":1}}");
        awaitWhy("asts/db", () -> header("statefulset.apps.kruise.io/db")
                + "  rollout: Waiting for rollout to finish: 1 old replicas are pending termination...\n"
                + "  held by LifecycleHook: pod db-1 waits in PreparingDelete for the preDelete hook to let go of "
                + "label example.com/hold=true\n");
    }

    // ---- Stuck rollouts, JSON, direct URL, errors ----

    @Test
    void aStuckRolloutGetsAnEventAndTheBlockedMetric() throws Exception {
        apply(cloneSet("web", 2, "progressDeadlineSeconds: 10\nupdateStrategy: {maxUnavailable: 1}", ""));
        awaitReady("web", 2);
        patch(CLONESETS, "web", NOWHERE_PATCH);
        Event stuck = Await.waitFor("RolloutStuck event", WAIT, () -> product.client().v1().events()
                        .inNamespace(product.namespace()).list().getItems().stream()
                        .filter(e -> "RolloutStuck".equals(e.getReason())).findFirst().orElse(null),
                java.util.Objects::nonNull);
        assertEquals("Warning", stuck.getType());
        assertEquals("web", stuck.getInvolvedObject().getName());
        assertTrue(stuck.getMessage().startsWith("rollout has not progressed for 10s: MaxUnavailable: "
                + "updateStrategy.maxUnavailable 1 reached: 1 unavailable now ("), stuck.getMessage());
        assertTrue(stuck.getMessage().contains("; Unschedulable: 1 pod cannot be scheduled ("), stuck.getMessage());
        String metrics = get("http://127.0.0.1:" + product.app().metricsPort() + "/metrics").body();
        for (String reason : List.of("MaxUnavailable", "Unschedulable")) {
            String series = "kruise_workload_blocked{kind=\"CloneSet\",name=\"web\",namespace=\""
                    + product.namespace() + "\",reason=\"" + reason + "\"} 1.0";
            assertTrue(metrics.contains(series), "expected " + series);
        }

        // The fix: the template goes back to nodes that exist; the rollout moves and the series go.
        patch(CLONESETS, "web", "{\"spec\":{\"template\":{\"spec\":{\"nodeSelector\":null}}}}");
        awaitReady("web", 2);
        Await.waitFor("blocked series gone", WAIT, () -> !get("http://127.0.0.1:" + product.app().metricsPort()
                + "/metrics").body().contains("name=\"web\",namespace=\"" + product.namespace() + "\""));
        awaitWhy("cloneset/web", () -> header("cloneset.apps.kruise.io/web")
                + "  rollout: cloneset \"web\" successfully rolled out\n"
                + "  nothing holds it back\n");
    }

    @Test
    void jsonOutputCarriesCodesNumbersAndNames() throws Exception {
        apply(cloneSet("web", 3, "updateStrategy: {partition: 2}", ""));
        awaitReady("web", 3);
        patch(CLONESETS, "web", "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"main\",\"image\":\"nginx:2\"}]}}}}");
        JsonNode answer = Await.waitFor("json with the partition", WAIT, () -> {
            Run r = kruise("-n", product.namespace(), "why", "cloneset/web", "-o", "json");
            return r.code() == 0 ? new ObjectMapper().readTree(r.out()) : null;
        }, j -> j != null && j.path("reasons").size() == 1);
        JsonNode reason = answer.path("reasons").get(0);
        assertEquals("Partition", reason.path("code").asText());
        assertEquals(Map.of("partition", 2, "kept", 2), new ObjectMapper().convertValue(reason.path("numbers"), Map.class));
        assertTrue(reason.path("intended").asBoolean());
        assertEquals("cloneset", answer.path("controller").asText());
        assertEquals(product.namespace() + "/web", answer.path("object").asText());
        assertTrue(answer.path("reconcileId").asLong() > 0, answer.toString());
        assertTrue(answer.path("leader").asBoolean());
        assertFalse(answer.toString().contains("nginx"), "no pod spec in the answer: " + answer);
    }

    @Test
    void managerUrlAsksTheManagerDirectly() {
        apply(cloneSet("web", 2, "", ""));
        awaitReady("web", 2);
        String url = "http://127.0.0.1:" + product.app().metricsPort();
        Run r = Await.waitFor("why through --manager-url", WAIT, () -> kruise("-n", product.namespace(), "why", "cloneset/web", "--manager-url", url, "--show-decision"), x -> x.code() == 0
                && x.out().contains("successfully rolled out"));
        String[] lines = r.out().split("\n");
        assertEquals(header("cloneset.apps.kruise.io/web").strip(), lines[0]);
        assertEquals("  nothing holds it back", lines[2]);
        assertTrue(lines[3].startsWith("  decision: UPDATE: replicas as desired; revisions as partition wants"),
                lines[3]);
        assertTrue(lines[4].matches("  decided at \\S+ by reconcile r\\d+ \\(.+\\)"), lines[4]);
    }

    @Test
    void errorsSayWhatIsWrong() {
        apply(cloneSet("web", 1, "", ""));
        Run missing = kruise("-n", product.namespace(), "why", "cloneset/nope");
        assertEquals(1, missing.code());
        assertTrue(missing.err().contains("not found"), missing.err());
        Run noService = kruise("-n", product.namespace(), "why", "cloneset/web", "--manager-service",
                "kruise-system/nope:8080");
        assertEquals(1, noService.code());
        assertTrue(noService.err().contains("the manager's Service kruise-system/nope:8080 was not found"),
                noService.err());
        Run badOutput = kruise("-n", product.namespace(), "why", "cloneset/web", "-o", "yaml");
        assertEquals(1, badOutput.code());
        assertEquals("error: --output must be json or text, got \"yaml\"\n", badOutput.err());
        Run noManager = kruise("-n", product.namespace(), "why", "cloneset/web", "--manager-url", "http://127.0.0.1:1");
        assertEquals(1, noManager.code());
        assertTrue(noManager.err().startsWith("error: cannot reach the manager at http://127.0.0.1:1"), noManager.err());
    }

    static HttpResponse<String> get(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
