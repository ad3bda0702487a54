package dev.kruisevertx.webhook.server;

import io.vertx.core.buffer.Buffer;

import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Collects what is written in fixed-size Vert.x buffers: a response is serialized once, never copied to grow, and the
 * pieces are what the server writes to the connection one at a time.
 */
final class BufferOutputStream extends OutputStream {
    /** Encrypting a piece takes about a millisecond: the event loop is held no longer than that per piece. */
    static final int CHUNK_BYTES = 128 << 10;

    private final List<Buffer> chunks = new ArrayList<>();
    private byte[] current = new byte[512];
    private int used;
    private long length;

    @Override
    public void write(int b) {
        if (used == current.length) {
            grow();
        }
        current[used++] = (byte) b;
        length++;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        while (len > 0) {
            if (used == current.length) {
                grow();
            }
            int n = Math.min(len, current.length - used);
            System.arraycopy(b, off, current, used, n);
            used += n;
            off += n;
            len -= n;
            length += n;
        }
    }

    /** Small answers stay in one small array; past it, full chunks are sealed and a new one started. */
    private void grow() {
        if (current.length < CHUNK_BYTES) {
            byte[] bigger = new byte[Math.min(CHUNK_BYTES, current.length * 4)];
            System.arraycopy(current, 0, bigger, 0, used);
            current = bigger;
            return;
        }
        chunks.add(Buffer.buffer(current));
        current = new byte[CHUNK_BYTES];
        used = 0;
    }

    /** The pieces written, in order; the stream must not be written to afterwards. */
    List<Buffer> chunks() {
        List<Buffer> all = new ArrayList<>(chunks);
        if (used > 0 || all.isEmpty()) {
            byte[] last = new byte[used];
            System.arraycopy(current, 0, last, 0, used);
            all.add(Buffer.buffer(last));
        }
        return all;
    }

    long length() {
        return length;
    }
}
