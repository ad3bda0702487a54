package dev.kruisevertx.sidecarset;

import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;
import io.fabric8.kubernetes.api.model.apps.ControllerRevisionBuilder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The revision a created pod gets (OpenKruise v1.9's getSuitableRevisionSidecarSet for CREATE), as a table. */
class SidecarSetRevisionChoiceTest {
    static final ControllerRevision R1 = revision("s-r1", 1, "v1", "[{'name':'c','image':'img:1'}]", "hash-r1");
    static final ControllerRevision R2 = revision("s-r2", 2, "v1", "[{'name':'c','image':'img:2'}]", null);
    static final ControllerRevision R3 = revision("s-r3", 3, "v2", "[{'name':'c','image':'img:3'}]", "hash-r3");
    static final SidecarSetRevisionChoice.Revisions REVISIONS = new SidecarSetRevisionChoice.Revisions() {
        @Override
        public Optional<ControllerRevision> byName(String name) {
            return List.of(R1, R2, R3).stream().filter(r -> r.getMetadata().getName().equals(name)).findFirst();
        }

        @Override
        public List<ControllerRevision> of(String sidecarSetName) {
            return "s".equals(sidecarSetName) ? List.of(R3, R1, R2) : List.of();
        }
    };

    static ControllerRevision revision(String name, long number, String customVersion, String containers, String hash) {
        ControllerRevisionBuilder b = new ControllerRevisionBuilder().withNewMetadata().withName(name)
                .withNamespace("kruise-system").addToLabels("kruise.io/sidecarset-name", "s")
                .addToLabels("apps.kruise.io/sidecarset-custom-version", customVersion).endMetadata()
                .withRevision(number).withData(ApiJson.serialization().unmarshal(("{'spec':{'$patch':'replace',"
                        + "'containers':" + containers + "}}").replace('\'', '"'), Map.class));
        if (hash != null) {
            b.editMetadata().addToAnnotations(SidecarSetHash.HASH_ANNOTATION, hash).endMetadata();
        }
        return b.build();
    }

    static SidecarSet set(String strategy) {
        return ApiJson.serialization().unmarshal(("{'apiVersion':'apps.kruise.io/v1beta1','kind':'SidecarSet',"
                + "'metadata':{'name':'s','annotations':{'kruise.io/sidecarset-hash':'latest'}},"
                + "'spec':{'selector':{'matchLabels':{'app':'web'}},'containers':[{'name':'c','image':'img:latest'}]"
                + (strategy.isEmpty() ? "" : "," + strategy) + "},'status':{'latestRevision':'s-latest'}}")
                .replace('\'', '"'), SidecarSet.class);
    }

    static Pod pod(String labels) {
        return ApiJson.serialization().unmarshal(("{'apiVersion':'v1','kind':'Pod','metadata':{'name':'p',"
                + "'labels':{" + labels + "}},'spec':{'containers':[{'name':'main','image':'nginx'}]}}")
                .replace('\'', '"'), Pod.class);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no revision pinned                          | ''                                                                      | 'app':'web'                 | 0.0 | img:latest | s-latest",
            "empty revision                              | 'injectionStrategy':{'revision':{'policy':'Always'}}                    | 'app':'web'                 | 0.0 | img:latest | s-latest",
            "revisionName, Always                        | 'injectionStrategy':{'revision':{'revisionName':'s-r1','policy':'Always'}} | 'app':'web'            | 0.9 | img:1      | s-r1",
            "revisionName, no policy is Always           | 'injectionStrategy':{'revision':{'revisionName':'s-r1'}}                | 'app':'web'                 | 0.9 | img:1      | s-r1",
            "customVersion: newest revision with it      | 'injectionStrategy':{'revision':{'customVersion':'v1'}}                 | 'app':'web'                 | 0.9 | img:2      | s-r2",
            "update paused: pinned even when Partial     | 'updateStrategy':{'paused':true,'partition':'100%'},'injectionStrategy':{'revision':{'revisionName':'s-r1','policy':'Partial'}} | 'app':'web' | 0.99 | img:1 | s-r1",
            "Partial, outside the update selector        | 'updateStrategy':{'selector':{'matchLabels':{'canary':'y'}}},'injectionStrategy':{'revision':{'revisionName':'s-r1','policy':'Partial'}} | 'app':'web' | 0.99 | img:1 | s-r1",
            "Partial, inside the selector, no partition  | 'updateStrategy':{'selector':{'matchLabels':{'canary':'y'}}},'injectionStrategy':{'revision':{'revisionName':'s-r1','policy':'Partial'}} | 'app':'web','canary':'y' | 0.0 | img:latest | s-latest",
            "Partial, integer partition: latest          | 'updateStrategy':{'partition':3},'injectionStrategy':{'revision':{'revisionName':'s-r1','policy':'Partial'}} | 'app':'web' | 0.0 | img:latest | s-latest",
            "Partial 30%, draw 0.2: pinned               | 'updateStrategy':{'partition':'30%'},'injectionStrategy':{'revision':{'revisionName':'s-r1','policy':'Partial'}} | 'app':'web' | 0.2 | img:1 | s-r1",
            "Partial 30%, draw 0.3: pinned (<=)          | 'updateStrategy':{'partition':'30%'},'injectionStrategy':{'revision':{'revisionName':'s-r1','policy':'Partial'}} | 'app':'web' | 0.3 | img:1 | s-r1",
            "Partial 30%, draw 0.5: latest               | 'updateStrategy':{'partition':'30%'},'injectionStrategy':{'revision':{'revisionName':'s-r1','policy':'Partial'}} | 'app':'web' | 0.5 | img:latest | s-latest",
    })
    void choice(String name, String strategy, String labels, double draw, String image, String revision) {
        SidecarSet chosen = SidecarSetRevisionChoice.forCreate(set(strategy), pod(labels), REVISIONS, () -> draw);
        assertEquals(image, chosen.getSpec().getContainers().get(0).getImage());
        assertEquals(revision, chosen.getStatus().getLatestRevision());
    }

    @Test
    void aRestoredRevisionCarriesItsHashesOrComputesThem() {
        SidecarSet restored = SidecarSetRevisionChoice.restore(set(""), R1);
        assertEquals("hash-r1", restored.getMetadata().getAnnotations().get(SidecarSetHash.HASH_ANNOTATION));
        // No hash recorded on the revision: computed from the restored spec (OpenKruise's restoreRevisionInfo).
        SidecarSet computed = SidecarSetRevisionChoice.restore(set(""), R2);
        assertEquals(SidecarSetHash.of(computed), computed.getMetadata().getAnnotations().get(SidecarSetHash.HASH_ANNOTATION));
        assertEquals(SidecarSetHash.withoutImage(computed),
                computed.getMetadata().getAnnotations().get(SidecarSetHash.HASH_WITHOUT_IMAGE_ANNOTATION));
        // "$patch: replace" replaces the spec: the selector is not part of a revision.
        assertEquals(null, restored.getSpec().getSelector());
    }

    @Test
    void theSetItselfWhenNothingIsPinned() {
        SidecarSet s = set("");
        assertSame(s, SidecarSetRevisionChoice.forCreate(s, pod("'app':'web'"), REVISIONS, () -> 0));
    }

    @Test
    void aMissingPinnedRevisionRefusesThePodWithOpenKruisesMessages() {
        assertEquals("controllerrevisions.apps \"nope\" not found", assertThrows(
                SidecarSetRevisionChoice.MissingRevision.class, () -> SidecarSetRevisionChoice.forCreate(set(
                        "'injectionStrategy':{'revision':{'revisionName':'nope'}}"), pod("'app':'web'"), REVISIONS, () -> 0))
                .getMessage());
        assertEquals("ControllerRevision.apps \"s\" not found", assertThrows(
                SidecarSetRevisionChoice.MissingRevision.class, () -> SidecarSetRevisionChoice.forCreate(set(
                        "'injectionStrategy':{'revision':{'customVersion':'v9'}}"), pod("'app':'web'"), REVISIONS, () -> 0))
                .getMessage());
    }
}
