package dev.kruisevertx.controller;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;

import java.util.Objects;

/**
 * Whether a plan made from one cached version of a workload may still be carried out, judged from what the cache
 * holds now. A plan creating pods for a workload that is gone, replaced, being deleted or whose spec changed must
 * stop: the pods would be orphans to collect, or too many for the new spec.
 */
public final class PlanStaleness {
    private PlanStaleness() {
    }

    /**
     * Why the plan made from {@code planned} must stop, or null while it may go on.
     *
     * @param planned the object the plan was made from
     * @param cached  the same object as the cache holds it now (null when the cache no longer has it)
     */
    public static String reason(HasMetadata planned, HasMetadata cached) {
        if (cached == null) {
            return "the owner was deleted";
        }
        ObjectMeta was = planned.getMetadata();
        ObjectMeta now = cached.getMetadata();
        if (!Objects.equals(was.getUid(), now.getUid())) {
            return "the owner was replaced (uid " + was.getUid() + " -> " + now.getUid() + ")";
        }
        if (now.getDeletionTimestamp() != null) {
            return "the owner is being deleted";
        }
        if (!Objects.equals(was.getGeneration(), now.getGeneration())) {
            return "the owner's spec changed (generation " + was.getGeneration() + " -> " + now.getGeneration() + ")";
        }
        return null;
    }
}
