package dev.kruisevertx.chart;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.features.Feature;
import dev.kruisevertx.kubectl.KubectlKruise;
import dev.kruisevertx.manager.ControllerRegistry;
import dev.kruisevertx.manager.ManagerCommand;
import dev.kruisevertx.manager.ManagerConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Renders chart/ with helm v3.18.0 (default values, every feature gate on, and the switches of values.yaml) and
 * checks the objects: kinds and names, labels, the manager's arguments (parsed by the real ManagerCommand),
 * ports, probes, security settings, RBAC rules, webhooks, the pre-delete hook, and CRDs identical to crds/.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ChartRenderTest {
    static final String ALL_GATES = Arrays.stream(Feature.values()).map(f -> f.name() + "=true")
            .collect(Collectors.joining(","));

    static HelmChart chart;
    static HelmChart.Rendered defaults;
    static HelmChart.Rendered allGates;
    static String appVersion;

    @BeforeAll
    static void render() throws Exception {
        chart = HelmChart.obtain();
        defaults = chart.template();
        allGates = chart.template("featureGates=" + ALL_GATES.replace(",", "\\,"));
        JsonNode chartYaml = HelmChart.YAML.readTree(RepoPaths.root().resolve("chart/Chart.yaml").toFile());
        appVersion = chartYaml.path("appVersion").asText();
    }

    @Test
    void lintPassesWithDefaultsAndAllGates() throws Exception {
        chart.lint();
        chart.lint("featureGates=" + ALL_GATES.replace(",", "\\,"));
    }

    /** kubectl kruise why: the manager's metrics Service, and a role that reaches only its proxy (issue 17). */
    @Test
    void whyReaderMayProxyToTheManagerServiceOnly() {
        JsonNode service = defaults.objects().stream().filter(o -> key(o).equals("Service/kruise-system/kruise-manager"))
                .findFirst().orElseThrow();
        assertEquals("metrics", service.path("spec").path("ports").get(0).path("targetPort").asText());
        assertEquals(8080, service.path("spec").path("ports").get(0).path("port").asInt());
        assertEquals("controller-manager", service.path("spec").path("selector").path("control-plane").asText());
        JsonNode role = defaults.objects().stream().filter(o -> key(o).equals("ClusterRole//kruise-why-reader"))
                .findFirst().orElseThrow();
        JsonNode proxy = role.path("rules").get(0);
        assertEquals("[\"services/proxy\"]", proxy.path("resources").toString());
        assertEquals("[\"get\"]", proxy.path("verbs").toString());
        assertEquals("[\"kruise-manager\",\"kruise-manager:8080\",\"http:kruise-manager:8080\",\"kruise-manager:metrics\","
                + "\"http:kruise-manager:metrics\"]", proxy.path("resourceNames").toString());
        assertEquals("[\"clonesets\",\"statefulsets\"]", role.path("rules").get(1).path("resources").toString());
        assertEquals("[\"get\"]", role.path("rules").get(1).path("verbs").toString());
        assertEquals("[\"uniteddeployments\"]", role.path("rules").get(2).path("resources").toString());
        assertEquals("[\"get\"]", role.path("rules").get(2).path("verbs").toString());
    }

    @Test
    void rendersOpenKruisesObjects() {
        Set<String> expected = new TreeSet<>(List.of(
                "Namespace//kruise-system", "Namespace//kruise-daemon-config",
                "Service/kruise-system/kruise-webhook-service", "Secret/kruise-system/kruise-webhook-certs",
                "Service/kruise-system/kruise-manager", "ClusterRole//kruise-why-reader",
                "ServiceAccount/kruise-system/kruise-manager", "ServiceAccount/kruise-system/kruise-daemon",
                "ServiceAccount/kruise-system/kruise-helm-hook",
                "Deployment/kruise-system/kruise-controller-manager", "DaemonSet/kruise-system/kruise-daemon",
                "Role/kruise-system/kruise-leader-election-role", "RoleBinding/kruise-system/kruise-leader-election-rolebinding",
                "Role/kruise-system/kruise-webhook-role", "RoleBinding/kruise-system/kruise-webhook-rolebinding",
                "Role/kruise-daemon-config/kruise-daemon-secret-role",
                "RoleBinding/kruise-daemon-config/kruise-daemon-secret-rolebinding",
                "ClusterRole//kruise-manager-role", "ClusterRoleBinding//kruise-manager-rolebinding",
                "ClusterRole//kruise-certs-role", "ClusterRoleBinding//kruise-certs-rolebinding",
                "ClusterRole//kruise-daemon-role", "ClusterRoleBinding//kruise-daemon-rolebinding",
                "ClusterRole//kruise-helm-hook", "ClusterRoleBinding//kruise-helm-hook",
                "Job/kruise-system/kruise-finalizer",
                "MutatingWebhookConfiguration//kruise-mutating-webhook-configuration",
                "ValidatingWebhookConfiguration//kruise-validating-webhook-configuration",
                "Role/kruise-daemon-config/kruise-manager-daemon-secret-role",
                "RoleBinding/kruise-daemon-config/kruise-manager-daemon-secret-rolebinding"));
        for (JsonNode crd : crdFiles()) {
            expected.add("CustomResourceDefinition//" + crd.path("metadata").path("name").asText());
        }
        assertEquals(expected, keys(defaults));
        for (JsonNode o : defaults.objects()) {
            JsonNode labels = o.path("metadata").path("labels");
            if (!o.path("kind").asText().equals("CustomResourceDefinition")) {
                assertEquals("kruise", labels.path("app.kubernetes.io/name").asText(), key(o));
                assertEquals("Helm", labels.path("app.kubernetes.io/managed-by").asText(), key(o));
            }
        }
        assertEquals("openkruise", defaults.get("Namespace", "kruise-system").path("metadata").path("labels")
                .path("control-plane").asText());
    }

    @Test
    void crdsAreExactlyTheFilesOfCrdsDirectory() throws Exception {
        List<JsonNode> files = crdFiles();
        assertFalse(files.isEmpty());
        List<JsonNode> rendered = defaults.ofKind("CustomResourceDefinition");
        assertEquals(files.size(), rendered.size(), "every file of crds/ must be rendered, and nothing else");
        for (JsonNode file : files) {
            String name = file.path("metadata").path("name").asText();
            assertEquals(file, defaults.get("CustomResourceDefinition", name), name + " differs from crds/");
        }
        assertTrue(chart.template("crds.managed=false").ofKind("CustomResourceDefinition").isEmpty());
    }

    @Test
    void managerDeploymentMatchesOpenKruisesAndItsArgumentsParse() throws Exception {
        JsonNode d = defaults.get("Deployment", "kruise-controller-manager");
        JsonNode spec = d.path("spec");
        assertEquals(2, spec.path("replicas").asInt());
        assertEquals(3, spec.path("minReadySeconds").asInt());
        assertEquals(0, spec.path("strategy").path("rollingUpdate").path("maxUnavailable").asInt());
        assertEquals("100%", spec.path("strategy").path("rollingUpdate").path("maxSurge").asText());
        assertEquals("controller-manager", spec.path("selector").path("matchLabels").path("control-plane").asText());
        JsonNode pod = spec.path("template").path("spec");
        assertEquals("kruise-manager", pod.path("serviceAccountName").asText());
        JsonNode c = pod.path("containers").get(0);
        assertEquals("kruise-vertx/kruise-manager:" + appVersion, c.path("image").asText());

        List<String> command = strings(c.path("command"));
        assertEquals("/opt/java/bin/java", command.get(0));
        assertEquals(List.of("-jar", "/app/kruise-manager.jar", "manager"), command.subList(command.size() - 3, command.size()));
        List<String> args = strings(c.path("args"));
        assertEquals(List.of("--enable-leader-election", "--metrics-addr=:8080", "--health-probe-addr=:8000",
                "--logtostderr=true", "--leader-election-namespace=kruise-system", "--v=4",
                "--feature-gates=ImagePullJobGate=true", "--sync-period=0", "--cache-list-page-size=500",
                // Ours, not OpenKruise's (manager.stableIdentity, issue 28): kubelet expands it to the pod name.
                "--leader-election-identity=$(POD_NAME)"), args);

        ManagerConfig config = parseManagerArgs(args);
        assertEquals(8080, config.metricsAddr().port());
        assertEquals(8000, config.healthProbeAddr().port());
        assertTrue(config.leaderElection());
        assertEquals("kruise-system", config.leaderElectionSettings().namespace());
        assertEquals(Duration.ZERO, config.syncPeriod());
        assertTrue(config.featureGates().enabled(Feature.ImagePullJobGate));

        Map<String, JsonNode> env = byName(c.path("env"));
        assertEquals("metadata.namespace", env.get("POD_NAMESPACE").path("valueFrom").path("fieldRef").path("fieldPath").asText());
        assertEquals("9876", env.get("WEBHOOK_PORT").path("value").asText());
        Map<String, JsonNode> ports = byName(c.path("ports"));
        assertEquals(9876, ports.get("webhook-server").path("containerPort").asInt());
        assertEquals(8080, ports.get("metrics").path("containerPort").asInt());
        assertEquals(8000, ports.get("health").path("containerPort").asInt());
        assertEquals("/readyz", c.path("readinessProbe").path("httpGet").path("path").asText());
        assertEquals(8000, c.path("readinessProbe").path("httpGet").path("port").asInt());
        assertEquals("/healthz", c.path("livenessProbe").path("httpGet").path("path").asText());

        JsonNode sc = c.path("securityContext");
        assertTrue(sc.path("runAsNonRoot").asBoolean());
        assertEquals(65534, sc.path("runAsUser").asInt());
        assertTrue(sc.path("readOnlyRootFilesystem").asBoolean());
        assertFalse(sc.path("allowPrivilegeEscalation").asBoolean(true));
        assertEquals(List.of("ALL"), strings(sc.path("capabilities").path("drop")));
        assertFalse(sc.path("capabilities").has("add"));
        assertTrue(c.path("resources").path("requests").has("cpu") && c.path("resources").path("requests").has("memory"));
        assertTrue(c.path("resources").path("limits").has("cpu") && c.path("resources").path("limits").has("memory"));
        // Read-only root: /tmp (JVM, webhook certificate dir) is an emptyDir.
        assertEquals("/tmp", c.path("volumeMounts").get(0).path("mountPath").asText());
        assertTrue(pod.path("volumes").get(0).has("emptyDir"));
    }

    @Test
    void allGatesReachTheManagerAndTheDaemon() throws Exception {
        JsonNode c = allGates.get("Deployment", "kruise-controller-manager").path("spec").path("template")
                .path("spec").path("containers").get(0);
        ManagerConfig config = parseManagerArgs(strings(c.path("args")));
        for (Feature f : Feature.values()) {
            assertTrue(config.featureGates().enabled(f), f.name());
        }
        JsonNode daemon = allGates.get("DaemonSet", "kruise-daemon").path("spec").path("template").path("spec")
                .path("containers").get(0);
        assertTrue(strings(daemon.path("args")).contains("--feature-gates=" + ALL_GATES));
        // EnableExternalCerts: someone else owns the Secret, so the chart neither creates it nor lets the
        // manager patch webhook configurations.
        assertTrue(allGates.find("Secret", "kruise-webhook-certs").isEmpty());
        assertTrue(allGates.find("ClusterRole", "kruise-certs-role").isEmpty());
        assertTrue(rules(allGates.get("ClusterRole", "kruise-manager-role")).contains("storage.k8s.io/storageclasses:get"));
        assertFalse(rules(defaults.get("ClusterRole", "kruise-manager-role")).contains("storage.k8s.io/storageclasses:get"));
    }

    @Test
    void daemonRunsTheNodeAgentWithTheHostRuntimeSocket() {
        JsonNode ds = defaults.get("DaemonSet", "kruise-daemon");
        assertEquals("10%", ds.path("spec").path("updateStrategy").path("rollingUpdate").path("maxUnavailable").asText());
        JsonNode pod = ds.path("spec").path("template").path("spec");
        assertTrue(pod.path("hostNetwork").asBoolean());
        assertEquals("kruise-daemon", pod.path("serviceAccountName").asText());
        assertEquals("Exists", pod.path("tolerations").get(0).path("operator").asText());
        JsonNode c = pod.path("containers").get(0);
        assertEquals("kruise-vertx/kruise-node-agent:" + appVersion, c.path("image").asText());
        List<String> command = strings(c.path("command"));
        assertEquals(List.of("-jar", "/app/kruise-node-agent.jar"), command.subList(command.size() - 2, command.size()));
        assertTrue(strings(c.path("args")).contains("--addr=:10221"));
        assertEquals("spec.nodeName", byName(c.path("env")).get("NODE_NAME").path("valueFrom").path("fieldRef")
                .path("fieldPath").asText());
        JsonNode mount = byName(c.path("volumeMounts")).get("runtime-socket");
        assertEquals("/hostvarrun", mount.path("mountPath").asText());
        assertTrue(mount.path("readOnly").asBoolean());
        assertEquals("/var/run", byName(pod.path("volumes")).get("runtime-socket").path("hostPath").path("path").asText());
        assertEquals("/healthz", c.path("livenessProbe").path("httpGet").path("path").asText());
        assertEquals(10221, c.path("livenessProbe").path("httpGet").path("port").asInt());
        assertEquals(60, c.path("livenessProbe").path("initialDelaySeconds").asInt());
        assertEquals(List.of("ALL"), strings(c.path("securityContext").path("capabilities").path("drop")));
        assertTrue(c.path("securityContext").path("readOnlyRootFilesystem").asBoolean());
    }

    @Test
    void kruiseDaemonOffDropsTheDaemon() throws Exception {
        HelmChart.Rendered off = chart.template("featureGates=KruiseDaemon=false");
        assertTrue(off.find("DaemonSet", "kruise-daemon").isEmpty());
        assertTrue(off.find("ClusterRole", "kruise-daemon-role").isEmpty());
        assertTrue(off.find("ServiceAccount", "kruise-daemon").isEmpty());
    }

    @Test
    void webhookServiceAndConfigurations() {
        JsonNode svc = defaults.get("Service", "kruise-webhook-service");
        assertEquals(443, svc.path("spec").path("ports").get(0).path("port").asInt());
        assertEquals(9876, svc.path("spec").path("ports").get(0).path("targetPort").asInt());
        assertEquals("controller-manager", svc.path("spec").path("selector").path("control-plane").asText());

        JsonNode mutating = defaults.get("MutatingWebhookConfiguration", "kruise-mutating-webhook-configuration");
        JsonNode validating = defaults.get("ValidatingWebhookConfiguration", "kruise-validating-webhook-configuration");
        assertEquals(Set.of("/mutate-pod", "/mutate-apps-kruise-io-cloneset", "/mutate-apps-kruise-io-statefulset",
                "/mutate-apps-kruise-io-daemonset", "/mutate-apps-kruise-io-containerrecreaterequest", "/mutate-apps-kruise-io-advancedcronjob",
                "/mutate-apps-kruise-io-broadcastjob", "/mutate-apps-kruise-io-sidecarset",
                "/mutate-apps-kruise-io-uniteddeployment", "/mutate-apps-kruise-io-imagepulljob",
                "/mutate-apps-kruise-io-imagelistpulljob", "/mutate-apps-kruise-io-nodeimage"), paths(mutating));
        assertEquals(Set.of("/validate-pod", "/validate-apps-kruise-io-cloneset", "/validate-apps-kruise-io-statefulset",
                "/validate-apps-kruise-io-daemonset", "/validate-apps-kruise-io-advancedcronjob",
                "/validate-apps-kruise-io-broadcastjob", "/validate-apps-kruise-io-sidecarset",
                "/validate-apps-kruise-io-v1alpha1-workloadspread", "/validate-apps-kruise-io-uniteddeployment", "/validate-policy-kruise-io-podunavailablebudget",
                "/validate-apps-kruise-io-resourcedistribution",
                "/validate-apps-kruise-io-podprobemarker",
                "/validate-apps-deployment", "/validate-apps-replicaset", "/validate-apps-statefulset",
                "/validate-customresourcedefinition", "/validate-namespace", "/validate-ingress", "/validate-service",
                "/validate-apps-kruise-io-v1alpha1-ephemeraljob",
                "/validate-apps-kruise-io-imagepulljob", "/validate-apps-kruise-io-imagelistpulljob",
                "/validate-apps-kruise-io-nodeimage",
                "/validate-apps-kruise-io-persistentpodstate"),
                paths(validating));
        for (JsonNode config : List.of(mutating, validating)) {
            assertTrue(config.path("metadata").path("annotations").has("template"));
            assertEquals("", config.path("metadata").path("annotations").path("template").asText());
            for (JsonNode w : config.path("webhooks")) {
                // Deletion protection's entries are the only ones that let requests through when the webhook is down,
                // as in OpenKruise's chart.
                assertEquals(DELETION_PROTECTION_PATHS.contains(w.path("clientConfig").path("service").path("path")
                        .asText()) ? "Ignore" : "Fail", w.path("failurePolicy").asText(), w.path("name").asText());
                assertEquals("None", w.path("sideEffects").asText());
                assertEquals(30, w.path("timeoutSeconds").asInt());
                assertEquals("kruise-webhook-service", w.path("clientConfig").path("service").path("name").asText());
                assertEquals("kruise-system", w.path("clientConfig").path("service").path("namespace").asText());
                assertTrue(strings(w.path("admissionReviewVersions")).contains("v1"));
                if (w.path("clientConfig").path("service").path("path").asText().endsWith("-pod")) {
                    String selector = w.path("namespaceSelector").toString();
                    assertTrue(selector.contains("openkruise") && selector.contains("kube-system"), selector);
                }
            }
        }
        JsonNode cloneSetValidation = webhook(validating, "/validate-apps-kruise-io-cloneset");
        assertEquals(List.of("CREATE", "UPDATE", "DELETE"), strings(cloneSetValidation.path("rules").get(0).path("operations")));
        assertEquals(List.of("clonesets"), strings(cloneSetValidation.path("rules").get(0).path("resources")));
        JsonNode wsValidation = webhook(validating, "/validate-apps-kruise-io-v1alpha1-workloadspread");
        assertEquals("vworkloadspread.kb.io", wsValidation.path("name").asText());
        assertEquals(List.of("CREATE", "UPDATE"), strings(wsValidation.path("rules").get(0).path("operations")));
        assertEquals(List.of("v1alpha1", "v1beta1"), strings(wsValidation.path("rules").get(0).path("apiVersions")));
        assertEquals(List.of("workloadspreads"), strings(wsValidation.path("rules").get(0).path("resources")));
        JsonNode podValidation = webhook(validating, "/validate-pod");
        assertEquals("pods/eviction", podValidation.path("rules").get(1).path("resources").get(0).asText());
        JsonNode pubValidation = webhook(validating, "/validate-policy-kruise-io-podunavailablebudget");
        assertEquals(List.of("CREATE", "UPDATE"), strings(pubValidation.path("rules").get(0).path("operations")));
        assertEquals(List.of("podunavailablebudgets"), strings(pubValidation.path("rules").get(0).path("resources")));
        JsonNode rdValidation = webhook(validating, "/validate-apps-kruise-io-resourcedistribution");
        assertEquals("vresourcedistribution.kb.io", rdValidation.path("name").asText());
        assertEquals(List.of("CREATE", "UPDATE"), strings(rdValidation.path("rules").get(0).path("operations")));
        assertEquals(List.of("resourcedistributions"), strings(rdValidation.path("rules").get(0).path("resources")));
        assertEquals(List.of("v1alpha1", "v1beta1"), strings(rdValidation.path("rules").get(0).path("apiVersions")));
        JsonNode ppmValidation = webhook(validating, "/validate-apps-kruise-io-podprobemarker");
        assertEquals("vpodprobemarker.kb.io", ppmValidation.path("name").asText());
        assertEquals(List.of("CREATE", "UPDATE"), strings(ppmValidation.path("rules").get(0).path("operations")));
        assertEquals(List.of("podprobemarkers"), strings(ppmValidation.path("rules").get(0).path("resources")));
    }

    static final Set<String> DELETION_PROTECTION_PATHS = Set.of("/validate-apps-deployment", "/validate-apps-replicaset",
            "/validate-apps-statefulset", "/validate-customresourcedefinition", "/validate-namespace", "/validate-ingress",
            "/validate-service");

    /** OpenKruise's chart: DELETE only, objects carrying the label only, kube-system left alone, failures ignored. */
    @Test
    void deletionProtectionEntriesMatchOpenKruisesChart() {
        JsonNode validating = defaults.get("ValidatingWebhookConfiguration", "kruise-validating-webhook-configuration");
        Map<String, String> expected = Map.of(
                "/validate-apps-deployment", "vbuiltindeployment.kb.io apps [v1] deployments",
                "/validate-apps-replicaset", "vbuiltinreplicaset.kb.io apps [v1] replicasets",
                "/validate-apps-statefulset", "vbuiltinstatefulset.kb.io apps [v1] statefulsets",
                "/validate-customresourcedefinition",
                "vcustomresourcedefinition.kb.io apiextensions.k8s.io [v1, v1beta1] customresourcedefinitions",
                "/validate-namespace", "vnamespace.kb.io  [v1] namespaces",
                "/validate-ingress", "vingress.kb.io networking.k8s.io [v1, v1beta1] ingresses",
                "/validate-service", "vservice.kb.io  [v1] services");
        for (Map.Entry<String, String> e : expected.entrySet()) {
            JsonNode w = webhook(validating, e.getKey());
            JsonNode rule = w.path("rules").get(0);
            assertEquals(1, w.path("rules").size(), e.getKey());
            assertEquals(e.getValue(), w.path("name").asText() + " " + rule.path("apiGroups").get(0).asText() + " "
                    + strings(rule.path("apiVersions")) + " " + rule.path("resources").get(0).asText());
            assertEquals(List.of("DELETE"), strings(rule.path("operations")), e.getKey());
            assertEquals("Ignore", w.path("failurePolicy").asText(), e.getKey());
            assertEquals("{\"matchExpressions\":[{\"key\":\"policy.kruise.io/delete-protection\",\"operator\":\"Exists\"}]}",
                    w.path("objectSelector").toString(), e.getKey());
            assertEquals("{\"matchExpressions\":[{\"key\":\"kubernetes.io/metadata.name\",\"operator\":\"NotIn\","
                    + "\"values\":[\"kube-system\"]}]}", w.path("namespaceSelector").toString(), e.getKey());
        }
        // The kruise workloads' deletes go to their own validating webhooks.
        for (String path : List.of("/validate-apps-kruise-io-cloneset", "/validate-apps-kruise-io-statefulset")) {
            assertTrue(strings(webhook(validating, path).path("rules").get(0).path("operations")).contains("DELETE"), path);
        }
    }

    /** ResourceDistribution writes Secrets and ConfigMaps in every namespace: granted only with its gate on. */
    @Test
    void resourceDistributionGetsSecretsAndConfigMapsOnlyWithItsGate() {
        Set<String> all = rules(allGates.get("ClusterRole", "kruise-manager-role"));
        assertTrue(all.containsAll(Set.of("/secrets:create", "/secrets:update", "/secrets:delete", "/secrets:watch",
                "/configmaps:create", "/configmaps:delete", "apps.kruise.io/resourcedistributions:watch",
                "apps.kruise.io/resourcedistributions/status:update")), all.toString());
        Set<String> defaults = rules(this.defaults.get("ClusterRole", "kruise-manager-role"));
        // Without its gate no Secret or ConfigMap is writable cluster-wide beyond launch priority's get/create/patch
        // (Secrets are readable: ImagePullJob's pullSecrets, see imagePullJobsReadSourceSecretsAndWriteOnlyTheirCopies).
        assertFalse(defaults.contains("/secrets:create") || defaults.contains("/secrets:update")
                || defaults.contains("/secrets:delete") || defaults.contains("/configmaps:list")
                || defaults.contains("/configmaps:delete"), defaults.toString());
        assertTrue(defaults.contains("apps.kruise.io/resourcedistributions:watch"), defaults.toString());
    }

    /** Cascading CRD protection counts any CRD's objects: a list-only wildcard, rendered only with its gates on. */
    @Test
    void crdCascadingProtectionGetsListOnEverythingOnlyWithItsGate() {
        Set<String> all = rules(allGates.get("ClusterRole", "kruise-manager-role"));
        assertTrue(all.contains("*/*:list"), all.toString());
        assertFalse(all.stream().anyMatch(r -> r.contains("*") && !r.equals("*/*:list")), all.toString());
        assertFalse(rules(defaults.get("ClusterRole", "kruise-manager-role")).stream().anyMatch(r -> r.contains("*")));
    }

    /**
     * ImagePullJob pullSecrets: OpenKruise's manager reads the source Secrets where the jobs are and writes copies
     * into kruise-daemon-config (the node agent reads Secrets only there). Here the write is limited to that
     * namespace by a Role; the cluster-wide grant is read-only and only with ImagePullJobGate (and KruiseDaemon).
     */
    @Test
    void imagePullJobsReadSourceSecretsAndWriteOnlyTheirCopies() {
        assertEquals(Set.of("/secrets:get", "/secrets:list", "/secrets:watch", "/secrets:create", "/secrets:update",
                        "/secrets:delete"),
                rules(defaults.get("Role", "kruise-manager-daemon-secret-role")));
        JsonNode binding = defaults.get("RoleBinding", "kruise-manager-daemon-secret-rolebinding");
        assertEquals("kruise-daemon-config", binding.path("metadata").path("namespace").asText());
        assertEquals("kruise-manager", binding.path("subjects").get(0).path("name").asText());
        assertTrue(rules(defaults.get("ClusterRole", "kruise-manager-role")).contains("/secrets:watch"));
    }

    @Test
    void rbacIsLeastPrivilege() {
        for (JsonNode role : Stream.concat(defaults.ofKind("ClusterRole").stream(), defaults.ofKind("Role").stream()).toList()) {
            for (String rule : rules(role)) {
                assertFalse(rule.contains("*"), key(role) + " grants a wildcard: " + rule);
            }
        }
        Set<String> manager = rules(defaults.get("ClusterRole", "kruise-manager-role"));
        assertTrue(manager.containsAll(Set.of("/pods:create", "/pods:delete", "/pods/status:patch",
                "/persistentvolumeclaims:create", "apps/controllerrevisions:create", "apps.kruise.io/clonesets:watch",
                "apps.kruise.io/clonesets/status:update", "apps.kruise.io/clonesets/finalizers:update",
                "/events:create", "apiextensions.k8s.io/customresourcedefinitions:list",
                "apps.kruise.io/advancedcronjobs:watch", "apps.kruise.io/advancedcronjobs/status:update",
                "apps.kruise.io/broadcastjobs:create", "batch/jobs:create", "batch/jobs:delete",
                // The uniteddeployment controller: UnitedDeployments, their status, and CloneSet subsets.
                "apps.kruise.io/uniteddeployments:watch", "apps.kruise.io/uniteddeployments/status:update",
                "apps.kruise.io/clonesets:create", "apps.kruise.io/clonesets:delete",
                "apps.kruise.io/workloadspreads:watch", "apps.kruise.io/workloadspreads/status:update",
                // The sidecarset controller: SidecarSets and their status, namespaces for namespaceSelector, its
                // revisions (created, renumbered, labelled, pruned), and pods updated in place with their condition.
                "apps.kruise.io/sidecarsets:watch", "apps.kruise.io/sidecarsets/status:update", "/namespaces:watch",
                "apps/controllerrevisions:delete", "apps/controllerrevisions:patch", "apps/controllerrevisions:update",
                "/pods:update", "/pods/status:update",
                "policy.kruise.io/podunavailablebudgets:watch", "policy.kruise.io/podunavailablebudgets/status:update",
                "apps/deployments:watch", "apps/replicasets:list", "apps/statefulsets:get", "/pods:patch",
                // UnitedDeployment subsets of kind apps/v1 StatefulSet and Deployment.
                "apps/deployments:create", "apps/deployments:patch", "apps/deployments:delete",
                "apps/statefulsets:create", "apps/statefulsets:patch", "apps/statefulsets:delete",
                // Image pulling: NodeImages per node, ImagePullJobs (status, the v1alpha1 finalizer), ImageListPullJobs.
                "apps.kruise.io/nodeimages:create", "apps.kruise.io/nodeimages:delete",
                "apps.kruise.io/imagepulljobs:create", "apps.kruise.io/imagepulljobs/status:update",
                "apps.kruise.io/imagepulljobs/finalizers:update", "apps.kruise.io/imagelistpulljobs/status:update",
                // PodProbeMarker: finalizer and status of the markers, NodePodProbes created per node and pruned.
                "apps.kruise.io/podprobemarkers:update", "apps.kruise.io/podprobemarkers/status:update",
                "apps.kruise.io/nodepodprobes:create", "apps.kruise.io/nodepodprobes:update",
                "apps.kruise.io/nodepodprobes:delete", "/nodes:watch")),
                manager.toString());
        assertFalse(manager.contains("policy.kruise.io/podunavailablebudgets:update"),
                "only the status of a budget is written");
        // Secrets are read cluster-wide only for ImagePullJob pullSecrets (as OpenKruise's manager does) and written
        // only in kruise-daemon-config; imagePullJobsReadSourceSecretsAndWriteOnlyTheirCopies checks both.
        assertEquals(Set.of("/secrets:get", "/secrets:list", "/secrets:watch"), manager.stream()
                .filter(r -> r.startsWith("/secrets:")).collect(java.util.stream.Collectors.toSet()),
                "secrets are read-only cluster-wide");
        assertFalse(manager.stream().anyMatch(r -> r.startsWith("admissionregistration.k8s.io/") && r.endsWith(":update")),
                "webhook configurations are only writable by name (kruise-certs-role)");
        assertEquals(Set.of("coordination.k8s.io/leases:get", "coordination.k8s.io/leases:create",
                        "coordination.k8s.io/leases:update", "/events:create", "/events:patch"),
                rules(defaults.get("Role", "kruise-leader-election-role")));
        assertTrue(rules(defaults.get("Role", "kruise-webhook-role")).contains("/configmaps:get"),
                "SidecarSet validation reads kruise-configuration");
        // Container launch priority reads, creates and patches the barrier <pod>-barrier in the pod's namespace, by
        // name: no list, watch, update or delete of ConfigMaps outside the kruise namespace without
        // ResourceDistributionGate.
        assertTrue(manager.containsAll(Set.of("/configmaps:get", "/configmaps:create", "/configmaps:patch")),
                manager.toString());
        assertFalse(manager.contains("/configmaps:list") || manager.contains("/configmaps:watch")
                || manager.contains("/configmaps:update") || manager.contains("/configmaps:delete"),
                "ConfigMaps are read by name only; the barrier goes with its pod: " + manager);
        JsonNode certs = defaults.get("ClusterRole", "kruise-certs-role");
        for (JsonNode rule : certs.path("rules")) {
            assertFalse(rule.path("resourceNames").isEmpty(), "certs role rules must name their objects: " + rule);
        }
        List<String> crdNames = new ArrayList<>();
        certs.path("rules").get(2).path("resourceNames").forEach(n -> crdNames.add(n.asText()));
        assertEquals(crdFiles().stream().map(c -> c.path("metadata").path("name").asText()).sorted().toList(),
                crdNames.stream().sorted().toList());
        assertEquals(Set.of("apps.kruise.io/clonesets:list", "apps.kruise.io/statefulsets:list", "apps.kruise.io/daemonsets:list"),
                rules(defaults.get("ClusterRole", "kruise-helm-hook")));
        assertEquals(Set.of("/secrets:get", "/secrets:list", "/secrets:watch"),
                rules(defaults.get("Role", "kruise-daemon-secret-role")));
    }

    @Test
    void preDeleteHookRunsTheUninstallCheck() {
        JsonNode job = defaults.get("Job", "kruise-finalizer");
        assertEquals("pre-delete", job.path("metadata").path("annotations").path("helm.sh/hook").asText());
        JsonNode pod = job.path("spec").path("template").path("spec");
        assertEquals("kruise-helm-hook", pod.path("serviceAccountName").asText());
        assertEquals("Never", pod.path("restartPolicy").asText());
        JsonNode c = pod.path("containers").get(0);
        assertEquals("kruise-vertx/kruise-manager:" + appVersion, c.path("image").asText());
        List<String> command = strings(c.path("command"));
        assertEquals(List.of("-cp", "/app/kruise-manager.jar", "dev.kruisevertx.kubectl.KubectlKruise", "uninstall-check"),
                command.subList(command.size() - 4, command.size()));
        // The command line the hook runs exists in the plugin.
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int code = KubectlKruise.run(new String[]{"uninstall-check", "--help"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), p -> {
                    throw new AssertionError("--help must not contact a cluster");
                });
        assertEquals(0, code);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("uninstall-check"));
        for (String name : List.of("kruise-helm-hook")) {
            assertEquals("pre-delete", defaults.get("ClusterRole", name).path("metadata").path("annotations")
                    .path("helm.sh/hook").asText());
            assertEquals("pre-delete", defaults.get("ServiceAccount", name).path("metadata").path("annotations")
                    .path("helm.sh/hook").asText());
        }
    }

    @Test
    void serviceMonitorIsOptional() throws Exception {
        assertTrue(defaults.ofKind("ServiceMonitor").isEmpty());
        HelmChart.Rendered on = chart.template("serviceMonitor.enabled=true");
        JsonNode sm = on.get("ServiceMonitor", "kruise-manager");
        assertEquals("metrics", sm.path("spec").path("endpoints").get(0).path("port").asText());
        assertEquals("/metrics", sm.path("spec").path("endpoints").get(0).path("path").asText());
        JsonNode svc = on.get("Service", "kruise-manager-metrics");
        assertEquals(8080, svc.path("spec").path("ports").get(0).path("port").asInt());
        sm.path("spec").path("selector").path("matchLabels").fields().forEachRemaining(e ->
                assertEquals(e.getValue().asText(), svc.path("metadata").path("labels").path(e.getKey()).asText(), e.getKey()));
    }

    @Test
    void secureMetricsIsAnOptionWithTheRbacItNeeds() throws Exception {
        Set<String> reviews = Set.of("authentication.k8s.io/tokenreviews:create",
                "authorization.k8s.io/subjectaccessreviews:create");
        // Off by default, as OpenKruise serves /metrics: no flag, no review rights, no reader role.
        List<String> defaultArgs = strings(defaults.get("Deployment", "kruise-controller-manager").path("spec")
                .path("template").path("spec").path("containers").get(0).path("args"));
        assertFalse(defaultArgs.contains("--metrics-secure"));
        assertFalse(parseManagerArgs(defaultArgs).metricsSecure());
        Set<String> manager = rules(defaults.get("ClusterRole", "kruise-manager-role"));
        assertTrue(reviews.stream().noneMatch(manager::contains), manager.toString());

        HelmChart.Rendered on = chart.template("manager.metrics.secure=true", "serviceMonitor.enabled=true");
        chart.lint("manager.metrics.secure=true", "serviceMonitor.enabled=true");
        List<String> args = strings(on.get("Deployment", "kruise-controller-manager").path("spec").path("template")
                .path("spec").path("containers").get(0).path("args"));
        assertTrue(args.contains("--metrics-secure"), args.toString());
        assertTrue(parseManagerArgs(args).metricsSecure());
        Set<String> secureManager = rules(on.get("ClusterRole", "kruise-manager-role"));
        assertTrue(secureManager.containsAll(reviews), secureManager.toString());
        assertEquals(Set.of(), difference(secureManager, manager, reviews), "only the two review rules are added");
        JsonNode reader = on.get("ClusterRole", "kruise-metrics-reader");
        assertEquals(1, reader.path("rules").size());
        assertEquals(List.of("/metrics"), strings(reader.path("rules").get(0).path("nonResourceURLs")));
        assertEquals(List.of("get"), strings(reader.path("rules").get(0).path("verbs")));
        JsonNode endpoint = on.get("ServiceMonitor", "kruise-manager").path("spec").path("endpoints").get(0);
        assertEquals("https", endpoint.path("scheme").asText());
        assertEquals("/var/run/secrets/kubernetes.io/serviceaccount/token", endpoint.path("bearerTokenFile").asText());
        assertTrue(endpoint.path("tlsConfig").path("insecureSkipVerify").asBoolean());
        JsonNode plainEndpoint = chart.template("serviceMonitor.enabled=true").get("ServiceMonitor", "kruise-manager")
                .path("spec").path("endpoints").get(0);
        assertTrue(plainEndpoint.path("scheme").isMissingNode(), "plain HTTP by default: " + plainEndpoint);
    }

    private static Set<String> difference(Set<String> after, Set<String> before, Set<String> expected) {
        Set<String> added = new TreeSet<>(after);
        added.removeAll(before);
        added.removeAll(expected);
        return added;
    }

    @Test
    void valuesChangePortsNamespaceAndReplicas() throws Exception {
        HelmChart.Rendered custom = chart.template("manager.replicas=3", "manager.metrics.port=9090",
                "manager.healthProbe.port=9091", "manager.webhook.port=9443", "installation.namespace=kruise",
                "manager.log.level=2", "webhookConfiguration.timeoutSeconds=10", "manager.loggingFormat=json");
        JsonNode d = custom.get("Deployment", "kruise-controller-manager");
        assertEquals("kruise", d.path("metadata").path("namespace").asText());
        assertEquals(3, d.path("spec").path("replicas").asInt());
        List<String> args = strings(d.path("spec").path("template").path("spec").path("containers").get(0).path("args"));
        ManagerConfig config = parseManagerArgs(args);
        assertEquals(9090, config.metricsAddr().port());
        assertEquals(9091, config.healthProbeAddr().port());
        assertEquals("kruise", config.leaderElectionSettings().namespace());
        assertTrue(args.contains("--log-format=json"));
        assertEquals(9443, custom.get("Service", "kruise-webhook-service").path("spec").path("ports").get(0).path("targetPort").asInt());
        assertEquals(10, custom.get("MutatingWebhookConfiguration", "kruise-mutating-webhook-configuration")
                .path("webhooks").get(0).path("timeoutSeconds").asInt());
    }

    /** Parses the chart's arguments exactly as kruise-manager.jar's {@code manager} subcommand does. */
    static ManagerConfig parseManagerArgs(List<String> args) {
        ManagerCommand command = new ManagerCommand();
        CommandLine cl = new CommandLine(command);
        cl.setOverwrittenOptionsAllowed(true);
        ManagerCommand.addWorkerFlags(cl.getCommandSpec(), ControllerRegistry.all());
        cl.parseArgs(args.toArray(String[]::new));
        return command.toConfig(cl.getCommandSpec(), ControllerRegistry.all(), Map.of());
    }

    static List<JsonNode> crdFiles() {
        Path dir = RepoPaths.root().resolve("crds");
        try (Stream<Path> files = Files.list(dir)) {
            List<JsonNode> out = new ArrayList<>();
            for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
                out.addAll(HelmChart.parseAll(Files.readString(f)));
            }
            return out;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read " + dir, e);
        }
    }

    private static Set<String> keys(HelmChart.Rendered r) {
        return r.objects().stream().map(ChartRenderTest::key).collect(Collectors.toCollection(TreeSet::new));
    }

    private static String key(JsonNode o) {
        return o.path("kind").asText() + "/" + o.path("metadata").path("namespace").asText("") + "/"
                + o.path("metadata").path("name").asText();
    }

    /** Rules flattened to {@code group/resource:verb}. */
    static Set<String> rules(JsonNode role) {
        Set<String> out = new TreeSet<>();
        for (JsonNode rule : role.path("rules")) {
            for (JsonNode g : rule.path("apiGroups")) {
                for (JsonNode res : rule.path("resources")) {
                    for (JsonNode v : rule.path("verbs")) {
                        out.add(g.asText() + "/" + res.asText() + ":" + v.asText());
                    }
                }
            }
        }
        return out;
    }

    /** EphemeralJob: validated on create and update (no defaulting webhook, as OpenKruise), and the rules its controller uses. */
    @Test
    void ephemeralJobWebhookAndRules() {
        JsonNode validating = defaults.get("ValidatingWebhookConfiguration", "kruise-validating-webhook-configuration");
        JsonNode ejob = webhook(validating, "/validate-apps-kruise-io-v1alpha1-ephemeraljob");
        assertEquals("vephemeraljobs.kb.io", ejob.path("name").asText());
        assertEquals(List.of("CREATE", "UPDATE"), strings(ejob.path("rules").get(0).path("operations")));
        assertEquals(List.of("v1alpha1"), strings(ejob.path("rules").get(0).path("apiVersions")));
        assertEquals(List.of("ephemeraljobs"), strings(ejob.path("rules").get(0).path("resources")));
        Set<String> manager = rules(defaults.get("ClusterRole", "kruise-manager-role"));
        assertTrue(manager.containsAll(Set.of("apps.kruise.io/ephemeraljobs:watch", "apps.kruise.io/ephemeraljobs:delete",
                "apps.kruise.io/ephemeraljobs/status:update", "apps.kruise.io/ephemeraljobs/finalizers:update",
                "/pods/ephemeralcontainers:patch")), manager.toString());
        assertFalse(manager.contains("apps.kruise.io/ephemeraljobs:create"), "the manager never creates EphemeralJobs");
    }

    /**
     * manager.customWorkloads: whitelisted custom workload kinds (WorkloadSpread's and PodUnavailableBudget's
     * whitelists) get get/list/watch in the manager's ClusterRole, nothing more; none by default. The whitelist
     * ConfigMap itself is watched by name.
     */
    @Test
    void customWorkloadsGetReadRulesFromOneValue() throws Exception {
        Set<String> manager = rules(defaults.get("ClusterRole", "kruise-manager-role"));
        assertFalse(manager.stream().anyMatch(r -> r.startsWith("kubeflow.org/")), manager.toString());
        assertTrue(rules(defaults.get("Role", "kruise-webhook-role")).containsAll(Set.of("/configmaps:get",
                "/configmaps:list", "/configmaps:watch")), "the whitelist ConfigMap is watched by name");
        for (JsonNode rule : defaults.get("Role", "kruise-webhook-role").path("rules")) {
            if (strings(rule.path("resources")).contains("configmaps")) {
                assertEquals(List.of("kruise-configuration"), strings(rule.path("resourceNames")));
            }
        }
        String[] sets = {"manager.customWorkloads[0].group=kubeflow.org",
                "manager.customWorkloads[0].resources={tfjobs,pytorchjobs}",
                "manager.customWorkloads[1].group=games.example.com",
                "manager.customWorkloads[1].resources={arenas}"};
        chart.lint(sets);
        Set<String> custom = rules(chart.template(sets).get("ClusterRole", "kruise-manager-role"));
        assertEquals(Set.of("kubeflow.org/tfjobs:get", "kubeflow.org/tfjobs:list", "kubeflow.org/tfjobs:watch",
                "kubeflow.org/pytorchjobs:get", "kubeflow.org/pytorchjobs:list", "kubeflow.org/pytorchjobs:watch",
                "games.example.com/arenas:get", "games.example.com/arenas:list", "games.example.com/arenas:watch"),
                difference(custom, manager, Set.of()), "only read rules for the named kinds are added");
        AssertionError missing = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class,
                () -> chart.template("manager.customWorkloads[0].group=kubeflow.org"));
        assertTrue(missing.getMessage().contains("manager.customWorkloads[].resources is required"),
                missing.getMessage());
    }

    private static Set<String> paths(JsonNode config) {
        Set<String> out = new TreeSet<>();
        config.path("webhooks").forEach(w -> out.add(w.path("clientConfig").path("service").path("path").asText()));
        return out;
    }

    private static JsonNode webhook(JsonNode config, String path) {
        for (JsonNode w : config.path("webhooks")) {
            if (path.equals(w.path("clientConfig").path("service").path("path").asText())) {
                return w;
            }
        }
        throw new AssertionError("no webhook for " + path);
    }

    private static List<String> strings(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static Map<String, JsonNode> byName(JsonNode array) {
        Map<String, JsonNode> out = new java.util.LinkedHashMap<>();
        array.forEach(n -> out.put(n.path("name").asText(), n));
        return out;
    }

    @Test
    void daemonPassesTheImagePullWorkerLimit() throws Exception {
        JsonNode c = defaults.get("DaemonSet", "kruise-daemon").path("spec").path("template").path("spec")
                .path("containers").get(0);
        assertTrue(strings(c.path("args")).contains("--max-workers-for-pull-image=-1"), "kruise-daemon's default: no limit");
        JsonNode limited = chart.template("daemon.maxWorkersForPullImage=3").get("DaemonSet", "kruise-daemon")
                .path("spec").path("template").path("spec").path("containers").get(0);
        assertTrue(strings(limited.path("args")).contains("--max-workers-for-pull-image=3"));
    }

    /** PersistentPodState: validated on create and update (no defaulting, no gate, as OpenKruise), and its rules. */
    @Test
    void persistentPodStateWebhookAndRules() {
        JsonNode validating = defaults.get("ValidatingWebhookConfiguration", "kruise-validating-webhook-configuration");
        JsonNode pps = webhook(validating, "/validate-apps-kruise-io-persistentpodstate");
        assertEquals("vpersistentpodstate.kb.io", pps.path("name").asText());
        assertEquals(List.of("CREATE", "UPDATE"), strings(pps.path("rules").get(0).path("operations")));
        assertEquals(List.of("v1alpha1", "v1beta1"), strings(pps.path("rules").get(0).path("apiVersions")));
        assertEquals(List.of("persistentpodstates"), strings(pps.path("rules").get(0).path("resources")));
        Set<String> manager = rules(defaults.get("ClusterRole", "kruise-manager-role"));
        assertTrue(manager.containsAll(Set.of("apps.kruise.io/persistentpodstates:watch",
                "apps.kruise.io/persistentpodstates:create", "apps.kruise.io/persistentpodstates:update",
                "apps.kruise.io/persistentpodstates:delete", "apps.kruise.io/persistentpodstates/status:update",
                "apps/statefulsets:watch", "apps.kruise.io/statefulsets:watch", "/nodes:get")), manager.toString());
    }

    /** manager.shards (issue 28): the flag, and list/delete on leases only when sharded. */
    @Test
    void shardsValueReachesTheManagerAndWidensTheLeaseRuleOnlyWhenSharded() throws Exception {
        HelmChart.Rendered sharded = chart.template("manager.shards=4");
        JsonNode c = sharded.get("Deployment", "kruise-controller-manager").path("spec").path("template")
                .path("spec").path("containers").get(0);
        List<String> args = strings(c.path("args"));
        assertTrue(args.contains("--shards=4"), args.toString());
        assertEquals("4", parseManagerArgs(args).settings().extra().get(dev.kruisevertx.manager.ManagerCommand.SHARDS_FLAG));
        assertEquals(Set.of("coordination.k8s.io/leases:get", "coordination.k8s.io/leases:create",
                        "coordination.k8s.io/leases:update", "/events:create", "/events:patch",
                        "coordination.k8s.io/leases:list", "coordination.k8s.io/leases:delete"),
                rules(sharded.get("Role", "kruise-leader-election-role")));
        JsonNode d = defaults.get("Deployment", "kruise-controller-manager").path("spec").path("template")
                .path("spec").path("containers").get(0);
        assertFalse(strings(d.path("args")).stream().anyMatch(a -> a.startsWith("--shards")), "1 is the flag's default");
        chart.lint("manager.shards=4");
    }

    /** manager.cacheListPageSize: the informers' page size, 0 (one whole list) included, reaches the manager. */
    @Test
    void cacheListPageSizeReachesTheManager() throws Exception {
        JsonNode d = defaults.get("Deployment", "kruise-controller-manager").path("spec").path("template")
                .path("spec").path("containers").get(0);
        assertEquals("500", parseManagerArgs(strings(d.path("args"))).settings().extra()
                .get(dev.kruisevertx.manager.ManagerCommand.CACHE_LIST_PAGE_SIZE_FLAG));
        for (String size : List.of("0", "2000000")) {
            JsonNode c = chart.template("manager.cacheListPageSize=" + size).get("Deployment",
                    "kruise-controller-manager").path("spec").path("template").path("spec").path("containers").get(0);
            List<String> args = strings(c.path("args"));
            assertTrue(args.contains("--cache-list-page-size=" + size), args.toString());
            assertEquals(size, parseManagerArgs(args).settings().extra()
                    .get(dev.kruisevertx.manager.ManagerCommand.CACHE_LIST_PAGE_SIZE_FLAG));
        }
        chart.lint("manager.cacheListPageSize=0");
    }

    /** manager.stableIdentity (issue 28): the pod name is the lease identity, so a restarted container takes its leases back. */
    @Test
    void managerUsesItsPodNameAsLeaseIdentityUnlessTurnedOff() throws Exception {
        JsonNode c = defaults.get("Deployment", "kruise-controller-manager").path("spec").path("template")
                .path("spec").path("containers").get(0);
        assertTrue(strings(c.path("args")).contains("--leader-election-identity=$(POD_NAME)"), c.path("args").toString());
        boolean podName = false;
        for (JsonNode e : c.path("env")) {
            podName |= "POD_NAME".equals(e.path("name").asText())
                    && "metadata.name".equals(e.path("valueFrom").path("fieldRef").path("fieldPath").asText());
        }
        assertTrue(podName, "POD_NAME from the downward API: " + c.path("env"));
        JsonNode off = chart.template("manager.stableIdentity=false").get("Deployment", "kruise-controller-manager")
                .path("spec").path("template").path("spec").path("containers").get(0);
        assertFalse(strings(off.path("args")).stream().anyMatch(a -> a.startsWith("--leader-election-identity")),
                off.path("args").toString());
    }
}
