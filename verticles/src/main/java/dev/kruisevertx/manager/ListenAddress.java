package dev.kruisevertx.manager;

import dev.kruisevertx.cli.InvalidConfigurationException;
import dev.kruisevertx.cli.ListenError;

/**
 * A Go-style listen address: ":8080", "127.0.0.1:8080", or "0" to disable.
 *
 * @param setting the flag and value as written ("--metrics-addr :8080"), for errors the operator can act on
 */
public record ListenAddress(String host, int port, boolean disabled, String setting) {
    private static final String ALL_INTERFACES = "0.0.0.0";

    public static ListenAddress parse(String flag, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(flag + ": empty address; use \":PORT\", \"HOST:PORT\" or \"0\" to disable");
        }
        String setting = flag + " " + value;
        if (value.equals("0")) {
            return new ListenAddress(ALL_INTERFACES, 0, true, setting);
        }
        int colon = value.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException(flag + ": \"" + value + "\" has no port; use \":PORT\" or \"HOST:PORT\"");
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + ": port of \"" + value + "\" is not a number");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(flag + ": port " + port + " is out of range 0-65535");
        }
        return new ListenAddress(host.isEmpty() ? ALL_INTERFACES : host, port, false, setting);
    }

    /**
     * Whether both would bind the same socket. Listeners of one Vert.x instance on the same port share it and
     * split requests between their routers instead of failing, so this is checked before anything binds.
     */
    public boolean clashesWith(ListenAddress other) {
        if (disabled || other.disabled || port == 0 || port != other.port) {
            return false;
        }
        return host.equals(other.host) || isWildcard(host) || isWildcard(other.host);
    }

    /** Fails with an {@link InvalidConfigurationException} naming both settings when they would share a socket. */
    public static void requireDistinct(ListenAddress... addresses) {
        for (int i = 0; i < addresses.length; i++) {
            for (int j = i + 1; j < addresses.length; j++) {
                if (addresses[i].clashesWith(addresses[j])) {
                    throw new InvalidConfigurationException(addresses[j].setting + ": port " + addresses[j].port
                            + " is already used by " + addresses[i].setting + "; each listener needs its own port");
                }
            }
        }
    }

    /** What a failed bind of this address means to the operator: the flag, the value, the reason. */
    public InvalidConfigurationException bindFailure(Throwable cause) {
        return ListenError.explain(setting, cause);
    }

    private static boolean isWildcard(String host) {
        return host.equals(ALL_INTERFACES) || host.equals("::") || host.equals("0:0:0:0:0:0:0:0");
    }
}
