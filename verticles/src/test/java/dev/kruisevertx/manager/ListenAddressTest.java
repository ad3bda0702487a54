package dev.kruisevertx.manager;

import dev.kruisevertx.cli.InvalidConfigurationException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ListenAddressTest {
    @Test
    void parsesGoListenAddresses() {
        assertEquals(new ListenAddress("0.0.0.0", 8080, false, "--metrics-addr :8080"), ListenAddress.parse("--metrics-addr", ":8080"));
        assertEquals(new ListenAddress("127.0.0.1", 9, false, "--metrics-addr 127.0.0.1:9"), ListenAddress.parse("--metrics-addr", "127.0.0.1:9"));
        assertEquals(new ListenAddress("::1", 80, false, "--metrics-addr [::1]:80"), ListenAddress.parse("--metrics-addr", "[::1]:80"));
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

    @Test
    void listenersThatWouldShareASocketAreRefused() {
        ListenAddress metrics = ListenAddress.parse("--metrics-addr", ":8080");
        ListenAddress sameOnLoopback = ListenAddress.parse("--health-probe-addr", "127.0.0.1:8080");
        InvalidConfigurationException e = assertThrows(InvalidConfigurationException.class,
                () -> ListenAddress.requireDistinct(metrics, sameOnLoopback));
        assertEquals("--health-probe-addr 127.0.0.1:8080: port 8080 is already used by --metrics-addr :8080; "
                + "each listener needs its own port", e.getMessage());
        // Different hosts, port 0 (the OS picks) and disabled listeners never clash.
        ListenAddress.requireDistinct(ListenAddress.parse("--metrics-addr", "127.0.0.1:8080"),
                ListenAddress.parse("--health-probe-addr", "127.0.0.2:8080"),
                ListenAddress.parse("--a", ":0"), ListenAddress.parse("--b", ":0"),
                ListenAddress.parse("--c", "0"), ListenAddress.parse("--d", "0"));
    }
}
