package dev.kruisevertx.e2e;

import dev.kruisevertx.kube.KubeClients;
import dev.kruisevertx.kubectl.KubectlKruise;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.testing.Await;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.ConfigBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code kubectl kruise why} for BroadcastJob and AdvancedCronJob against the whole product on the embedded cluster:
 * for each rule that holds one back, the exact text the plugin prints. The refusing admission webhook is
 * {@link WhyEndToEndTest}'s.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class JobsWhyEndToEndTest {
    static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .before(WhyEndToEndTest::startDenyingWebhook)
            .cluster(() -> new EmbeddedClusterOptions().setNodes(3)
                    .mapService(WhyEndToEndTest.DENY_SERVICE, "127.0.0.1:" + WhyEndToEndTest.denyServer.actualPort()))
            .after(WhyEndToEndTest::stopDenyingWebhook)
            .build();

    static String why(String target) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = KubectlKruise.run(new String[] {"-n", product.namespace(), "why", target},
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                p -> KubeClients.forTest(new ConfigBuilder(product.cluster().clientConfig()).withHttp2Disable(true)
                        .build()));
        String o = out.toString(StandardCharsets.UTF_8);
        return code == 0 ? o : "exit " + code + ": " + err.toString(StandardCharsets.UTF_8) + o;
    }

    /** Runs {@code why} until it prints {@code expected} (computed again each time: it names live pods). */
    static void awaitWhy(String target, Supplier<String> expected) {
        String[] last = new String[2];
        try {
            Await.waitFor(target + " explained", WAIT, () -> {
                last[0] = expected.get();
                last[1] = why(target);
                return last[0].equals(last[1]);
            });
        } catch (AssertionError | RuntimeException e) {
            assertEquals(last[0], last[1], "kubectl kruise why " + target);
            throw e;
        }
    }

    /** Runs {@code why} until it prints text matching {@code expected} (for times the schedule picks). */
    static void awaitWhyMatching(String target, Pattern expected) {
        String[] last = new String[1];
        try {
            Await.waitFor(target + " explained", WAIT, () -> expected.matcher(last[0] = why(target)).matches());
        } catch (AssertionError | RuntimeException e) {
            assertTrue(last[0] != null && expected.matcher(last[0]).matches(),
                    "kubectl kruise why " + target + " printed\n" + last[0] + "expected\n" + expected);
            throw e;
        }
    }

    static String header(String displayName) {
        return displayName + " in namespace " + product.namespace() + "\n";
    }

    static void apply(String yaml) {
        ManifestApplier.apply(product.client(), yaml.replace("NS", product.namespace()));
    }

    static String broadcastJob(String name, String extraSpec, String extraLabels, String exit) {
        return """
                apiVersion: apps.kruise.io/v1beta1
                kind: BroadcastJob
                metadata: {name: %s, namespace: NS}
                spec:
                %s
                  template:
                    metadata:
                      labels: {app: %s%s}
                      annotations: {%s}
                    spec:
                      restartPolicy: Never
                      containers:
                      - {name: main, image: "batch/agent:1"}
                """.formatted(name, extraSpec.indent(2).stripTrailing(), name, extraLabels,
                exit == null ? "" : "sim.kruise-vertx.dev/exit: \"" + exit + "\"");
    }

    static String cronJob(String name, String extraSpec, String extraLabels) {
        return """
                apiVersion: apps.kruise.io/v1beta1
                kind: AdvancedCronJob
                metadata: {name: %s, namespace: NS}
                spec:
                  schedule: "@every 2s"
                %s
                  template:
                    jobTemplate:
                      metadata:
                        labels: {run-of: %s%s}
                      spec:
                        backoffLimit: 0
                        template:
                          metadata:
                            labels: {run-of: %s}
                          spec:
                            restartPolicy: Never
                            containers:
                            - {name: main, image: "batch/work:1"}
                """.formatted(name, extraSpec.indent(2).stripTrailing(), name, extraLabels, name);
    }

    static List<Pod> pods(String app) {
        return product.client().pods().inNamespace(product.namespace()).withLabel("app", app).list().getItems()
                .stream().sorted((a, b) -> a.getMetadata().getName().compareTo(b.getMetadata().getName())).toList();
    }

    static List<String> nodeNames() {
        return product.client().nodes().list().getItems().stream().map(Node::getMetadata)
                .map(m -> m.getName()).sorted().toList();
    }

    static String counts(int desired, int active, int succeeded, int failed) {
        return desired + " desired, " + active + " active, " + succeeded + " succeeded, " + failed + " failed";
    }

    // ---- BroadcastJob ----

    @Test
    void broadcastJobParallelismHoldsTheOtherNodes() {
        apply(broadcastJob("par", "parallelism: 1", "", null));
        awaitWhy("bcj/par", () -> {
            List<Pod> pods = pods("par");
            String pod = pods.isEmpty() ? "(none yet)" : pods.get(0).getMetadata().getName();
            String node = pods.isEmpty() ? "" : pods.get(0).getSpec().getNodeName();
            List<String> waiting = new ArrayList<>(nodeNames());
            waiting.remove(node);
            return header("broadcastjob.apps.kruise.io/par")
                    + "  rollout: Waiting for broadcast job \"par\" to finish: " + counts(3, 1, 0, 0) + "\n"
                    + "  held by Parallelism: spec.parallelism 1 reached: 1 active (" + pod + "); 2 nodes wait for a pod ("
                    + String.join(", ", waiting) + ")\n";
        });
    }

    @Test
    void broadcastJobPausedIsIntended() {
        apply(broadcastJob("resting", "paused: true", "", null));
        awaitWhy("broadcastjob/resting", () -> header("broadcastjob.apps.kruise.io/resting")
                + "  rollout: broadcast job \"resting\" is paused: " + counts(3, 0, 0, 0) + "\n"
                + "  held by Paused: spec.paused is true: 3 nodes wait for a pod\n");
    }

    @Test
    void broadcastJobNoNodeFitsNamesTheNodesReasons() {
        apply(broadcastJob("nowhere", "", "", null).replace("      restartPolicy: Never",
                "      restartPolicy: Never\n      nodeSelector: {disk: none-has-this}"));
        awaitWhy("bcj/nowhere", () -> header("broadcastjob.apps.kruise.io/nowhere")
                + "  rollout: Waiting for broadcast job \"nowhere\" to finish: " + counts(0, 0, 0, 0) + "\n"
                + "  held by NoNodeFits: 0/3 nodes fit the pod template: 3 node(s) didn't match Pod's node "
                + "affinity/selector\n");
    }

    @Test
    void broadcastJobFailFastStops() {
        apply(broadcastJob("fragile", "parallelism: 1", "", "code=1,after=300ms"));
        awaitWhy("bcj/fragile", () -> {
            List<Pod> pods = pods("fragile");
            String pod = pods.isEmpty() ? "(none yet)" : pods.get(0).getMetadata().getName();
            return header("broadcastjob.apps.kruise.io/fragile")
                    + "  rollout: broadcast job \"fragile\" failed: " + counts(3, 0, 0, 1) + "\n"
                    + "  held by FailurePolicy: failurePolicy FailFast: 1 failed pod (" + pod + "); the job failed and "
                    + "creates no more pods\n";
        });
    }

    @Test
    void broadcastJobPodRefusedByAWebhook() {
        installDenyingWebhook();
        apply(broadcastJob("refused", "", ", why-test: reject", null));
        // As OpenKruise, a failed pod creation ends the reconcile before the status is written: still all zero.
        awaitWhy("bcj/refused", () -> header("broadcastjob.apps.kruise.io/refused")
                + "  rollout: Waiting for broadcast job \"refused\" to finish: " + counts(0, 0, 0, 0) + "\n"
                + "  held by WebhookRejection: create pods refused: admission webhook \"deny.why.test\" denied the "
                + "request: " + WhyEndToEndTest.DENIAL + "\n");
    }

    // ---- AdvancedCronJob ----

    @Test
    void advancedCronJobPausedIsIntended() {
        apply(cronJob("sleepy", "paused: true", ""));
        awaitWhy("acj/sleepy", () -> header("advancedcronjob.apps.kruise.io/sleepy")
                + "  rollout: advanced cron job \"sleepy\" (paused): 0 active, never scheduled\n"
                + "  held by Paused: spec.paused is true: no scheduled run starts\n");
    }

    @Test
    void advancedCronJobForbidHoldsTheNextRun() {
        apply(cronJob("solo", "concurrencyPolicy: Forbid", ""));
        String time = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ";
        awaitWhyMatching("acj/solo", Pattern.compile(Pattern.quote(header("advancedcronjob.apps.kruise.io/solo")
                + "  rollout: advanced cron job \"solo\": 1 active, last scheduled at ") + time + "\n"
                + Pattern.quote("  held by ConcurrencyPolicy: concurrencyPolicy Forbid: the run scheduled at ") + time
                + Pattern.quote(" waits while 1 run is active (solo-") + "\\d{10}\\)\n"));
    }

    @Test
    void advancedCronJobChildRefusedByAWebhook() {
        installDenyingWebhook();
        apply(cronJob("denied", "", ", why-test: reject"));
        awaitWhy("acj/denied", () -> header("advancedcronjob.apps.kruise.io/denied")
                + "  rollout: advanced cron job \"denied\": 0 active, never scheduled\n"
                + "  held by WebhookRejection: create jobs refused: admission webhook \"deny.why.test\" denied the "
                + "request: " + WhyEndToEndTest.DENIAL + "\n");
    }

    /** {@link WhyEndToEndTest}'s refusing webhook, for pods and Jobs labelled {@code why-test: reject}. */
    static void installDenyingWebhook() {
        if (product.client().admissionRegistration().v1().validatingWebhookConfigurations().withName("why-deny-jobs")
                .get() != null) {
            return;
        }
        ManifestApplier.apply(product.client(), """
                apiVersion: admissionregistration.k8s.io/v1
                kind: ValidatingWebhookConfiguration
                metadata: {name: why-deny-jobs}
                webhooks:
                - name: deny.why.test
                  admissionReviewVersions: [v1]
                  sideEffects: None
                  failurePolicy: Fail
                  objectSelector: {matchLabels: {why-test: reject}}
                  clientConfig:
                    caBundle: %s
                    service: {namespace: kruise-system, name: why-deny, path: /deny, port: 443}
                  rules:
                  - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
                  - {apiGroups: [batch], apiVersions: [v1], operations: [CREATE], resources: [jobs]}
                """.formatted(Base64.getEncoder().encodeToString(WhyEndToEndTest.CERTS.caBundle())));
    }
}
