package dev.kruisevertx.cloneset;

import com.fasterxml.jackson.databind.JsonNode;
import dev.kruisevertx.api.apps.v1alpha1.CloneSet;
import io.fabric8.kubernetes.api.model.apps.ControllerRevision;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which ControllerRevisions a CloneSet is at, and what must be written first: the update revision is the
 * revision of the current template (an existing one with the same data is reused, and renumbered to be the
 * newest if it is not); the current revision is the one named in {@code status.currentRevision}, or the update
 * revision. A name clash with different data bumps the collision count, as Kubernetes' history does.
 *
 * @param update         the update revision (as it will exist once {@code toCreate} is created)
 * @param current        the current revision
 * @param collisionCount the collision count to write to status
 * @param toCreate       a revision to create first, or null
 * @param renumber       an existing revision whose number must become {@code nextNumber}, or null
 */
public record RevisionResolution(ControllerRevision update, ControllerRevision current, Integer collisionCount,
                                 ControllerRevision toCreate, ControllerRevision renumber, long nextNumber) {

    public static RevisionResolution resolve(CloneSet cs, List<ControllerRevision> owned) {
        List<ControllerRevision> sorted = CloneSetRevisions.sorted(owned);
        long next = sorted.isEmpty() || sorted.get(sorted.size() - 1).getRevision() == null ? 1
                : sorted.get(sorted.size() - 1).getRevision() + 1;
        Integer collisionCount = cs.getStatus() == null ? null : cs.getStatus().getCollisionCount();
        JsonNode data = CloneSetRevisions.patchOf(cs);

        ControllerRevision equal = null;
        for (ControllerRevision r : sorted) {
            if (CloneSetRevisions.sameData(r, data)) {
                equal = r;
            }
        }
        ControllerRevision update;
        ControllerRevision toCreate = null;
        ControllerRevision renumber = null;
        if (equal != null) {
            update = equal;
            if (equal != sorted.get(sorted.size() - 1)) {
                renumber = equal;
            }
        } else {
            Map<String, ControllerRevision> byName = new HashMap<>();
            for (ControllerRevision r : sorted) {
                byName.put(r.getMetadata().getName(), r);
            }
            ControllerRevision candidate = CloneSetRevisions.newRevision(cs, next, collisionCount);
            while (byName.containsKey(candidate.getMetadata().getName())) {
                collisionCount = collisionCount == null ? 1 : collisionCount + 1;
                candidate = CloneSetRevisions.newRevision(cs, next, collisionCount);
            }
            update = candidate;
            toCreate = candidate;
        }
        String currentName = cs.getStatus() == null ? null : cs.getStatus().getCurrentRevision();
        ControllerRevision current = update;
        if (currentName != null) {
            for (ControllerRevision r : sorted) {
                if (r.getMetadata().getName().equals(currentName)) {
                    current = r;
                }
            }
        }
        return new RevisionResolution(update, current, collisionCount, toCreate, renumber, next);
    }
}
