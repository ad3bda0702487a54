package dev.kruisevertx.webhook.sidecarset;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.apps.v1beta1.SidecarSetInjectRevision;
import dev.kruisevertx.webhook.admission.AdmissionHandler;
import dev.kruisevertx.webhook.admission.AdmissionRequest;
import dev.kruisevertx.webhook.admission.AdmissionResponse;
import dev.kruisevertx.webhook.admission.Json;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SidecarSet validation: OpenKruise v1.9's validating-webhook cases (sidecarset_validating_test.go) as facts, each
 * with the field it must name, plus the stricter limits of this project. Objects are judged as sent (no defaults).
 */
class SidecarSetValidationTest {
    static final String C = "{'name':'test-sidecar','image':'test-image','podInjectPolicy':'BeforeAppContainer',"
            + "'shareVolumePolicy':{'type':'disabled'},'upgradeStrategy':{'upgradeType':'ColdUpgrade'}}";
    static final String SEL = "'selector':{'matchLabels':{'a':'b'}}";
    static final String NOT_UPDATE = "'updateStrategy':{'type':'NotUpdate'}";
    static final String ROLLING = "'updateStrategy':{'type':'RollingUpdate'}";

    static ObjectNode set(String name, String spec) throws Exception {
        return (ObjectNode) Json.MAPPER.readTree(("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet',"
                + "'metadata':{'name':'" + name + "'},'spec':{" + spec + "}}").replace('\'', '"'));
    }

