package dev.kruisevertx.webhook.server;

import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BufferOutputStreamTest {

    @Test
    void piecesConcatenateToWhatWasWritten() {
        Random random = new Random(7);
        for (int size : new int[]{0, 1, 511, 512, 2048, BufferOutputStream.CHUNK_BYTES - 1, BufferOutputStream.CHUNK_BYTES,
                3 * BufferOutputStream.CHUNK_BYTES + 17}) {
            byte[] data = new byte[size];
            random.nextBytes(data);
            BufferOutputStream out = new BufferOutputStream();
            int at = 0;
            while (at < size) {
                if (random.nextInt(5) == 0) {
                    out.write(data[at++]);
                } else {
                    int n = Math.min(size - at, random.nextInt(100_000));
                    out.write(data, at, n);
                    at += n;
                }
            }
            List<Buffer> chunks = out.chunks();
            Buffer all = Buffer.buffer();
            chunks.forEach(all::appendBuffer);
            assertArrayEquals(data, all.getBytes(), "size " + size);
            assertEquals(size, out.length());
            assertTrue(chunks.stream().allMatch(c -> c.length() <= BufferOutputStream.CHUNK_BYTES));
            assertEquals(Math.max(1, (size + BufferOutputStream.CHUNK_BYTES - 1) / BufferOutputStream.CHUNK_BYTES),
                    chunks.size(), "full pieces, one partial at most; size " + size);
        }
    }
}
