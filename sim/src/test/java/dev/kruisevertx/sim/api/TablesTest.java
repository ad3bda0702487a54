package dev.kruisevertx.sim.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.kruisevertx.sim.EmbeddedClusterOptions;
import dev.kruisevertx.sim.Manifests;
import dev.kruisevertx.sim.testing.ClusterFixture;
import dev.kruisevertx.sim.testing.ManifestApplier;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceColumnDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The Table responses behind {@code kubectl get}, for custom resources: the CRD's columns, as kube-apiserver serves them. */
class TablesTest {
    static final String TABLE = "application/json;as=Table;g=meta.k8s.io;v=v1";
    static ClusterFixture fixture;
    static HttpClient http;

    @BeforeAll
    static void start() throws Exception {
        Path crds = ClusterFixture.findCrdDirectory();
        assertNotNull(crds, "the repository's crds/ directory");
        fixture = ClusterFixture.start(new EmbeddedClusterOptions().setNodes(0).setCrdDirectory(crds));
        fixture.cluster().installCrdDocuments(Manifests.readDirectory(Path.of("src/test/resources/crds")))
                .await(30, TimeUnit.SECONDS);
        fixture.cluster().installCrdDocuments(Manifests.parse("""
                apiVersion: apiextensions.k8s.io/v1
                kind: CustomResourceDefinition
                metadata: {name: sprockets.test.kruise-vertx.dev}
                spec:
                  group: test.kruise-vertx.dev
                  scope: Namespaced
                  names: {plural: sprockets, singular: sprocket, kind: Sprocket}
                  versions:
                  - name: v1
                    served: true
                    storage: true
                    schema:
                      openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}
                    additionalPrinterColumns:
                    - {name: Size, type: integer, jsonPath: .spec.size}
                """)).await(30, TimeUnit.SECONDS);
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    }

    @AfterAll
    static void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    static JsonNode table(String path) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(fixture.cluster().url() + path))
                .header("Accept", TABLE).timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        JsonNode table = new ObjectMapper().readTree(response.body());
        assertEquals("Table", table.path("kind").asText(), response.body());
        return table;
    }

    static List<String> columnNames(JsonNode table) {
        List<String> names = new ArrayList<>();
        table.path("columnDefinitions").forEach(c -> names.add(c.path("name").asText()));
        return names;
    }

    @Test
    void aCrdWithItsOwnAgeColumnGetsNoSecondOne() throws Exception {
        ManifestApplier.apply(fixture.client(), """
                apiVersion: apps.kruise.io/v1alpha1
                kind: CloneSet
                metadata: {name: cs-table, namespace: default}
                spec:
                  replicas: 2
                  selector: {matchLabels: {app: cs-table}}
                  template:
                    metadata: {labels: {app: cs-table}}
                    spec:
                      containers: [{name: main, image: "nginx:1.25"}]
                """);
        CustomResourceDefinition crd = fixture.client().apiextensions().v1().customResourceDefinitions()
                .withName("clonesets.apps.kruise.io").get();
        List<String> expected = new ArrayList<>(List.of("Name"));
        crd.getSpec().getVersions().stream().filter(v -> v.getName().equals("v1alpha1")).findFirst().orElseThrow()
                .getAdditionalPrinterColumns().stream().map(CustomResourceColumnDefinition::getName).forEach(expected::add);

        for (String path : List.of("/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets",
                "/apis/apps.kruise.io/v1alpha1/namespaces/default/clonesets/cs-table")) {
            JsonNode table = table(path);
            List<String> names = columnNames(table);
            assertEquals(expected, names, path);
            assertEquals(1, names.stream().filter(n -> n.equalsIgnoreCase("age")).count(), path + ": " + names);
            JsonNode cells = table.path("rows").path(0).path("cells");
            assertEquals(names.size(), cells.size(), path + ": a cell per column");
            assertEquals("cs-table", cells.path(0).asText());
            assertEquals(2, cells.path(names.indexOf("DESIRED")).asInt(), path);
            assertEquals("nginx:1.25", cells.path(names.indexOf("IMAGES")).asText(), path);
        }
    }

    @Test
    void aCrdWithoutColumnsGetsNameAndAge() throws Exception {
        ManifestApplier.apply(fixture.client(), """
                apiVersion: test.kruise-vertx.dev/v1alpha1
                kind: Widget
                metadata: {name: plain, namespace: default}
                spec: {replicas: 1}
                """);
        JsonNode table = table("/apis/test.kruise-vertx.dev/v1alpha1/namespaces/default/widgets");
        assertEquals(List.of("Name", "Age"), columnNames(table));
        assertEquals("plain", table.path("rows").path(0).path("cells").path(0).asText());
    }

    @Test
    void declaredColumnsWithoutADateColumnGetNoAge() throws Exception {
        ManifestApplier.apply(fixture.client(), """
                apiVersion: test.kruise-vertx.dev/v1
                kind: Sprocket
                metadata: {name: small, namespace: default}
                spec: {size: 3}
                """);
        JsonNode table = table("/apis/test.kruise-vertx.dev/v1/namespaces/default/sprockets");
        assertEquals(List.of("Name", "Size"), columnNames(table), "as kube-apiserver: Age is only the default for no columns");
        assertEquals(3, table.path("rows").path(0).path("cells").path(1).asInt());
    }
}
