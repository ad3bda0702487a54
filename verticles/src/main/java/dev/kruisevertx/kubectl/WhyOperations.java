package dev.kruisevertx.kubectl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code kubectl kruise why}: asks the manager why a workload does not move, through the API server's service
 * proxy ({@code /api/v1/namespaces/NS/services/NAME:PORT/proxy/why/CONTROLLER/NAMESPACE/NAME}, so kubeconfig access
 * and RBAC on {@code services/proxy} are all it needs), or straight from {@code --manager-url}. Prints the reasons
 * of the controller's last decision, or the manager's JSON with {@code -o json}.
 */
public final class WhyOperations {
    /** Where the chart's Service for the manager's metrics listener is. */
    public static final String DEFAULT_SERVICE = "kruise-system/kruise-manager:8080";
    /** Only the leader decides; a standby answers 503 and the Service may pick another replica next time. */
    static final int LEADER_ATTEMPTS = 10;
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final KubernetesClient client;
    private final WorkloadClient workloads;
    private final PrintStream out;

    public WhyOperations(KubernetesClient client, WorkloadClient workloads, PrintStream out) {
        this.client = client;
        this.workloads = workloads;
        this.out = out;
    }

    /** What the manager answered: HTTP status and body. */
    record Answer(int status, String body) {
    }

    public void why(WorkloadKinds.Target target, String output, String managerUrl, String managerService,
                    boolean showDecision) throws InterruptedException {
        if (output != null && !output.isEmpty() && !output.equals("json") && !output.equals("text")) {
            throw new CliException("--output must be json or text, got \"" + output + "\"");
        }
        JsonNode object = workloads.get(target);
        // A cluster-scoped object (SidecarSet) has no namespace: the manager reads "-" as none.
        String ns = target.kind().namespaced() ? workloads.namespace() : null;
        String path = "/why/" + enc(target.kind().controller()) + "/" + (ns == null ? "-" : enc(ns)) + "/"
                + enc(target.name());
        Answer a = null;
        for (int i = 0; i < LEADER_ATTEMPTS; i++) {
            a = managerUrl != null ? direct(managerUrl, path) : proxied(managerService, path);
            if (a.status() != 503 || !isStandby(a.body())) {
                break;
            }
        }
        JsonNode body = parse(a);
        if (a.status() == 503 && isStandby(a.body())) {
            throw new CliException("no manager replica answered as the leader after " + LEADER_ATTEMPTS + " tries");
        }
        if (a.status() != 200) {
            throw failure(a, body, managerUrl, managerService);
        }
        if ("json".equals(output)) {
            try {
                out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(body));
            } catch (IOException e) {
                throw new CliException("cannot print the answer: " + e.getMessage());
            }
            return;
        }
        out.print(text(target, ns, target.kind().rolloutState(object), body, showDecision));
    }

    /** The text {@code why} prints; {@code ns} null for a cluster-scoped object. */
    static String text(WorkloadKinds.Target target, String ns, RolloutState state, JsonNode answer, boolean decision) {
        StringBuilder b = new StringBuilder();
        b.append(target.displayName()).append(ns == null ? " (cluster-scoped)" : " in namespace " + ns).append('\n');
        b.append("  rollout: ").append(state.message()).append('\n');
        JsonNode reasons = answer.path("reasons");
        if (reasons.isEmpty()) {
            b.append("  nothing holds it back\n");
        }
        for (JsonNode r : reasons) {
            b.append("  held by ").append(r.path("code").asText()).append(": ").append(r.path("message").asText())
                    .append('\n');
        }
        if (decision) {
            b.append("  decision: ").append(answer.path("summary").asText()).append('\n');
            b.append("  decided at ").append(answer.path("at").asText());
            if (answer.has("reconcileId")) {
                b.append(" by reconcile r").append(answer.path("reconcileId").asLong()).append(" (")
                        .append(answer.path("trigger").asText()).append(')');
            }
            b.append('\n');
        }
        return b.toString();
    }

    private Answer proxied(String service, String path) {
        String[] nsAndRest = service.split("/", 2);
        if (nsAndRest.length != 2 || nsAndRest[0].isEmpty() || nsAndRest[1].isEmpty()) {
            throw new CliException("--manager-service must be NAMESPACE/NAME:PORT, got \"" + service + "\"");
        }
        String base = client.getMasterUrl().toString().replaceAll("/+$", "");
        String url = base + "/api/v1/namespaces/" + enc(nsAndRest[0]) + "/services/" + nsAndRest[1] + "/proxy" + path;
        io.fabric8.kubernetes.client.http.HttpClient http = client.getHttpClient();
        HttpRequest request = http.newHttpRequestBuilder().uri(url).header("Accept", "application/json").build();
        try {
            HttpResponse<String> r = http.sendAsync(request, String.class).get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            return new Answer(r.code(), r.body() == null ? "" : r.body());
        } catch (ExecutionException e) {
            throw new CliException("cannot reach the API server: " + e.getCause().getMessage());
        } catch (TimeoutException e) {
            throw new CliException("the API server did not answer within " + TIMEOUT.toSeconds() + "s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliException("interrupted");
        }
    }

    private static Answer direct(String managerUrl, String path) throws InterruptedException {
        URI uri;
        try {
            uri = URI.create(managerUrl.replaceAll("/+$", "") + path);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw new IllegalArgumentException("no scheme or host");
            }
        } catch (IllegalArgumentException e) {
            throw new CliException("--manager-url must be a URL such as http://127.0.0.1:8080, got \"" + managerUrl + "\"");
        }
        HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        try {
            java.net.http.HttpResponse<String> r = http.send(java.net.http.HttpRequest.newBuilder(uri).timeout(TIMEOUT)
                    .header("Accept", "application/json").GET().build(), java.net.http.HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body());
        } catch (IOException e) {
            throw new CliException("cannot reach the manager at " + managerUrl + ": " + e);
        }
    }

    private static boolean isStandby(String body) {
        return body != null && body.contains("\"leader\":false");
    }

    private static JsonNode parse(Answer a) {
        try {
            return a.body() == null || a.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(a.body());
        } catch (IOException e) {
            return JSON.createObjectNode().put("message", a.body().strip());
        }
    }

    private static CliException failure(Answer a, JsonNode body, String managerUrl, String service) {
        String message = body.path("message").asText("");
        boolean fromManager = body.has("leader");
        if (a.status() == 404 && fromManager) {
            return new CliException(message);
        }
        if (managerUrl != null) {
            return new CliException("the manager at " + managerUrl + " answered " + a.status() + ": " + message);
        }
        if (a.status() == 403) {
            return new CliException("forbidden: " + message + " (bind the ClusterRole kruise-why-reader to get "
                    + "services/proxy of the manager's Service)");
        }
        if (a.status() == 404) {
            return new CliException("the manager's Service " + service + " was not found (" + message
                    + "); pass --manager-service NAMESPACE/NAME:PORT, or --manager-url for a manager outside the cluster");
        }
        return new CliException("the manager's Service " + service + " answered " + a.status()
                + (message.isEmpty() ? "" : ": " + message));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
