package dev.kruisevertx.inplace;

import dev.kruisevertx.api.common.WellKnown;
import dev.kruisevertx.podutil.Pods;
import io.fabric8.kubernetes.api.model.HasMetadata;

import java.util.Map;

/**
 * How a workload records a pod's revision in its labels, and recognises it, as OpenKruise's revision adapters:
 * CloneSet writes the revision name (or only its hash with gate CloneSetShortHash) plus the bare hash in
 * {@value WellKnown#POD_TEMPLATE_HASH_LABEL}, and treats long and short forms as equal; Advanced StatefulSet writes
 * the revision name only and compares exactly.
 */
public final class RevisionLabels {
    private final boolean cloneSetStyle;
    private final boolean shortHash;

    private RevisionLabels(boolean cloneSetStyle, boolean shortHash) {
        this.cloneSetStyle = cloneSetStyle;
        this.shortHash = shortHash;
    }

    /** CloneSet's adapter; {@code shortHash} is gate CloneSetShortHash. */
    public static RevisionLabels cloneSet(boolean shortHash) {
        return new RevisionLabels(true, shortHash);
    }

    /** The default adapter (Advanced StatefulSet and others): the revision label only, exact comparison. */
    public static RevisionLabels plain() {
        return new RevisionLabels(false, false);
    }

    /** The hash part of a revision name: the text after its last '-' ("demo-7d5f8" gives "7d5f8"). */
    public static String shortHashOf(String revision) {
        if (revision == null) {
            return null;
        }
        int dash = revision.lastIndexOf('-');
        return dash < 0 ? revision : revision.substring(dash + 1);
    }

    /** Writes the revision labels into a label map the caller owns. */
    public void write(Map<String, String> labels, String revision) {
        if (!cloneSetStyle) {
            labels.put(WellKnown.CONTROLLER_REVISION_HASH_LABEL, revision);
            return;
        }
        String hash = shortHashOf(revision);
        labels.put(WellKnown.CONTROLLER_REVISION_HASH_LABEL, shortHash ? hash : revision);
        labels.put(WellKnown.POD_TEMPLATE_HASH_LABEL, hash);
    }

    /** Whether the object's revision label denotes {@code revision}. */
    public boolean matches(HasMetadata obj, String revision) {
        String current = Pods.label(obj, WellKnown.CONTROLLER_REVISION_HASH_LABEL);
        if (current == null) {
            current = "";
        }
        if (current.equals(revision)) {
            return true;
        }
        return cloneSetStyle && revision != null && shortHashOf(revision).equals(shortHashOf(current));
    }
}
