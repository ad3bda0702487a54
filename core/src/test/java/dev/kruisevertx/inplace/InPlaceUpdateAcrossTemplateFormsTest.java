package dev.kruisevertx.inplace;

import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.revision.GoRevisionData;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * A revision in OpenKruise's (Go's) form against the workload's own template as the API stores it: only the image
 * differs in meaning, so the update is an in-place image update, not a recreate because {@code resources: {}},
 * {@code readOnly: false}, {@code hostPort: 0} or {@code "0.5"} against {@code "500m"} differ in form.
 */
class InPlaceUpdateAcrossTemplateFormsTest {
    static final String STORED = "{\"metadata\":{\"labels\":{\"app\":\"web\"}},\"spec\":{\"containers\":[{"
            + "\"name\":\"main\",\"image\":\"IMAGE\",\"ports\":[{\"containerPort\":80,\"hostPort\":0}],"
            + "\"resources\":{\"requests\":{\"cpu\":\"0.5\"}},"
            + "\"volumeMounts\":[{\"name\":\"data\",\"mountPath\":\"/data\",\"readOnly\":false}]},"
            + "{\"name\":\"side\",\"image\":\"busybox:1\"}],"
            + "\"volumes\":[{\"name\":\"data\",\"emptyDir\":{}}]}}";

    static PodTemplateSpec template(String image) {
        return ApiJson.serialization().unmarshal(STORED.replace("IMAGE", image), PodTemplateSpec.class);
    }

    @Test
    void anOpenKruiseRevisionAgainstTheStoredTemplateIsAnImageUpdate() throws Exception {
        // What OpenKruise wrote for nginx:1 (Go's bytes), read back as the cache gives it.
        String goBytes = new String(GoRevisionData.bytes(GoRevisionData.of(template("nginx:1"))),
                java.nio.charset.StandardCharsets.UTF_8);
        ControllerRevision openKruise = new ControllerRevisionBuilder().withNewMetadata().withName("web-1")
                .endMetadata().withRevision(1L)
                .withData(ApiJson.serialization().unmarshal(goBytes, Map.class)).build();

        InPlaceUpdateSpec spec = InPlaceUpdateCalculator.calculate(
                dev.kruisevertx.revision.RevisionHistory.templateOf(openKruise), template("nginx:2"), "web-2",
                InPlaceUpdateOptions.defaults());

        assertNotNull(spec, "a change of form must not force a recreate");
        assertEquals(Map.of("main", "nginx:2"), spec.containerImages());
    }
}
