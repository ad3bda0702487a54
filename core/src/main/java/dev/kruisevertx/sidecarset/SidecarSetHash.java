package dev.kruisevertx.sidecarset;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.kruisevertx.api.apps.v1beta1.SidecarContainer;
import dev.kruisevertx.api.apps.v1beta1.SidecarSet;
import dev.kruisevertx.api.common.ApiJson;
import dev.kruisevertx.revision.RevisionHash;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * The two hashes a SidecarSet carries in its annotations and stamps on the pods it injects, byte for byte as
 * OpenKruise v1.9 computes them: SHA-256 (hex, mapped onto the safe alphabet) of Go's {@code json.Marshal} of
 * {@code {"containers": spec.containers}}, with {@code "initContainers": spec.initContainers} (all of them) added
 * when one init container is a native sidecar ({@code restartPolicy: Always}). {@link #withoutImage} clears the
 * images first, so two revisions differing only in images have equal hashes: the sign that a pod can be upgraded
 * in place. The Go encoding (struct field order, omitempty, Quantity and string forms) is {@link GoJson}'s; the same
 * hash therefore means the same thing on pods injected by OpenKruise and by this project.
 */
public final class SidecarSetHash {
    public static final String HASH_ANNOTATION = "kruise.io/sidecarset-hash";
    public static final String HASH_WITHOUT_IMAGE_ANNOTATION = "kruise.io/sidecarset-hash-without-image";

    private SidecarSetHash() {
    }

    public static String of(SidecarSet set) {
        return hash(encode(set, false).getBytes(StandardCharsets.UTF_8));
    }

    public static String withoutImage(SidecarSet set) {
        return hash(encode(set, true).getBytes(StandardCharsets.UTF_8));
    }

    /** The exact string OpenKruise hashes (Go's encoding of a map: keys sorted, so containers come first). */
    static String encode(SidecarSet set, boolean dropImages) {
        JsonNode containers = tree(set.getSpec() == null ? null : set.getSpec().getContainers(), dropImages);
        List<SidecarContainer> inits = set.getSpec() == null ? null : set.getSpec().getInitContainers();
        StringBuilder out = new StringBuilder("{\"containers\":");
        out.append(GoJson.encode(GoJson.slice(GoJson.SIDECAR_CONTAINER), containers));
        if (inits != null && inits.stream().anyMatch(SidecarSetHash::isNativeSidecar)) {
            out.append(",\"initContainers\":");
            out.append(GoJson.encode(GoJson.slice(GoJson.SIDECAR_CONTAINER), tree(inits, dropImages)));
        }
        return out.append('}').toString();
    }

    /** An init container with {@code restartPolicy: Always}: a Kubernetes native sidecar. */
    public static boolean isNativeSidecar(io.fabric8.kubernetes.api.model.Container c) {
        return "Always".equals(c.getRestartPolicy());
    }

    private static JsonNode tree(List<SidecarContainer> containers, boolean dropImages) {
        if (containers == null) {
            return null;
        }
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
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
