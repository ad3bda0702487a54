package dev.kruisevertx.manager;

/** A Go-style listen address: ":8080", "127.0.0.1:8080", or "0" to disable. */
public record ListenAddress(String host, int port, boolean disabled) {
    public static ListenAddress parse(String flag, String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(flag + ": empty address; use \":PORT\", \"HOST:PORT\" or \"0\" to disable");
        }
        if (value.equals("0")) {
            return new ListenAddress("0.0.0.0", 0, true);
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
        return new ListenAddress(host.isEmpty() ? "0.0.0.0" : host, port, false);
    }
}
