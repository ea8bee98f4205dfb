package org.fabricscope.model.fabric;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import org.junit.jupiter.api.Test;

/** The builder's GUID index answers as a {@code HashMap<Long, V>} does, for any keys and any order. */
class LongIndexTest {
    @Test
    void answersAsAHashMapOnRandomOperations() {
        Random r = new Random(12);
        for (int round = 0; round < 200; round++) {
            LongIndex<String> index = new LongIndex<>();
            Map<Long, String> reference = new HashMap<>();
            // keys as GUIDs are: one vendor's prefix and a few low bits, plus 0, -1 and anything at all
            long prefix = r.nextLong() & 0xffffffffff000000L;
            int ops = 1 + r.nextInt(3000);
            for (int i = 0; i < ops; i++) {
                long key = switch (r.nextInt(5)) {
                    case 0 -> 0L;
                    case 1 -> -1L;
                    case 2 -> r.nextLong();
                    default -> prefix | r.nextInt(1 + round * 50);
                };
                String value = "v" + i;
                switch (r.nextInt(3)) {
                    case 0 -> {
                        index.put(key, value);
                        reference.put(key, value);
                    }
                    case 1 -> assertEquals(reference.putIfAbsent(key, value), index.putIfAbsent(key, value));
                    default -> assertEquals(reference.get(key), index.get(key));
                }
                assertEquals(reference.size(), index.size());
            }
            for (Map.Entry<Long, String> e : reference.entrySet()) {
                assertEquals(e.getValue(), index.get(e.getKey()));
            }
        }
    }

    @Test
    void anAbsentKeyIsNullAndANullValueIsRefused() {
        LongIndex<String> index = new LongIndex<>();
        assertNull(index.get(0));
        index.put(0, "zero");
        assertEquals("zero", index.get(0));
        assertNull(index.get(1));
        assertThrows(NullPointerException.class, () -> index.put(2, null));
        assertThrows(NullPointerException.class, () -> index.putIfAbsent(2, null));
        assertEquals(1, index.size());
    }
}
