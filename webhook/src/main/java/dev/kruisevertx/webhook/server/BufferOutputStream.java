package dev.kruisevertx.webhook.server;

import io.vertx.core.buffer.Buffer;

import java.io.OutputStream;

/** Writes into a Vert.x buffer, so a response is serialized once, straight into what the server sends. */
final class BufferOutputStream extends OutputStream {
    private final Buffer buffer;

    BufferOutputStream(Buffer buffer) {
        this.buffer = buffer;
    }

    @Override
    public void write(int b) {
        buffer.appendByte((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        buffer.appendBytes(b, off, len);
    }

    Buffer buffer() {
        return buffer;
    }
}
