package dev.kruisevertx.queue;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The incremental resize of {@link KeyTable}: every key stays findable while buckets move between arrays. */
class KeyTableTest {

    private static final class Entry extends KeyTable.Node<Integer> {
        Entry(int key) {
            super(key);
        }
    }

    @Test
    void matchesAMapThroughGrowthAndShrinkInterleavedWithLookups() {
        KeyTable<Integer, Entry> table = new KeyTable<>();
        Map<Integer, Entry> model = new HashMap<>();
        SplittableRandom random = new SplittableRandom(7);
        // Phases of mostly-inserts then mostly-removes drive the table through several grows and shrinks, each
        // spread over many operations; every step is checked against a HashMap.
        for (int phase = 0; phase < 6; phase++) {
            boolean growing = phase % 2 == 0;
            for (int op = 0; op < 60_000; op++) {
                int key = random.nextInt(50_000);
                boolean insert = growing ? random.nextInt(10) < 8 : random.nextInt(10) < 2;
                Entry expected = model.get(key);
                assertSame(expected, table.get(key), "lookup of " + key);
                if (insert) {
                    Entry e = new Entry(key);
                    Entry existing = table.putIfAbsent(e);
                    assertSame(expected, existing, "putIfAbsent of " + key);
                    if (expected == null) {
                        model.put(key, e);
                    }
                } else if (expected != null) {
                    table.remove(expected);
                    model.remove(key);
                }
                assertEquals(model.size(), table.size());
            }
            for (Map.Entry<Integer, Entry> e : model.entrySet()) {
                assertSame(e.getValue(), table.get(e.getKey()));
            }
        }
        for (Entry e : model.values().toArray(new Entry[0])) {
            table.remove(e);
        }
        assertEquals(0, table.size());
        assertNull(table.get(1));
    }

    @Test
    void insertOfKnownAbsentKeysAndClear() {
        KeyTable<Integer, Entry> table = new KeyTable<>();
        for (int i = 0; i < 100_000; i++) {
            table.insert(new Entry(i));
        }
        for (int i = 0; i < 100_000; i++) {
            assertEquals(i, table.get(i).key);
        }
        table.clear();
        assertEquals(0, table.size());
        assertNull(table.get(5));
        table.insert(new Entry(5));
        assertEquals(5, table.get(5).key);
    }
}
