package dev.kruisevertx.sim.faults;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FaultPlanTest {
    @Test
    void timingsHaveDefaultsAndSurviveACopy() {
        FaultPlan plan = FaultPlan.only(FaultClass.SLOW, 0.5).timing(FaultClass.SLOW, Duration.ofMillis(800));
        FaultPlan copy = plan.copy();
        plan.timing(FaultClass.SLOW, Duration.ofSeconds(9));
        assertEquals(Duration.ofMillis(800), copy.timing(FaultClass.SLOW));
        assertEquals(0.5, copy.rate(FaultClass.SLOW));
        assertEquals(Duration.ofSeconds(3), copy.timing(FaultClass.TIMEOUT));
        assertEquals(Duration.ofSeconds(3), copy.timing(FaultClass.WATCH_DROPPED));
        assertEquals(Duration.ofSeconds(1), copy.timing(FaultClass.TOO_MANY_REQUESTS));
    }

    @Test
    void badTimingsSayWhatIsWrong() {
        IllegalArgumentException noTime = assertThrows(IllegalArgumentException.class,
                () -> FaultPlan.none().timing(FaultClass.CONFLICT, Duration.ofSeconds(1)));
        assertTrue(noTime.getMessage().contains("CONFLICT"), noTime.getMessage());
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> FaultPlan.none().timing(FaultClass.SLOW, Duration.ZERO));
        assertTrue(zero.getMessage().contains("positive"), zero.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> FaultPlan.none().timing(FaultClass.TOO_MANY_REQUESTS, Duration.ofSeconds(-1)));
        // Retry-After: 0 is a valid answer ("retry at once").
        assertEquals(Duration.ZERO, FaultPlan.none().timing(FaultClass.TOO_MANY_REQUESTS, Duration.ZERO)
                .timing(FaultClass.TOO_MANY_REQUESTS));
    }
}
