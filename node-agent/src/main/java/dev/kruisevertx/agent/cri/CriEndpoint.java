package dev.kruisevertx.agent.cri;

import io.vertx.core.net.SocketAddress;

import java.nio.file.Path;

/**
 * Where a CRI runtime listens: a unix socket, written as {@code unix:///run/containerd/containerd.sock}
 * or as a bare absolute path. TCP endpoints are refused: kubelet and OpenKruise's daemon talk to the
 * runtime only over the node-local socket.
 */
public record CriEndpoint(Path socket) {
    private static final String UNIX = "unix://";

    public CriEndpoint {
        if (socket == null || !socket.isAbsolute()) {
            throw new IllegalArgumentException("CRI socket path must be absolute, got " + socket);
        }
    }

    /** Parses {@code unix:///abs/path} or {@code /abs/path}; anything else is a clear error. */
    public static CriEndpoint parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("CRI endpoint is empty");
        }
        String s = text.trim();
        if (s.startsWith(UNIX)) {
            s = s.substring(UNIX.length());
        } else if (s.contains("://")) {
            throw new IllegalArgumentException("unsupported CRI endpoint '" + text
                    + "': only unix sockets are supported (unix:///path/to/socket)");
        }
        if (!s.startsWith("/")) {
            throw new IllegalArgumentException("CRI endpoint '" + text + "' must be an absolute socket path");
        }
        return new CriEndpoint(Path.of(s).normalize());
    }

    public SocketAddress address() {
        return SocketAddress.domainSocketAddress(socket.toString());
    }

    @Override
    public String toString() {
        return UNIX + socket;
    }
}
