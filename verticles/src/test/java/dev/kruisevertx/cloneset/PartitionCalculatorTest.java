package dev.kruisevertx.cloneset;

import io.fabric8.kubernetes.api.model.IntOrString;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PartitionCalculatorTest {
    @ParameterizedTest(name = "partition {0} of {1} replicas keeps {2} old")
    @CsvSource({
            // v1.2: 8 x 90% rounds up to 8 but a percentage below 100% must update one pod.
            "90%, 8, 7",
            "90%, 10, 9",
            "80%, 10, 8",
            "99%, 5, 4",
            "50%, 5, 3",
            "1%, 5, 1",
            "0%, 5, 0",
            "100%, 5, 5",
            // At most one replica: nothing forces an update.
            "90%, 1, 1",
            "50%, 1, 1",
            "0%, 1, 0",
            "90%, 0, 0",
            "3, 5, 3",
            "7, 5, 5",
            "0, 5, 0",
            "-1, 5, 0",
    })
    void rounding(String partition, int replicas, int expected) {
        IntOrString value = partition.endsWith("%") ? new IntOrString(partition) : new IntOrString(Integer.parseInt(partition));
        assertEquals(expected, PartitionCalculator.partition(value, replicas));
        assertEquals(replicas - expected, PartitionCalculator.expectedUpdatedReplicas(value, replicas));
    }
}