    static AdmissionResponse validate(SidecarSetLookup lookup, String op, ObjectNode object, ObjectNode old)
            throws Exception {
        // As OpenKruise's validating test, which turns SidecarSetPatchPodMetadataDefaultsAllowed on; the whitelist
        // itself is pinned in SidecarSetPatchMetadataWhitelistTest.
        AdmissionHandler h = SidecarSetWebhooks.validating(lookup, true);
        String version = object.path("apiVersion").asText().substring("apps.kruise.io/".length());
        AdmissionRequest request = new AdmissionRequest("admission.k8s.io/v1", "u", "apps.kruise.io", version,
                "SidecarSet", "sidecarsets", "", object.path("metadata").path("name").asText(), "", op, object, old,
                false, null);
        return h.handle(request).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    static Stream<Arguments> cases() {
        String c = C;
        return Stream.of(
                // OpenKruise's TestValidateSidecarSet
                Arguments.of("missing-selector", "test-sidecarset", ROLLING + ",'containers':[" + c + "]",
                        "spec.selector: Required value: no selector defined for SidecarSet"),
                Arguments.of("wrong-updateStrategy (duplicated scatter term)", "test-sidecarset", SEL
                        + ",'updateStrategy':{'type':'RollingUpdate','scatterStrategy':[{'key':'key-1','value':'value-1'},"
                        + "{'key':'key-1','value':'value-1'}]},'containers':[" + c + "]",
                        "spec.updateStrategy.scatterStrategy: Required value: duplicated term"),
                Arguments.of("wrong-selector (NotIn value)", "test-sidecarset", "'selector':{'matchLabels':{'a':'b'},"
                        + "'matchExpressions':[{'key':'app-name','operator':'NotIn','values':['app-group','app-risk-']}]},"
                        + NOT_UPDATE + ",'containers':[" + c + "]", "app-risk-"),
                Arguments.of("wrong-namespaceSelector", "test-sidecarset", SEL + ",'namespaceSelector':{'matchLabels':"
                        + "{'a':'b'},'matchExpressions':[{'key':'app-name','operator':'NotIn','values':['app-risk-']}]},"
                        + NOT_UPDATE + ",'containers':[" + c + "]", "spec.namespaceSelector"),
                Arguments.of("namespace-selector", "test-sidecarset", SEL + ",'namespaceSelector':{'matchLabels':{'a':'b'}},"
                        + NOT_UPDATE + ",'containers':[" + c + "]", null),
                Arguments.of("wrong-initContainer (no image)", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'initContainers':[{'name':'test-sidecar'}]", "spec.initContainers[0].image: Required value"),
                Arguments.of("missing-container", "test-sidecarset", SEL + "," + NOT_UPDATE,
                        "spec: Required value: no initContainer or container defined for SidecarSet"),
                Arguments.of("wrong-containers (no shareVolumePolicy)", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'containers':[{'name':'test-sidecar','image':'test-image','podInjectPolicy':'BeforeAppContainer'}]",
                        "spec.containers[0].shareVolumePolicy.type: Unsupported value: \"\": supported values: \"enabled\", \"disabled\""),
                Arguments.of("wrong-volumes (no source)", "test-sidecarset", SEL + "," + NOT_UPDATE + ",'containers':["
                        + c + "],'volumes':[{'name':'test-volume'},{'name':'istio-token','projected':{'defaultMode':420,"
                        + "'sources':[{'serviceAccountToken':{'audience':'istio-ca','expirationSeconds':43200,"
                        + "'path':'istio-token'}}]}}]", "spec.volumes[0]: Required value: must specify a volume type"),
                Arguments.of("wrong-volumeDevice-volumes", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'containers':[{'name':'test-sidecar','image':'test-image','podInjectPolicy':'BeforeAppContainer',"
                        + "'shareVolumePolicy':{'type':'disabled'},'volumeDevices':[{'name':'disk0','devicePath':'/dev/nvme1'}]}]",
                        "spec.containers[0].volumeDevices[0].name: Not found: \"disk0\""),
                Arguments.of("right-volumeDevice-volumes", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'containers':[{'name':'test-sidecar','image':'test-image','podInjectPolicy':'BeforeAppContainer',"
                        + "'shareVolumePolicy':{'type':'disabled'},'volumeDevices':[{'name':'disk0','devicePath':'/dev/nvme1'}]}],"
                        + "'volumes':[{'name':'disk0','persistentVolumeClaim':{'claimName':'pvc-0'}}]", null),
                Arguments.of("volumeDevice-volumeMount-path-conflict", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'containers':[{'name':'test-sidecar','image':'test-image','podInjectPolicy':'BeforeAppContainer',"
                        + "'shareVolumePolicy':{'type':'disabled'},'volumeDevices':[{'name':'disk0','devicePath':'/home/admin/log'}],"
                        + "'volumeMounts':[{'name':'log','mountPath':'/home/admin/log'}]}],"
                        + "'volumes':[{'name':'disk0','persistentVolumeClaim':{'claimName':'pvc-0'}},{'name':'log','emptyDir':{}}]",
                        "must not be already mounted in volumeMounts"),
                Arguments.of("wrong-metadata (same annotation twice)", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'containers':[" + c + "],'patchPodMetadata':[{'annotations':{'key1':'value1'},"
                        + "'patchPolicy':'MergePatchJson'},{'annotations':{'key1':'value1'},'patchPolicy':'Overwrite'}]",
                        "spec.patchPodMetadata: Required value: patch annotation[key1] already exist"),
                Arguments.of("wrong-name-injectionStrategy (no such custom version)", "test-sidecarset", SEL + ","
                        + NOT_UPDATE + ",'injectionStrategy':{'revision':{'customVersion':'normal-sidecarset-01234'}},"
                        + "'containers':[" + c + "]", "Cannot find specific ControllerRevision"),
                Arguments.of("not-existing-injectionStrategy", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'injectionStrategy':{'revision':{'revisionName':'test-sidecarset-678235','policy':'Always'}},"
                        + "'containers':[" + c + "]", "Cannot find specific ControllerRevision"),
                Arguments.of("existing injection revision", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'injectionStrategy':{'revision':{'revisionName':'test-sidecarset-1','policy':'Partial'}},"
                        + "'containers':[" + c + "]", null),
                Arguments.of("injection revision with neither name nor version", "test-sidecarset", SEL + ","
                        + NOT_UPDATE + ",'injectionStrategy':{'revision':{'policy':'Always'}},'containers':[" + c + "]",
                        "revisionName and customVersion cannot be empty simultaneously"),
                Arguments.of("injection revision policy unknown", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'injectionStrategy':{'revision':{'revisionName':'test-sidecarset-1','policy':'Sometimes'}},"
                        + "'containers':[" + c + "]", "Unsupported value: \"Sometimes\": supported values: \"Always\", \"Partial\""),
                Arguments.of("native sidecar initContainer with RollingUpdate", "test-sidecarset", SEL + "," + ROLLING
                        + ",'initContainers':[{'name':'init','image':'i','restartPolicy':'Always'}]",
                        "The initContainer in-place upgrade is not currently supported."),
                Arguments.of("resources-policy-and-resources-conflict", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'containers':[{'name':'test-sidecar','image':'test-image','podInjectPolicy':'BeforeAppContainer',"
                        + "'shareVolumePolicy':{'type':'disabled'},'resources':{'limits':{'cpu':'1'}},'resourcesPolicy':"
                        + "{'targetContainersMode':'sum','targetContainersNameRegex':'.*','resourcesExpr':{'limits':{'cpu':'cpu*0.5'}}}}]",
                        "resourcesPolicy and resources cannot be configured together"),
                Arguments.of("invalid-target-container-mode", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'containers':[{'name':'test-sidecar','image':'test-image','podInjectPolicy':'BeforeAppContainer',"
                        + "'shareVolumePolicy':{'type':'disabled'},'resourcesPolicy':{'targetContainersMode':'avg',"
                        + "'targetContainersNameRegex':'.*','resourcesExpr':{'limits':{'cpu':'cpu'}}}}]",
                        "targetContainersMode: Unsupported value: \"avg\""),
                Arguments.of("initContainer-with-resources-policy-forbidden", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'initContainers':[{'name':'init','image':'i','resourcesPolicy':{'targetContainersMode':'max',"
                        + "'targetContainersNameRegex':'.*','resourcesExpr':{'requests':{'memory':'memory*2'}}}}]",
                        "resourcesPolicy is only supported for containers with RestartPolicy Always"),
                Arguments.of("native-sidecar-initContainer-with-resources-policy-allowed", "test-sidecarset", SEL + ","
                        + NOT_UPDATE + ",'initContainers':[{'name':'init','image':'i','restartPolicy':'Always',"
                        + "'resourcesPolicy':{'targetContainersMode':'max','targetContainersNameRegex':'^app$',"
                        + "'resourcesExpr':{'requests':{'memory':'max(memory*2, 50Mi)'}}}}]", null),
                Arguments.of("resources expression with a foreign variable", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'initContainers':[{'name':'init','image':'i','restartPolicy':'Always',"
                        + "'resourcesPolicy':{'targetContainersMode':'sum','targetContainersNameRegex':'.*',"
                        + "'resourcesExpr':{'limits':{'cpu':'memory+1'}}}}]", "unknown variable memory"),
                Arguments.of("resources regex invalid", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'initContainers':[{'name':'init','image':'i','restartPolicy':'Always',"
                        + "'resourcesPolicy':{'targetContainersMode':'sum','targetContainersNameRegex':'(',"
                        + "'resourcesExpr':{'limits':{'cpu':'cpu'}}}}]", "invalid regex pattern"),
                Arguments.of("resources expression missing", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'initContainers':[{'name':'init','image':'i','restartPolicy':'Always',"
                        + "'resourcesPolicy':{'targetContainersMode':'sum','targetContainersNameRegex':'.*','resourcesExpr':{}}}]",
                        "at least one of limits or requests must be configured"),
                // Stricter than OpenKruise: expressions every pod creation would fail on, and values a merge
                // patch cannot use.
                Arguments.of("resources expression multiplying two quantities", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'initContainers':[{'name':'init','image':'i','restartPolicy':'Always',"
                        + "'resourcesPolicy':{'targetContainersMode':'sum','targetContainersNameRegex':'.*',"
                        + "'resourcesExpr':{'limits':{'cpu':'cpu*cpu'}}}}]", "spec.initContainers[0].resourcesPolicy."
                        + "resourcesExpr.limits.cpu: Invalid value: \"cpu*cpu\": invalid expression: multiplication of "
                        + "two quantities (with cpu as a quantity, as at pod creation)"),
                Arguments.of("resources expression with an unknown function (as OpenKruise)", "test-sidecarset", SEL
                        + "," + NOT_UPDATE + ",'initContainers':[{'name':'init','image':'i','restartPolicy':'Always',"
                        + "'resourcesPolicy':{'targetContainersMode':'sum','targetContainersNameRegex':'.*',"
                        + "'resourcesExpr':{'requests':{'memory':'avg(memory, 1Mi)'}}}}]",
                        "invalid expression: unknown function: avg"),
                Arguments.of("resources expression dividing by zero (as OpenKruise)", "test-sidecarset", SEL
                        + "," + NOT_UPDATE + ",'initContainers':[{'name':'init','image':'i','restartPolicy':'Always',"
                        + "'resourcesPolicy':{'targetContainersMode':'sum','targetContainersNameRegex':'.*',"
                        + "'resourcesExpr':{'requests':{'cpu':'cpu/0'}}}}]", "invalid expression: division by zero"),
                Arguments.of("resources expression too long", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'initContainers':[{'name':'init','image':'i','restartPolicy':'Always',"
                        + "'resourcesPolicy':{'targetContainersMode':'sum','targetContainersNameRegex':'.*',"
                        + "'resourcesExpr':{'requests':{'cpu':'" + "cpu+".repeat(300) + "1'}}}}]",
                        "may not be more than 1024 characters (a resources expression)"),
                Arguments.of("patchPodMetadata MergePatchJson value not JSON", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'containers':[" + c + "],'patchPodMetadata':[{'annotations':{'key1':'x'},"
                        + "'patchPolicy':'MergePatchJson'}]", "spec.patchPodMetadata.annotations[key1]: Invalid value: "
                        + "\"x\": patchPolicy MergePatchJson: the value is not JSON ("),
                Arguments.of("patchPodMetadata MergePatchJson value with trailing text", "test-sidecarset", SEL + ","
                        + NOT_UPDATE + ",'containers':[" + c + "],'patchPodMetadata':[{'annotations':{'key1':'{} x'},"
                        + "'patchPolicy':'MergePatchJson'}]", "patchPolicy MergePatchJson: the value is not JSON"),
                Arguments.of("patchPodMetadata MergePatchJson value null", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'containers':[" + c + "],'patchPodMetadata':[{'annotations':{'key1':'null'},"
                        + "'patchPolicy':'MergePatchJson'}]", "patchPolicy MergePatchJson: the value is null"),
                Arguments.of("patchPodMetadata MergePatchJson JSON values", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'containers':[" + c + "],'patchPodMetadata':[{'annotations':{'key1':'{\\\"a\\\":1}',"
                        + "'key2':'\\\"x\\\"'},'patchPolicy':'MergePatchJson'}]", null),
                Arguments.of("patchPodMetadata Overwrite takes any value", "test-sidecarset", SEL + "," + NOT_UPDATE
                        + ",'containers':[" + c + "],'patchPodMetadata':[{'annotations':{'key1':'x'},"
                        + "'patchPolicy':'Overwrite'}]", null),
                // Names, selectors, strategies
                Arguments.of("name with a dot", "a.b", SEL + "," + NOT_UPDATE + ",'containers':[" + c + "]",
                        "sidecarset name must consist of alphanumeric characters or '-'"),
                Arguments.of("name of 64 characters", "a".repeat(64), SEL + "," + NOT_UPDATE + ",'containers':[" + c + "]",
                        "must be no more than 63 characters"),
                Arguments.of("upper-case name is OpenKruise's syntax", "Log-Shipper", SEL + "," + NOT_UPDATE
                        + ",'containers':[" + c + "]", null),
                Arguments.of("empty selector", "s", "'selector':{}," + NOT_UPDATE + ",'containers':[" + c + "]",
                        "spec.selector: Invalid value: \"{}\": empty selector is not valid for sidecarset."),
                Arguments.of("partition with update selector", "s", SEL + ",'updateStrategy':{'type':'RollingUpdate',"
                        + "'partition':2,'selector':{'matchLabels':{'x':'y'}}},'containers':[" + c + "]",
                        "Partition and Selector cannot be used together"),
                Arguments.of("partition 0 with update selector is fine", "s", SEL + ",'updateStrategy':{'type':"
                        + "'RollingUpdate','partition':0,'selector':{'matchLabels':{'x':'y'}}},'containers':[" + c + "]", null),
                Arguments.of("negative maxUnavailable", "s", SEL + ",'updateStrategy':{'type':'RollingUpdate',"
                        + "'maxUnavailable':-1},'containers':[" + c + "]", "spec.updateStrategy.maxUnavailable"),
                Arguments.of("partition 150%", "s", SEL + ",'updateStrategy':{'type':'RollingUpdate',"
                        + "'partition':'150%'},'containers':[" + c + "]", "spec.updateStrategy.partition"),
                Arguments.of("unknown update type", "s", SEL + ",'updateStrategy':{'type':'OnDelete'},'containers':["
                        + c + "]", "Unsupported value: \"OnDelete\": supported values: \"NotUpdate\", \"RollingUpdate\""),
                Arguments.of("NotUpdate ignores a bad partition, as OpenKruise", "s", SEL + ",'updateStrategy':{'type':"
                        + "'NotUpdate','partition':'abc'},'containers':[" + c + "]", null),
                Arguments.of("unknown inject policy", "s", SEL + "," + NOT_UPDATE + ",'containers':[{'name':'x','image':'i',"
                        + "'podInjectPolicy':'Middle','shareVolumePolicy':{'type':'enabled'}}]",
                        "spec.containers[0].podInjectPolicy: Unsupported value: \"Middle\""),
                Arguments.of("duplicate container names", "s", SEL + "," + NOT_UPDATE + ",'containers':[" + c + "," + c + "]",
                        "spec.containers[1].name: Duplicate value: \"test-sidecar\""),
                Arguments.of("mount of a volume the SidecarSet lacks", "s", SEL + "," + NOT_UPDATE + ",'containers':[{"
                        + "'name':'x','image':'i','podInjectPolicy':'BeforeAppContainer','shareVolumePolicy':{'type':'enabled'},"
                        + "'volumeMounts':[{'name':'nope','mountPath':'/x'}]}]", "spec.containers[0].volumeMounts[0].name: Not found"),
                Arguments.of("transferEnv fieldRef without subscript support", "s", SEL + "," + NOT_UPDATE + ",'containers':[{"
                        + "'name':'x','image':'i','podInjectPolicy':'BeforeAppContainer','shareVolumePolicy':{'type':'enabled'},"
                        + "'transferEnv':[{'sourceContainerNameFrom':{'fieldRef':{'apiVersion':'v1','fieldPath':"
                        + "'spec.nodeName'}},'envName':'E'}]}]", "Unsupported value: \"spec.nodeName\""),
                Arguments.of("transferEnv fieldRef on a label", "s", SEL + "," + NOT_UPDATE + ",'containers':[{"
                        + "'name':'x','image':'i','podInjectPolicy':'BeforeAppContainer','shareVolumePolicy':{'type':'enabled'},"
                        + "'transferEnv':[{'sourceContainerNameFrom':{'fieldRef':{'apiVersion':'v1','fieldPath':"
                        + "'metadata.labels[\\u0027app\\u0027]'}},'envName':'E'}]}]", null),
                Arguments.of("patchPodMetadata without annotations", "s", SEL + "," + NOT_UPDATE + ",'containers':[" + c
                        + "],'patchPodMetadata':[{'patchPolicy':'Retain'}]", "no annotations defined for SidecarSet"),
                Arguments.of("patchPodMetadata without policy", "s", SEL + "," + NOT_UPDATE + ",'containers':[" + c
                        + "],'patchPodMetadata':[{'annotations':{'k':'v'}}]", "no patchPolicy defined for patchPodMetadata"),
                Arguments.of("quantity syntax", "s", SEL + "," + NOT_UPDATE + ",'containers':[{'name':'x','image':'i',"
                        + "'podInjectPolicy':'BeforeAppContainer','shareVolumePolicy':{'type':'enabled'},"
                        + "'resources':{'requests':{'cpu':'lots'}}}]", "spec.containers[0].resources.requests"));
    }

    static final SidecarSetLookup ONE_REVISION = new SidecarSetLookup() {
        @Override
        public List<SidecarSet> sidecarSets() {
            return List.of();
        }

        @Override
        public boolean hasRevision(SidecarSet set, SidecarSetInjectRevision revision) {
            return "test-sidecarset-1".equals(revision.getRevisionName());
        }
    };

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void openKruiseCases(String name, String setName, String spec, String expected) throws Exception {
        AdmissionResponse r = validate(ONE_REVISION, AdmissionRequest.CREATE, set(setName, spec), null);
        if (expected == null) {
            assertTrue(r.allowed(), name + ": " + r.message());
        } else {
            assertFalse(r.allowed(), name);
            assertEquals(422, r.code(), name);
            assertTrue(r.message().contains(expected), name + ": " + r.message());
        }
    }

    // OpenKruise's conflict tests (annotation keys, volumes) and container names.
    static SidecarSetLookup others(String... specs) throws Exception {
        List<SidecarSet> sets = new java.util.ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            sets.add(Json.toModel(set("other-" + i, specs[i]), SidecarSet.class));
        }
        return SidecarSetLookup.of(() -> sets, List::of);
    }

    @Test
    void containerNameUsedByAnOverlappingSidecarSetIsRefused() throws Exception {
        SidecarSetLookup lookup = others(SEL + ",'containers':[" + C + "]");
        AdmissionResponse r = validate(lookup, AdmissionRequest.CREATE, set("mine", SEL + "," + NOT_UPDATE
                + ",'containers':[" + C + "]"), null);
        assertFalse(r.allowed());
        assertTrue(r.message().contains("spec.containers: Invalid value: \"test-sidecar\": container test-sidecar "
                + "already exist in other-0"), r.message());
        // Disjoint pod selectors never meet on a pod.
        assertTrue(validate(lookup, AdmissionRequest.CREATE, set("mine", "'selector':{'matchLabels':{'a':'c'}},"
                + NOT_UPDATE + ",'containers':[" + C + "]"), null).allowed());
        // Disjoint namespace selectors neither.
        SidecarSetLookup inNs = others(SEL + ",'namespaceSelector':{'matchLabels':{'team':'x'}},'containers':[" + C + "]");
        assertTrue(validate(inNs, AdmissionRequest.CREATE, set("mine", SEL + ",'namespaceSelector':{'matchLabels':"
                + "{'team':'y'}}," + NOT_UPDATE + ",'containers':[" + C + "]"), null).allowed());
        // An update of the same SidecarSet does not conflict with itself.
        SidecarSetLookup self = SidecarSetLookup.of(() -> List.of(Json.toModel(setUnchecked("mine", SEL
                + ",'containers':[" + C + "]"), SidecarSet.class)), List::of);
        assertTrue(validate(self, AdmissionRequest.CREATE, set("mine", SEL + "," + NOT_UPDATE + ",'containers':["
                + C + "]"), null).allowed());
    }

    @Test
    void annotationConflictsAsOpenKruise() throws Exception {
        String mine = SEL + "," + NOT_UPDATE + ",'containers':[{'name':'mine','image':'i','podInjectPolicy':"
                + "'BeforeAppContainer','shareVolumePolicy':{'type':'enabled'}}],'patchPodMetadata':[{'annotations':"
                + "{'oom-score':'{\\\"log-agent\\\": 1}'},'patchPolicy':'%s'}]";
        String other = SEL + ",'containers':[{'name':'theirs','image':'i'}],'patchPodMetadata':[{'annotations':"
                + "{'%s':'{\\\"envoy\\\": 1}'},'patchPolicy':'%s'}]";
        // sidecarset annotation key conflict (Overwrite on either side)
        AdmissionResponse conflict = validate(others(String.format(other, "oom-score", "MergePatchJson")),
                AdmissionRequest.CREATE, set("mine", String.format(mine, "Overwrite")), null);
        assertFalse(conflict.allowed());
        assertTrue(conflict.message().contains("annotation oom-score is in conflict with sidecarset other-0"),
                conflict.message());
        // sidecarset annotation key different
        assertTrue(validate(others(String.format(other, "key2", "Overwrite")), AdmissionRequest.CREATE,
                set("mine", String.format(mine, "Overwrite")), null).allowed());
        // sidecarset annotation key same, and json
        assertTrue(validate(others(String.format(other, "oom-score", "MergePatchJson")), AdmissionRequest.CREATE,
                set("mine", String.format(mine, "MergePatchJson")), null).allowed());
    }

    @Test
    void volumeConflictsAsOpenKruise() throws Exception {
        String mine = SEL + "," + NOT_UPDATE + ",'containers':[{'name':'mine','image':'i','podInjectPolicy':"
                + "'BeforeAppContainer','shareVolumePolicy':{'type':'enabled'}}],'volumes':[%s]";
        String other = SEL + ",'containers':[{'name':'theirs','image':'i'}],'volumes':[%s]";
        String a = "{'name':'v','emptyDir':{}}";
        String b = "{'name':'v','hostPath':{'path':'/var/log'}}";
        // sidecarset volume name different
        assertTrue(validate(others(String.format(other, "{'name':'w','emptyDir':{}}")), AdmissionRequest.CREATE,
                set("mine", String.format(mine, a)), null).allowed());
        // sidecarset volume name same and equal
        assertTrue(validate(others(String.format(other, a)), AdmissionRequest.CREATE,
                set("mine", String.format(mine, a)), null).allowed());
        // sidecarset volume name same, but not equal
        AdmissionResponse r = validate(others(String.format(other, b)), AdmissionRequest.CREATE,
                set("mine", String.format(mine, a)), null);
        assertFalse(r.allowed());
        assertTrue(r.message().contains("volume v is in conflict with sidecarset other-0"), r.message());
    }

    @Test
    void upgradeTypeIsImmutableAndContainersCannotBeAdded() throws Exception {
        ObjectNode old = set("s", SEL + "," + NOT_UPDATE + ",'containers':[" + C + "]");
        ObjectNode hot = set("s", SEL + "," + NOT_UPDATE + ",'containers':[" + C.replace("ColdUpgrade", "HotUpgrade") + "]");
        AdmissionResponse r = validate(SidecarSetLookup.NONE, AdmissionRequest.UPDATE, hot, old);
        assertFalse(r.allowed());
        assertTrue(r.message().contains("container test-sidecar upgradeType is immutable"), r.message());
        ObjectNode added = set("s", SEL + "," + NOT_UPDATE + ",'containers':[" + C + "," + C.replace("test-sidecar", "new")
                + "]");
        r = validate(SidecarSetLookup.NONE, AdmissionRequest.UPDATE, added, old);
        assertFalse(r.allowed());
        assertTrue(r.message().contains("container new is not found"), r.message());
        ObjectNode image = set("s", SEL + "," + NOT_UPDATE + ",'containers':[" + C.replace("test-image", "v2") + "]");
        assertTrue(validate(SidecarSetLookup.NONE, AdmissionRequest.UPDATE, image, old).allowed());
    }

    @Test
    void v1alpha1IsJudgedInItsV1beta1Form() throws Exception {
        ObjectNode alpha = (ObjectNode) Json.MAPPER.readTree(("{'apiVersion':'apps.kruise.io/v1alpha1','kind':'SidecarSet',"
                + "'metadata':{'name':'s'},'spec':{'namespace':'default'," + NOT_UPDATE + ",'containers':[" + C + "]}}")
                .replace('\'', '"'));
        AdmissionResponse r = validate(SidecarSetLookup.NONE, AdmissionRequest.CREATE, alpha, null);
        assertFalse(r.allowed());
        assertTrue(r.message().contains("spec.selector: Required value"), r.message());
    }

    static ObjectNode setUnchecked(String name, String spec) {
        try {
            return set(name, spec);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
