package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.revision.RevisionHash;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The two hashes a SidecarSet carries in its annotations and stamps on the pods it injects, as OpenKruise computes
 * them: SHA-256 (hex, mapped onto the safe alphabet) over the sidecar containers, with the init containers included
 * only when one of them is a native sidecar ({@code restartPolicy: Always}). {@link #withoutImage} leaves the images
 * out, so two revisions differing only in images have equal hashes: the sign that a pod can be upgraded in place.
 *
 * <p>The encoding is canonical JSON (keys sorted at every level) of this model, not Go's encoding of OpenKruise's
 * structs, so the values differ from OpenKruise's for the same spec (see the README's differences).
 */
public final class SidecarSetHash {
    public static final String HASH_ANNOTATION = "kruise.io/sidecarset-hash";
    public static final String HASH_WITHOUT_IMAGE_ANNOTATION = "kruise.io/sidecarset-hash-without-image";

    private static final ObjectMapper CANONICAL = new ObjectMapper()
            .configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true);

    private SidecarSetHash() {
    }

    public static String of(SidecarSet set) {
        return hash(encode(set, false));
    }

    public static String withoutImage(SidecarSet set) {
        return hash(encode(set, true));
    }

    private static byte[] encode(SidecarSet set, boolean dropImages) {
        ObjectNode root = CANONICAL.createObjectNode();
        List<SidecarContainer> containers = set.getSpec() == null || set.getSpec().getContainers() == null
                ? List.of() : set.getSpec().getContainers();
        root.set("containers", tree(containers, dropImages));
        List<SidecarContainer> inits = set.getSpec() == null || set.getSpec().getInitContainers() == null
                ? List.of() : set.getSpec().getInitContainers();
        if (inits.stream().anyMatch(SidecarSetHash::isNativeSidecar)) {
            root.set("initContainers", tree(inits, dropImages));
        }
        try {
            return CANONICAL.writeValueAsBytes(CANONICAL.convertValue(root, Object.class));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("cannot encode sidecar containers", e);
        }
    }

    /** An init container with {@code restartPolicy: Always}: a Kubernetes native sidecar. */
    public static boolean isNativeSidecar(io.fabric8.kubernetes.api.model.Container c) {
        return "Always".equals(c.getRestartPolicy());
    }

    private static ArrayNode tree(List<SidecarContainer> containers, boolean dropImages) {
        ArrayNode out = CANONICAL.createArrayNode();
        for (SidecarContainer c : containers) {
            JsonNode node = ApiJson.serialization().convertValue(c, JsonNode.class);
            if (dropImages && node instanceof ObjectNode o) {
                o.remove("image");
            }
            out.add(node);
        }
        return out;
    }

    private static String hash(byte[] data) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(data);
            return RevisionHash.safeEncode(HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
        }
    }
}
