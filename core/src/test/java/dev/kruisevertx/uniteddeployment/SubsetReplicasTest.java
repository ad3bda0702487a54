package dev.kruisevertx.uniteddeployment;

import io.fabric8.kubernetes.api.model.IntOrString;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A subset's replicas read as OpenKruise's ParseSubsetReplicas reads them, with its messages. */
class SubsetReplicasTest {

    @ParameterizedTest(name = "{1} of {0} is {2}")
    @CsvSource({
            "10, 3, 3",
            "-1, 3, 3",
            "10, 0%, 0",
            "10, 100%, 10",
            "5, 50%, 3",
            "5, 30%, 2",
            "3, 50%, 2",
            "7, 10%, 1",
            "4, 10%, 0",
            "10, +20%, 2",
            "0, 50%, 0"})
    void readsIntegersAndPercentagesRoundedHalfUp(int udReplicas, String value, int expected) {
        IntOrString v = value.endsWith("%") ? new IntOrString(value) : new IntOrString(Integer.parseInt(value));
        assertEquals(expected, SubsetReplicas.parse(udReplicas, v));
    }

    @ParameterizedTest(name = "{1} of {0}")
    @CsvSource(delimiter = '|', value = {
            "10|-1|subset replicas (-1) should not be less than 0",
            "-1|50%|subsetReplicas (50%) should not be string when unitedDeployment replicas is empty",
            "10|five|subset replicas (five) only support integer value or percentage value with a suffix '%'",
            "10|x%|subset replicas (x%) should be correct percentage integer: strconv.ParseInt: parsing \"x\": invalid syntax",
            "10|1.5%|subset replicas (1.5%) should be correct percentage integer: strconv.ParseInt: parsing \"1.5\": invalid syntax",
            "10|%|subset replicas (%) should be correct percentage integer: strconv.ParseInt: parsing \"\": invalid syntax",
            "10|99999999999%|subset replicas (99999999999%) should be correct percentage integer: strconv.ParseInt: parsing \"99999999999\": value out of range",
            "10|101%|subset replicas (101%) should be in range [0, 100]",
            "10|-5%|subset replicas (-5%) should be in range [0, 100]"})
    void rejectsWithOpenKruisesMessages(int udReplicas, String value, String message) {
        IntOrString v = value.matches("-?\\d+") ? new IntOrString(Integer.parseInt(value)) : new IntOrString(value);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SubsetReplicas.parse(udReplicas, v));
        assertEquals(message, e.getMessage());
    }
}
