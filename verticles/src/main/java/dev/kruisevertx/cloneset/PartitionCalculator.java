package dev.kruisevertx.cloneset;

import dev.kruisevertx.api.common.IntOrPercent;
import io.fabric8.kubernetes.api.model.IntOrString;

/**
 * The number of pods a partition keeps at old revisions, with OpenKruise's v1.2 rounding: a percentage is
 * rounded up (so a partition above 0% keeps at least one old pod), but a percentage below 100% still updates
 * at least one pod unless the CloneSet has at most one replica. The result is clamped to [0, replicas].
 */
public final class PartitionCalculator {
    private PartitionCalculator() {
    }

    /**
     * @throws IllegalArgumentException when the partition is a malformed percentage
     */
    public static int partition(IntOrString partition, int replicas) {
        if (partition == null) {
            return 0;
        }
        int value = IntOrPercent.scaledValue(partition, replicas, true);
        if (replicas > 1 && value == replicas && IntOrPercent.isPercent(partition)
                && !"100%".equals(partition.getStrVal())) {
            value = replicas - 1;
        }
        return Math.max(Math.min(value, replicas), 0);
    }

    /** {@code status.expectedUpdatedReplicas}: replicas minus the partition. */
    public static int expectedUpdatedReplicas(IntOrString partition, int replicas) {
        return replicas - partition(partition, replicas);
    }
}
