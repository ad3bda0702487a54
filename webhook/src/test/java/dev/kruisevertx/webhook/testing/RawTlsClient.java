package dev.kruisevertx.webhook.testing;

import dev.kruisevertx.webhook.certs.CertBundle;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.KeyStore;
import java.time.Duration;

/**
 * A TLS socket speaking raw HTTP/1.1 to the webhook: the hostile-client tests need to send half a header, stop
 * mid-body or offer one chosen cipher suite, which no HTTP client library does. Blocking; used from test threads only.
 */
public final class RawTlsClient implements AutoCloseable {
    private final SSLSocket socket;
    private final OutputStream out;
    private final InputStream in;

    private RawTlsClient(SSLSocket socket) throws IOException {
        this.socket = socket;
        this.out = socket.getOutputStream();
        this.in = socket.getInputStream();
    }

    /** Connects and completes the handshake with the JDK defaults. */
    public static RawTlsClient connect(CertBundle trusted, int port) throws Exception {
        return connect(trusted, port, null, null);
    }

    /**
     * Connects offering only {@code protocols} and {@code suites} (null: JDK defaults) and completes the handshake;
     * throws if the server refuses it.
     */
    public static RawTlsClient connect(CertBundle trusted, int port, String[] protocols, String[] suites)
            throws Exception {
        SSLSocket socket = (SSLSocket) context(trusted).getSocketFactory().createSocket("localhost", port);
        try {
            if (protocols != null) {
                socket.setEnabledProtocols(protocols);
            }
            if (suites != null) {
                socket.setEnabledCipherSuites(suites);
            }
            socket.setSoTimeout(60_000);
            socket.startHandshake();
            return new RawTlsClient(socket);
        } catch (Exception e) {
            socket.close();
            throw e;
        }
    }

    public static SSLContext context(CertBundle trusted) throws Exception {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        store.setCertificateEntry("ca", trusted.caCertificate());
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, tmf.getTrustManagers(), null);
        return ctx;
    }

    public String protocol() {
        return socket.getSession().getProtocol();
    }

    public String cipherSuite() {
        return socket.getSession().getCipherSuite();
    }

    public RawTlsClient send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.UTF_8));
    }

    public RawTlsClient send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** Request head for a POST with the given Content-Length (the body is sent separately). */
    public static String postHead(String path, long contentLength) {
        return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: "
                + contentLength + "\r\n\r\n";
    }

    /** A complete POST. */
    public static byte[] post(String path, String body) {
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        byte[] head = postHead(path, b.length).getBytes(StandardCharsets.US_ASCII);
        byte[] all = new byte[head.length + b.length];
        System.arraycopy(head, 0, all, 0, head.length);
        System.arraycopy(b, 0, all, head.length, b.length);
        return all;
    }

    public static String get(String path) {
        return "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n";
    }

    /** One response with a Content-Length body: status line, headers and body. */
    public Response readResponse() throws IOException {
        String head = readHead();
        int status = Integer.parseInt(head.substring(9, 12));
        long length = 0;
        boolean close = false;
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                String name = line.substring(0, colon).trim();
                String value = line.substring(colon + 1).trim();
                if (name.equalsIgnoreCase("content-length")) {
                    length = Long.parseLong(value);
                } else if (name.equalsIgnoreCase("connection") && value.equalsIgnoreCase("close")) {
                    close = true;
                }
            }
        }
        byte[] body = in.readNBytes((int) length);
        return new Response(status, head, new String(body, StandardCharsets.UTF_8), close);
    }

    private String readHead() throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("connection closed before a response, after " + head.size() + " bytes");
            }
            head.write(b);
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.ISO_8859_1);
    }

    /**
     * Waits until the server closes the connection (end of stream or reset), discarding anything it sends, and
     * returns how long that took; fails if it stays open for {@code limit}.
     */
    public Duration awaitClosed(Duration limit) throws IOException {
        long start = System.nanoTime();
        socket.setSoTimeout((int) limit.toMillis());
        byte[] sink = new byte[8192];
        try {
            while (in.read(sink) >= 0) {
                if (System.nanoTime() - start > limit.toNanos()) {
                    throw new AssertionError("the server kept the connection open for " + limit);
                }
            }
        } catch (SocketTimeoutException e) {
            throw new AssertionError("the server kept the connection open for " + limit);
        } catch (IOException e) {
            // A reset also ends the connection.
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** A parsed response. */
    public record Response(int status, String head, String body, boolean connectionClose) {
    }
}
