package dev.kruisevertx.cache;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SlotInternerTest {

    @Test
    void equalStringsAreAnsweredWithOneInstance() {
        SlotInterner interner = new SlotInterner(8);
        String first = interner.intern(new String("apps.kruise.io/cloneset-instance-id"));
        String second = interner.intern(new String("apps.kruise.io/cloneset-instance-id"));
        assertSame(first, second);
        assertEquals("apps.kruise.io/cloneset-instance-id", second);
    }

    @Test
    void memoryIsBoundedWhateverTheChurn() {
        SlotInterner interner = new SlotInterner(4);
        for (int i = 0; i < 100_000; i++) {
            assertEquals("uid-" + i, interner.intern("uid-" + i), "a value is never changed, only shared");
        }
        assertEquals(16, interner.capacity(), "unique values overwrite slots; the table never grows");
        // After the churn a repeated value takes its slot again and is shared from then on.
        String a = interner.intern(new String("nginx:1.27"));
        assertSame(a, interner.intern(new String("nginx:1.27")));
    }

    @Test
    void longNullAndEmptyStringsAreLeftAlone() {
        SlotInterner interner = new SlotInterner(8);
        String huge = "x".repeat(SlotInterner.MAX_LENGTH + 1);
        assertSame(huge, interner.intern(huge));
        assertNotSame(interner.intern(new String(huge)), interner.intern(new String(huge)));
        assertNull(interner.intern(null));
        assertEquals("", interner.intern(new String("")));
    }

    @Test
    void outOfRangeSizesAreRefusedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new SlotInterner(-1));
        assertEquals("interner size must be 2^4..2^24 slots, got 2^-1", e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new SlotInterner(31));
    }
}
