package dev.kruisevertx.manager;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ListenAddressTest {
    @Test
    void parsesGoListenAddresses() {
        assertEquals(new ListenAddress("0.0.0.0", 8080, false), ListenAddress.parse("--metrics-addr", ":8080"));
        assertEquals(new ListenAddress("127.0.0.1", 9, false), ListenAddress.parse("--metrics-addr", "127.0.0.1:9"));
        assertEquals(new ListenAddress("::1", 80, false), ListenAddress.parse("--metrics-addr", "[::1]:80"));
        assertTrue(ListenAddress.parse("--metrics-addr", "0").disabled());
    }

    @Test
    void badAddressesNameTheFlag() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ListenAddress.parse("--metrics-addr", "8080"))
                .getMessage().startsWith("--metrics-addr: \"8080\" has no port"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ListenAddress.parse("--health-probe-addr", ":http"))
                .getMessage().contains("not a number"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ListenAddress.parse("--health-probe-addr", ":70000"))
                .getMessage().contains("out of range"));
    }
}
