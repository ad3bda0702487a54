package dev.kruisevertx.cache;

/**
 * A bounded string interner for cached objects: a fixed table of slots, each holding the last string that hashed
 * to it. A string equal to the one in its slot is answered with that instance; any other string takes the slot.
 * Repeated values (label keys and values, image names, namespaces, env names, owner names) keep their slot and end
 * up shared by every object that carries them; values seen once (uids, pod IPs) only overwrite a slot. So memory is
 * fixed (the slots, plus the strings they hold, which live objects share anyway) whatever the cluster's churn, and
 * nothing is ever retained because it was interned once.
 *
 * <p>Thread-safe without locks: slots are plain array stores of immutable {@link String}s (safe to publish
 * racily); a lost race only costs a missed share.
 */
public final class SlotInterner {
    /** Longer strings are left alone: hashing them costs more than sharing saves, and they rarely repeat. */
    public static final int MAX_LENGTH = 256;

    private final String[] slots;
    private final int mask;

    /** A table of {@code 2^bits} slots (4 bytes each with compressed references). */
    public SlotInterner(int bits) {
        if (bits < 4 || bits > 24) {
            throw new IllegalArgumentException("interner size must be 2^4..2^24 slots, got 2^" + bits);
        }
        slots = new String[1 << bits];
        mask = slots.length - 1;
    }

    /** The shared instance equal to {@code s} when there is one, else {@code s} (which may become the shared one). */
    public String intern(String s) {
        if (s == null) {
            return null;
        }
        if (s.isEmpty()) {
            return "";
        }
        if (s.length() > MAX_LENGTH) {
            return s;
        }
        int h = s.hashCode();
        int i = (h ^ (h >>> 16)) & mask;
        String held = slots[i];
        if (held != null && (held == s || held.equals(s))) {
            return held;
        }
        slots[i] = s;
        return s;
    }

    public int capacity() {
        return slots.length;
    }
}
