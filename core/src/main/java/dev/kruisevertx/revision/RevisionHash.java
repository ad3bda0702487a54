package dev.kruisevertx.revision;

import java.nio.charset.StandardCharsets;

/**
 * The hash Kubernetes' controller history gives a ControllerRevision ({@code history.HashControllerRevision}, which
 * OpenKruise's CloneSet, Advanced StatefulSet and UnitedDeployment use): 32-bit FNV-1 over the revision data, then
 * over the collision count written as decimal text when there is one, printed in decimal and mapped onto the "safe"
 * alphabet without vowels (so a hash never spells a word). Shared by every workload that keeps revisions.
 */
public final class RevisionHash {
    private static final String SAFE = "bcdfghjklmnpqrstvwxz2456789";
    private static final int OFFSET = 0x811c9dc5;
    private static final int PRIME = 0x01000193;

    private RevisionHash() {
    }

    /**
     * {@code HashControllerRevision(data, collisionCount)}; a null count adds nothing (Kubernetes' nil probe).
     * OpenKruise always passes a count (0 before any collision), so its revisions hash the text "0" too.
     */
    public static String of(byte[] data, Integer collisionCount) {
        return collisionCount == null ? safeEncode(Integer.toUnsignedString(fnv1(OFFSET, data)))
                : controllerHistory(data, collisionCount);
    }

    private static int fnv1(int h, byte[] data) {
        for (byte b : data) {
            h *= PRIME;
            h ^= b & 0xff;
        }
        return h;
    }

    /**
     * Kubernetes' {@code history.HashControllerRevision} as OpenKruise's UnitedDeployment names its revisions: 32-bit
     * FNV-1 over the data, then over the collision count written as decimal text (OpenKruise always passes a count,
     * 0 before any collision), safe-encoded.
     */
    public static String controllerHistory(byte[] data, int collisionCount) {
        int h = fnv1(OFFSET, data);
        for (byte b : Integer.toString(collisionCount).getBytes(StandardCharsets.UTF_8)) {
            h *= PRIME;
            h ^= b & 0xff;
        }
        return safeEncode(Integer.toUnsignedString(h));
    }

    /**
     * The Deployment controller's {@code pod-template-hash}: 32-bit FNV-1a (xor, then multiply) with the collision
     * count as 4 little-endian bytes, which is what kube's {@code controller.ComputeHash} uses (unlike
     * {@link #of}).
     */
    public static String fnv1a(byte[] data, Integer collisionCount) {
        int h = OFFSET;
        for (byte b : data) {
            h ^= b & 0xff;
            h *= PRIME;
        }
        if (collisionCount != null) {
            int c = collisionCount;
            for (int k = 0; k < 4; k++) {
                h ^= (c >>> (8 * k)) & 0xff;
                h *= PRIME;
            }
        }
        return safeEncode(Integer.toUnsignedString(h));
    }

    public static String safeEncode(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length);
        for (byte b : bytes) {
            out.append(SAFE.charAt((b & 0xff) % SAFE.length()));
        }
        return out.toString();
    }
}
