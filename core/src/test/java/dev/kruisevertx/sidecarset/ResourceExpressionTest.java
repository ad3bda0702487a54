package dev.kruisevertx.sidecarset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * OpenKruise v1.9's resource calculator and {@code evaluateResourceExpression} (the facts of its calculator README
 * and {@code sidecarset_resources_test.go}), and the validation built on them.
 */
class ResourceExpressionTest {
    static ResourceExpression.Quantity q(String s) {
        return ResourceExpression.Quantity.parse(s);
    }

    @ParameterizedTest(name = "{0} over {1} ({2}) = {3}")
    @CsvSource(delimiter = ';', value = {
            // evaluateResourceExpression (OpenKruise's table)
            "cpu*50%; 200m; limit; 100m",
            "memory*30%; 600Mi; limit; 180Mi",
            "max(cpu*50%, 100m); 150m; limit; 100m",
            "max(cpu*50%, 100m); 400m; limit; 200m",
            "cpu + 50m; 100m; limit; 150m",
            "max(memory*20% + 100Mi, 200Mi); 800Mi; limit; 260Mi",
            "500m; 100m; limit; 500m",
            "1Gi; 500Mi; limit; 1Gi",
            "cpu*50%; 0; request; 0",
            "memory*25%; 400Mi; request; 100Mi",
            "1; 2; request; 1",
            "1; 2Mi; request; 1",
            // the calculator README's examples
            "2 + 3 * 4; 1; limit; 14",
            "50% * 200; 1; limit; 100",
            "max(10, 20); 1; limit; 20",
            "100m + 50m; 1; limit; 150m",
            "40m * 2; 1; limit; 80m",
            "max(40m, 20); 1; limit; 20",
            "max(memory*50%, 100Mi); 512Mi; limit; 256Mi",
            // precedence, unary minus, case, exponent numbers
            "(cpu + 100m) * 2; 100m; limit; 400m",
            "cpu - 50m - 20m; 100m; limit; 30m",
            "-(-cpu); 1; limit; 1",
            "MAX(CPU, 2); 1; limit; 2",
            "cpu * 1e-1; 2; limit; 200m",
            ".5 * cpu; 2; limit; 1",
            "cpu / 3; 1; limit; 333m",
            "min(memory, 1.5Gi); 2Gi; limit; 1536Mi",
    })
    void evaluates(String expr, String aggregated, String kind, String expected) {
        assertEquals(expected, ResourceExpression.resource(expr, q(aggregated), kind.equals("limit")).toString());
    }

    @Test
    void emptyExpressionIsNoLimitAndAZeroRequest() {
        assertNull(ResourceExpression.resource("", q("100m"), true));
        assertEquals("0", ResourceExpression.resource("", q("100m"), false).toString());
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = ';', value = {
            "cpu * invalid; undefined variable: invalid",
            "10 / 0; division by zero",
            "40m * 2m; multiplication of two quantities",
            "2 / 1m; division by quantity",
            "cpu - 2; calculation result is negative: -1",
            "foo(1, 2); unknown function: foo",
            "max(cpu); max function requires exactly 2 arguments, got 1",
            "cpu ^ 2; parse error: syntax error at position 5 (unexpected \"^\")",
            "(cpu; parse error: syntax error at position 5 (unexpected end)",
            "cpu * 100mx; invalid number 100mx",
            "cpu * 5n; invalid number 5n",
            "cpu * 2e; invalid number 2e",
            "1e999 * cpu; number out of range: 1e999",
            "1e300 * 1e300; value out of range",
    })
    void refuses(String expr, String message) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ResourceExpression.evaluate(expr, Map.of("cpu", q("1"))));
        assertEquals(message, e.getMessage());
    }

    @Test
    void hostileExpressionsAreBounded() {
        assertThrows(IllegalArgumentException.class,
                () -> ResourceExpression.evaluate("(".repeat(200) + "1" + ")".repeat(200), Map.of()));
        assertThrows(IllegalArgumentException.class,
                () -> ResourceExpression.evaluate("-".repeat(500) + "1", Map.of()));
        assertThrows(IllegalArgumentException.class,
                () -> ResourceExpression.evaluate("1+".repeat(600) + "1", Map.of()));
        assertThrows(IllegalArgumentException.class,
                () -> ResourceExpression.resource("cpu * 9223372036854775807", q("9223372036854775807"), true));
    }

    @ParameterizedTest(name = "{0} ({1}): {2}")
    @CsvSource(delimiter = ';', nullValues = "OK", value = {
            "max(cpu*50%, 50m); cpu; OK",
            "max(memory*2, 50Mi); memory; OK",
            "memory+1; cpu; unknown variable memory (only cpu)",
            "cpu; memory; unknown variable cpu (only memory)",
            "cpu*cpu; cpu; multiplication of two quantities (with cpu as a quantity, as at pod creation)",
            "100m/cpu; cpu; division by quantity (with cpu as a quantity, as at pod creation)",
            "cpu - 2; cpu; calculation result is negative: -1",
            "cpu*; cpu; parse error: syntax error at position 5 (unexpected end)",
    })
    void validation(String expr, String variable, String problem) {
        assertEquals(problem, ResourceExpression.problem(expr, variable));
    }
}
