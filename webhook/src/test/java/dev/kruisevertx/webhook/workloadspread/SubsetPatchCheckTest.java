package dev.kruisevertx.webhook.workloadspread;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.WorkloadSpread;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.webhook.admission.FieldError;
import dev.kruisevertx.workloadspread.CustomWorkloadWhiteList;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The subset patch applied to the target workload's pod template and the result checked, as OpenKruise's validation
 * does when the workload exists: each case a patch and the errors (field and type) it must give.
 */
class SubsetPatchCheckTest {
    static final String TEMPLATE = """
            {"metadata":{"labels":{"app":"demo"}},
             "spec":{"containers":[{"name":"main","image":"img:latest"}]}}
            """;

    record Case(String name, String patch, List<String> errors) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("metadata only", "{\"metadata\":{\"annotations\":{\"subset\":\"a\"}}}", List.of()),
                new Case("OpenKruise's resource patch merges into the main container",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"resources\":{\"limits\":{\"cpu\":\"2\","
                                + "\"memory\":\"8000Mi\"}}}]}}", List.of()),
                new Case("a sidecar with a valid name and image",
                        "{\"spec\":{\"containers\":[{\"name\":\"log\",\"image\":\"log:1\"}]}}", List.of()),
                new Case("a container name that is not a DNS label",
                        "{\"spec\":{\"containers\":[{\"name\":\"Bad_Name\",\"image\":\"x:1\"}]}}",
                        List.of("INVALID spec.subsets[0].patch.containers[1].name")),
                new Case("a container without an image",
                        "{\"spec\":{\"containers\":[{\"name\":\"log\"}]}}",
                        List.of("REQUIRED spec.subsets[0].patch.containers[1].image")),
                new Case("the main container deleted: no container left",
                        "{\"spec\":{\"containers\":[{\"$patch\":\"delete\",\"name\":\"main\"}]}}",
                        List.of("REQUIRED spec.subsets[0].patch.containers")),
                new Case("a resource quantity that does not parse",
                        "{\"spec\":{\"containers\":[{\"name\":\"main\",\"resources\":{\"limits\":{\"cpu\":\"lots\"}}}]}}",
                        List.of("INVALID spec.subsets[0].patch.containers[0].resources.limits[cpu]")),
                new Case("an unsupported restartPolicy", "{\"spec\":{\"restartPolicy\":\"Sometimes\"}}",
                        List.of("NOT_SUPPORTED spec.subsets[0].patch.restartPolicy")),
                new Case("a nodeSelector label key that is not valid", "{\"spec\":{\"nodeSelector\":{\"-bad-\":\"x\"}}}",
                        List.of("INVALID spec.subsets[0].patch.nodeSelector")),
                new Case("containers of the wrong type", "{\"spec\":{\"containers\":\"main\"}}",
                        List.of("INVALID spec.subsets[0].patch")),
                new Case("a number where a string belongs", "{\"spec\":{\"restartPolicy\":{\"a\":1}}}",
                        List.of("INVALID spec.subsets[0].patch")),
                new Case("a patch that is not an object", "\"just a string\"",
                        List.of("INVALID spec.subsets[0].patch")));
    }

    static WorkloadSpread ws(String patch) {
        return ApiJson.serialization().unmarshal("""
                {"apiVersion":"apps.kruise.io/v1alpha1","kind":"WorkloadSpread",
                 "metadata":{"name":"ws","namespace":"default"},
                 "spec":{"targetRef":{"apiVersion":"apps.kruise.io/v1alpha1","kind":"CloneSet","name":"demo"},
                   "subsets":[{"name":"a","maxReplicas":1,"patch":%s},{"name":"b"}]}}
                """.formatted(patch), WorkloadSpread.class);
    }

    static List<String> errors(String patch, JsonNode template) {
        List<FieldError> errors = WorkloadSpreadValidation.validate(ws(patch), null, List.of(),
                () -> CustomWorkloadWhiteList.EMPTY, template);
        return errors.stream().map(e -> e.type() + " " + e.field()).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void checksThePatchedTemplate(Case c) {
        JsonNode template = ApiJson.serialization().unmarshal(TEMPLATE, JsonNode.class);
        assertEquals(c.errors(), errors(c.patch(), template));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void withoutTheWorkloadNothingIsCheckedAsOpenKruise(Case c) {
        assertEquals(List.of(), errors(c.patch(), null));
    }

    @Test
    void theMessagesSayWhatIsWrong() {
        JsonNode template = ApiJson.serialization().unmarshal(TEMPLATE, JsonNode.class);
        List<FieldError> errors = WorkloadSpreadValidation.validate(ws("{\"spec\":{\"containers\":\"main\"}}"), null,
                List.of(), () -> CustomWorkloadWhiteList.EMPTY, template);
        String message = FieldError.aggregate(errors);
        assertTrue(message.startsWith("spec.subsets[0].patch: Invalid value: "), message);
        assertTrue(message.contains("failed to "), message);
        assertTrue(!message.contains(" at [Source"), message);
    }

    @Test
    void claimTemplatesBecomeVolumesOfTheTemplate() {
        PodTemplateSpec t = ApiJson.serialization().unmarshal(TEMPLATE, PodTemplateSpec.class);
        JsonNode out = CachedTargetTemplates.template(t, List.of(new PersistentVolumeClaimBuilder().withNewMetadata()
                .withName("data").endMetadata().build()));
        assertEquals("{\"name\":\"data\",\"persistentVolumeClaim\":{\"claimName\":\"data\"}}",
                out.path("spec").path("volumes").get(0).toString());
    }
}
