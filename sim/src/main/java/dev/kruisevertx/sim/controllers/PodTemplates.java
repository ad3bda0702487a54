package dev.kruisevertx.sim.controllers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.revision.RevisionData;
import dev.kruisevertx.revision.RevisionHash;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;

import java.nio.charset.StandardCharsets;

/**
 * Pod templates as the Deployment controller compares and hashes them. Kube hashes the Go struct; here the
 * canonical JSON (sorted keys, no null or empty fields) stands in for it, so equal templates give equal hashes and
 * a hash is a 10-character-or-shorter word of kube's safe alphabet, as kube's labels are.
 */
final class PodTemplates {
    static final String HASH_LABEL = "pod-template-hash";

    private PodTemplates() {
    }

    /** The canonical text of a template, without its {@code pod-template-hash} label. */
    static String canonical(PodTemplateSpec template) {
        JsonNode tree = RevisionData.SORTED.valueToTree(template);
        if (tree.path("metadata").path("labels") instanceof ObjectNode labels) {
            labels.remove(HASH_LABEL);
        }
        return new String(RevisionData.bytes(RevisionData.sortKeys(RevisionData.prune(tree))), StandardCharsets.UTF_8);
    }

    /** kube's {@code ComputeHash}: FNV-1a of the template, then of the collision count, safe-encoded. */
    static String hash(PodTemplateSpec template, Integer collisionCount) {
        return RevisionHash.fnv1a(canonical(template).getBytes(StandardCharsets.UTF_8), collisionCount);
    }

    /** kube's {@code EqualIgnoreHash}. */
    static boolean equalIgnoringHash(PodTemplateSpec a, PodTemplateSpec b) {
        return canonical(a).equals(canonical(b));
    }
}
