package dev.kruisevertx.takeover;

import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import dev.kruisevertx.e2e.EmbeddedManagerExtension;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --takeover-dry-run} on the embedded cluster: the manager started on a CloneSet OpenKruise has been running
 * (its revision in OpenKruise's bytes and name, its status naming it) reports it as adopted unchanged, names one
 * whose template was edited since, and starts no controller (the CloneSets get no pods).
 */
class TakeoverDryRunEndToEndTest {
    @RegisterExtension
    static final EmbeddedManagerExtension product = EmbeddedManagerExtension.builder()
            .flags("--takeover-dry-run").build();

    @Test
    void theDryRunReportsAndStartsNoController() throws Exception {
        String ns = product.namespace();
        CloneSet web = product.client().resource(TakeoverCheckTest.cloneSet(ns, "web", null, "nginx:1.9.1", ""))
                .create();
        CloneSet api = product.client().resource(TakeoverCheckTest.cloneSet(ns, "api", null, "nginx:2", ""))
                .create();
        for (CloneSet cs : List.of(web, api)) {
            // The revision OpenKruise wrote for the template as its webhook defaulted it (as this one did on create);
            // api's template was edited since (its revision still holds nginx:1.9.1).
            String data = new String(dev.kruisevertx.revision.GoRevisionData.bytes(dev.kruisevertx.revision
                    .GoRevisionData.of(cs.getSpec().getTemplate())), java.nio.charset.StandardCharsets.UTF_8)
                    .replace("nginx:2", "nginx:1.9.1");
            String rev = cs.getMetadata().getName() + "-" + dev.kruisevertx.revision.RevisionHash.of(
                    data.getBytes(java.nio.charset.StandardCharsets.UTF_8), 0);
            ControllerRevision r = TakeoverCheckTest.revision(ns, rev, "CloneSet", cs.getMetadata().getUid(),
                    data, 1);
            r.getMetadata().getOwnerReferences().get(0).setName(cs.getMetadata().getName());
            product.client().resource(r).create();
            CloneSet withStatus = TakeoverCheckTest.cloneSet(ns, cs.getMetadata().getName(),
                    cs.getMetadata().getUid(), "unused", rev);
            cs.setStatus(withStatus.getStatus());
            product.client().resources(CloneSet.class).inNamespace(ns).resource(cs).updateStatus();
        }

        product.restartManager();

        TakeoverCheck.Report report = product.app().takeover();
        assertNotNull(report, "the check ran at start-up");
        assertTrue(report.adopted() >= 1, report.summary(10));
        assertEquals(List.of("api"), report.wouldRoll().stream().filter(f -> f.namespace().equals(ns))
                .map(TakeoverCheck.Finding::name).toList());
        // The webhook serves, no controller runs: neither CloneSet (2 replicas each) gets a pod. A running CloneSet
        // controller creates them within a second of start-up; the test looks after three.
        Thread.sleep(3000);
        assertEquals(0, product.client().pods().inNamespace(ns).list().getItems().size());
        String view = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create("http://127.0.0.1:" + product.app().debugPort() + "/debug/controllers")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(view.contains("\"takeover\"") && view.contains("\"api\""), view);
    }
}
